"""💡 on a hand message: the strong computer's advice for the player's seat (the table
service's, ``TableService.advise``), named as the button of his own keyboard that makes it (a
part of ``Hands``)."""

from __future__ import annotations

import logging

from bot import callback as cb
from bot.games import ChatGames
from bot.messenger import Alert
from bot.render.common import use_ranks
from bot.render.hint import NoButton, hint_text, keyboard_buttons
from tables import Loaded, Refused, TableService
from tables.people import People

log = logging.getLogger(__name__)


class HandHints:
    """The hints of ``Hands``: whether a turn offers one, and the answer to 💡."""

    tables: TableService
    games: ChatGames
    people: People

    async def _offers_hints(self, loaded: Loaded) -> bool:
        """Whether his turn offers 💡: at a practice table, or where the group allows it, in
        a game the computers play."""
        return await self.tables.hints.offered(loaded)

    async def press_hint(self, data: cb.Hint, user_id: int) -> str:
        """💡 at his turn: the strong computer's choice for his seat and why (thought out once
        a turn by the table service, the page's 💡 asks the same), named as the button of his
        keyboard that makes it. A hint that cannot be worked out is answered with a word (and
        logged), never left unanswered."""
        advised = await self.tables.hints.advise(data.game_id, user_id, data.version)
        loaded, seat, advice = advised.loaded, advised.seat, advised.advice
        assert loaded.table is not None
        game = loaded.game
        lang = await self.people.chat_language(user_id)
        use_ranks(lang, await self.people.chat_ranks(game.chat_id))
        table = self.games.shown(loaded.table)
        try:
            buttons = keyboard_buttons(
                self.games.codec,
                lang,
                advice,
                lambda mask: table.keyboard(
                    self.games.codec, lang, seat, data.game_id, data.version, mask
                ),
                loaded.table.holding(seat),
            )
        except NoButton:
            log.exception("a hint names no button: game %s, user %s", data.game_id, user_id)
            raise Refused("hint_failed") from None
        return Alert(hint_text(self.games.games.words, lang, advice, buttons))
