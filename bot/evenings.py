"""Evenings: when a chat's run of play ends, its summary and chart are posted once.

Storage keeps the evenings (``storage.evenings``): the commit that ends a deal extends the
chat's evening or starts the next one. Here the bot ends one when the chat's gap passes with
no deal (an asyncio timer per chat, ``bot.timers.Timers``, armed for the last deal's end plus
the gap, and armed again after a restart), at /stop (the table's end), or at /evening, and
posts each ended evening that is not posted yet, at most once (``Evenings._post`` says why):
the summary as a message, the chart as a photo drawn in a worker thread, both in the forum
topic where the evening was played. Posts go through the presenter's coalescer at the
group's pace, after the table's own messages (a stopped table's last result comes first).

A practice table (a player's own, against the computers) has no evening: nobody settles up
with a computer, and its deals' results are in its player's hand messages already.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.arguments import whole_number
from bot.messenger import Messenger, Undelivered
from bot.pacing import Coalescer
from bot.render.common import hours_text
from bot.screens.stats import display_names, evening_chart, evening_text
from bot.service.records import is_practice
from bot.timers import Timers
from locales import t
from storage.database import Database
from storage.evenings import Evening

log = logging.getLogger(__name__)

GAP_HOURS = (1, 12)  # what /evening gap N accepts
SETTLE_POLL = 0.05  # seconds between looks at whether the table's messages have gone out


class Evenings:
    """Ends evenings and posts their summaries."""

    def __init__(
        self,
        db: Database,
        messenger: Messenger,
        coalescer: Coalescer,
        language: Callable[[int], Awaitable[str]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.messenger = messenger
        self.coalescer = coalescer
        self.language = language
        self.timers = Timers(clock)
        self.timers.on_timeout = self._gap_passed
        #: the game whose table messages go out before the chat's summary (a stopped table)
        self._after_game: dict[int, int] = {}

    @property
    def clock(self) -> Callable[[], float]:
        return self.timers.clock

    async def deal_ended(self, chat_id: int) -> None:
        """A deal of the chat ended: arm the gap's timer; post an evening the deal's commit
        ended (the pause before it was longer than the gap, say while the bot was down)."""
        if is_practice(chat_id):
            return
        evening = await self.db.open_evening(chat_id)
        if evening is not None:
            self.timers.arm(chat_id, evening.evening_id, evening.due)
        if await self.db.unposted_evenings(chat_id):
            self._post_due(chat_id)

    async def end_now(self, chat_id: int, after_game: int | None = None) -> bool:
        """/evening or a stopped table: end the chat's evening now and post it, after the
        table messages of ``after_game``. False if there was nothing to post."""
        if is_practice(chat_id):
            return False
        if after_game is not None:
            self._after_game[chat_id] = after_game
        evening = await self.db.open_evening(chat_id)
        if evening is not None:
            self.timers.cancel(chat_id)
            await self.db.end_evening(evening.evening_id, self.clock())
        if not await self.db.unposted_evenings(chat_id):
            return False
        self._post_due(chat_id)
        return True

    async def resume(self) -> None:
        """After a restart: arm every open evening's timer, post what is still due."""
        for evening in await self.db.open_evenings():
            if not is_practice(evening.chat_id):
                self.timers.arm(evening.chat_id, evening.evening_id, evening.due)
        for evening in await self.db.unposted_evenings():
            if not is_practice(evening.chat_id):
                self._post_due(evening.chat_id)

    async def stop(self) -> None:
        await self.timers.stop()

    async def _gap_passed(self, chat_id: int, evening_id: int) -> None:
        evening = await self.db.open_evening(chat_id)
        if evening is None or evening.evening_id != evening_id:
            return
        if self.clock() < evening.due:  # a deal ended meanwhile, or the clock went back
            self.timers.arm(chat_id, evening.evening_id, evening.due)
            return
        if await self.db.end_evening(evening_id, evening.due, idle_since=evening.last_at):
            self._post_due(chat_id)

    def _post_due(self, chat_id: int) -> None:
        async def slot_due() -> None:
            game_id = self._after_game.pop(chat_id, None)
            while game_id is not None and ("group", game_id) in self.coalescer.pending_keys():
                await asyncio.sleep(SETTLE_POLL)
            await self.messenger.pacer.ready(chat_id)

        async def job() -> None:
            for evening in await self.db.unposted_evenings(chat_id):
                await self._post(evening)

        self.coalescer.request(("evening", chat_id), job, slot_due)

    async def _post(self, evening: Evening) -> None:
        """Post an ended evening's summary, then its chart, where the evening was played: in
        the topic of the table whose deal ended last (General if that topic is closed or
        gone, or the chat has none).

        At most once: the evening is marked posted just before its summary is sent, and
        marked back only if the send surely failed (it is tried again). A crash during the
        send, or a network failure after which Telegram may have shown it, loses the summary
        rather than post it twice: a second «who pays whom» can be paid twice, while a lost
        one loses no figure (the ledger, /balance, /stats and /history keep them all). The
        Bot API has no way to ask whether a message went out, so exactly once cannot be
        promised; this comes closest."""
        chat_id = evening.chat_id
        lang = await self.language(chat_id)
        summary = await self.db.evening_summary(evening)
        await self.db.mark_evening_posted(evening.evening_id)
        if not summary.deals:
            return
        names = await display_names(self.db, list(summary.nets), lang)
        text = evening_text(lang, summary, names)
        thread = summary.thread_id
        try:
            sent = await self.messenger.send(chat_id, text, strict=True, thread=thread)
            if sent is None and thread is not None:
                thread = None  # the topic is closed or deleted: General it is
                await self.messenger.pacer.ready(chat_id)
                sent = await self.messenger.send(chat_id, text, strict=True)
            moved = self.messenger.moved_to(chat_id) if sent is None else None
            if moved is not None:
                # the group became a supergroup as its summary went out: nothing was shown,
                # and the evening moved with the chat's data (``Presenter.chat_migrated``),
                # so it is posted there
                await self.db.mark_evening_posted(evening.evening_id, False)
                self._post_due(moved)
                return
        except Undelivered as error:
            if error.maybe_done:
                log.warning("evening %s may not have been posted: %s", evening.evening_id, error)
                return
            await self.db.mark_evening_posted(evening.evening_id, False)
            raise  # nothing went out: tried again in a moment
        if sent is None:
            return  # the chat refused it (the bot was removed, say): nowhere to post
        self.messenger.done_with(chat_id, sent)  # never edited: the messenger may forget it
        chart = await asyncio.to_thread(evening_chart, lang, summary, names)
        await self.messenger.pacer.ready(chat_id)
        await self.messenger.send_file(
            chat_id, "photo", chart, "evening.png", t(lang, "evening.chart_caption"), thread=thread
        )

    async def send_gap(self, chat_id: int, hours: str | None, admin: bool) -> str:
        """/evening gap [N]: the text that shows (or, for an admin, sets) the chat's gap."""
        lang = await self.language(chat_id)
        if hours is None:
            gap = await self.db.evening_gap(chat_id)
            return t(lang, "evening.gap_current", hours=hours_text(gap))
        value = whole_number(hours, *GAP_HOURS)
        if value is None:
            return t(lang, "evening.gap_usage")
        if not admin:
            return t(lang, "refuse.admin_only")
        await self.set_gap(chat_id, value)
        return t(lang, "evening.gap_set", hours=value)

    async def set_gap(self, chat_id: int, hours: int) -> None:
        """Store the chat's gap and move its running evening's end to match (/evening gap N
        and the /settings choice)."""
        await self.db.set_evening_gap(chat_id, hours * 3600.0)
        evening = await self.db.open_evening(chat_id)
        if evening is not None:
            self.timers.arm(chat_id, evening.evening_id, evening.due)
