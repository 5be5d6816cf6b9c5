"""The ends of deals and tables as the page reads them: a finished deal's score card, its
replay, and which table a page shows once the user's table has closed.

Every finished deal comes from the table service (``tables.deals``: read from the game's
action log, once per deal, and only ever a deal that is over) with the game's ledger; a
replay of the deal in play, or of a deal of a table the user never played at, is refused
(``NoReplay``).
"""

from __future__ import annotations

from tables import Game, Loaded, TableService
from web.endings import replay, score_card
from web.games import PageGames
from web.view_parts import Json, TableInfo

#: how long after its last deal a closed table still shows on a page opened without naming
#: one (the menu button), in place of «you are not at a table»
CLOSED_SHOWN = 12 * 3600.0


class NoReplay(Exception):
    """No finished deal of that number that this user played at this table."""


class Endings:
    """Finished deals as the page shows them."""

    def __init__(self, tables: TableService, pages: PageGames) -> None:
        self.tables = tables
        #: the games the page shows
        self.pages = pages

    async def score(self, loaded: Loaded, user_id: int, info: TableInfo) -> Json | None:
        """The score card of the table's last finished deal (None before the first ends), for
        ``user_id``'s page; ``info`` names the seats of that deal."""
        if loaded.meta.deals == 0:
            return None
        game = loaded.game
        number = loaded.meta.deals - 1
        deal = await self.tables.deals.deal(game, number)
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
        return score_card(self.pages.of(game.kind), end, you, info, per_seat)

    async def replay(self, game: Game, user_id: int, number: int, info: TableInfo) -> Json:
        """Deal ``number`` of ``game`` step by step, for one of its players: NoReplay for a
        deal not over (the one in play among them), or one he did not play."""
        if number < 0:
            raise NoReplay
        deal = await self.tables.deals.deal(game, number)
        if deal is None or user_id not in deal.seats:
            raise NoReplay
        return replay(self.pages.of(game.kind), deal.tables, info, deal.seats.index(user_id))

    async def seats_of(self, game: Game, number: int) -> list[int] | None:
        """Who sat where at finished deal ``number`` (None: no such deal over)."""
        deal = await self.tables.deals.deal(game, number)
        return None if deal is None else deal.seats
