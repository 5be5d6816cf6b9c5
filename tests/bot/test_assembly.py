"""The application is assembled in one place, and nothing is wired in once built: each object
gets what it uses when it is built (``bot.assembly``). A check over the code that assembles
it and starts it: no attribute of another object set, no holder filled by key."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the code that builds the application and runs its start and stop, and the presenter that
#: builds the chat's screens
ASSEMBLING = (
    "bot/assembly.py",
    "bot/app.py",
    "bot/context.py",
    "bot/presenter.py",
    "server/__init__.py",
    "server/webapp.py",
)
#: nothing is filled in after it is built (the services reach the handlers through the
#: application's own ``start_with``)
ALLOWED: set[str] = set()


def late_wiring(source: str) -> list[str]:
    """Assignments in ``source`` that set something on an object other than ``self`` (an
    attribute, or an entry of a holder); an object's own fields (``self.x``, and entries of
    them) are its own, a field of an object it holds (``self.x.y``) is not."""
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        while targets:
            target = targets.pop(0)
            if isinstance(target, ast.Tuple | ast.List):
                targets[:0] = target.elts
                continue
            if not isinstance(target, ast.Attribute | ast.Subscript):
                continue
            if isinstance(target, ast.Attribute):
                # an object's own field, not one of an object it holds
                if isinstance(target.value, ast.Name) and target.value.id == "self":
                    continue
            else:
                # an entry of one of its own fields
                root = target.value
                while isinstance(root, ast.Attribute | ast.Subscript):
                    root = root.value
                if isinstance(root, ast.Name) and root.id == "self":
                    continue
            text = ast.unparse(target)
            if text not in ALLOWED:
                found.append(text)
    return found


def test_nothing_is_wired_in_after_it_is_built() -> None:
    found = {
        path: wiring
        for path in ASSEMBLING
        if (wiring := late_wiring((ROOT / path).read_text(encoding="utf-8")))
    }
    assert not found


def test_the_check_sees_a_holder_and_an_attribute_set_afterwards() -> None:
    source = (
        "def create(a):\n"
        "    holder = {}\n"
        "    m = M(lambda: holder['p'].go())\n"
        "    p = P(m)\n"
        "    holder['p'] = p\n"
        "    timers.on_timeout = p.timed_out\n"
        "    p.hands.launch = launch\n"
        "class P:\n"
        "    def __init__(self, m):\n"
        "        self.m, self.seen = m, {}\n"
        "        self.seen[1] = 2\n"
        "        self.hands.notices = self.table.notices\n"
    )
    assert late_wiring(source) == [
        "holder['p']",
        "timers.on_timeout",
        "p.hands.launch",
        "self.hands.notices",
    ]
