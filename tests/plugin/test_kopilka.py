"""«Копилка» (``tests/plugin/kopilka.py``): its rules on dealt hands (a move of two cards, the
копилка filled each deal, carried over, taken by a pair and by the last deal's taker), and that
nothing outside ``tests/`` names it: the game needed no edit of the program to be played."""

from __future__ import annotations

import pytest

from game.cards import FULL_DECK
from game.core import GAME_POT, Action, IllegalAction, Legal
from game.registry import JsonObject, Step
from locales import LANGUAGES
from tests.plugin import kopilka
from tests.plugin.test_no_list_of_games import named, sources


def deck(*hands: list[str]) -> list[str]:
    dealt = [card for hand in hands for card in hand]
    return dealt + [card for card in FULL_DECK if card not in dealt]


def lay(state: kopilka.KopilkaState, *cards: str) -> Step:
    seat = state.to_act
    assert seat is not None
    return state.apply(Action(seat, "lay", cards))


def test_a_pair_takes_the_kopilka_and_a_deal_without_one_carries_it() -> None:
    options: JsonObject = {"rounds": 3, "ante": 2, "stake": 1}
    state, step = kopilka.RULES.start(
        options,
        3,
        deck(["2S", "3S", "4S"], ["5H", "7H", "9H"], ["JC", "QC", "KC"]),
        dealer=2,
        pot=0,
    )
    assert isinstance(state, kopilka.KopilkaState) and state.to_act == 0
    assert [(t.src, t.dst, t.amount) for t in step.transfers] == [
        (s, GAME_POT, 2) for s in range(3)
    ]
    assert state.kopilka == 6
    lay(state, "3S", "4S")
    lay(state, "7H", "9H")
    step = lay(state, "QC", "KC")  # the best two, but no pair: the копилка carries on
    assert step.deal_over and not step.game_over and state.winner == 2 and not state.took_pot
    assert {(t.src, t.dst, t.amount, t.reason) for t in step.transfers} == {
        (0, 2, 1, kopilka.STAKE),
        (1, 2, 1, kopilka.STAKE),
    }
    assert step.summary["pot_before"] == step.summary["pot_after"] == 6
    state, step = state.next_deal(
        deck(["AS", "KD", "4D"], ["2H", "2D", "3C"], ["QH", "JH", "TH"]), pot=0, players=3, dealer=0
    )
    assert state.kopilka == 12 and state.deal_no == 1 and state.to_act == 1
    lay(state, "2H", "2D")  # a pair of twos beats any two cards that are not a pair
    lay(state, "QH", "JH")
    step = lay(state, "AS", "KD")
    assert state.winner == 1 and state.took_pot and state.kopilka == 0
    assert (GAME_POT, 1, 12, kopilka.POT_TAKEN) in {
        (t.src, t.dst, t.amount, t.reason) for t in step.transfers
    }
    # the last deal's taker takes the копилка, pair or not: the game ends with it empty
    state, _ = state.next_deal(
        deck(["AS", "KD", "4D"], ["2H", "3D", "5C"], ["QH", "JH", "TH"]), pot=0, players=3, dealer=1
    )
    lay(state, "QH", "JH")
    lay(state, "AS", "KD")
    step = lay(state, "3D", "5C")
    assert step.game_over and state.winner == 0 and state.kopilka == 0
    assert (GAME_POT, 0, 6, kopilka.POT_TAKEN) in {
        (t.src, t.dst, t.amount, t.reason) for t in step.transfers
    }


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (("2S",), "lay_two"),
        (("2S", "3S", "4S"), "lay_two"),
        (("2S", "2S"), "lay_two"),
        (("2S", "AH"), "not_in_hand"),
    ],
)
def test_a_move_is_two_cards_of_the_hand(cards: tuple[str, ...], reason: str) -> None:
    state, _ = kopilka.RULES.start({}, 2, deck(["2S", "3S", "4S"]), dealer=1, pot=0)
    assert isinstance(state, kopilka.KopilkaState)
    with pytest.raises(IllegalAction) as refused:
        state.apply(Action(0, "lay", cards))
    assert refused.value.reason == reason
    with pytest.raises(IllegalAction):
        state.apply(Action(1, "lay", ("2S", "3S")))  # not his turn
    assert state.legal() == [Legal("lay", pick=(2, 2))]


def test_nothing_outside_the_tests_names_the_game() -> None:
    titles = tuple(kopilka.TEXTS[lang]["game.kopilka"] for lang in LANGUAGES)
    assert [place for path in sources() for place in named(path, kopilka.KIND, titles=titles)] == []
