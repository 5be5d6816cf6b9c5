"""The program's games for the tests (``server.games``): its catalogues, and a library with toy
games of a test's own beside them (``with_games``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import locales
from bot.games import ChatGames
from server.games import LIBRARY, OFFERED, Library, Offered
from web import views
from web.view_parts import Json, TableInfo

GAMES = LIBRARY.games
CHAT = LIBRARY.chat
PAGES = LIBRARY.pages


def seat_view(kind: str, state: object, seat: int, info: TableInfo) -> Json:
    """What the page of ``seat`` shows of ``state``, a state of the game ``kind``."""
    return views.seat_view(PAGES.of(kind), state, seat, info)


@contextmanager
def with_games(*extra: Offered) -> Iterator[Library]:
    """A library of the program's games and ``extra`` after them; once done, the texts the
    extra games brought leave the catalogue and the buttons carry the program's games again,
    so that no test sees another's toys."""
    library = Library((*OFFERED, *extra))
    try:
        yield library
    finally:
        for entry in extra:
            for lang, entries in entry.game.texts.items():
                locales.remove_entries(lang, entries)
        ChatGames(GAMES, CHAT)
