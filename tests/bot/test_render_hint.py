"""The hint (💡) in one line, as a player reads it, in Russian and English: the move by its
button, and why — a figure of the playouts, not only averages —, or that the moves are equal
within chance; never a recommendation its own figures contradict."""

from __future__ import annotations

import math
import random
import re

import pytest

from bot.render.common import ranks_shown
from bot.render.hint import MAX_HINT, Buttons, hint_text
from game import starshina, stukolka
from game.ai import Advice, Budget, Measure
from game.ai.search import HINT_CONFIDENCE
from game.core import Action
from game.starshina import ai as starshina_ai
from game.stukolka import ai as stukolka_ai
from tests.depth import deep
from tests.game.test_ai import starshina_positions, stukolka_positions, to_act
from tests.library import GAMES

KNOCK, PASS = Action(0, "knock"), Action(0, "pass")
NAMES = {
    "ru": Buttons({KNOCK: "«Стучу!»", PASS: "«Пас»"}, 3),
    "en": Buttons({KNOCK: "“Knock!”", PASS: "“Pass”"}, 3),
}


def knock_or_pass(chips: tuple[float, float], error: float, remiz: tuple[float, float]) -> Advice:
    """Knock chosen over pass: mean chips and how often a remiz, each paired difference
    from the knock with the standard error ``error``."""
    value = Measure("chips", chips, (0.0, error))
    shown = (
        value,
        Measure("taken", (1.2, 0.0), (0.0, 0.1)),
        Measure("remiz", remiz, (0.0, 0.02), -1),
    )
    return Advice(KNOCK, (KNOCK, PASS), shown, 400, value=value)


def test_a_move_surely_better_says_by_how_much_and_why() -> None:
    advice = knock_or_pass((1.24, 0.0), 0.2, (0.05, 0.0))
    assert hint_text(GAMES.words, "ru", advice, NAMES["ru"]) == (
        "💡 «Стучу!»: в среднем +1,2 фишки, «Пас»: 0; взяток за сдачу в среднем: 1,2 против 0 "
        "(по 400 разыгрываниям)"
    )
    assert hint_text(GAMES.words, "en", advice, NAMES["en"]) == (
        "💡 “Knock!”: +1.2 chips on average, “Pass”: 0; tricks a deal on average: 1.2 "
        "against 0 (over 400 playouts)"
    )


def test_moves_within_chance_are_said_to_be_equal() -> None:
    """A gap of one standard error is no advice: the two moves are equal, whichever the
    computer keeps to (its rule of thumb)."""
    advice = knock_or_pass((0.1, 0.3), 0.2, (0.3, 0.0))
    assert hint_text(GAMES.words, "ru", advice, NAMES["ru"]) == (
        "💡 «Стучу!» или «Пас» — всё равно: разница между ними в пределах случайности "
        "(по 400 разыгрываниям)"
    )
    assert hint_text(GAMES.words, "en", advice, NAMES["en"]).startswith(
        "💡 “Knock!” or “Pass” — it makes no difference: the gap between them is within chance"
    )
    # just past the threshold, it is advice again
    gap = 0.2 * HINT_CONFIDENCE + 0.01
    assert "в среднем" in hint_text(
        GAMES.words, "ru", knock_or_pass((gap, 0.0), 0.2, (0.3, 0.0)), NAMES["ru"]
    )


def test_the_game_won_can_be_the_reason_when_the_tricks_are_not() -> None:
    """Старшина weighs the game won: a card that takes fewer tricks over the target but wins
    the game more often is advised for that reason, and its worse mean is not shown as if it
    were better («7♠️: −1,2 взятки к норме; 7♦️: −1,1»)."""
    seven_s, seven_d = Action(1, "play", "7S"), Action(1, "play", "7D")
    value = Measure("value", (1.5, 0.3), (0.0, 0.3))
    shown = (
        Measure("tricks", (-1.2, -1.1), (0.0, 0.05)),
        Measure("game", (0.31, 0.17), (0.0, 0.03)),
        Measure("game_lost", (0.1, 0.1), (0.0, 0.0), -1),
        Measure("this_trick", (0.0, 0.0), (0.0, 0.0)),
    )
    advice = Advice(seven_s, (seven_s, seven_d), shown, 400, "tricks", value)
    buttons = Buttons({seven_s: "7♠️", seven_d: "7♦️"}, 2)
    assert hint_text(GAMES.words, "ru", advice, buttons) == (
        "💡 7♠️, а не 7♦️: партия (12 взяток) ваша в 31% разыгрываний против 17% "
        "(по 400 разыгрываниям)"
    )
    assert hint_text(GAMES.words, "en", advice, buttons) == (
        "💡 7♠️ rather than 7♦️: the game (12 tricks) is yours in 31% of playouts against 17% "
        "(over 400 playouts)"
    )


def test_plural_of_the_playouts_and_a_mean_that_rounds_to_nothing() -> None:
    value = Measure("chips", (0.04, -1.0), (0.0, 0.01))
    advice = Advice(KNOCK, (KNOCK, PASS), (value,), 21, value=value)
    assert hint_text(GAMES.words, "ru", advice, NAMES["ru"]) == (
        "💡 «Стучу!»: в среднем 0 фишек, «Пас»: −1,0 (по 21 разыгрыванию)"
    )
    # one world tells nothing of chance (its error is infinite): no advice from it
    alone = Measure("chips", (0.04, -1.0), (0.0, math.inf))
    advice = Advice(KNOCK, (KNOCK, PASS), (alone,), 1, value=alone)
    assert hint_text(GAMES.words, "en", advice, NAMES["en"]) == (
        "💡 “Knock!” or “Pass” — it makes no difference: the gap between them is within chance "
        "(over 1 playout)"
    )


def test_one_move_a_look_first_or_the_rule_of_thumb() -> None:
    card, look = Action(0, "play", "AS"), Action(0, "look")
    assert hint_text(GAMES.words, "ru", Advice(card, (card,)), Buttons({card: "Т♠️"}, 1)) == (
        "💡 Ход здесь один: Т♠️."
    )
    assert hint_text(
        GAMES.words, "ru", Advice(look, (look,)), Buttons({look: "«👀 Посмотреть карты»"}, 4)
    ) == (
        "💡 Сначала «👀 Посмотреть карты»: увидев свои карты, вы сможете сделать всё то же, "
        "что и вслепую, — или лучше."
    )
    give = Action(0, "give", "9C")
    assert hint_text(
        GAMES.words, "ru", Advice(give, unit="tricks", rule="cheapest"), Buttons({give: "9♣️"}, 9)
    ) == (
        "💡 9♣️ — так сыграл бы компьютер: он отдаёт младшую карту самой короткой масти, "
        "а длинные масти и старшие карты бережёт для взяток."
    )
    trump = Action(0, "trump", "H")
    assert hint_text(GAMES.words, "en", Advice(trump), Buttons({trump: "♥️"}, 4)).startswith(
        "💡 ♥️ — what"
    )


FIGURE = r"[+−]?\d+(?:[,.]\d)?%?"


def figures_agree(text: str) -> bool:
    """Whether every comparison a Russian hint shows favours the move it recommends: «в
    среднем A …, B: C» with A ≥ C, and «A против B» with A ≥ B (A ≤ B for a remiz or a game
    an opponent takes)."""

    def number(shown: str) -> float:
        return float(shown.replace("−", "-").replace(",", ".").rstrip("%"))

    for mean, other in re.findall(rf"в среднем ({FIGURE}) [^,;]*, [^:]+: ({FIGURE})", text):
        if number(mean) < number(other):
            return False
    for words, mean, other in re.findall(rf"(\D*?)({FIGURE}) (?:\D*?)против ({FIGURE})", text):
        worse = "ремиз" in words or "соперник" in words
        if (number(mean) > number(other)) if worse else (number(mean) < number(other)):
            return False
    return True


def test_the_figure_check_reads_a_contradiction() -> None:
    assert not figures_agree(
        "💡 7♠️: в среднем −1,2 взятки к норме, 7♦️: −1,1 (по 400 разыгрываниям)"
    )
    assert not figures_agree(
        "💡 К♠️, а не 7♠️: ремиз в 30% разыгрываний против 5% (по 9 разыгрываниям)"
    )
    assert figures_agree(
        "💡 К♠️: в среднем +1,2 фишки, 7♠️: −0,3; ремиз в 5% разыгрываний против 30%"
    )


@pytest.mark.parametrize("game", ["stukolka", "starshina"])
def test_a_recommendation_is_sure_and_its_figures_agree(game: str) -> None:
    """Real hints over many positions: a move is recommended only when it beats the next
    best by more than the threshold in what the search weighs, and every figure the hint
    shows favours it; otherwise the hint says the moves are equal."""
    budget = Budget(samples=60, min_samples=60)
    advised = equal = 0
    advices: list[Advice] = []
    if game == "stukolka":
        for number, state in enumerate(stukolka_positions(deep(90), 21)):
            view = stukolka.seat_view(state, to_act(state))
            advices.append(stukolka_ai.COMPUTER.advise(view, random.Random(number), budget))
    else:
        for number, position in enumerate(starshina_positions(deep(40), 22)):
            seen = starshina.seat_view(position, to_act(position))
            advices.append(starshina_ai.COMPUTER.advise(seen, random.Random(number), budget))
    for advice in advices:
        other = advice.runner_up()
        if other is None or advice.value is None:
            continue
        names = {action: f"«ход {index}»" for index, action in enumerate(advice.actions)}
        with ranks_shown("ru", None):
            text = hint_text(GAMES.words, "ru", advice, Buttons(names, len(names)))
        assert len(text) <= MAX_HINT
        mine, theirs = advice.actions.index(advice.choice), advice.actions.index(other)
        if "всё равно" in text:
            equal += 1
            continue
        advised += 1
        assert advice.value.edge(mine, theirs) > HINT_CONFIDENCE, text
        assert figures_agree(text), text
    assert advised >= 5 and equal >= 5, (advised, equal)
