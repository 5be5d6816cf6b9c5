"""Scorekeeping screens: /stats, /top, /history with its pages and a deal's details, /export.

``StatsScreens`` reads the figures from the table service (``tables.scores``) and sends what
``bot.render.stats`` words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from bot import callback as cb
from bot.games import ChatGames
from bot.messenger import Messenger
from bot.render.common import esc, use_ranks
from bot.render.stats import (
    HISTORY_PAGE,
    deal_text,
    history_keyboard,
    history_page_text,
    played,
    stats_text,
    top_text,
)
from locales import t, tn
from storage.chat_display import ChatDisplay
from tables.ledger_csv import ledger_csv
from tables.people import short_name
from tables.scores import Scores


class StatsScreens:
    """Reads the figures and sends the scorekeeping screens."""

    def __init__(
        self,
        games: ChatGames,
        display: ChatDisplay,
        scores: Scores,
        names: Callable[[Sequence[int], str], Awaitable[list[str]]],
        messenger: Messenger,
        language: Callable[[int], Awaitable[str]],
        ranks: Callable[[int], Awaitable[str | None]],
        clock: Callable[[], float],
    ) -> None:
        #: the games the chat shows
        self.games = games
        self.display = display
        self.scores = scores
        self.names = names
        self.messenger = messenger
        self.language = language
        #: a chat's choice of rank letters (В Д К Т or J Q K A), as its tables show cards
        self.ranks = ranks
        #: the table service's clock, that a /history message kept is stamped with
        self.clock = clock

    async def _names(self, users: Sequence[int], lang: str) -> dict[int, str]:
        return dict(zip(users, await self.names(users, lang), strict=True))

    async def send_stats(
        self, chat_id: int, user_id: int, name: str | None = None, *, reply_to: int | None = None
    ) -> None:
        """/stats in a group (``user_id``'s figures in it) or in private (across his chats)."""
        lang = await self.language(chat_id)
        shown = short_name(name) if name else (await self._names([user_id], lang))[user_id]
        if chat_id < 0:  # a group
            stats = await self.scores.stats(user_id, chat_id)
            await self.messenger.send(
                chat_id,
                stats_text(self.games, lang, shown, stats, private=False),
                reply_to=reply_to,
            )
            return
        # in private: his groups together, and his practice table (his private chat) apart
        groups, practice = await self.scores.own_stats(user_id)
        parts = []
        if played(groups) or not played(practice):
            parts.append(stats_text(self.games, lang, shown, groups, private=True))
        if played(practice):
            parts.append(stats_text(self.games, lang, shown, practice, private=True, practice=True))
        await self.messenger.send(chat_id, "\n\n".join(parts), reply_to=reply_to)

    async def send_top(self, chat_id: int, *, reply_to: int | None = None) -> None:
        lang = await self.language(chat_id)
        top = await self.scores.top(chat_id)
        names = await self._names([s.user_id for s in top.all_time], lang)
        text = top_text(self.games, lang, top.all_time, top.this_month, top.by_kind, names)
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
        page = await self.scores.history(chat_id, before, HISTORY_PAGE)
        users = sorted({p.user_id for deal in page.deals for p in deal.players})
        names = await self._names(users, lang)
        text = history_page_text(self.games, lang, page.deals, names, page.page, page.pages)
        rows = history_keyboard(lang, page.deals, before, page.newer, page.older)
        shown = await self.messenger.show(chat_id, edit, text, rows, reply_to=reply_to, answer=True)
        if edit is None and shown is not None:
            await self.display.remember_history_message(chat_id, shown, now=self.clock())

    async def is_history_message(self, chat_id: int, message_id: int) -> bool:
        """Whether the paging and 🔎 buttons may edit this message: only a /history message
        the bot sent (button data can be forged, and pressed on a table or a hand)."""
        return await self.display.is_history_message(chat_id, message_id)

    async def send_deal(self, chat_id: int, deal_id: int, page: int, edit: int | None) -> None:
        lang = await self.language(chat_id)
        found = await self.scores.deal(chat_id, deal_id)
        back = [[(t(lang, "history.back"), cb.encode(cb.History(page)))]]
        if found is None:
            await self.messenger.show(chat_id, edit, t(lang, "history.gone"), back, answer=True)
            return
        deal, users = found
        names = await self._names(users, lang)
        use_ranks(lang, await self.ranks(chat_id))
        await self.messenger.show(
            chat_id, edit, deal_text(self.games, lang, deal, names), back, answer=True
        )

    async def send_export(
        self, chat_id: int, title: str | None, *, reply_to: int | None = None
    ) -> None:
        lang = await self.language(chat_id)
        export = await self.scores.export(chat_id)
        if not export.rows:
            await self.messenger.send(chat_id, t(lang, "export.empty"), reply_to=reply_to)
            return
        data = await asyncio.to_thread(ledger_csv, export.rows, lang)
        caption = t(
            lang,
            "export.caption",
            title=esc(title or str(chat_id)),
            rows=tn(lang, "export.rows", len(export.rows)),
        )
        await self.messenger.send_file(
            chat_id,
            "document",
            data,
            f"ledger-{abs(chat_id)}-{export.day}.csv",
            caption,
            reply_to=reply_to,
        )
