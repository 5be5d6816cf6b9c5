"""``python -m server``'s process: uvloop where it is installed (a dependency except on Windows),
and the garbage collector tuned once the bot has started."""

from __future__ import annotations

import subprocess
import sys

import pytest

CHECK = """
import asyncio
import uvloop
from server.__main__ import use_uvloop
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


def test_the_collector_is_tuned_once_the_bot_has_started() -> None:
    check = (
        "import gc\n"
        "from bot.app import tune_garbage_collector\n"
        "import telegram.ext\n"
        "assert gc.get_freeze_count() == 0\n"
        "tune_garbage_collector()\n"
        "print(gc.get_freeze_count())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 10_000  # PTB and the bot's modules are out of the collector's way
