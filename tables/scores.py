"""Scorekeeping as the front-ends show it: a player's figures (/stats), the standings (/top),
the finished deals a page at a time (/history) and one deal's details, the ledger for an
export. The figures are kept by ``storage`` in each commit that ends a deal; this unit reads
them for the month its clock is in and pages the history."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from storage.database_money import History, Statistics
from storage.records import DealHistory, LedgerEntry
from storage.stats import Figures, PlayerStats, Standing, month_of

__all__ = [
    "DealHistory",
    "Export",
    "Figures",
    "HistoryPage",
    "LedgerEntry",
    "PlayerStats",
    "Scores",
    "Standing",
    "Top",
]


@dataclass(frozen=True, slots=True)
class Top:
    """A chat's standings (/top): all time and this month, every game and each one played
    (``by_kind``: the kind, its standings all time and this month)."""

    all_time: list[Standing]
    this_month: list[Standing]
    by_kind: list[tuple[str, list[Standing], list[Standing]]]


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of a chat's finished deals, newest first: ``page`` of ``pages`` (from 1);
    ``newer``: the ``deal_id`` the page above starts after (0: the first page; None: this is
    the first page); ``older``: whether a page follows."""

    deals: list[DealHistory]
    page: int
    pages: int
    newer: int | None
    older: bool


@dataclass(frozen=True, slots=True)
class Export:
    """A chat's ledger for an export: its rows, oldest first (names as stored: see
    ``storage.history.export_rows``), and the day it was read (``YYYY-MM-DD``, UTC)."""

    rows: list[tuple[object, ...]]
    day: str


class Scores:
    """The figures, standings and history of every chat, read from storage."""

    def __init__(self, history: History, stats: Statistics, clock: Callable[[], float]) -> None:
        self._history = history
        self._stats = stats
        self._clock = clock

    def _month(self) -> str:
        return month_of(self._clock())

    async def stats(self, user_id: int, chat_id: int) -> PlayerStats:
        """``user_id``'s figures in the group ``chat_id``, all time and this month."""
        return await self._stats.player_stats(user_id, self._month(), chat_id)

    async def own_stats(self, user_id: int) -> tuple[PlayerStats, PlayerStats]:
        """``user_id``'s figures in his groups together, and at his practice table (his
        private chat) apart."""
        month = self._month()
        groups = await self._stats.player_stats(user_id, month, apart=user_id)
        practice = await self._stats.player_stats(user_id, month, user_id)
        return groups, practice

    async def top(self, chat_id: int) -> Top:
        """The chat's standings, all time and this month, every game and each one."""
        month = self._month()
        by_kind = [
            (
                kind,
                await self._stats.leaderboard(chat_id, kind=kind),
                await self._stats.leaderboard(chat_id, month, kind),
            )
            for kind in await self._stats.kinds_played(chat_id)
        ]
        return Top(
            await self._stats.leaderboard(chat_id),
            await self._stats.leaderboard(chat_id, month),
            by_kind,
        )

    async def history(self, chat_id: int, before: int, size: int) -> HistoryPage:
        """The page of ``size`` deals that finished before deal ``before`` (0: the newest)."""
        deals = await self._history.last_deals(chat_id, size + 1, before or None)
        total = await self._history.deal_count(chat_id)
        newer_count = await self._history.deal_count(chat_id, before) if before else 0
        newer: int | None = None
        if before:
            # the page above ends with deal ``before``: it holds the deals older than the one
            # ``size`` places newer than that (or is the first page)
            newer = await self._history.deal_after(chat_id, before, size) or 0
        return HistoryPage(
            deals=deals[:size],
            page=newer_count // size + 1,
            pages=max(1, math.ceil(total / size)),
            newer=newer,
            older=len(deals) > size,
        )

    async def deal(self, chat_id: int, deal_id: int) -> tuple[DealHistory, list[int]] | None:
        """One finished deal of the chat, and everyone it names: its players, then each other
        party of its transfers; None if the chat has no such deal."""
        deal = await self._history.deal(chat_id, deal_id)
        if deal is None:
            return None
        users = [player.user_id for player in deal.players]
        for entry in deal.transfers:
            for party in (entry.src, entry.dst):
                if isinstance(party, int) and party not in users:
                    users.append(party)
        return deal, users

    async def export(self, chat_id: int) -> Export:
        """Every ledger row of the chat up to now, oldest first, and today's date."""
        rows = await self._history.export_rows(chat_id)
        return Export(rows, datetime.fromtimestamp(self._clock(), UTC).strftime("%Y-%m-%d"))
