"""A game as the command-line tools take it (``GameTools``): its rules with the parts only the
tools use. The tools (``game.play``, ``game.simulate``, ``game.arena``, ``game.replay``) are
handed the games in their ``main``: run as modules, ``game.games``' list (the program's
entry points take the same from ``server.games``); nothing here finds a game by itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.ai import Computer
from game.core import Action, Legal, Transfer
from game.registry import GameRules
from game.terminal import Terminal


class ReplayMatch(Protocol):
    """A game played across the decks of one case (each game's own, ``GameTools.replay``)."""

    def apply(self, action: Action) -> None:
        """Apply one action and any forced steps after it (the next deal when a deck is left)."""

    @property
    def finished(self) -> bool: ...

    @property
    def to_act(self) -> int | None: ...

    def legal(self) -> list[Legal]: ...

    def deals(self) -> list[dict[str, Any]]: ...

    def transfers(self) -> list[Transfer]: ...


Simulation = Callable[..., dict[str, Any]]
"""A game's random legal play (``game.<game>.simulate.run``): the options, the players, the
deals, the whole games, the seed and a clock, to a report."""


@dataclass(frozen=True, slots=True)
class GameTools:
    """One game's rules, its computer players, its screen in the terminal game, its simulation
    and how a conformance case of it is replayed (None: the game has no such part)."""

    rules: GameRules
    computer: Computer[Any] | None = None
    terminal: Terminal[Any] | None = None
    simulation: Simulation | None = None
    replay: Callable[[dict[str, Any]], ReplayMatch] | None = None

    def table_size(self, asked: int | None) -> int:
        """The players at a table that a command line asked for, else four or as many as the
        game allows (``ValueError``, saying what it takes, for a number it does not)."""
        fewest, most = self.rules.min_players, self.rules.max_players
        players = asked or max(fewest, min(4, most))
        if not fewest <= players <= most:
            takes = f"exactly {fewest}" if fewest == most else f"{fewest} to {most}"
            raise ValueError(f"{self.rules.kind}: {takes} players")
        return players


def tools_for(games: Sequence[GameTools], kind: str) -> GameTools:
    """The game ``kind`` of ``games`` (``ValueError`` for another)."""
    for game in games:
        if game.rules.kind == kind:
            return game
    raise ValueError(f"unknown game {kind!r}")
