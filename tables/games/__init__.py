"""The games the tables offer (``Catalogue``): one frozen catalogue of game plugins
(``tables.games.plugin``), in menu order, that the composition root builds from its one list
of the games (``server.games``) and hands to the table service and the front-ends.

Nothing here finds a game by itself and nothing registers one later: a catalogue is built
whole, checked whole (no two games share a kind, a /new word, a callback code or a menu code)
and never changes. A test builds one of its own with its toy games.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from locales import Words
from tables.games.plugin import Choice, GamePlugin, OptionsMenu, Plugin, StatField, Table

__all__ = ["Catalogue", "Choice", "GamePlugin", "OptionsMenu", "Plugin", "StatField", "Table"]


class Catalogue:
    """The games offered, in the order menus and lists show them: a game by its kind
    (``of``), by the word /new or /rules takes (``choice``), and the catalogue of every word
    they say (``words``: the shared entries with each game's own; two games giving one key
    two texts is a ``ValueError``). Built once."""

    __slots__ = ("_by_kind", "words")

    def __init__(self, games: Iterable[Plugin]) -> None:
        by_kind: dict[str, Plugin] = {}
        words: set[str] = set()
        codes: set[str] = set()
        menus: set[str] = set()
        for game in games:
            if game.rules.kind in by_kind:
                raise ValueError(f"game {game.rules.kind!r} is in the list twice")
            for item in game.choices:
                if {item.name, *item.aliases} & words or item.code in codes:
                    raise ValueError(f"choice {item.name!r} clashes with another game's")
                words |= {item.name, *item.aliases}
                codes.add(item.code)
            if game.menu.code in menus:
                raise ValueError(f"options menu code {game.menu.code!r} is taken")
            menus.add(game.menu.code)
            by_kind[game.rules.kind] = game
        self._by_kind = by_kind
        self.words = Words(*(game.texts for game in by_kind.values()))

    def __iter__(self) -> Iterator[Plugin]:
        return iter(self._by_kind.values())

    def __len__(self) -> int:
        return len(self._by_kind)

    def __contains__(self, kind: object) -> bool:
        return kind in self._by_kind

    def of(self, kind: str) -> Plugin:
        """The game of a stored table (``ValueError`` for a kind not offered)."""
        try:
            return self._by_kind[kind]
        except KeyError:
            raise ValueError(f"unknown game {kind!r}") from None

    def choice(self, word: str) -> tuple[Plugin, Choice] | None:
        """The game and choice ``/new <word>`` or ``/rules <word>`` means (a name or an
        alias, any case), or None."""
        word = word.lower()
        for game in self:
            for item in game.choices:
                if word == item.name or word in item.aliases:
                    return game, item
        return None
