"""Старшина texts: the group never sees a card of a hand, the kitty, the discards or the exchange;
a hand message shows the whole hand and what to do; results show tricks against targets, the
deal's money and the game's winner."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.starshina.render import (
    WORDS,
    hand_by_suit,
    hand_text,
    last_deal_transfers,
    result_text,
    table_text,
)
from bot.render.common import Deadline, ranks_shown, tricks_count
from game.cards import FULL_DECK, label
from game.starshina import StarshinaOptions, public_view, seat_view
from game.starshina.state import Phase
from game.starshina.views import PublicView
from tests.bot.states import NAMES, starshina_game, starshina_options

NAMES3 = NAMES[:3]

#: a turn deadline (Unix seconds): 2026-05-28 20:26:40 UTC
DEADLINE = 1_780_000_000


def _public_cards(view: PublicView) -> set[str]:
    return {card for _, card in view.trick} | {card for _, card in view.last_trick}


def _shown(text: str, cards: set[str]) -> set[str]:
    return {card for card in cards if label(card) in text}


@settings(max_examples=20, deadline=None)
@given(starshina_options, st.integers(0, 2**32))
def test_group_texts_show_no_hidden_card(options: StarshinaOptions, seed: int) -> None:
    states = starshina_game(options, seed, max_steps=300)
    for index, state in enumerate(states):
        view = public_view(state)
        hidden = set(FULL_DECK) - _public_cards(view)
        for lang in ("ru", "en"):
            text = table_text(lang, view, NAMES3, deadline=Deadline(DEADLINE + 3, 3), away={1})
            assert not _shown(text, hidden)
            if view.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
                result = result_text(lang, view, NAMES3, {0: 1, 1: 0, 2: -1})
                assert not _shown(result, hidden)
        if index and view.phase in (Phase.DEAL_OVER, Phase.GAME_OVER):
            before = len(states[index - 1].transfers)
            assert last_deal_transfers(view) == list(state.transfers[before:])


@settings(max_examples=10, deadline=None)
@given(starshina_options, st.integers(0, 2**32))
def test_a_waiting_hand_shows_the_whole_table(options: StarshinaOptions, seed: int) -> None:
    """The private chat is the whole table: a seat that waits during the play reads
    every player's tricks against his target, the cards on the table and whose turn it is."""
    states = starshina_game(options, seed, max_steps=200)
    compared = 0
    for state in states:
        if state.phase is not Phase.PLAY or state.to_act is None:
            continue
        for seat in range(3):
            if seat == state.to_act:
                continue
            text = hand_text("ru", seat_view(state, seat), NAMES3)
            assert f"Ход: <b>{NAMES3[state.to_act]}</b>" in text
            for summary in seat_view(state, seat).table.seats:
                tricks = WORDS.tn("ru", "n.tricks", summary.tricks)
                assert (
                    WORDS.t("ru", "starshina.tricks_of", tricks=tricks, target=summary.target)
                    in text
                )
            for _, card in state.trick:
                assert label(card) in text
            compared += 1
    assert compared or not any(state.phase is Phase.PLAY for state in states)


@settings(max_examples=15, deadline=None)
@given(starshina_options, st.integers(0, 2**32))
def test_hand_texts(options: StarshinaOptions, seed: int) -> None:
    states = starshina_game(options, seed, max_steps=200)
    for state in states[:: max(1, len(states) // 30)]:
        for seat in range(3):
            view = seat_view(state, seat)
            text = hand_text("ru", view, NAMES3, deadline=Deadline(DEADLINE + 4, 4))
            lines = hand_by_suit(view.hand, view.table.trump)
            for line in lines:
                assert line in text
            assert sum(len(line.split()) - 1 for line in lines) == len(view.hand)
            if view.legal:
                assert "👉" in text
            exchanged = {item.card for item in view.exchanged} | {
                item.returned for item in view.exchanged if item.returned
            }
            allowed = (
                _public_cards(view.table) | exchanged | set(view.discards) | set(view.from_kitty)
            )
            assert not _shown(text, set(FULL_DECK) - allowed - set(view.hand))


def test_hand_by_suit_puts_trumps_first() -> None:
    assert hand_by_suit(["2S", "TH", "AH", "3C"], "C") == ["♣️ 3", "♠️ 2", "♥️ A 10"]
    assert hand_by_suit(["2S", "TH", "AH", "QD"], None) == ["♠️ 2", "♥️ A 10", "♦️ Q"]
    with ranks_shown("ru", None):  # Russian letters, colours alternating
        assert hand_by_suit(["2S", "TH", "AH", "QD", "KC"], None) == [
            "♠️ 2",
            "♥️ Т 10",
            "♣️ К",
            "♦️ Д",
        ]
    with ranks_shown("en", "russian"):  # English keeps J Q K A
        assert hand_by_suit(["AH"], None) == ["♥️ A"]


def _first(options: StarshinaOptions, seed: int, phase: Phase) -> int:
    states = starshina_game(options, seed, max_steps=2000)
    for index, state in enumerate(states):
        if state.phase is phase:
            return index
    raise AssertionError(f"no {phase}")


def test_table_and_prompts_through_a_game() -> None:
    options = StarshinaOptions(trumps="dealer_names", exchange="ring", max_deals=2)
    states = starshina_game(options, 7, max_steps=2000)
    phases = set()
    for state in states:
        view = public_view(state)
        phases.add(state.phase)
        text = table_text("ru", view, NAMES3, kind="starshina")
        assert "Старшина" in text and f"сдача {state.deal_no + 1}" in text
        for seat in view.seats:
            assert f"{tricks_count('ru', seat.tricks)}, нужно {seat.target}" in text
        if state.phase is Phase.EXCHANGE_GIVE:
            assert "Обмен картами: кто кому отдаёт — ниже." in text and " → " in text
            giver = state.to_act
            assert giver is not None
            assert "Отдайте карту игроку" in hand_text("ru", seat_view(state, giver), NAMES3)
        if state.phase is Phase.RING_RETURN:
            receiver = state.to_act
            assert receiver is not None
            assert "Верните карту игроку" in hand_text("ru", seat_view(state, receiver), NAMES3)
        if state.phase is Phase.NAME_TRUMP:
            assert "называет козырь" in text
            assert "Назовите козырь." in hand_text("ru", seat_view(state, state.dealer), NAMES3)
        if state.phase is Phase.KITTY:
            assert "прикуп" in text
            assert "Отметьте 4 карты" in hand_text("ru", seat_view(state, state.dealer), NAMES3)
    assert phases >= {
        Phase.EXCHANGE_GIVE,
        Phase.RING_RETURN,
        Phase.NAME_TRUMP,
        Phase.KITTY,
        Phase.PLAY,
        Phase.GAME_OVER,
    }
    final = public_view(states[-1])
    assert final.winner is not None
    text = result_text("ru", final, NAMES3, {0: 2, 1: -1, 2: -1})
    assert f"Лучший итог по сумме: <b>{NAMES3[final.winner]}</b>" in text or (
        f"<b>{NAMES3[final.winner]}</b>: 12 взяток и больше — партия выиграна!" in text
    )
    assert "Итог партии" in text and "Балансы" in text
    english = result_text("en", final, NAMES3, {})
    assert "The best total" in english or "won the game" in english
    assert "Game result" in english


def test_pot_scoring_result_says_shortfalls_in_words_and_the_chips_once() -> None:
    """A game's end: each player's tricks against his target in words («не хватило 5»,
    «3 сверх нормы»), no signed trick difference beside the chips; each player's chips once,
    their parts adding up to them, under one name for the pot («банк партии»)."""
    options = StarshinaOptions(scoring="pot", stake=2, max_deals=1)
    states = starshina_game(options, 3, max_steps=2000)
    final = public_view(states[-1])
    assert final.phase is Phase.GAME_OVER and final.winner is not None
    diffs = final.history[-1].diffs
    for lang in ("ru", "en"):
        text = result_text(lang, final, NAMES3, {})
        head, money = text.split(WORDS.t(lang, "starshina.game_money"))
        for seat, diff in enumerate(diffs):
            words = (
                WORDS.t(lang, "starshina.short", n=-diff)
                if diff < 0
                else (
                    WORDS.t(lang, "starshina.over", n=diff)
                    if diff
                    else WORDS.t(lang, "starshina.on_target")
                )
            )
            assert f"<b>{NAMES3[seat]}</b>: " in head and words in head, (words, head)
        assert not re.search(r"\([+−]\d+\)", head), head  # no signed difference of tricks
        assert "банк игры" not in text
        for seat in range(3):
            line = next(x for x in money.splitlines() if x.startswith(f"{NAMES3[seat]}: "))
            found = re.fullmatch(r".*?: <b>([+−]?\d+)</b>(?: \((.*)\))?", line)
            assert found is not None, line
            net, parts = found.groups()
            amounts = re.findall(r"[+−]\d+", parts or net)
            assert sum(int(a.replace("−", "-")) for a in amounts) == int(net.replace("−", "-"))
    russian = result_text("ru", final, NAMES3, {})
    assert "банк партии +6" in russian
    missed = [seat for seat in range(3) if seat != final.winner and diffs[seat] < 0]
    assert russian.count("штраф за недобор −2") == len(missed)
    if missed:
        assert f"штрафы с недобравших +{2 * len(missed)}" in russian
    table = table_text("ru", public_view(states[1]), NAMES3)
    assert "Банк партии: <b>6</b>" in table


def test_the_games_standing_shows_at_a_deals_end_only() -> None:
    """«за партию: …» is the sum over the finished deals: mid-deal, beside this deal's tricks,
    «за партию: ровно по норме» reads as this deal's, so it is shown once the deal has ended
    (the table and the hands alike), never while it is played."""
    options = StarshinaOptions(max_deals=3)
    states = starshina_game(options, 11, max_steps=4000)
    midway = [s for s in states if s.history and s.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER)]
    ended = [s for s in states if s.history and s.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)]
    assert midway and ended
    for lang in ("ru", "en"):
        standing = WORDS.t(lang, "starshina.game_diff", diff="").strip()
        for state in midway:
            view = public_view(state)
            assert standing not in table_text(lang, view, NAMES3), state.phase
            for seat in range(3):
                assert standing not in hand_text(lang, seat_view(state, seat), NAMES3)
        for state in ended:
            assert table_text(lang, public_view(state), NAMES3).count(standing) == 3
