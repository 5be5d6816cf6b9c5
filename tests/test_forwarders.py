"""Members that only forward (``scripts.forwarders``: a one-statement body handing its own
parameters on to another object, or an attribute aliasing another object's member) stay few,
and the rule itself finds what it should."""

from __future__ import annotations

import textwrap
from pathlib import Path

from scripts.forwarders import forwarders, found

#: the most there may be: lower it as forwarders go, never raise it
MOST = 17


def test_forwarders_do_not_grow() -> None:
    assert len(forwarders()) <= MOST


def test_the_rule_finds_forwarders_and_nothing_else(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        textwrap.dedent(
            '''
            class Sample:
                alias = other.member

                def __init__(self, other):
                    self.act = other.turns.act
                    self.other = other

                def forwards(self, state, seat):
                    """Docstrings aside."""
                    return self.rules.view(state, seat)

                async def awaits(self, chat):
                    return await self.store.load(chat)

                def its_own(self):
                    return self.state.dump(self.rules)

                def computes(self, state):
                    return self.rules.view(state, 0)

                def two(self, state):
                    state.check()
                    return self.rules.view(state)

                def on_self(self, state):
                    return self.view(state)

                def drops_one(self, state, seat):
                    return self.rules.view(state)
            '''
        ),
        encoding="utf-8",
    )
    names = sorted(name for _, name in found(source))
    assert names == ["alias", "awaits", "forwards", "its_own", "self.act"]
