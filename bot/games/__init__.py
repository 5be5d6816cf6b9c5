"""The games as the chat shows them: each game's presentation (``bot.games.plugin``) by kind.

The games themselves are registered in ``tables.games``; this registry pairs each with its
screens. A new game's chat side is one package here that defines ``PLUGIN``, found without a
list and shown in the tables' order — or, for a test, one call of ``register``.
"""

from __future__ import annotations

from bot import callback
from bot.games.plugin import ChatGame, GameScreens, Keyboard, Screens, Shown
from game.plugins import in_order, modules_with
from tables import games as table_games
from tables.games import (
    Choice,
    GamePlugin,
    OptionsMenu,
    Plugin,
    StatField,
    Table,
    choice,
    game_for,
    games,
)

__all__ = [
    "ChatGame",
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
    "chat_game",
    "choice",
    "game_for",
    "games",
    "register",
    "shown",
    "terms",
    "unregister",
]

SHOWN: dict[str, ChatGame] = {}


def register(game: ChatGame) -> None:
    """Show ``game`` in the chat; its table side is registered in ``tables.games`` too if it
    is not yet (``ValueError`` for a kind shown already, or a clash there)."""
    if game.kind in SHOWN:
        raise ValueError(f"game {game.kind!r} is registered already")
    verbs = callback.merged_verbs(*(known.verbs for known in SHOWN.values()), game.verbs)
    if table_games.GAMES.get(game.kind) is not game.game:
        table_games.register(game.game)
    SHOWN[game.kind] = game
    callback.use_verbs(verbs)


def unregister(kind: str) -> None:
    """Withdraw a game (tests that register one of their own), its table side too."""
    SHOWN.pop(kind, None)
    table_games.unregister(kind)
    callback.use_verbs(callback.merged_verbs(*(known.verbs for known in SHOWN.values())))


def terms() -> list[str]:
    """The words of every shown game the glossary explains (``ChatGame.terms``), each once, in
    registration order."""
    return list(dict.fromkeys(term for game in SHOWN.values() for term in game.terms))


def chat_game(kind: str) -> ChatGame:
    """The chat side of a registered game (``ValueError`` for a kind nobody registered)."""
    try:
        return SHOWN[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}") from None


def shown(table: Table) -> Shown:
    """One running table as the chat shows it."""
    return chat_game(table.kind).show(table)


for _module in sorted(
    modules_with(__name__, "PLUGIN"),
    key=lambda module: in_order(list(table_games.GAMES), module.PLUGIN.kind),
):
    register(_module.PLUGIN)
