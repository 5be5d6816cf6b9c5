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


def in_order(kinds: Sequence[str], kind: str) -> tuple[int, str]:
    """A sort key: ``kind``'s place in ``kinds`` (an unknown kind after them all)."""
    return (kinds.index(kind) if kind in kinds else len(kinds), kind)
