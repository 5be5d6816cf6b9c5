"""Each layer finds its games' modules by convention, so that no list names them: a game's
module in a layer's ``games`` package is found by what it defines (``PLUGIN``, ``PAGE``)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from types import ModuleType


def modules_with(package: str, attribute: str) -> list[ModuleType]:
    """Every module or package directly inside ``package`` that defines ``attribute``,
    imported, by name."""
    root = importlib.import_module(package)
    found = []
    for module in sorted(pkgutil.iter_modules(root.__path__), key=lambda item: item.name):
        loaded = importlib.import_module(f"{package}.{module.name}")
        if hasattr(loaded, attribute):
            found.append(loaded)
    return found


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


def in_order(kinds: Sequence[str], kind: str) -> tuple[int, str]:
    """A sort key: ``kind``'s place in ``kinds`` (an unknown kind after them all)."""
    return (kinds.index(kind) if kind in kinds else len(kinds), kind)
