"""The registry of games: every game the tables offer, each a plugin (``tables.games.plugin``).

No list names the games: every module here that defines a ``PLUGIN`` is one, offered in the
order of its ``PLACE`` (where it stands in menus and lists). A new game is one package for its
rules (``game/``), one module for its table side (here: its choices, options menu and computer
players) and one for each front-end's presentation (``bot.games``, ``web.games``) — or, for a
test, one call of ``register`` in each.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import locales
from game.plugins import modules_with
from tables.games.plugin import Choice, GamePlugin, OptionsMenu, Plugin, StatField, Table

__all__ = [
    "Choice",
    "GamePlugin",
    "OptionsMenu",
    "Plugin",
    "StatField",
    "Table",
    "choice",
    "game_for",
    "games",
    "register",
    "unregister",
]

GAMES: dict[str, Plugin] = {}


def register(game: Plugin) -> None:
    """Offer ``game``: its kind, its choices' names and aliases, and its callback codes must be
    new (``ValueError`` otherwise)."""
    if game.kind in GAMES:
        raise ValueError(f"game {game.kind!r} is registered already")
    names = {word for known in games() for c in known.choices for word in (c.name, *c.aliases)}
    codes = {c.code for known in games() for c in known.choices}
    menus = {known.menu.code for known in games()}
    for item in game.choices:
        if {item.name, *item.aliases} & names or item.code in codes:
            raise ValueError(f"choice {item.name!r} clashes with a registered one")
    if game.menu.code in menus:
        raise ValueError(f"options menu code {game.menu.code!r} is taken")
    added: list[str] = []
    try:
        for lang, entries in game.texts.items():
            locales.add_entries(lang, entries)
            added.append(lang)
    except ValueError:
        for lang in added:
            locales.remove_entries(lang, game.texts[lang])
        raise
    GAMES[game.kind] = game


def unregister(kind: str) -> None:
    """Withdraw a game (tests that register one of their own), with the texts it brought."""
    game = GAMES.pop(kind, None)
    if game is not None:
        for lang, entries in game.texts.items():
            locales.remove_entries(lang, entries)


def games() -> Iterator[Plugin]:
    """Every registered game, in registration order."""
    return iter(list(GAMES.values()))


def game_for(kind: str) -> Plugin:
    """The game of a stored table (``ValueError`` for a kind nobody registered)."""
    try:
        return GAMES[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}") from None


def choice(word: str) -> tuple[Plugin, Choice] | None:
    """The game and choice ``/new <word>`` or ``/rules <word>`` means (a name or an alias, any
    case), or None."""
    word = word.lower()
    for game in games():
        for item in game.choices:
            if word == item.name or word in item.aliases:
                return game, item
    return None


def _in_place_order(modules: list[ModuleType]) -> list[ModuleType]:
    """The game modules by their ``PLACE``, each place taken once (``ValueError`` else)."""
    places: dict[int, str] = {}
    for module in modules:
        place = getattr(module, "PLACE", None)
        if not isinstance(place, int):
            raise ValueError(f"{module.__name__} defines PLUGIN but no PLACE")
        if place in places:
            raise ValueError(f"{module.__name__} and {places[place]} both take PLACE {place}")
        places[place] = module.__name__
    return sorted(modules, key=lambda module: int(module.PLACE))


for _module in _in_place_order(modules_with(__name__, "PLUGIN")):
    register(_module.PLUGIN)
