"""``tables/`` speaks in types: no ``Any`` in the public signatures of the table service.

What the front-ends hand in (commands) and get back (replies, events, records) is typed to
the end, so a wrong shape is mypy's error and not a surprise at run time. Scanned from the
source, like the layers' test: every public function and method (``__init__`` included), the
annotated fields of every public class (a dataclass's are its constructor's), and the public
type aliases and attributes of every module of ``tables/``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def names_any(node: ast.AST | None) -> bool:
    """Whether an annotation (or an alias's value) mentions ``Any``."""
    if node is None:
        return False
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id == "Any":
            return True
        if isinstance(part, ast.Attribute) and part.attr == "Any":
            return True
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            try:
                inner = ast.parse(part.value, mode="eval")
            except SyntaxError:
                continue
            if names_any(inner):
                return True
    return False


def signature_parts(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> Iterator[tuple[str, ast.expr | None]]:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    every += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
    for argument in every:
        yield argument.arg, argument.annotation
    yield "return", function.returns


def untyped(source: str) -> list[str]:
    """Where ``source`` has ``Any`` in a public signature, field or alias."""
    found: list[str] = []

    def scan(body: list[ast.stmt], owner: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and public(node.name):
                for part, annotation in signature_parts(node):
                    if names_any(annotation):
                        found.append(f"{owner}{node.name}({part})")
                if owner:
                    scan_attributes(node, owner)
            elif isinstance(node, ast.ClassDef) and public(node.name):
                scan(node.body, f"{owner}{node.name}.")
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                if public(node.target.id) and names_any(node.annotation):
                    found.append(f"{owner}{node.target.id}")
            elif isinstance(node, ast.Assign) and not owner:
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(public(name) for name in targets) and names_any(node.value):
                    found.append(", ".join(targets))

    def scan_attributes(method: ast.FunctionDef | ast.AsyncFunctionDef, owner: str) -> None:
        """The public attributes a method gives its object (``self.x: T = ...``)."""
        for node in ast.walk(method):
            if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Attribute):
                continue
            target = node.target
            mine = isinstance(target.value, ast.Name) and target.value.id == "self"
            if mine and public(target.attr) and names_any(node.annotation):
                found.append(f"{owner}{target.attr}")

    scan(ast.parse(source).body, "")
    return found


def test_no_any_in_the_public_signatures_of_tables() -> None:
    files = sorted((ROOT / "tables").rglob("*.py"))
    assert files
    found = [
        f"{path.relative_to(ROOT)}: {where}"
        for path in files
        for where in untyped(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_scan_sees_any_where_it_hides() -> None:
    source = (
        "from typing import Any\n"
        "import typing\n"
        "Alias = dict[str, Any]\n"
        "def f(x: 'list[Any]') -> None: ...\n"
        "async def g(*, y: int) -> typing.Any: ...\n"
        "def _private(z: Any) -> Any: ...\n"
        "class C:\n"
        "    field: Any\n"
        "    _hidden: Any\n"
        "    def __init__(self, v: Any) -> None:\n"
        "        local: Any = v\n"
        "        self.kept: Any = v\n"
        "        self._own: Any = v\n"
        "    def _helper(self, w: Any) -> None: ...\n"
    )
    assert untyped(source) == ["Alias", "f(x)", "g(return)", "C.field", "C.__init__(v)", "C.kept"]
