"""Unit tests of single Стуколка rules (docs/rules.md §1–§3, §5); the worked cases are in
tests/cases/stukolka."""

from __future__ import annotations

from typing import Any

import pytest

from game import stukolka
from game.core import POT, Action, IllegalAction, OptionsError, Transfer
from game.stukolka import Outcome, Phase, StukolkaOptions
from game.stukolka.rules import trick_share
from tests.game.decks import stacked


def default(state: stukolka.StukolkaState) -> Action:
    """The default move where there is one to make."""
    action = stukolka.default_action(state)
    assert action is not None
    return action


def act(state: stukolka.StukolkaState, *actions: tuple[Any, ...]) -> None:
    for raw in actions:
        stukolka.apply(state, Action(*raw))


@pytest.mark.parametrize(
    ("pot", "shares"), [(3, [1, 1, 1]), (9, [3, 3, 3]), (10, [4, 3, 3]), (11, [4, 4, 3])]
)
def test_trick_shares_when_the_pot_is_not_a_multiple_of_three(pot: int, shares: list[int]) -> None:
    assert [trick_share(pot, i) for i in range(3)] == shares
    assert sum(shares) == pot


@pytest.mark.parametrize(
    "bad",
    [
        {"stake": 4},
        {"stake": 0},
        {"variant": "poker"},
        {"remiz_cap": 0},
        {"remiz_cap": True},
        {"dark_in_classic": "yes"},
        {"colour": "red"},
    ],
)
def test_options_are_validated(bad: dict[str, Any]) -> None:
    with pytest.raises(OptionsError):
        StukolkaOptions.from_json(bad)


def test_table_size_is_two_to_six() -> None:
    deck = stacked(2, {}, "2H")
    for players in (1, 7):
        with pytest.raises(ValueError):
            stukolka.new_deal(StukolkaOptions(), players, deck)


def test_illegal_action_leaves_the_state_unchanged() -> None:
    deck = stacked(3, {1: ["AH", "KH", "7D"], 2: ["2S", "5S", "9S"]}, "QH", ["8D", "TD"])
    state, _ = stukolka.new_deal(StukolkaOptions(), 3, deck)
    act(state, (1, "knock"), (2, "knock"), (0, "pass"), (1, "discard", ("7D",)))
    act(state, (2, "discard", ("2S", "5S")))
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        stukolka.apply(state, Action(1, "play", "KH"))
    assert error.value.reason == "must_lead_trump_ace"
    with pytest.raises(IllegalAction) as error:
        stukolka.apply(state, Action(2, "play", "9S"))
    assert error.value.reason == "not_your_turn"
    with pytest.raises(IllegalAction) as error:
        stukolka.apply(state, Action(1, "play", "9S"))
    assert error.value.reason == "not_in_hand"
    assert state.to_json() == before


def test_shleif_card_is_seen_by_the_dealer_only_until_the_deal_ends() -> None:
    deck = stacked(3, {0: ["2C", "3C", "4C"]}, "9H")
    state, events = stukolka.new_deal(StukolkaOptions(variant="shleif"), 3, deck)
    assert state.phase is Phase.CHOOSE and state.to_act == 0
    events = stukolka.apply(state, Action(0, "shleif"))
    assert state.trump == "H"
    private = [event for event in events if event.to is not None]
    assert [(event.to, event.data) for event in private] == [(0, {"card": "9H"})]
    assert stukolka.seat_view(state, 0).shleif_card == "9H"
    for seat in (1, 2):
        view = stukolka.seat_view(state, seat)
        assert view.shleif_card is None and view.table.trump_card is None
        assert "9H" not in repr(view)
    assert stukolka.public_view(state).trump == "H"
    # everybody passes; the dealer buys, nobody goes razrez: he takes the pot alone
    act(state, (1, "pass"), (2, "pass"), (0, "discard", ()), (0, "drop", "9H"))
    act(state, (1, "no_razrez"), (2, "no_razrez"))
    assert state.outcome is Outcome.LONE
    assert stukolka.public_view(state).trump_card == "9H"


def test_the_seed_and_hidden_cards_never_reach_a_repr() -> None:
    deck = stacked(3, {1: ["AS", "KS", "QS"]}, "2D")
    state, _ = stukolka.new_deal(StukolkaOptions(), 3, deck)
    text = repr(state)
    assert "AS" not in text and "stock" not in text


def test_look_before_the_cards_are_dealt_and_after_the_deal_is_rejected() -> None:
    deck = stacked(2, {}, "2H")
    state, _ = stukolka.new_deal(StukolkaOptions(variant="shleif"), 2, deck)
    with pytest.raises(IllegalAction):
        stukolka.apply(state, Action(1, "look"))
    act(state, (0, "open"), (1, "look"), (1, "pass"), (0, "pass"))
    act(state, (1, "no_razrez"), (0, "no_razrez"))
    assert state.outcome is Outcome.NOBODY and state.pot_after == 3
    with pytest.raises(IllegalAction):
        stukolka.apply(state, Action(0, "look"))


def test_dark_is_not_offered_once_the_player_has_looked() -> None:
    deck = stacked(3, {}, "2H")
    state, _ = stukolka.new_deal(StukolkaOptions(dark_in_classic=True), 3, deck)
    assert {e.verb for e in stukolka.legal_actions(state)} == {"knock", "pass", "dark"}
    act(state, (1, "look"))
    assert {e.verb for e in stukolka.legal_actions(state)} == {"knock", "pass"}
    with pytest.raises(IllegalAction) as error:
        stukolka.apply(state, Action(1, "dark"))
    assert error.value.reason == "already_looked"


def test_a_dark_player_cannot_look_until_his_purchase_is_done() -> None:
    """§3: from the dark declaration to the end of his purchase the look is refused; once he
    has drawn he sees his hand (and looking again is harmless)."""
    state, _ = stukolka.new_deal(StukolkaOptions(dark_in_classic=True), 3, stacked(3, {}, "2H"))
    act(state, (1, "dark"))
    assert stukolka.seat_view(state, 1).may_look is False
    with pytest.raises(IllegalAction) as error:
        stukolka.apply(state, Action(1, "look"))
    assert error.value.reason == "dark_no_look"
    act(state, (2, "knock"), (0, "pass"))
    assert state.to_act == 1
    with pytest.raises(IllegalAction):
        stukolka.apply(state, Action(1, "look"))
    hand = list(state.hands[1])
    act(state, (1, "discard", tuple(hand[:2])))
    view = stukolka.seat_view(state, 1)
    assert view.hand is not None and len(view.hand) == 4
    assert stukolka.apply(state, Action(1, "look")) == []


def test_no_dark_in_classic_by_default() -> None:
    state, _ = stukolka.new_deal(StukolkaOptions(), 3, stacked(3, {}, "2H"))
    assert {e.verb for e in stukolka.legal_actions(state)} == {"knock", "pass"}


def test_obligatory_antes_and_the_pot() -> None:
    state, _ = stukolka.new_deal(
        StukolkaOptions(ante_mode="obligatory", stake=6), 4, stacked(4, {}, "2H"), pot=5
    )
    assert state.pot == 5 + 6 * 4 + 6
    assert Transfer(0, POT, 12, "ante") in state.transfers


class TestDefaults:
    """docs/rules.md §5: the default move when a player does not act in time."""

    def test_knock_passes_and_purchase_keeps_everything(self) -> None:
        deck = stacked(3, {}, "2H")
        state, _ = stukolka.new_deal(StukolkaOptions(), 3, deck)
        assert stukolka.default_action(state) == Action(1, "pass")
        act(state, (1, "knock"), (2, "knock"), (0, "pass"))
        assert stukolka.default_action(state) == Action(1, "discard", ())

    def test_shleif_choice_is_shleif_and_drop_is_the_lowest_non_trump(self) -> None:
        deck = stacked(3, {0: ["2H", "AC", "KD"]}, "3H", ["4H", "5H", "6H"])
        state, _ = stukolka.new_deal(StukolkaOptions(variant="shleif"), 3, deck)
        assert stukolka.default_action(state) == Action(0, "shleif")
        act(state, (0, "shleif"), (1, "pass"), (2, "pass"))
        act(state, (0, "discard", ()))
        # hand 2H AC KD + shleif card 3H: the lowest non-trump is KD
        assert stukolka.default_action(state) == Action(0, "drop", "KD")

    def test_drop_of_all_trumps_takes_the_lowest(self) -> None:
        deck = stacked(3, {0: ["2H", "AH", "KH"]}, "3H")
        state, _ = stukolka.new_deal(StukolkaOptions(variant="shleif"), 3, deck)
        act(state, (0, "shleif"), (1, "pass"), (2, "pass"), (0, "discard", ()))
        assert stukolka.default_action(state) == Action(0, "drop", "2H")

    def test_razrez_no_and_play_the_lowest_legal(self) -> None:
        deck = stacked(3, {1: ["AS", "2S", "3C"], 2: ["KS", "QD", "2D"]}, "4H")
        state, _ = stukolka.new_deal(StukolkaOptions(variant="shleif"), 3, deck)
        act(state, (0, "shleif"), (1, "knock"), (2, "pass"), (1, "discard", ()))
        act(state, (0, "discard", ()))
        stukolka.apply(state, default(state))
        assert stukolka.default_action(state) == Action(2, "no_razrez")
        act(state, (2, "no_razrez"))
        assert state.phase is Phase.PLAY and state.to_act == 1
        assert stukolka.default_action(state) == Action(1, "play", "2S")

    def test_lowest_ties_go_clubs_diamonds_hearts_spades(self) -> None:
        from game.cards import lowest

        assert lowest(["2S", "2H", "2D", "2C"]) == "2C"
        assert lowest(["2S", "2H", "2D"]) == "2D"
        assert lowest(["3C", "2S"]) == "2S"
