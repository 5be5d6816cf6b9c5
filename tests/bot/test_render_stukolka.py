"""Стуколка texts: the key facts appear, user names are escaped, and no card the group may not
see ever reaches the group (the table and result texts are checked over random engine states
against every card that is not in the public view)."""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.stukolka.render import WORDS, hand_text, result_text, table_text
from bot.render.common import Deadline
from game.cards import FULL_DECK, label
from game.core import Action
from game.stukolka import StukolkaOptions, apply, new_deal, public_view, seat_view
from game.stukolka.state import Outcome, Phase, StukolkaState
from game.stukolka.views import PublicView
from tests.bot.states import NAMES, stukolka_deal, stukolka_options
from tests.game.decks import stacked

LANGS = ("ru", "en")
TAG = re.compile(r"<[^>]*>")

#: a turn deadline (Unix seconds): 2026-05-28 20:26:40 UTC
DEADLINE = 1_780_000_000


def _public_cards(view: PublicView) -> set[str]:
    cards = {card for _, card in view.trick} | {card for _, card in view.last_trick}
    if view.trump_card is not None:
        cards.add(view.trump_card)
    return cards


def _shown(text: str, cards: set[str]) -> set[str]:
    return {card for card in cards if label(card) in text}


def _kind(state: StukolkaState) -> str:
    return "shleif" if state.options.shleif else "stukolka"


def _balanced_html(text: str) -> None:
    for tag in ("b", "a", "i"):
        assert text.count(f"<{tag}>") + text.count(f"<{tag} ") == text.count(f"</{tag}>"), text


@settings(max_examples=60, deadline=None)
@given(stukolka_options, st.integers(2, 6), st.integers(0, 2**32))
def test_group_texts_show_no_hidden_card(options: StukolkaOptions, players: int, seed: int) -> None:
    for state in stukolka_deal(options, players, seed):
        view = public_view(state)
        hidden = set(FULL_DECK) - _public_cards(view)
        for lang in LANGS:
            text = table_text(
                lang, view, NAMES, kind=_kind(state), deadline=Deadline(DEADLINE + 17, 17), away={0}
            )
            assert not _shown(text, hidden), (state.phase, _shown(text, hidden))
            _balanced_html(text)
            if view.phase is Phase.DEAL_OVER:
                result = result_text(lang, view, NAMES, {0: 3, 1: -3}, kind=_kind(state))
                assert not _shown(result, hidden)
                _balanced_html(result)


@settings(max_examples=60, deadline=None)
@given(stukolka_options, st.integers(2, 6), st.integers(0, 2**32))
def test_hand_texts_show_only_what_the_seat_may_see(
    options: StukolkaOptions, players: int, seed: int
) -> None:
    for state in stukolka_deal(options, players, seed):
        for seat in range(players):
            view = seat_view(state, seat)
            allowed = _public_cards(view.table) | set(view.discards)
            if view.hand is not None:
                allowed |= set(view.hand)
            if view.shleif_card is not None:
                allowed.add(view.shleif_card)
            text = hand_text(
                "ru", view, NAMES, kind=_kind(state), deadline=Deadline(DEADLINE + 5, 5)
            )
            assert not _shown(text, set(FULL_DECK) - allowed)
            _balanced_html(text)
            if view.hand is not None:
                assert _shown(text, set(view.hand)) == set(view.hand)
            elif view.hand_count and view.table.phase is not Phase.DEAL_OVER:
                assert "рубашкой вверх" in text
            if view.shleif_card is not None:
                assert "Шлейф: <b>" + label(view.shleif_card) in text


def _classic_ace_lead() -> StukolkaState:
    """The worked example of docs/conformance.md: seat 1 A♥ K♥ 7♦, seat 2 2♠ 5♠ 9♠, the
    dealer 3♣ 4♣ 6♣, Q♥ face up on the stock."""
    deck = stacked(
        3,
        {1: ["AH", "KH", "7D"], 2: ["2S", "5S", "9S"], 0: ["3C", "4C", "6C"]},
        "QH",
        ["8D", "TD"],
    )
    state, _ = new_deal(StukolkaOptions(), 3, deck)
    return state


def test_table_text_key_facts() -> None:
    state = _classic_ace_lead()
    names = ["Дилер", "<Ника & Ко>", "Вова"]
    view = public_view(state)
    text = table_text(
        "ru", view, names, kind="stukolka", deadline=Deadline(DEADLINE + 25, 25), away={2}
    )
    assert "Стуколка" in text and "сдача 1" in text
    assert "Сдаёт: <b>Дилер</b>" in text
    assert "Q♥️" in text and "открыт на колоде" in text
    assert "Кон: <b>3</b>" in text
    assert "&lt;Ника &amp; Ко&gt;" in text and "<Ника" not in text
    assert "Ход: <b>&lt;Ника &amp; Ко&gt;</b>" in text
    # the time left, which each reader's app keeps current (the seconds as written where it
    # cannot), then the end as a time each reader's app shows in his own zone (UTC where it
    # cannot)
    assert (
        '⏳ <tg-time unix="1780000025" format="r">25 с</tg-time>, до '
        '<tg-time unix="1780000025" format="t">20:27 UTC</tg-time>'
    ) in text
    assert "💤" in text
    assert "ждёт очереди" in text
    for seat_cards in (["AH", "KH", "7D"], ["2S", "5S", "9S"], ["3C", "4C", "6C"]):
        assert not _shown(text, set(seat_cards))

    apply(state, Action(1, "knock"))
    apply(state, Action(2, "knock"))
    apply(state, Action(0, "pass"))
    apply(state, Action(1, "discard", ("7D",)))
    text = table_text("ru", public_view(state), names, kind="stukolka")
    assert "стучит" in text and "пас" in text and "покупка: 1 карта" in text
    assert "Покупка" in text
    apply(state, Action(2, "discard", ("2S", "5S")))
    apply(state, Action(1, "play", "AH"))
    text = table_text("en", public_view(state), names, kind="stukolka")
    assert "On the table (trick 1): &lt;Ника &amp; Ко&gt; A♥️" in text
    assert "bought 2 cards" in text and "knocked" in text and "passed" in text
    assert "Turn: <b>Вова</b>" in text


def test_hand_text_and_result_of_the_worked_example() -> None:
    state = _classic_ace_lead()
    names = ["Дилер", "Ника", "Вова"]
    text = hand_text(
        "ru", seat_view(state, 1), names, kind="stukolka", deadline=Deadline(DEADLINE + 9, 9)
    )
    # dark is impossible in this classic deal: the hand is simply shown at once
    assert "Стучите или пас?" in text and 'unix="1780000009"' in text
    assert "рубашкой" not in text
    text = hand_text("ru", seat_view(state, 1), names, kind="stukolka")
    assert "Ваши карты: <b>A♥️ K♥️ 7♦️</b>" in text
    assert "Ход" not in text.split("\n")[0]
    text = hand_text("ru", seat_view(state, 2), names, kind="stukolka")
    # the private chat is the whole table: whose turn it is, each seat, the ремиз at stake
    assert "Ход: <b>Ника</b>" in text and "A♥" not in text
    assert "за взятку 1 · ремиз 3" in text and "<b>Вова</b> (вы)" in text
    for action in [
        Action(1, "knock"),
        Action(2, "knock"),
        Action(0, "pass"),
        Action(1, "discard", ("7D",)),
        Action(2, "discard", ("2S", "5S")),
    ]:
        apply(state, action)
    text = hand_text("en", seat_view(state, 1), names, kind="stukolka")
    assert "Your turn: choose a card." in text and "Discarded: 7♦️" in text
    assert "The trump ace must be led." in text  # the forced card explained
    assert "knocks · bought 1 card" in text or "bought 1 card" in text
    while state.phase is not Phase.DEAL_OVER:
        seat = state.to_act
        assert seat is not None
        from game.stukolka import legal_actions

        apply(state, Action(seat, "play", legal_actions(state)[0].arg))
        if state.phase.value == "deal_over":
            break
        view = public_view(state)
        to_act = state.to_act
        assert to_act is not None
        # a waiting player sees the cards on the table and the last trick, and whose turn
        for reader in range(3):
            if reader == to_act:
                continue
            waiting = hand_text("ru", seat_view(state, reader), names, kind="stukolka")
            assert f"Ход: <b>{names[to_act]}</b>" in waiting
            for _, card in (*view.trick, *view.last_trick):
                assert label(card) in waiting
    final = public_view(state)
    assert final.outcome is Outcome.PLAYED
    money: dict[int, dict[str, int]] = {}
    for transfer in final.transfers:
        for party, sign in ((transfer.src, -1), (transfer.dst, 1)):
            if isinstance(party, int):
                parts = money.setdefault(party, {})
                parts[transfer.reason] = parts.get(transfer.reason, 0) + sign * transfer.amount
    text = result_text("ru", final, names, {1: 3, 2: -3, 0: -3}, kind="stukolka", money=money)
    assert "<b>Ника</b>: 3 взятки · <b>+3</b>" in text
    assert "<b>Вова</b>: 0 взяток · <b>−3</b> (ремиз −3)" in text
    assert "<b>Дилер</b> (сдаёт): пас · <b>−3</b> (ставка −3)" in text  # the dealer's ante
    assert "Взятка 3 — Ника:" in text  # the final trick and who took it
    assert "В кону остаётся 3" in text
    assert text.index("Ника: +3") < text.index("Вова: −3")
    text = result_text("en", final, names, {1: 3}, kind="stukolka", money=money)
    assert "(remiz −3)" in text and "3 tricks" in text and "Balances" in text


def test_lone_player_and_nobody() -> None:
    deck = stacked(3, {}, "QH")
    names = ["A", "B", "C"]
    state, _ = new_deal(StukolkaOptions(), 3, deck, pot=9)
    for action in [Action(1, "knock"), Action(2, "pass"), Action(0, "pass")]:
        apply(state, action)
    text = result_text("ru", public_view(state), names, {}, kind="stukolka")
    assert "Единственный игрок — <b>B</b> — забирает кон без игры: +12." in text
    assert "Кон разыгран до конца." in text
    state, _ = new_deal(StukolkaOptions(), 3, deck, pot=9)
    for action in [Action(1, "pass"), Action(2, "pass"), Action(0, "pass")]:
        apply(state, action)
    text = result_text("en", public_view(state), names, {}, kind="stukolka")
    assert "Nobody played — the pot of 12 stays on the table." in text
    assert "12 stays in the pot for the next deal." in text


def test_dealer_defends() -> None:
    deck = stacked(3, {1: ["AH", "KH", "QH"]}, "2H")
    names = ["Dealer", "B", "C"]
    state, _ = new_deal(StukolkaOptions(lone_player="dealer_defends"), 3, deck)
    for action in [Action(1, "knock"), Action(2, "pass"), Action(0, "pass")]:
        apply(state, action)
    text = table_text("ru", public_view(state), names, kind="stukolka")
    assert "защищает кон" in text


def test_shleif_deal_texts() -> None:
    deck = stacked(3, {0: ["AS", "KS", "QS"]}, "TH")
    names = ["Сдающий", "Лев", "Прав"]
    state, _ = new_deal(StukolkaOptions(variant="shleif"), 3, deck, pot=6, deal_no=4)
    view = public_view(state)
    text = table_text("ru", view, names, kind="shleif")
    assert "Стуколка со шлейфом" in text and "сдача 5" in text
    assert "Сдающий выбирает: шлейф или открыть козырь." in text
    hand = hand_text("ru", seat_view(state, 0), names, kind="shleif")
    assert "В кону 9" in hand
    apply(state, Action(0, "shleif"))
    text = table_text("ru", public_view(state), names, kind="shleif")
    assert "Козырь: ♥️ — шлейф у сдающего" in text and "10♥" not in text
    assert "играет со шлейфом" in text
    hand = hand_text("ru", seat_view(state, 0), names, kind="shleif")
    assert "Шлейф: <b>10♥️</b>" in hand
    assert "10♥" not in hand_text("ru", seat_view(state, 1), names, kind="shleif")
    for action in [Action(1, "pass"), Action(2, "pass")]:
        apply(state, action)
    hand = hand_text("ru", seat_view(state, 0), names, kind="shleif")
    assert "шлейф" in hand.lower() and "из четырёх" in hand
    apply(state, Action(0, "discard", ()))
    apply(state, Action(0, "drop", "TH"))
    while state.phase is not Phase.DEAL_OVER:
        seat = state.to_act
        assert seat is not None
        apply(state, Action(seat, "no_razrez"))
    view = public_view(state)
    assert view.outcome is Outcome.LONE
    text = result_text("ru", view, names, {0: 9}, kind="shleif")
    assert "шлейф — 10♥️" in text
    text = table_text("en", view, names, kind="shleif")
    assert "the shleif card is 10♥️" in text


def test_dark_player_hand_text() -> None:
    deck = stacked(3, {}, "TH")
    names = ["D", "L", "R"]
    state, _ = new_deal(StukolkaOptions(variant="shleif"), 3, deck)
    apply(state, Action(0, "open"))
    text = hand_text("ru", seat_view(state, 1), names, kind="shleif")
    assert "посмотрите их или играйте втёмную" in text
    assert "втёмную, не глядя" in text
    apply(state, Action(1, "dark"))
    text = table_text("ru", public_view(state), names, kind="shleif")
    assert "втёмную" in text
    for action in [Action(2, "pass"), Action(0, "pass")]:
        apply(state, action)
    text = hand_text("ru", seat_view(state, 1), names, kind="shleif")
    assert "Вы играете втёмную" in text
    assert html.unescape(TAG.sub("", text))


def test_seconds_and_away_are_optional() -> None:
    state = _classic_ace_lead()
    text = table_text("ru", public_view(state), ["a", "b", "c"], kind="stukolka")
    assert "⏳" not in text and "💤" not in text


def test_the_seat_to_act_is_not_said_to_wait_for_its_turn() -> None:
    """«ждёт очереди» is said of the seats still to speak, never of the one to act (his 👈):
    on the group's table and in every hand, through whole deals."""
    for seed in range(6):
        for state in stukolka_deal(StukolkaOptions(), 4, seed):
            view = public_view(state)
            for lang in LANGS:
                waiting = f"{WORDS.t(lang, 'role.none')} · {WORDS.t(lang, 'seat.to_act_mark')}"
                texts = [table_text(lang, view, NAMES[:4], kind="stukolka")]
                texts += [
                    hand_text(lang, seat_view(state, s), NAMES[:4], kind="stukolka")
                    for s in range(4)
                ]
                for text in texts:
                    assert waiting not in text, text
                    for line in text.splitlines():
                        assert not (WORDS.t(lang, "role.none") in line and "👈" in line), line
    # the knock still shows who waits to speak
    state = stukolka_deal(StukolkaOptions(), 4, 1)[0]
    assert public_view(state).phase is Phase.KNOCK
    text = table_text("ru", public_view(state), NAMES[:4], kind="stukolka")
    assert text.count(WORDS.t("ru", "role.none")) == 3
