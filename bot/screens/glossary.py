"""First-use glosses: the words of the game a newcomer cannot know (шлейф, разрез, ремиз) are
explained in one line under his hand message in the first deal where his hand shows them, and
in that deal only.

"First use" is per player, whatever the table or the group: the deal (game, deal number) in
which each word first came up for him is stored in the chat's display storage, so a later
deal, another table or a restart never explains it again, and every edit of that first deal's
hand message keeps the line. Each game names its words (``ChatGame.terms``); they are found in
the hand's rendered text, so whichever game or screen brings a word up, the gloss follows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from locales import Words
from storage.chat_display import ChatDisplay
from tables.bounded import Recent

KEPT: Final = 4096
_TAG = re.compile(r"<[^>]+>")


class Glossary:
    """Which words each player has met, and the lines that explain the new ones."""

    def __init__(
        self,
        display: ChatDisplay,
        terms: Sequence[str],
        words: Words,
        clock: Callable[[], float],
    ) -> None:
        self.display = display
        #: the table service's clock, that what is stored is stamped with
        self.clock = clock
        #: the words the games name (``ChatGame.terms``)
        self.terms = tuple(terms)
        #: the games' words, which explain them (``gloss.<term>``)
        self.words = words
        self._met: Recent[int, dict[str, list[int]]] = Recent(KEPT)

    async def lines(self, user_id: int, lang: str, text: str, game_id: int, deal: int) -> str:
        """The glosses to add under ``text``, a hand message of deal ``deal`` of game
        ``game_id`` (an empty string when there are none): the words it shows that the
        player met first in this deal, or meets now."""
        plain = _TAG.sub("", text).lower()
        named = [term for term in self.terms if self.words.t(lang, f"gloss.word.{term}") in plain]
        if not named:
            return ""
        met = await self._read(user_id)
        here = [game_id, deal]
        shown = []
        first = False
        for term in named:
            if term not in met:
                met[term] = here
                first = True
            elif met[term] != here:
                continue
            shown.append(self.words.t(lang, f"gloss.{term}"))
        if first:
            await self._write(user_id, met)
        return "\n\n" + "\n".join(shown) if shown else ""

    async def _read(self, user_id: int) -> dict[str, list[int]]:
        if user_id in self._met:
            return self._met.get(user_id) or {}
        met = await self.display.glossary(user_id)
        self._met[user_id] = met
        return met

    async def _write(self, user_id: int, met: dict[str, list[int]]) -> None:
        await self.display.set_glossary(user_id, met, now=self.clock())
        self._met[user_id] = met
