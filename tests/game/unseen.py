"""The cards a seat cannot see, traded among themselves: what a leak test changes to prove a
seat's view does not depend on them. Generic over every game: a card is unseen by a seat when
it is nowhere in the seat's view nor in its hand (its own to see whenever it looks); every copy
of an unseen card in the state's JSON is renamed at once, so the state stays whole."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

from game.cards import shuffle
from game.registry import GameState
from tables.games import Plugin

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")


def cards_in(value: object) -> Iterator[str]:
    """Every card named anywhere in ``value`` (a view: dataclasses, tuples, lists, dicts)."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for item in fields(value):
            yield from cards_in(getattr(value, item.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from cards_in(item)


def renamed(data: object, names: dict[str, str]) -> object:
    """``data`` (a state's JSON) with each card of ``names`` written as its new name."""
    if isinstance(data, str):
        return names.get(data, data)
    if isinstance(data, list):
        return [renamed(item, names) for item in data]
    if isinstance(data, dict):
        return {key: renamed(item, names) for key, item in data.items()}
    return data


def reshuffled(plugin: Plugin, state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with the cards ``seat`` cannot see dealt to one another's places (its own
    hand is its to see whenever it looks)."""
    data = state.to_json()
    seen = set(cards_in(state.seat_view(seat))) | set(state.holding(seat).cards)
    hidden = sorted(set(cards_in(data)) - seen)
    others = list(hidden)
    shuffle(others, rng)
    names = dict(zip(hidden, others, strict=True))
    moved = renamed(data, names)
    assert isinstance(moved, dict)
    return plugin.rules.load(moved)
