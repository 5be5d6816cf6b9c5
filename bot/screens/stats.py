"""Scorekeeping screens: /stats, /top, /history with its pages and a deal's details, /export.

``StatsScreens`` reads the figures from the database and sends what ``bot.render.stats``
words.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

from bot import callback as cb
from bot.messenger import Messenger
from bot.render.common import esc, use_ranks
from bot.render.stats import (
    HISTORY_PAGE,
    deal_text,
    export_csv,
    history_keyboard,
    history_page_text,
    played,
    stats_text,
    top_text,
)
from bot.screens.people import display_name, short_name
from locales import t, tn
from storage.database import Database
from storage.stats import month_of


async def display_names(db: Database, users: Sequence[int], lang: str) -> dict[int, str]:
    """Each user's display name in ``lang`` (cut as the table cuts it; a computer's translated;
    the id for an unknown user)."""
    players = await db.players(users)
    return {user: display_name(players, user, lang) for user in users}


class StatsScreens:
    """Reads the figures and sends the scorekeeping screens."""

    def __init__(
        self,
        db: Database,
        messenger: Messenger,
        language: Callable[[int], Awaitable[str]],
        ranks: Callable[[int], Awaitable[str | None]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.messenger = messenger
        self.language = language
        #: a chat's choice of rank letters (В Д К Т or J Q K A), as its tables show cards
        self.ranks = ranks
        self.clock = clock

    async def _names(self, users: Sequence[int], lang: str) -> dict[int, str]:
        return await display_names(self.db, users, lang)

    async def send_stats(
        self, chat_id: int, user_id: int, name: str | None = None, *, reply_to: int | None = None
    ) -> None:
        """/stats in a group (``user_id``'s figures in it) or in private (across his chats)."""
        lang = await self.language(chat_id)
        private = chat_id > 0
        month = month_of(self.clock())
        shown = short_name(name) if name else (await self._names([user_id], lang))[user_id]
        if not private:
            stats = await self.db.player_stats(user_id, month, chat_id)
            await self.messenger.send(
                chat_id, stats_text(lang, shown, stats, private=False), reply_to=reply_to
            )
            return
        # in private: his groups together, and his practice table (his private chat) apart
        groups = await self.db.player_stats(user_id, month, apart=user_id)
        practice = await self.db.player_stats(user_id, month, user_id)
        parts = []
        if played(groups) or not played(practice):
            parts.append(stats_text(lang, shown, groups, private=True))
        if played(practice):
            parts.append(stats_text(lang, shown, practice, private=True, practice=True))
        await self.messenger.send(chat_id, "\n\n".join(parts), reply_to=reply_to)

    async def send_top(self, chat_id: int, *, reply_to: int | None = None) -> None:
        lang = await self.language(chat_id)
        month = month_of(self.clock())
        all_time = await self.db.leaderboard(chat_id)
        this_month = await self.db.leaderboard(chat_id, month)
        by_kind = []
        for kind in await self.db.kinds_played(chat_id):
            by_kind.append(
                (
                    kind,
                    await self.db.leaderboard(chat_id, kind=kind),
                    await self.db.leaderboard(chat_id, month, kind),
                )
            )
        names = await self._names([s.user_id for s in all_time], lang)
        text = top_text(lang, all_time, this_month, by_kind, names)
        await self.messenger.send(chat_id, text, reply_to=reply_to)

    async def send_history(
        self,
        chat_id: int,
        before: int = 0,
        edit: int | None = None,
        *,
        reply_to: int | None = None,
    ) -> None:
        """A /history page: the deals before deal ``before`` (0: the newest), new (a reply to
        ``reply_to``) or edited into message ``edit``."""
        lang = await self.language(chat_id)
        deals = await self.db.last_deals(chat_id, HISTORY_PAGE + 1, before or None)
        older = len(deals) > HISTORY_PAGE
        deals = deals[:HISTORY_PAGE]
        total = await self.db.deal_count(chat_id)
        newer_count = await self.db.deal_count(chat_id, before) if before else 0
        pages = max(1, math.ceil(total / HISTORY_PAGE))
        page = newer_count // HISTORY_PAGE + 1
        newer: int | None = None
        if before:
            # the page above ends with deal ``before``: it holds the deals older than the one
            # HISTORY_PAGE places newer than that (or is the first page)
            newer = await self.db.deal_after(chat_id, before, HISTORY_PAGE) or 0
        users = sorted({p.user_id for deal in deals for p in deal.players})
        names = await self._names(users, lang)
        text = history_page_text(lang, deals, names, page, pages)
        rows = history_keyboard(lang, deals, before, newer, older)
        shown = await self.messenger.show(chat_id, edit, text, rows, reply_to=reply_to, answer=True)
        if edit is None and shown is not None:
            await self.db.remember_history_message(chat_id, shown)

    async def is_history_message(self, chat_id: int, message_id: int) -> bool:
        """Whether the paging and 🔎 buttons may edit this message: only a /history message
        the bot sent (button data can be forged, and pressed on a table or a hand)."""
        return await self.db.is_history_message(chat_id, message_id)

    async def send_deal(self, chat_id: int, deal_id: int, page: int, edit: int | None) -> None:
        lang = await self.language(chat_id)
        deal = await self.db.deal(chat_id, deal_id)
        back = [[(t(lang, "history.back"), cb.encode(cb.History(page)))]]
        if deal is None:
            await self.messenger.show(chat_id, edit, t(lang, "history.gone"), back, answer=True)
            return
        names = await self._names([p.user_id for p in deal.players], lang)
        use_ranks(lang, await self.ranks(chat_id))
        for entry in deal.transfers:
            for party in (entry.src, entry.dst):
                if isinstance(party, int) and party not in names:
                    names.update(await self._names([party], lang))
        await self.messenger.show(chat_id, edit, deal_text(lang, deal, names), back, answer=True)

    async def send_export(
        self, chat_id: int, title: str | None, *, reply_to: int | None = None
    ) -> None:
        lang = await self.language(chat_id)
        rows = await self.db.export_rows(chat_id)
        if not rows:
            await self.messenger.send(chat_id, t(lang, "export.empty"), reply_to=reply_to)
            return
        data = await asyncio.to_thread(export_csv, rows, lang)
        stamp = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y-%m-%d")
        caption = t(
            lang,
            "export.caption",
            title=esc(title or str(chat_id)),
            rows=tn(lang, "export.rows", len(rows)),
        )
        await self.messenger.send_file(
            chat_id,
            "document",
            data,
            f"ledger-{abs(chat_id)}-{stamp}.csv",
            caption,
            reply_to=reply_to,
        )
