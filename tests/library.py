"""The program's games for the tests (``server.games``): its catalogues, the codec of its
buttons and its tools' games, a library with toy games of a test's own beside them
(``library_with``), and any game's rules by its kind (``rules_for``)."""

from __future__ import annotations

from game.registry import GameRules
from server.games import LIBRARY, OFFERED, Library, Offered
from tests.plugin import highcard, kopilka, tricks
from web import views
from web.view_parts import Json, TableInfo

GAMES = LIBRARY.games
CHAT = LIBRARY.chat
#: what the program's buttons carry (the chat's ``bot.callback.Codec``)
CODEC = CHAT.codec
PAGES = LIBRARY.pages
#: every word of the program's games: the shared catalogue with each game's own
WORDS = GAMES.words
TOOLS = LIBRARY.tools
#: the toy games of ``tests/plugin``, which a test offers beside the program's (``library_with``)
TOYS = (tricks.OFFERED, highcard.OFFERED, kopilka.OFFERED)


def rules_for(kind: str) -> GameRules:
    """The rules of the program's game or the toy game ``kind`` (``ValueError`` for another):
    what a test that reads a stored state of any game asks."""
    rules = [*(game.rules for game in TOOLS), *(toy.game.rules for toy in TOYS)]
    for each in rules:
        if each.kind == kind:
            return each
    raise ValueError(f"unknown game {kind!r}")


def seat_view(kind: str, state: object, seat: int, info: TableInfo) -> Json:
    """What the page of ``seat`` shows of ``state``, a state of the game ``kind``."""
    return views.seat_view(PAGES.of(kind), state, seat, info)


def library_with(*extra: Offered) -> Library:
    """A library of the program's games and ``extra`` after them (its buttons are its chat's:
    ``library.chat.codec``; its words, ``library.words``)."""
    return Library((*OFFERED, *extra))
