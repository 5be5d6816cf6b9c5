"""How far the random tests go.

The default run plays enough for each random test to catch what it is for, within the suite's
few minutes: seeded random games and a few dozen hypothesis examples each. ``TEST_DEPTH=N`` (a
whole number) multiplies every figure that goes through ``deep`` by N, for a deeper run before
a release or to chase a rare failure: ``TEST_DEPTH=5 .venv/bin/python -m pytest -n 4
tests/game tests/e2e/test_fuzz.py``. The seeds do not change with the depth, and hypothesis
prints the example that failed, so a failure reproduces.
"""

from __future__ import annotations

import os

DEPTH = max(1, int(os.environ.get("TEST_DEPTH") or 1))


def deep(count: int) -> int:
    """``count`` at the default depth, ``TEST_DEPTH`` times it in a deeper run."""
    return count * DEPTH
