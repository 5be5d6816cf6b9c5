"""A short run of bench/crash_loop.py: the bot killed with SIGKILL at random points
while three groups play all three games and another process holds the write lock at random
moments; afterwards every game goes on by itself or is finished, the action log and the ledger
replay commit by commit, money sums to zero, and every result was shown exactly once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from crash_loop import crash_loop, parse  # noqa: E402


@pytest.mark.timeout(300)
async def test_a_short_crash_loop(tmp_path: Path) -> None:
    report = await crash_loop(
        parse(["--kills", "3", "--seed", "7", "--turn", "1.5", "--lock-chance", "0.7"]), tmp_path
    )
    print(report)
    assert report.kills == 3
    assert report.ok, report
    assert report.moved_on_by_itself + report.finished_at_end >= 3
