"""How a hand message ends: the outcome of its deal written in when the deal ends, or its
buttons taken off; the closed table's last words in it after /stop now or a lost table; and
the header every hand message opens with. A part of ``bot.screens.hand_messages.Hands``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from bot import keyboards
from bot.games import ChatGames
from bot.messenger import Messenger, Rows
from bot.pacing import Coalescer, no_wait
from bot.render.common import esc, use_ranks
from bot.screens.hand import (
    outcome_text,
    stopped_text,
)
from locales import t
from storage.chat_display import ChatDisplay
from tables import (
    DealResult,
    Game,
    Loaded,
    TableMeta,
    TableService,
    is_practice,
)
from tables.people import People


class HandEndings:
    """The hand messages' last edits (mixed into ``Hands``, which sets the attributes)."""

    display: ChatDisplay
    tables: TableService
    games: ChatGames
    messenger: Messenger
    coalescer: Coalescer
    people: People
    _retiring: set[tuple[int, int, int]]
    _turn_shown: dict[tuple[int, int], float | None]

    async def content(self, loaded: Loaded, user_id: int) -> tuple[str, Rows | None]:
        """His hand message's text and buttons (``Hands.content``)."""
        raise NotImplementedError

    async def header(self, game: Game, lang: str) -> str:
        """The hand message's first line: which group (and forum topic) its table is in, for
        a player who sits at more than one («📍 Картёжники · Стол у окна»); none if the bot
        does not know the group's title."""
        if is_practice(game.chat_id):
            return t(lang, "hand.practice") + "\n"
        place = await self.people.place(game.chat_id, game.thread_id)
        return "" if place is None else t(lang, "hand.place", place=esc(place)) + "\n"

    async def retire_old(self, game_id: int, results: Sequence[DealResult] = ()) -> None:
        """The hand messages of deals that have ended (``Display.old_hands``: the commit that
        ended the deal made them old) are retired: each becomes its player's outcome when its
        deal's result is among ``results``, else it loses its buttons; then it is forgotten.
        Called after each such commit, and after a restart (with the results still due)."""
        game = await self.tables.store.game(game_id)
        by_deal = {result.deal: result for result in results}
        for old in game.old_hands:
            retiring = (game_id, old.user_id, old.message_id)
            if retiring in self._retiring:
                continue
            self._retiring.add(retiring)
            self._turn_shown.pop((game_id, old.user_id), None)
            result = by_deal.get(old.deal)
            text = None
            rows = None
            if result is not None and old.user_id in result.seats:
                text = await self._outcome(game, result, old.user_id)
                if is_practice(game.chat_id) and _last_deal(game, result):
                    # the practice table's last word: its game again, from the same chat
                    lang = await self.people.chat_language(old.user_id)
                    rows = keyboards.again_keyboard(lang, game_id)
            self.coalescer.request(
                ("old hand", old.user_id, old.message_id),
                self._retire(game_id, old.user_id, old.message_id, text, rows),
                no_wait,
            )

    async def _outcome(self, game: Game, result: DealResult, user: int) -> str:
        """His hand message of a finished deal, as it is left: his outcome."""
        seat = result.seats.index(user)
        lang = await self.people.chat_language(user)
        names = await self.people.names(result.seats, lang)
        use_ranks(lang, await self.people.chat_ranks(game.chat_id))
        if is_practice(game.chat_id):
            return await self._practice_outcome(game, result, lang, names)
        played = next((p for p in result.players if p.seat == seat), None)
        # a deal in which nobody took a trick was not played (a lone knocker took the pot):
        # no «0 tricks» for him
        had_play = any(p.tricks for p in result.players)
        return outcome_text(
            lang,
            await self.header(game, lang)
            + self.games.shown(result.table).outcome_text(lang, names, seat),
            tricks=played.tricks if played is not None and played.active and had_play else None,
            money=result.money.get(user, {}),
            balance=result.balances.get(user, 0),
        )

    async def _practice_outcome(
        self, game: Game, result: DealResult, lang: str, names: list[str]
    ) -> str:
        """A practice deal's hand message, as it is left: the deal's result for every seat
        (what a group's table message becomes: each one's tricks and chips, the pot carried
        over, the balances), since no table message shows it; and, after the table's last
        deal, that the table is closed."""
        balances = {seat: result.balances.get(user, 0) for seat, user in enumerate(result.seats)}
        money = {seat: result.money.get(user, {}) for seat, user in enumerate(result.seats)}
        text = await self.header(game, lang) + self.games.shown(result.table).result_text(
            lang, names, balances, money
        )
        if _last_deal(game, result):
            text += "\n\n" + t(lang, "practice.closed")
        return text

    def _retire(
        self, game_id: int, user: int, message_id: int, text: str | None, rows: Rows | None = None
    ) -> Callable[[], Awaitable[None]]:
        """An old hand message's last edit (to ``text`` with the buttons ``rows``, or its
        buttons off), then it is forgotten: a crash before that leaves it to be retired after
        the restart."""
        final_edit = self._final_edit(user, message_id, text, rows) if text is not None else None

        async def job() -> None:
            if final_edit is not None:
                await final_edit()
            else:
                await self.messenger.drop_buttons(user, message_id)
            await self.display.forget_hand_message(game_id, user, message_id)
            self._retiring.discard((game_id, user, message_id))

        return job

    async def table_stopped(self, game_id: int) -> None:
        """A table closed without a result (/stop now): each hand message keeps its cards,
        loses its prompt and buttons, and says the table is closed."""
        game = await self.tables.store.game(game_id)
        loaded = await self.tables.store.snapshot(game)
        jobs = []
        for user, message_id in game.hand_messages.items():
            if not message_id:
                continue
            lang = await self.people.chat_language(user)
            use_ranks(lang, await self.people.chat_ranks(game.chat_id))
            text, _ = await self.content(loaded, user)
            jobs.append((user, message_id, stopped_text(lang, text)))
        await self._last_edits(game_id, jobs)

    async def _last_edits(self, game_id: int, jobs: list[tuple[int, int, str]]) -> None:
        """Each (user, message, text): the message is his hand no more, and is edited a last
        time to the text, without buttons."""
        # one batch of writes (see storage's group commit), not one commit after another
        await asyncio.gather(
            *(self.display.forget_hand_message(game_id, u, message_id) for u, message_id, _ in jobs)
        )
        for user, message_id, text in jobs:
            self._turn_shown.pop((game_id, user), None)
            self.coalescer.request(
                ("old hand", user, message_id),
                self._final_edit(user, message_id, text),
                no_wait,
            )

    def _final_edit(
        self, chat_id: int, message_id: int, text: str, rows: Rows | None = None
    ) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            if await self.messenger.edit(chat_id, message_id, text, rows):
                self.messenger.done_with(chat_id, message_id)
            else:
                await self.messenger.drop_buttons(chat_id, message_id)

        return job

    def _buttons_dropper(self, chat_id: int, message_id: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            await self.messenger.drop_buttons(chat_id, message_id)

        return job

    def lost(
        self, game: Game, user: int, message_id: int, reason: str
    ) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            loaded = await self.tables.store.snapshot(game)
            text, _ = await self.content(loaded, user)
            lang = await self.people.chat_language(user)
            note = t(lang, f"announce.{reason}")
            await self.messenger.show(user, message_id, f"{text}\n\n{note}", None)
            await self.display.forget_hand_message(game.game_id, user, message_id)

        return job


def _last_deal(game: Game, result: DealResult) -> bool:
    """Whether ``result`` is the last deal of a table that has closed."""
    finished = TableMeta.from_json(game.state.get("table")).deals
    return not game.is_open and result.deal >= finished - 1
