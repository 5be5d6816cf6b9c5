"""Finished deals read back, for a front-end that shows them again (the page's score card and
replay): a deal's states rebuilt from the game's action log, who sat where, and the game a
player's last finished deal was dealt at.

Only a deal that is over is ever handed out: the deal in play, or one never dealt, reads as
None. A finished deal never changes, so the last ones read are kept (``KEPT``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.core import Action
from storage.database_games import Games
from storage.database_money import History
from storage.records import Game, LogEntry
from tables.games import Catalogue, Plugin, Table

#: finished deals kept read (their states, by game and deal)
KEPT = 64


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """A finished deal as read from the log: its states from its dealing to its end, and who
    sat where (seat → user)."""

    tables: list[Table]
    seats: list[int]


def deal_tables(plugin: Plugin, log: Sequence[LogEntry], deal: int) -> list[Table]:
    """The states of deal ``deal`` (its number at the table, from 0), one per version of the
    log from its dealing to its end; empty if the log holds no such deal."""
    found: list[Table] = []
    table: Table | None = None
    for entry in log:
        if entry.kind == "action" and entry.action is not None:
            if table is None:
                continue
            table = plugin.rules.load(table.to_json())  # a copy: the state kept stays as it was
            table.apply(Action.from_json(entry.action))
        elif entry.state is not None and entry.state.get("engine") is not None:
            table = plugin.rules.load(entry.state["engine"])
        else:
            continue
        if table.deal_no == deal:
            found.append(table)
        elif found:
            break
    return found


def finished(tables: Sequence[Table]) -> bool:
    """Whether a deal's states end with the deal over."""
    return bool(tables) and tables[-1].deal_over


class FinishedDeals:
    """Finished deals read from the games' logs, and the tables players last played at."""

    def __init__(
        self, games: Games, history: History, catalogue: Catalogue, clock: Callable[[], float]
    ) -> None:
        self.games = games
        #: the games the tables offer
        self.catalogue = catalogue
        self.history = history
        #: the service's clock, which the deals' ends are stamped on
        self.clock = clock
        self._deals: dict[tuple[int, int], FinishedDeal] = {}

    async def deal(self, game: Game, deal: int) -> FinishedDeal | None:
        """Deal ``deal`` of ``game`` if it is over (None otherwise), with the users at its
        seats then."""
        key = (game.game_id, deal)
        kept = self._deals.get(key)
        if kept is not None:
            return kept
        seats = await self.history.deal_seats(game.game_id, deal)
        if seats is None:
            return None  # not over (the deal in play), or never dealt
        log = await self.games.action_log(game.game_id)
        states = deal_tables(self.catalogue.of(game.kind), log, deal)
        if not finished(states):
            return None
        found = FinishedDeal(states, seats)
        self._deals[key] = found
        while len(self._deals) > KEPT:
            del self._deals[next(iter(self._deals))]
        return found

    async def last_game(self, user_id: int, within: float) -> int | None:
        """The game of the last deal ``user_id`` played, if that deal ended at most ``within``
        seconds ago (on the service's clock)."""
        return await self.history.last_dealt_game(user_id, self.clock() - within)
