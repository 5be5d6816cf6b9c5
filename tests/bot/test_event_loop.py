"""``python -m bot`` runs on uvloop where it is installed (a dependency except on Windows)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHECK = """
import asyncio
import uvloop
from bot.__main__ import use_uvloop
assert use_uvloop()
loop = asyncio.get_event_loop()
assert isinstance(loop, uvloop.Loop), type(loop)
print(loop.run_until_complete(asyncio.sleep(0, result="ran")))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop does not run on Windows")
def test_the_bot_sets_a_uvloop_loop_for_ptb_to_run_on() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ran"
