"""The games as the Mini App shows them: each game's page (``web.games.plugin``) by kind.

The games themselves are registered in ``tables.games``; this registry pairs each with its
page view. No list names them: a new game's page is one module here that defines ``PAGE``,
found without a list and shown in the tables' order — or, for a test, one call of
``register``.
"""

from __future__ import annotations

from game.plugins import in_order, modules_with
from tables import games as table_games
from web.games.plugin import GamePage, PageGame

__all__ = ["GamePage", "PageGame", "games", "page_game", "register", "shown", "unregister"]

PAGES: dict[str, PageGame] = {}


def register(game: PageGame) -> None:
    """Show ``game`` on the page (``ValueError`` for a kind shown already)."""
    if game.kind in PAGES:
        raise ValueError(f"game {game.kind!r} is registered already")
    PAGES[game.kind] = game


def unregister(kind: str) -> None:
    """Withdraw a game's page (tests that register one of their own)."""
    PAGES.pop(kind, None)


def games() -> list[PageGame]:
    """Every game the page shows, in registration order."""
    return list(PAGES.values())


def shown(kind: str) -> bool:
    """Whether the page shows tables of ``kind``."""
    return kind in PAGES


def page_game(kind: str) -> PageGame:
    """The page of a registered game (``ValueError`` for a kind nobody registered)."""
    try:
        return PAGES[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}") from None


for _module in sorted(
    modules_with(__name__, "PAGE"),
    key=lambda module: in_order(list(table_games.GAMES), module.PAGE.kind),
):
    register(_module.PAGE)
