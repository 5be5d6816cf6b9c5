"""Evenings: when a chat's run of play ends.

Storage keeps the evenings (``storage.evenings``): the commit that ends a deal extends the
chat's evening or starts the next one. Here an evening ends when the chat's gap passes with
no deal (an asyncio timer per chat, ``tables.timers.Timers``, armed for the last deal's end
plus the gap, and armed again after a restart), when the group's last open table ends (by
/stop or by its game's own end: ``took``, given every change the service publishes), or at
/evening when no table of the chat is open; a chat's ended evenings not posted yet are
published to the front-ends (``events.EveningEnded``), which post each summary once
(``claim``: at most once, the summary's figures from ``storage.evenings``). /evening while a
table is open ends nothing: it shows the evening so far (``so_far``), and the closing summary,
when it comes, covers the whole evening.

A practice table (a player's own, against the computers) has no evening: nobody settles up
with a computer, and its deals' results are in its player's hand messages already.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from storage.database_games import Games
from storage.database_money import Evenings as StoredEvenings

# re-exported: the front-ends read an evening through the service
from storage.evenings import Evening as Evening
from storage.evenings import EveningSummary as EveningSummary
from storage.records import Game
from tables.arguments import whole_number
from tables.events import EveningEnded, Record, TableEvent
from tables.figures import deal_figures
from tables.games import Catalogue
from tables.listener import TableListener
from tables.records import is_practice
from tables.timers import Timers

GAP_HOURS = (1, 12)  # what /evening gap N accepts


class Evenings(TableListener):
    """Ends evenings and publishes the ended ones to the front-ends; the last listener of the
    tables' stream (a deal ended, a table closed)."""

    def __init__(
        self,
        stored: StoredEvenings,
        games: Games,
        catalogue: Catalogue,
        publish: Callable[[Record], Awaitable[None]],
        clock: Callable[[], float],
        *,
        stepped: bool = False,
    ) -> None:
        self.stored = stored
        self.games = games
        #: a deal's figures of its game's own, as the evening's summary counts them
        self._count = functools.partial(deal_figures, catalogue)
        #: the tables' stream (``events.Stream.publish``)
        self.publish = publish
        self.timers = Timers(self._gap_passed, clock, stepped=stepped)

    @property
    def clock(self) -> Callable[[], float]:
        return self.timers.clock

    async def deal_ended(self, chat_id: int) -> None:
        """A deal of the chat ended: arm the gap's timer; post an evening the deal's commit
        ended (the pause before it was longer than the gap, say while the bot was down)."""
        if is_practice(chat_id):
            return
        evening = await self.stored.open_evening(chat_id)
        if evening is not None:
            self.timers.arm(chat_id, evening.evening_id, evening.due)
        if await self.stored.unposted_evenings(chat_id):
            await self._due(chat_id)

    async def took(self, record: Record) -> None:
        """The service publishes a change of a table: a deal that ended goes on the chat's
        evening, and a table that ended (stopped by /stop, its game won, nobody left at it)
        ends the evening if it was the group's last open table (the evening is the group's,
        over all its topics): its summary comes right after the table's last messages, not a
        gap later."""
        if not isinstance(record, TableEvent):
            return  # (its own, and the results due: nothing for an evening)
        event = record
        if event.lost:
            return  # (its group is gone: the evening ends by its gap)
        game = event.game
        if event.results:
            await self.deal_ended(game.chat_id)
        if event.closed:
            others = await self.games.chat_open_games(game.chat_id)
            if not any(other.game_id != game.game_id for other in others):
                await self.end_now(game.chat_id, after_game=game.game_id)

    async def playing(self, chat_id: int) -> bool:
        """Whether a table of the chat is open (a lobby or a game): its evening goes on, and
        /evening shows it so far rather than ending it."""
        return bool(await self.games.chat_open_games(chat_id))

    async def so_far(self, chat_id: int) -> EveningSummary | None:
        """The chat's evening that goes on, its deals up to now, ending nothing; None before
        its first deal."""
        if is_practice(chat_id):
            return None
        return await self._summary(await self.stored.open_evening(chat_id))

    async def last(self, chat_id: int) -> EveningSummary | None:
        """The chat's evening that goes on, else the last one that ended (a closed table's
        evening: its summary may be posted already), its deals up to now; None before any."""
        if is_practice(chat_id):
            return None
        return await self._summary(await self.stored.last_evening(chat_id))

    async def _summary(self, evening: Evening | None) -> EveningSummary | None:
        """``evening``'s deals up to now; None for no evening, or one without a deal."""
        if evening is None:
            return None
        summary = await self.stored.evening_summary(evening, self._count)
        return summary if summary.deals else None

    async def summary_follows(self, game: Game) -> bool:
        """Whether the end of ``game``'s table ends the evening with a summary to post: it was
        the group's last open table, and the evening has a deal (``took``)."""
        if is_practice(game.chat_id):
            return False
        others = await self.games.chat_open_games(game.chat_id)
        if any(other.game_id != game.game_id for other in others):
            return False
        evening = await self.stored.open_evening(game.chat_id)
        return evening is not None or bool(await self.stored.unposted_evenings(game.chat_id))

    async def end_now(self, chat_id: int, after_game: int | None = None) -> bool:
        """/evening with no table open, or the group's last table ended: end the chat's
        evening now and post it, after the table messages of ``after_game``. False if there
        was nothing to post."""
        if is_practice(chat_id):
            return False
        evening = await self.stored.open_evening(chat_id)
        if evening is not None:
            self.timers.cancel(chat_id)
            await self.stored.end_evening(evening.evening_id, self.clock())
        if not await self.stored.unposted_evenings(chat_id):
            return False
        await self._due(chat_id, after_game)
        return True

    async def resume(self) -> None:
        """After a restart: arm every open evening's timer, post what is still due."""
        for evening in await self.stored.open_evenings():
            if not is_practice(evening.chat_id):
                self.timers.arm(evening.chat_id, evening.evening_id, evening.due)
        for evening in await self.stored.unposted_evenings():
            if not is_practice(evening.chat_id):
                await self._due(evening.chat_id)

    async def unposted(self, chat_id: int) -> list[Evening]:
        """The chat's ended evenings whose summary is not posted yet, oldest first."""
        return await self.stored.unposted_evenings(chat_id)

    async def claim(self, evening: Evening) -> EveningSummary | None:
        """An ended evening about to be posted: its summary, the evening marked posted first;
        None if it has nothing to post (no deal counted).

        At most once: the evening is marked posted just before its summary is sent, and
        marked back (``unclaim``) only if the send surely failed (it is tried again). A
        crash during the send, or a network failure after which the chat may have shown it,
        loses the summary rather than post it twice: a second «who pays whom» can be paid
        twice, while a lost one loses no figure (the ledger, /balance, /stats and /history
        keep them all). A chat's API may have no way to ask whether a message went out, so
        exactly once cannot be promised; this comes closest."""
        summary = await self.stored.evening_summary(evening, self._count)
        await self.stored.mark_evening_posted(evening.evening_id)
        return summary if summary.deals else None

    async def unclaim(self, evening: Evening) -> None:
        """Its summary surely did not go out: post it again with the chat's next ones."""
        await self.stored.mark_evening_posted(evening.evening_id, False)

    async def _gap_passed(self, chat_id: int, evening_id: int) -> None:
        evening = await self.stored.open_evening(chat_id)
        if evening is None or evening.evening_id != evening_id:
            return
        if self.clock() < evening.due:  # a deal ended meanwhile, or the clock went back
            self.timers.arm(chat_id, evening.evening_id, evening.due)
            return
        if await self.stored.end_evening(evening_id, evening.due, idle_since=evening.last_at):
            await self._due(chat_id)

    async def _due(self, chat_id: int, after_game: int | None = None) -> None:
        await self.publish(EveningEnded(chat_id, after_game))

    @staticmethod
    def gap_hours(text: str) -> int | None:
        """The gap ``/evening gap N`` asks for, or None if ``text`` is not one."""
        return whole_number(text, *GAP_HOURS)

    async def gap(self, chat_id: int) -> float:
        """The chat's gap: the seconds without a deal that end its evening."""
        return await self.stored.evening_gap(chat_id)

    async def set_gap(self, chat_id: int, hours: int) -> None:
        """Store the chat's gap and move its running evening's end to match (/evening gap N
        and the /settings choice)."""
        await self.stored.set_evening_gap(chat_id, hours * 3600.0)
        evening = await self.stored.open_evening(chat_id)
        if evening is not None:
            self.timers.arm(chat_id, evening.evening_id, evening.due)
