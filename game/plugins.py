"""The command-line tools find a game's parts by its kind (``game_part``)."""

from __future__ import annotations

import importlib
from types import ModuleType


def game_part(kind: str, part: str) -> ModuleType | None:
    """``game.<kind>.<part>`` (a game's computers, terminal words, simulation, replay),
    imported; None where there is no such game or it has no such part. An import missing
    inside the part is an error and is raised."""
    if not kind.isidentifier():
        return None
    name = f"game.{kind}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name in (f"game.{kind}", name):
            return None
        raise
