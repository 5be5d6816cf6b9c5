"""The ends of deals and tables as the page reads them: a finished deal's score card, its
replay, and which table a page shows once the user's table has closed.

Every finished deal is read from the game's action log and its ledger (``web.endings``), once
per deal (kept for a while), and only ever a deal that is over: a replay of the deal in play,
or of a deal of a table the user never played at, is refused (``NoReplay``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from storage.records import Game
from tables import Loaded, TableService
from tables.games import Table, game_for
from web.endings import deal_tables, finished, replay, score_card
from web.view_parts import Json, TableInfo

#: finished deals kept read (their states, by game and deal)
KEPT = 64
#: how long after its last deal a closed table still shows on a page opened without naming
#: one (the menu button), in place of «you are not at a table»
CLOSED_SHOWN = 12 * 3600.0


class NoReplay(Exception):
    """No finished deal of that number that this user played at this table."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A finished deal as read from the log: its states, and who sat where."""

    tables: list[Table]
    seats: list[int]


class Endings:
    """Finished deals read for the page."""

    def __init__(self, tables: TableService, clock: Callable[[], float] = time.time) -> None:
        self.tables = tables
        self.db = tables.db
        self.clock = clock
        self._deals: dict[tuple[int, int], Deal] = {}

    async def deal(self, game: Game, deal: int) -> Deal | None:
        """Deal ``deal`` of ``game`` if it is over (None otherwise), with the users at its
        seats then."""
        key = (game.game_id, deal)
        kept = self._deals.get(key)
        if kept is not None:
            return kept
        seats = await self.db.history.deal_seats(game.game_id, deal)
        if seats is None:
            return None  # not over (the deal in play), or never dealt
        states = deal_tables(
            game_for(game.kind), await self.db.games.action_log(game.game_id), deal
        )
        if not finished(states):
            return None
        found = Deal(states, seats)
        self._deals[key] = found
        while len(self._deals) > KEPT:
            del self._deals[next(iter(self._deals))]
        return found

    async def score(self, loaded: Loaded, user_id: int, info: TableInfo) -> Json | None:
        """The score card of the table's last finished deal (None before the first ends), for
        ``user_id``'s page; ``info`` names the seats of that deal."""
        if loaded.meta.deals == 0:
            return None
        game = loaded.game
        number = loaded.meta.deals - 1
        deal = await self.deal(game, number)
        if deal is None:
            return None
        end = deal.tables[-1]
        # a game won: its money over all its deals, as the chat's last result says it
        numbers = range(number + 1) if end.game_over else (number,)
        money: dict[int, dict[str, int]] = {}
        for each in numbers:
            for user, parts in (await self.tables.steps.deal_money(game, each)).items():
                mine = money.setdefault(user, {})
                for reason, amount in parts.items():
                    mine[reason] = mine.get(reason, 0) + amount
        you = deal.seats.index(user_id) if user_id in deal.seats else None
        # a seat the deal moved no chip for (a passer with no stake) gets nothing: 0
        per_seat = [money.get(user, {}) for user in deal.seats]
        return score_card(game.kind, end, you, info, per_seat)

    async def replay(self, game: Game, user_id: int, number: int, info: TableInfo) -> Json:
        """Deal ``number`` of ``game`` step by step, for one of its players: NoReplay for a
        deal not over (the one in play among them), or one he did not play."""
        if number < 0:
            raise NoReplay
        deal = await self.deal(game, number)
        if deal is None or user_id not in deal.seats:
            raise NoReplay
        return replay(game.kind, deal.tables, info, deal.seats.index(user_id))

    async def seats_of(self, game: Game, number: int) -> list[int] | None:
        """Who sat where at finished deal ``number`` (None: no such deal over)."""
        deal = await self.deal(game, number)
        return None if deal is None else deal.seats

    async def last_closed(self, user_id: int) -> int | None:
        """The table whose deal ``user_id`` played last, if it ended within ``CLOSED_SHOWN``:
        what a page opened with no table shows once his table has closed."""
        return await self.db.history.last_dealt_game(user_id, self.clock() - CLOSED_SHOWN)
