"""The layers import downwards only: ``tables/`` (a table's life, whoever shows it) imports
neither Telegram nor either front-end; the chat front-end (``bot/``) and the Mini App
(``web/``) never import each other. ``game/`` has its own, stricter test
(``tests/game/test_layering.py``). Every import counts, a deferred one inside a function
too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "tables": {"telegram", "bot", "web", "aiohttp"},
    "bot": {"web"},
    "web": {"bot", "telegram"},
    "storage": {"telegram", "bot", "web", "tables"},
    "locales": {"telegram", "bot", "web", "tables", "storage", "game"},
}
#: where the Mini App's server is handed the chat's ways of showing a change: the one module
#: that knows both front-ends (to move out of bot/ with the rest of the assembly)
ASSEMBLY = {"bot/webapp.py"}


def imported(path: Path) -> set[str]:
    """The top-level packages ``path`` imports, anywhere in it."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_no_layer_above_it(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    found = [
        f"{path.relative_to(ROOT)} imports {sorted(bad)}"
        for path in files
        if str(path.relative_to(ROOT)) not in ASSEMBLY
        and (bad := imported(path) & FORBIDDEN[package])
    ]
    assert not found, "\n".join(found)


def test_the_check_sees_a_deferred_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from bot.games import shown\n    import telegram.ext\n")
    assert imported(module) == {"bot", "telegram"}
