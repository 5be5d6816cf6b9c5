"""💡 on a hand message: the strong computer's advice for the player's seat, named as the
button of his own keyboard that makes it (a part of ``Hands``)."""

from __future__ import annotations

import asyncio
import logging

from bot import callback as cb
from bot.games import shown
from bot.messenger import Alert
from bot.render.common import use_ranks
from bot.render.hint import NoButton, hint_text, keyboard_buttons
from bot.screens.people import People
from game.ai import Advice
from storage.database import Database
from tables import Loaded, Refused, TableService

log = logging.getLogger(__name__)


class HandHints:
    """The hints of ``Hands``: whether a turn offers one, and the answer to 💡."""

    db: Database
    tables: TableService
    people: People
    _hints: dict[tuple[int, int], tuple[tuple[int, bool], asyncio.Future[Advice]]]

    async def _offers_hints(self, loaded: Loaded) -> bool:
        """Whether his turn offers 💡: at a practice table, or where the group allows it, in
        a game the computers play."""
        return loaded.plugin.has_computers and await self.tables.hints_of(loaded.game.chat_id)

    async def press_hint(self, data: cb.Hint, user_id: int) -> str:
        """💡 at his turn: the strong computer's choice for his seat and why, thought out from
        his seat's view (``TableService.hint_view``) off the event loop, and named as the
        button of his keyboard that makes it; asked again at the same turn, the same answer
        without thinking twice. A hint that cannot be worked out is answered with a word (and
        logged), never left unanswered."""
        key = (data.game_id, user_id)
        seated = await self.tables.hint_view(data.game_id, user_id, data.version)
        game = await self.db.game(data.game_id)
        loaded = await self.tables.snapshot(game)
        seat = loaded.seat_of(user_id)
        if loaded.table is None or seat is None:
            raise Refused("outdated")
        # a look changes what he may do at the same turn: the hint is thought out again
        stamp = (data.version, loaded.table.holding(seat).looked)
        kept = self._hints.get(key)
        if kept is None or kept[0] != stamp:
            kept = (stamp, asyncio.ensure_future(self.tables.thinker.advise(seated)))
            self._hints[key] = kept
        try:
            advice = await asyncio.shield(kept[1])
        except Exception:
            self._hints.pop(key, None)
            log.exception("a hint failed: game %s, user %s", data.game_id, user_id)
            raise Refused("hint_failed") from None
        loaded = await self.tables.snapshot(game)
        if loaded.table is None or (loaded.meta.turn, loaded.table.holding(seat).looked) != stamp:
            raise Refused("outdated")  # he moved or looked (or the clock moved) meanwhile
        lang = await self.people.chat_language(user_id)
        use_ranks(lang, await self.people.chat_ranks(game.chat_id))
        table = shown(loaded.table)
        try:
            buttons = keyboard_buttons(
                lang,
                advice,
                lambda mask: table.keyboard(lang, seat, data.game_id, data.version, mask),
                loaded.table.holding(seat),
            )
        except NoButton:
            log.exception("a hint names no button: game %s, user %s", data.game_id, user_id)
            raise Refused("hint_failed") from None
        return Alert(hint_text(lang, advice, buttons))
