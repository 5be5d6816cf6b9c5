"""Evenings as the chat posts them: each ended evening's summary and chart, once.

When an evening ends is the tables' business (``tables.evenings``); they publish a chat's
ended evenings not posted yet (``EveningEnded``) to ``EveningPosts.took``, which posts each:
the summary as a message, the chart as a photo drawn in a worker thread, both in the forum
topic where the evening was played, at most once (``tables.evenings.Evenings.claim``). Posts
go through the presenter's coalescer at the group's pace, after the table's own messages (a
stopped table's last result comes first).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot import keyboards
from bot.games import ChatGames
from bot.messenger import Messenger, Undelivered
from bot.pacing import Coalescer
from bot.render.common import hours_text
from bot.render.evening import evening_chart, evening_text
from locales import t
from tables.evenings import Evening, Evenings
from tables.events import EveningEnded, Record
from tables.listener import TableListener

log = logging.getLogger(__name__)

SETTLE_POLL = 0.05  # seconds between looks at whether the table's messages have gone out


class EveningPosts(TableListener):
    """Posts the evenings the tables ended: one of the chat's ``TableListener``."""

    def __init__(
        self,
        games: ChatGames,
        names: Callable[[Sequence[int], str], Awaitable[list[str]]],
        evenings: Evenings,
        messenger: Messenger,
        coalescer: Coalescer,
        language: Callable[[int], Awaitable[str]],
    ) -> None:
        #: the games the chat shows (each game's own figures in a summary)
        self.games = games
        #: players' names as the tables show them (``tables.people``)
        self.names = names
        self.evenings = evenings
        self.messenger = messenger
        self.coalescer = coalescer
        self.language = language
        #: the game whose table messages go out before the chat's summary (a stopped table)
        self._after_game: dict[int, int] = {}
        #: the /evening command the chat's next summary answers
        self._reply_to: dict[int, int] = {}
        #: the table whose end ended the chat's evening: its summary offers that game again
        self._again: dict[int, int] = {}

    async def _names(self, users: Sequence[int], lang: str) -> dict[int, str]:
        return dict(zip(users, await self.names(users, lang), strict=True))

    async def answer(self, chat_id: int, reply_to: int | None) -> None:
        """/evening, answered as a reply to it: while a table of the chat is open, the
        evening so far (it ends nothing, so the closing summary still covers the whole
        evening); with none open, the evening ends now and its summary is posted."""
        lang = await self.language(chat_id)
        if await self.evenings.playing(chat_id):
            summary = await self.evenings.so_far(chat_id)
            if summary is not None:
                names = await self._names(list(summary.nets), lang)
                text = evening_text(self.games, lang, summary, names, so_far=True)
                await self.messenger.send(chat_id, text, reply_to=reply_to)
                return
        elif reply_to is not None:
            self._reply_to[chat_id] = reply_to
        if not await self.evenings.end_now(chat_id):
            self._reply_to.pop(chat_id, None)
            await self.messenger.send(chat_id, t(lang, "evening.none"), reply_to=reply_to)

    async def took(self, record: Record) -> None:
        """An evening ended (``EveningEnded``): its chat's summaries go out in the background,
        after the table messages of the stopped table that ended it, if any."""
        if not isinstance(record, EveningEnded):
            return
        chat_id, after_game = record.chat_id, record.after_game
        if after_game is not None:
            self._after_game[chat_id] = after_game
            self._again[chat_id] = after_game
        self._post_due(chat_id)

    def _post_due(self, chat_id: int) -> None:
        async def slot_due() -> None:
            game_id = self._after_game.pop(chat_id, None)
            while game_id is not None and ("group", game_id) in self.coalescer.pending_keys():
                await asyncio.sleep(SETTLE_POLL)
            await self.messenger.pacer.ready(chat_id)

        async def job() -> None:
            for evening in await self.evenings.unposted(chat_id):
                await self._post(evening)

        self.coalescer.request(("evening", chat_id), job, slot_due)

    async def _post(self, evening: Evening) -> None:
        """Post an ended evening's summary, then its chart, where the evening was played: in
        the topic of the table whose deal ended last (General if that topic is closed or
        gone, or the chat has none). At most once (``Evenings.claim``: the Bot API has no
        way to ask whether a message went out)."""
        chat_id = evening.chat_id
        lang = await self.language(chat_id)
        summary = await self.evenings.claim(evening)
        if summary is None:
            return
        names = await self._names(list(summary.nets), lang)
        text = evening_text(self.games, lang, summary, names)
        thread = summary.thread_id
        reply_to = self._reply_to.pop(chat_id, None)
        # the group's last table has ended: the chat's last message offers its game again
        again = self._again.pop(chat_id, None)
        rows = None if again is None else keyboards.again_keyboard(lang, again)
        charted = summary.deals >= 2  # a chart of one point says nothing
        try:
            sent = await self.messenger.send(
                chat_id,
                text,
                None if charted else rows,
                strict=True,
                reply_to=reply_to,
                thread=thread,
            )
            if sent is None and thread is not None:
                thread = None  # the topic is closed or deleted: General it is
                await self.messenger.pacer.ready(chat_id)
                sent = await self.messenger.send(chat_id, text, strict=True)
            moved = self.messenger.moved_to(chat_id) if sent is None else None
            if moved is not None:
                # the group became a supergroup as its summary went out: nothing was shown,
                # and the evening moved with the chat's data (``Presenter.chat_migrated``),
                # so it is posted there
                await self.evenings.unclaim(evening)
                if again is not None:
                    self._again[moved] = again
                self._post_due(moved)
                return
        except Undelivered as error:
            if error.maybe_done:
                log.warning("evening %s may not have been posted: %s", evening.evening_id, error)
                return
            await self.evenings.unclaim(evening)
            if again is not None:
                self._again[chat_id] = again
            raise  # nothing went out: tried again in a moment
        if sent is None:
            return  # the chat refused it (the bot was removed, say): nowhere to post
        self.messenger.done_with(chat_id, sent)  # never edited: the messenger may forget it
        if not charted:
            return
        chart = await asyncio.to_thread(evening_chart, lang, summary, names)
        await self.messenger.pacer.ready(chat_id)
        await self.messenger.send_file(
            chat_id,
            "photo",
            chart,
            "evening.png",
            t(lang, "evening.chart_caption"),
            thread=thread,
            rows=rows,
        )

    async def send_gap(self, chat_id: int, hours: str | None, admin: bool) -> str:
        """/evening gap [N]: the text that shows (or, for an admin, sets) the chat's gap."""
        lang = await self.language(chat_id)
        if hours is None:
            gap = await self.evenings.gap(chat_id)
            return t(lang, "evening.gap_current", hours=hours_text(gap))
        value = self.evenings.gap_hours(hours)
        if value is None:
            return t(lang, "evening.gap_usage")
        if not admin:
            return t(lang, "refuse.admin_only")
        await self.evenings.set_gap(chat_id, value)
        return t(lang, "evening.gap_set", hours=value)
