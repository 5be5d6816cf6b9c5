"""The engine's fast paths stand for exactly what they replace: the plain classes of enum
members hold every member and nothing else, and a shared action is the action it names."""

from __future__ import annotations

from enum import Enum

import pytest

from game.core import Action, shared_action
from game.starshina import state as starshina_state
from game.stukolka import state as stukolka_state


@pytest.mark.parametrize(
    ("enum", "members"),
    [
        (stukolka_state.Phase, stukolka_state.Phases),
        (stukolka_state.Role, stukolka_state.Roles),
        (stukolka_state.Outcome, stukolka_state.Outcomes),
        (starshina_state.Phase, starshina_state.Phases),
    ],
)
def test_a_members_class_holds_every_member_of_its_enum(enum: type[Enum], members: type) -> None:
    held = {name: value for name, value in vars(members).items() if not name.startswith("_")}
    assert held == dict(enum.__members__)
    assert all(value is enum[name] for name, value in held.items())


def test_a_shared_action_is_the_action_it_names_made_once() -> None:
    play = shared_action(2, "play", "QS")
    assert play == Action(2, "play", "QS")
    assert shared_action(2, "play", "QS") is play
    assert shared_action(2, "look") == Action(2, "look")
    assert shared_action(1, "play", "QS") != play
