"""The games as the Mini App shows them (``PageGames``): each game's page
(``web.games.plugin``), keyed to the table service's catalogue of games (``tables.games``).

The composition root (``server.games``) builds it from its one list of the games; nothing here
finds a game by itself. A game of the catalogue without a page is not shown on the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tables.games import Catalogue
from web.games.plugin import GamePage, PageGame

__all__ = ["GamePage", "PageGame", "PageGames"]


class PageGames:
    """The games the page shows, in the catalogue's order, each by its kind (``of``)."""

    __slots__ = ("_by_kind", "games")

    def __init__(self, games: Catalogue, pages: Iterable[PageGame]) -> None:
        by_kind = {page.game.rules.kind: page for page in pages}
        for kind, page in by_kind.items():
            if kind not in games or games.of(kind) is not page.game:
                raise ValueError(f"the page shows {kind!r}, not a game of the catalogue")
        #: the games themselves (the table service's catalogue)
        self.games = games
        self._by_kind = {
            game.rules.kind: by_kind[game.rules.kind]
            for game in games
            if game.rules.kind in by_kind
        }

    def __iter__(self) -> Iterator[PageGame]:
        return iter(self._by_kind.values())

    def __contains__(self, kind: object) -> bool:
        return kind in self._by_kind

    def of(self, kind: str) -> PageGame:
        """The page of a game (``ValueError`` for a kind the page does not show)."""
        try:
            return self._by_kind[kind]
        except KeyError:
            raise ValueError(f"unknown game {kind!r}") from None
