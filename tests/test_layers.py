"""The layers import downwards only, and no module imports itself round a circle.

``tables/`` (a table's life, whoever shows it) imports neither Telegram nor either front-end;
the chat front-end (``bot/``) and the Mini App (``web/``) never import each other, and of
``storage/`` each imports only its own display storage (the rest goes through the service);
only the program (``server/``) knows both, builds the table service they share, and nothing
imports it but the tests and benches. ``game/`` has its own, stricter test
(``tests/game/test_layering.py``). Every import counts, a deferred one inside a function and
one for the types only too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN = {
    "tables": {"telegram", "bot", "web", "aiohttp", "server"},
    "bot": {"web", "server"},
    "web": {"bot", "telegram", "server"},
    "storage": {"telegram", "bot", "web", "tables", "server"},
    "locales": {"telegram", "bot", "web", "tables", "storage", "game", "server"},
    "game": {"server"},
}


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
        if (bad := imported(path) & FORBIDDEN[package])
    ]
    assert not found, "\n".join(found)


#: the one module of ``storage/`` each front-end may import: its own display storage (the
#: message ids it shows tables with); everything else it reads or writes goes through the table
#: service (``tables/``)
OWN_STORAGE = {"bot": {"storage.chat_display"}, "web": set[str]()}


def storage_modules(path: Path) -> set[str]:
    """The modules of ``storage`` that ``path`` imports, anywhere in it."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.split(".")[0] == "storage")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "storage":
                names.update(f"storage.{alias.name}" for alias in node.names)
            elif node.module.startswith("storage."):
                names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(OWN_STORAGE))
def test_a_front_end_reaches_storage_only_through_the_service(package: str) -> None:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if bad := storage_modules(path) - OWN_STORAGE[package]:
            found[name] = sorted(bad)
    assert not found, found


def test_the_storage_check_sees_every_form(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import storage.games\nfrom storage import ledger\n"
        "def f():\n    from storage.chat_display import ChatDisplay\n"
    )
    assert storage_modules(module) == {"storage.games", "storage.ledger", "storage.chat_display"}


def test_the_check_sees_a_deferred_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from bot.games import shown\n    import telegram.ext\n")
    assert imported(module) == {"bot", "telegram"}


#: what only the program (``server/``) builds: the database, and the one table service over it
#: that the chat and the page share as peers
BUILT_BY_THE_PROGRAM = frozenset({"TableService", "Database.open"})


def built(path: Path) -> set[str]:
    """Which of ``BUILT_BY_THE_PROGRAM`` ``path`` calls into being."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func).split(".")
            names.update(
                name for name in (called[-1], ".".join(called[-2:])) if name in BUILT_BY_THE_PROGRAM
            )
    return names


@pytest.mark.parametrize("package", ["tables", "bot", "web"])
def test_only_the_program_builds_the_table_service(package: str) -> None:
    """Neither front-end builds the table service or opens the database it runs on: the
    program composes them (``server.program``), and each front-end is handed the service."""
    found = [
        f"{path.relative_to(ROOT)} builds {sorted(names)}"
        for path in sorted((ROOT / package).rglob("*.py"))
        if (names := built(path))
    ]
    assert not found, "\n".join(found)
    assert built(ROOT / "server" / "program.py") == BUILT_BY_THE_PROGRAM


def test_the_check_sees_a_service_built(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "async def f(path):\n"
        "    db = await storage.database.Database.open(path)\n"
        "    return tables.TableService(db, turn_timeout=1)\n"
    )
    assert built(module) == {"TableService", "Database.open"}


PACKAGES = (
    "game",
    "storage",
    "tables",
    "bot",
    "web",
    "server",
    "locales",
    "bench",
    "scripts",
    "tests",
)


def module_names(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by its dotted name (a package by its own)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Which of the modules each module imports: every import, deferred or for the types
    only, of a module or a name in it; and the packages on the way (importing ``a.b.c`` runs
    ``a/b/__init__.py``), except the importer's own, which always runs first."""
    modules = module_names(root, packages)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        wanted: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wanted.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    above = package[: len(package) - node.level + 1]
                    base = ".".join([*above, base] if base else above)
                wanted.add(base)
                wanted.update(f"{base}.{alias.name}" for alias in node.names)
        targets: set[str] = set()
        for target in wanted:
            parts = target.split(".")
            targets.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        graph[name] = {
            target
            for target in targets
            if target in modules and target != name and not name.startswith(target + ".")
        }
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of two modules or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, without recursion: (module, its imports not walked yet)
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            module, rest = work[-1]
            target = next(rest, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                part = []
                while True:
                    top = stack.pop()
                    part.append(top)
                    if top == module:
                        break
                if len(part) > 1:
                    found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_circles() -> None:
    graph = import_graph(ROOT, PACKAGES)
    assert len(graph) > 200
    assert circles(graph) == []


def test_the_check_finds_a_circle(tmp_path: Path) -> None:
    """The circle the chat had: its callback codec read the games' registry, whose games'
    keyboards use the codec (a deferred import and a package's ``__init__`` on the way)."""
    (tmp_path / "front").mkdir()
    (tmp_path / "front" / "__init__.py").write_text("")
    (tmp_path / "front" / "games").mkdir()
    (tmp_path / "front" / "games" / "__init__.py").write_text("from . import one\n")
    (tmp_path / "front" / "games" / "one.py").write_text("from front.keys import rows\n")
    (tmp_path / "front" / "keys.py").write_text("from front.codec import encode\n")
    (tmp_path / "front" / "codec.py").write_text(
        "def codes():\n    from front.games.one import CODE\n"
    )
    graph = import_graph(tmp_path, ("front",))
    assert circles(graph) == [["front.codec", "front.games", "front.games.one", "front.keys"]]
    (tmp_path / "front" / "codec.py").write_text("def codes():\n    return {}\n")
    assert circles(import_graph(tmp_path, ("front",))) == []
