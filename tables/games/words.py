"""Words of a game that the chat and the page say alike: what a seat is asked to do now (a
game's ``prompt``), as a ``Phrase`` each front-end words in its own way — the chat as text with
names and card labels in the chat's style, the page as a text object of its view.

A phrase is a catalogue key, its plural count, and its parameters: numbers, a seat (``SeatName``:
its player's name), a card (``CardName``: its label), or another phrase (its words).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SeatName:
    """The player at a seat, named."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardName:
    """A card, labelled in the chat's style."""

    card: str


@dataclass(frozen=True, slots=True)
class Phrase:
    """A catalogue entry said with its parameters: ``key``, in its plural form for ``n`` when
    given (``n`` is a parameter then too)."""

    key: str
    n: int | None = None
    params: Mapping[str, int | str | SeatName | CardName | Phrase] = field(default_factory=dict)
