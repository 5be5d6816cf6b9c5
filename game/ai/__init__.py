"""Computer players: pure functions of what a seat may see.

Each game brings its own, as a ``Computer`` over its seat view (Стуколка's is
``game.stukolka.ai.COMPUTER``, handed to the table service by the game's plugin): players that
take the seat's view (which holds exactly what a person in that seat knows), a
``random.Random`` and, for the strong level, a ``Budget``, and return one ``Action`` among the
view's legal ones. Levels: ``random`` (uniform legal), ``easy`` (rules of thumb), ``strong``
(determinized Monte-Carlo search over the engine). This module names no game.

A computer looks at its cards before it acts where its game lets a player choose not to
(``looks_first``: the caller applies ``look``); it never plays dark.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from game.ai.budget import Budget
from game.ai.search import UNSEEN, Advice, Measure
from game.core import Action, Legal

LEVELS = ("random", "easy", "strong")


@runtime_checkable
class View(Protocol):
    """What a computer needs of any seat view besides what its game's players read: the
    seat's legal actions (none when it is not the seat's turn)."""

    @property
    def legal(self) -> Sequence[Legal]: ...


V = TypeVar("V")


def _check_turn(view: object) -> None:
    if not isinstance(view, View) or not view.legal:
        raise ValueError("not this seat's turn")


def never_looks(view: object) -> bool:
    """For a game whose players always see their cards."""
    return False


@dataclass(frozen=True, slots=True)
class Computer(Generic[V]):
    """A game's computer players over its seat view ``V``, with the time a strong decision may
    take (``milliseconds``) and the worlds it samples even past it (``min_samples``). Its
    parts are module-level functions, so that it pickles by reference: the table service
    sends it to a worker process with the view it decides from."""

    random_player: Callable[[V, random.Random], Action]
    easy: Callable[[V, random.Random], Action]
    strong: Callable[[V, random.Random, Budget | None], Action]
    advice: Callable[[V, random.Random, Budget | None], Advice]
    milliseconds: float
    min_samples: int
    looks: Callable[[V], bool] = never_looks

    def looks_first(self, view: V) -> bool:
        """Whether the computer looks at its cards before it acts (it never plays dark)."""
        return self.looks(view)

    def choose(
        self, view: V, level: str, rng: random.Random, budget: Budget | None = None
    ) -> Action:
        """The action the computer of ``level`` takes in the seat of ``view`` (its turn)."""
        _check_turn(view)
        if level == "strong":
            return self.strong(view, rng, budget)
        return self.easy(view, rng) if level == "easy" else self.random_player(view, rng)

    def advise(self, view: V, rng: random.Random, budget: Budget | None = None) -> Advice:
        """What the strong computer would do in the seat of ``view`` (its turn), with the mean
        values of the candidates it played out: a player's hint, from his own seat's view
        only."""
        _check_turn(view)
        return self.advice(view, rng, budget)

    def at(self, view: V) -> ComputerAt[V]:
        """This computer in the seat of ``view``."""
        return ComputerAt(self, view)


class Seated(Protocol):
    """A computer in one seat, whichever game: what the table service thinks with, in a
    worker process or on its own thread."""

    @property
    def milliseconds(self) -> float: ...

    @property
    def min_samples(self) -> int: ...

    def looks_first(self) -> bool: ...

    def choose(self, level: str, rng: random.Random, budget: Budget | None = None) -> Action: ...

    def advise(self, rng: random.Random, budget: Budget | None = None) -> Advice: ...


@dataclass(frozen=True, slots=True)
class ComputerAt(Generic[V]):
    """A game's ``Computer`` with the view of the seat it plays: a ``Seated``."""

    computer: Computer[V]
    view: V

    @property
    def milliseconds(self) -> float:
        return self.computer.milliseconds

    @property
    def min_samples(self) -> int:
        return self.computer.min_samples

    def looks_first(self) -> bool:
        return self.computer.looks_first(self.view)

    def choose(self, level: str, rng: random.Random, budget: Budget | None = None) -> Action:
        return self.computer.choose(self.view, level, rng, budget)

    def advise(self, rng: random.Random, budget: Budget | None = None) -> Advice:
        return self.computer.advise(self.view, rng, budget)


__all__ = [
    "LEVELS",
    "UNSEEN",
    "Advice",
    "Budget",
    "Computer",
    "ComputerAt",
    "Measure",
    "Seated",
    "View",
    "never_looks",
]
