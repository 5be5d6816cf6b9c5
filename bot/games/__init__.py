"""The games as the chat shows them (``ChatGames``): each game's presentation
(``bot.games.plugin``), keyed to the table service's catalogue of games (``tables.games``).

The composition root (``server.games``) builds it from its one list of the games; nothing here
finds a game by itself. It owns the codec of the games' buttons (``codec``): their moves, /new
choices and options menus on the wire.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from bot import callback
from bot.games.plugin import ChatGame, GameScreens, Keyboard, Screens, Shown
from tables.games import (
    Catalogue,
    Choice,
    GamePlugin,
    OptionsMenu,
    Plugin,
    StatField,
    Table,
)

__all__ = [
    "Catalogue",
    "ChatGame",
    "ChatGames",
    "Choice",
    "GamePlugin",
    "GameScreens",
    "Keyboard",
    "OptionsMenu",
    "Plugin",
    "Screens",
    "Shown",
    "StatField",
    "Table",
]


class ChatGames:
    """Every game of ``games`` with its chat presentation, in the catalogue's order: its
    screens by kind (``of``), a running table's (``shown``), the words the glossary explains
    (``terms``), the codec of their buttons (``codec``). ``ValueError`` for a game without a
    presentation, one of another catalogue, or moves or choices that clash on the buttons."""

    __slots__ = ("_by_kind", "codec", "games", "terms")

    def __init__(self, games: Catalogue, shown: Iterable[ChatGame]) -> None:
        by_kind = {game.game.rules.kind: game for game in shown}
        for kind, game in by_kind.items():
            if kind not in games or games.of(kind) is not game.game:
                raise ValueError(f"the chat shows {kind!r}, not a game of the catalogue")
        missing = [game.rules.kind for game in games if game.rules.kind not in by_kind]
        if missing:
            raise ValueError(f"no chat presentation for {', '.join(missing)}")
        #: the games themselves (the table service's catalogue)
        self.games = games
        self._by_kind = {game.rules.kind: by_kind[game.rules.kind] for game in games}
        #: the words of every game the glossary explains (``ChatGame.terms``), each once
        self.terms: tuple[str, ...] = tuple(
            dict.fromkeys(term for game in self._by_kind.values() for term in game.terms)
        )
        #: what the buttons of these games carry (``bot.callback.Codec``)
        self.codec = callback.Codec.of(
            (game.verbs for game in self._by_kind.values()),
            {item.name: item.code for game in games for item in game.choices},
            {game.rules.kind: game.menu.code for game in games},
        )

    def __iter__(self) -> Iterator[ChatGame]:
        return iter(self._by_kind.values())

    def of(self, kind: str) -> ChatGame:
        """The chat side of a game (``ValueError`` for a kind not offered)."""
        try:
            return self._by_kind[kind]
        except KeyError:
            raise ValueError(f"unknown game {kind!r}") from None

    def shown(self, table: Table) -> Shown:
        """One running table as the chat shows it."""
        return self.of(table.kind).show(table)
