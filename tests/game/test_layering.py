"""game/ is pure: it imports nothing that does I/O, sleeps, reads the clock or the environment,
and nothing from bot/ or storage/ (docs/architecture.md, "Conventions")."""

from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parents[2] / "game"
FORBIDDEN = {
    "bot",
    "storage",
    "telegram",
    "asyncio",
    "time",
    "os",
    "logging",
    "socket",
    "sqlite3",
    "aiosqlite",
    "subprocess",
    "threading",
    "datetime",
}
# the command-line front ends may read files and the clock; the rules may not
FRONT_ENDS = {"replay.py", "simulate.py", "arena.py", "play.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_import_nothing_impure() -> None:
    files = sorted(GAME.rglob("*.py"))
    assert files
    for path in files:
        if path.parent == GAME and path.name in FRONT_ENDS:
            continue
        bad = _imports(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(GAME)} imports {sorted(bad)}"


def test_front_ends_import_no_other_layer() -> None:
    for name in FRONT_ENDS:
        bad = _imports(GAME / name) & {"bot", "storage", "telegram", "aiosqlite"}
        assert not bad, f"{name} imports {sorted(bad)}"
