"""A move as the front-ends hand it in (``tables.commands``): named as its player sees his
hand, and turned into the rules' action only against the table as it is when applied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import pytest

from game.core import Action
from game.registry import Holding
from tables.commands import (
    Blind,
    Card,
    Cards,
    Decide,
    Look,
    Move,
    Suit,
    Unseen,
    action_of,
)
from tables.games import Table
from tests.moves import move_for


@dataclass
class Held:
    """A table that only holds one hand (all ``action_of`` reads of it)."""

    looked: bool
    cards: tuple[str, ...] = ("AD", "7H", "5S")

    def holding(self, seat: int) -> Holding:
        return Holding(self.cards, None, self.looked)


def table(looked: bool) -> Table:
    return cast(Table, Held(looked))


def test_a_move_becomes_the_action_of_the_seat() -> None:
    seen, unseen = table(True), table(False)
    assert action_of(Look(), unseen, 2) == Action(2, "look")
    assert action_of(Decide("pass"), unseen, 1) == Action(1, "pass")
    assert action_of(Suit("trump", "S"), seen, 0) == Action(0, "trump", "S")
    assert action_of(Card("play", "7H"), seen, 1) == Action(1, "play", "7H")
    assert action_of(Cards("discard", ("5S", "AD")), seen, 1) == Action(1, "discard", ("5S", "AD"))
    assert action_of(Blind("discard", 2), unseen, 1) == Action(1, "discard", ("AD", "7H"))
    assert action_of(Blind("discard", 0), unseen, 1) == Action(1, "discard", ())


def test_a_move_is_expressed_as_its_player_sees_his_hand() -> None:
    """Cards are named only from a hand seen, counted only in one unseen: a player who has not
    seen his hand gets the same refusal for a card he holds as for one he does not."""
    unseen, seen = table(False), table(True)
    named: list[Move] = [Card("play", "AD"), Card("play", "KC"), Cards("discard", ("5S", "7H"))]
    for move in [*named, Cards("discard", ("2C",))]:
        with pytest.raises(Unseen) as held_or_not:
            action_of(move, unseen, 1)
        assert str(held_or_not.value) == "a move expressed as the player cannot see his hand"
    with pytest.raises(Unseen):
        action_of(Blind("discard", 1), seen, 1)
    with pytest.raises(Unseen):
        action_of(Blind("discard", 4), unseen, 1)


def test_a_rules_action_pressed_is_that_action_again() -> None:
    for action in (
        Action(0, "look"),
        Action(0, "knock"),
        Action(1, "trump", "H"),
        Action(2, "play", "TH"),
        Action(0, "kitty", ("TH", "2C")),
    ):
        assert action_of(move_for(action), table(True), action.seat) == action


def test_a_blind_choice_pressed_is_a_count() -> None:
    unseen = table(False)
    assert move_for(Action(1, "discard", ("7H",)), unseen) == Blind("discard", 1)
    assert move_for(Action(1, "discard", ("7H",)), table(True)) == Cards("discard", ("7H",))
