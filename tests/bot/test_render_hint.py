"""The hint (💡) in one line, as a player reads it, in Russian and English."""

from __future__ import annotations

from bot.render.common import ranks_shown
from bot.render.hint import MAX_HINT, hint_text
from game.ai import Advice
from game.core import Action

KNOCK, PASS = Action(0, "knock"), Action(0, "pass")


def test_the_choice_and_why_in_chips() -> None:
    advice = Advice(KNOCK, (KNOCK, PASS), (1.24, -0.31), 400)
    assert hint_text("ru", advice) == (
        "💡 Стучать: в среднем +1,2 фишки; пас: −0,3 (по 400 разыгрываниям)"
    )
    assert hint_text("en", advice) == (
        "💡 Knock: +1.2 chips on average; pass: −0.3 (over 400 playouts)"
    )


def test_plural_of_the_playouts_and_a_mean_that_rounds_to_nothing() -> None:
    advice = Advice(PASS, (KNOCK, PASS), (-0.04, 0.0), 21)
    assert hint_text("ru", advice) == ("💡 Пас: в среднем 0 фишек; стучать: 0 (по 21 разыгрыванию)")
    assert hint_text("en", Advice(PASS, (KNOCK, PASS), (-1.0, 0.5), 1)).endswith("(over 1 playout)")


def test_a_better_looking_move_within_chance_is_said_to_be_so() -> None:
    advice = Advice(PASS, (KNOCK, PASS), (0.2, -0.1), 40)
    text = hint_text("ru", advice)
    assert text.startswith("💡 Пас: в среднем −0,1 фишки; стучать: +0,2 — разница в пределах")
    assert len(text) <= MAX_HINT


def test_cards_of_his_own_hand_a_purchase_and_tricks_in_starshina() -> None:
    discard = Action(1, "discard", ("QS", "7D"))
    keep = Action(1, "discard", ())
    with ranks_shown("ru", None):
        text = hint_text("ru", Advice(discard, (keep, discard), (-0.5, 0.75), 120))
    assert text == (
        "💡 Сменить Д♠️ 7♦️: в среднем +0,8 фишки; оставить все карты: −0,5 (по 120 разыгрываниям)"
    )
    queen, seven = Action(2, "play", "QH"), Action(2, "play", "7H")
    with ranks_shown("en", None):
        text = hint_text("en", Advice(queen, (seven, queen), (-0.2, 0.6), 60, unit="tricks"))
    assert text == ("💡 Q♥️: +0.6 tricks against the target on average; 7♥️: −0.2 (over 60 playouts)")


def test_one_move_or_the_rules_of_thumb() -> None:
    card = Action(0, "play", "AS")
    with ranks_shown("ru", None):
        assert hint_text("ru", Advice(card, (card,))) == "💡 Ход здесь один: Т♠️."
        give = Action(0, "give", "9C")
        assert hint_text("ru", Advice(give, unit="tricks")) == (
            "💡 Отдать 9♣️ — так сыграл бы компьютер: здесь он следует простым правилам, "
            "без разыгрываний."
        )
    assert hint_text("en", Advice(Action(0, "trump", "H"))).startswith("💡 Trumps ♥️ — what")
