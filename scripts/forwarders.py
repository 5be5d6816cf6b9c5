"""Count the members that only forward: a function or method whose body (past its docstring)
is one statement that passes its own parameters on to another object, and a class attribute
(or an attribute set in ``__init__``) that only aliases another object's member.

    python -m scripts.forwarders            # the count
    python -m scripts.forwarders --list     # each one, by file and line

The narrow rule: the one statement is ``return f(...)``, ``return await f(...)`` or a bare call,
``f`` is a member of another object (``x.y(...)``, not ``self.y(...)`` alone), and every argument
is one of the function's own parameters (``self`` / ``self.attribute`` count as its own too),
each at most once; an alias is ``name = other.member`` in a class body or ``self.name =
other.member`` in ``__init__``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "storage", "tables", "bot", "web", "server")


def _own(node: ast.expr, params: set[str]) -> str | None:
    """The parameter an argument hands on as it is (``x``, ``self.x``), or None."""
    if isinstance(node, ast.Starred):
        node = node.value
    if isinstance(node, ast.Name) and node.id in params:
        return node.id
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    ):
        return f"self.{node.attr}"
    return None


def _forwards(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = function.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if len(body) != 1:
        return False
    statement = body[0]
    if not isinstance(statement, (ast.Return, ast.Expr)):
        return False
    value = statement.value
    if isinstance(value, ast.Await):
        value = value.value
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    target = value.func.value
    if isinstance(target, ast.Name) and target.id in ("self", "cls", "super"):
        return False
    if isinstance(target, ast.Call) and ast.unparse(target.func) == "super":
        return False
    arguments = function.args
    params = {
        item.arg
        for item in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)
        if item.arg not in ("self", "cls")
    }
    if arguments.vararg:
        params.add(arguments.vararg.arg)
    if arguments.kwarg:
        params.add(arguments.kwarg.arg)
    handed = [_own(arg, params) for arg in (*value.args, *(k.value for k in value.keywords))]
    if any(name is None for name in handed) or len(set(handed)) != len(handed):
        return False
    return params <= set(name for name in handed if name is not None)


def _alias(value: ast.expr | None) -> bool:
    """``other.member`` (or ``self.other.member``): another object's member, as it is."""
    return isinstance(value, ast.Attribute)


def found(path: Path) -> Iterator[tuple[int, str]]:
    """Every forwarding member of the module at ``path``: its line and name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _forwards(node):
            yield node.lineno, node.name
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.Assign) and _alias(item.value):
                yield item.lineno, ast.unparse(item.targets[0])
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                for statement in item.body:
                    if (
                        isinstance(statement, ast.Assign)
                        and len(statement.targets) == 1
                        and isinstance(statement.targets[0], ast.Attribute)
                        and _alias(statement.value)
                    ):
                        yield statement.lineno, ast.unparse(statement.targets[0])


def forwarders(root: Path = ROOT) -> list[str]:
    """``path:line name`` of every forwarding member of the packages."""
    return [
        f"{path.relative_to(root)}:{line} {name}"
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
        for line, name in found(path)
    ]


def main(argv: list[str]) -> None:
    every = forwarders()
    if "--list" in argv:
        print("\n".join(every))
    print(len(every))


if __name__ == "__main__":
    main(sys.argv[1:])
