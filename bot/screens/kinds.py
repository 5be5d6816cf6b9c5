"""What the screens need to tell the games apart: the name a game goes by on screen, its
renderer, its options and its hand keyboard. The one place in ``bot/screens`` that names the
games (the game plugins take its place).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import keyboards
from bot.render import starshina as starshina_render
from bot.render import stukolka as stukolka_render
from bot.render.common import GameKind
from game.starshina.options import StarshinaOptions
from game.stukolka.options import StukolkaOptions
from storage.records import Game


def display_kind(kind: str, options: Mapping[str, Any]) -> GameKind:
    """What a game is called on screen: Стуколка «со шлейфом» is named apart."""
    if kind == "stukolka":
        return "shleif" if options.get("variant") == "shleif" else "stukolka"
    return "starshina"


def renderer_of(kind: str) -> Any:
    """The module that renders a game kind's table, hand and result."""
    return starshina_render if kind == "starshina" else stukolka_render


def options_of(game: Game) -> Any:
    """A game's options object."""
    if game.kind == "starshina":
        return StarshinaOptions.from_json(dict(game.options))
    return StukolkaOptions.from_json(dict(game.options))


def hand_keyboard(kind: str) -> Any:
    """The function that draws a game kind's hand buttons."""
    return keyboards.starshina_keyboard if kind == "starshina" else keyboards.stukolka_keyboard
