"""The repositories of money and what it tells, each on the shared core: the ledger
(``Database.ledger``: balances, transfers), the deals' history and the export
(``Database.history``), the evenings (``Database.evenings``) and the players' figures
(``Database.stats``)."""

from __future__ import annotations

from typing import Final

from storage import evenings, history, ledger, stats
from storage.database_core import Repository, snapshot
from storage.evenings import Evening, EveningSummary
from storage.records import (
    Balances,
    DealHistory,
    LedgerEntry,
    PlayerTotals,
)
from storage.stats import PlayerStats, Standing

EXPORT_PAGE: Final = 5000  # ledger rows an export reads per trip (about 50 ms on 2 cores)


class Ledger(Repository):
    """Balances and pots summed from the chat's ledger, and its transfers."""

    async def balances(self, chat_id: int) -> Balances:
        """Every player's balance and the pots of ``chat_id``, summed from the ledger."""
        return await self._db._run(snapshot(ledger.balances), chat_id)

    async def user_balances(self, user_id: int) -> dict[int, int]:
        """``user_id``'s balance in each chat where he has paid or received, by chat id."""
        return await self._db._run(snapshot(ledger.user_balances), user_id)

    async def transfers(
        self, chat_id: int, *, game_id: int | None = None, deal: int | None = None
    ) -> list[LedgerEntry]:
        """The transfers of ``chat_id``, oldest first; only one game's, or one deal's of it,
        when ``game_id`` (and ``deal``) are given."""
        where = "chat_id = :chat"
        if game_id is not None:
            where += " AND game_id = :game"
        if deal is not None:
            if game_id is None:
                raise ValueError("a deal number needs its game_id")
            where += " AND deal = :deal"
        params = {"chat": chat_id, "game": game_id, "deal": deal}
        return await self._db._run(snapshot(ledger.entries), where, params)


class History(Repository):
    """The finished deals and their transfers, and the ledger's export."""

    async def last_deals(
        self, chat_id: int, limit: int = 10, before: int | None = None
    ) -> list[DealHistory]:
        """The chat's last ``limit`` finished deals, newest first, with their transfers; with
        ``before`` (a ``deal_id``), the ones that finished before that deal."""
        return await self._db._run(snapshot(history.last_deals), chat_id, limit, before)

    async def deal(self, chat_id: int, deal_id: int) -> DealHistory | None:
        """One finished deal of the chat with its transfers, or None."""
        return await self._db._run(snapshot(history.one_deal), chat_id, deal_id)

    async def last_dealt_game(self, user_id: int, since: float = 0.0) -> int | None:
        """The game of the newest deal ``user_id`` played that ended at ``since`` or later."""
        return await self._db._run(history.last_dealt_game, user_id, since)

    async def deal_seats(self, game_id: int, deal: int) -> list[int] | None:
        """The users at the seats of a game's finished deal, in seat order (None: no such
        deal is over)."""
        return await self._db._run(history.deal_seats, game_id, deal)

    async def deal_count(self, chat_id: int, newer_than: int | None = None) -> int:
        """How many deals the chat finished (only from deal ``newer_than`` on, if given)."""
        if newer_than is None:
            return await self._db._run(history.deal_count, chat_id)
        return await self._db._run(history.deals_newer, chat_id, newer_than)

    async def deal_after(self, chat_id: int, deal_id: int, places: int) -> int | None:
        """The ``deal_id`` of the chat's deal ``places`` deals newer than ``deal_id``."""
        return await self._db._run(history.deal_after, chat_id, deal_id, places)

    async def export_rows(self, chat_id: int, page: int = EXPORT_PAGE) -> list[tuple[object, ...]]:
        """Every ledger row of the chat up to now, for a CSV export (see
        ``history.export_rows``). Read ``page`` rows per trip to the storage thread, so the
        other chats' moves go through between the trips of a long export; rows written
        meanwhile come after the last one counted at the start and are left out."""
        upto = await self._db._run(history.last_entry, chat_id)
        rows: list[tuple[object, ...]] = []
        while True:
            after = int(rows[-1][0]) if rows else 0  # type: ignore[call-overload]
            batch = await self._db._run(history.export_rows, chat_id, after, upto, page)
            rows.extend(batch)
            if len(batch) < page:
                return rows


class Evenings(Repository):
    """The chats' evenings: their gap, the one that goes on, the ones ended and their summary."""

    async def evening_gap(self, chat_id: int) -> float:
        """The pause in seconds that ends an evening in the chat."""
        return await self._db._run(evenings.evening_gap, chat_id)

    async def set_evening_gap(self, chat_id: int, seconds: float | None) -> None:
        """Set the chat's evening gap (None: the default)."""
        await self._db._write(evenings.set_evening_gap, chat_id, seconds)

    async def open_evening(self, chat_id: int) -> Evening | None:
        """The chat's evening that goes on, if any."""
        return await self._db._run(evenings.open_evening, chat_id)

    async def last_evening(self, chat_id: int) -> Evening | None:
        """The chat's newest evening, going on or ended, if any."""
        return await self._db._run(evenings.last_evening, chat_id)

    async def open_evenings(self) -> list[Evening]:
        """Every evening that goes on."""
        return await self._db._run(evenings.open_evenings)

    async def unposted_evenings(self, chat_id: int | None = None) -> list[Evening]:
        """Ended evenings whose summary is not posted yet, oldest first."""
        return await self._db._run(evenings.unposted_evenings, chat_id)

    async def end_evening(
        self, evening_id: int, at: float, idle_since: float | None = None
    ) -> Evening | None:
        """End an evening that goes on (see ``evenings.end_evening``); None if it had ended
        or, with ``idle_since``, a deal ended after that moment."""
        return (await self._db._write(evenings.end_evening, evening_id, at, idle_since))[0]

    async def mark_evening_posted(self, evening_id: int, posted: bool = True) -> None:
        """Mark an evening's summary posted (or, with ``posted`` False, not posted after all:
        see ``evenings.mark_posted``)."""
        await self._db._write(evenings.mark_posted, evening_id, posted)

    async def evening_summary(
        self, evening: Evening, count: evenings.Count | None = None
    ) -> EveningSummary:
        """The figures of ``evening`` from its deals and their ledger rows (its games' own
        as ``count`` counts them)."""
        return await self._db._run(snapshot(evenings.evening_summary), evening, count)


class Statistics(Repository):
    """The players' figures: totals, /stats by game kind and the chat's leaderboard."""

    async def player_totals(self, chat_id: int, user_id: int) -> PlayerTotals:
        """Deals played, tricks and net balance of ``user_id`` in ``chat_id``."""
        return await self._db._run(snapshot(history.player_totals), chat_id, user_id)

    async def player_stats(
        self, user_id: int, month: str, chat_id: int | None = None, *, apart: int | None = None
    ) -> PlayerStats:
        """``user_id``'s figures by game kind in ``chat_id`` (None: every chat but ``apart``),
        all time and in ``month`` (``'YYYY-MM'``, UTC; ``storage.stats.month_of`` gives it)."""
        return await self._db._run(snapshot(stats.player_stats), user_id, month, chat_id, apart)

    async def leaderboard(
        self, chat_id: int, month: str | None = None, kind: str | None = None
    ) -> list[Standing]:
        """The chat's players by net chips, best first: all time or in ``month``, every game
        or one ``kind``."""
        return await self._db._run(stats.leaderboard, chat_id, month, kind)

    async def kinds_played(self, chat_id: int) -> list[str]:
        """The game kinds the chat has finished deals of."""
        return await self._db._run(stats.kinds_played, chat_id)
