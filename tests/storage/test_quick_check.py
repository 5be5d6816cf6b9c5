"""A damaged database file is refused at start-up with a clear message
(``PRAGMA quick_check``), rather than played on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from storage.database import Database, check_file
from storage.errors import DatabaseDamaged
from tests.storage.storage_support import CLOCK

ROOT = Path(__file__).resolve().parents[2]


async def _damaged(tmp_path: Path) -> Path:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    await db.chats.upsert_chat(-1, "group", now=CLOCK())
    for user in range(300):
        await db.chats.upsert_player(user + 1, "x" * 200, now=CLOCK())
    await db.close()
    with path.open("r+b") as file:
        file.seek(4096 * 3)
        file.write(b"\xa5" * 4096 * 2)  # two pages of the players' table overwritten
    return path


async def test_a_damaged_file_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = await _damaged(tmp_path)
    with pytest.raises(DatabaseDamaged, match="damaged"):
        check_file(path)
    with pytest.raises(DatabaseDamaged, match="Restore it from a backup"):
        await Database.open(path)


async def test_a_sound_file_opens(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    await (await Database.open(path)).close()
    check_file(path)
    await (await Database.open(path)).close()


async def test_the_bot_does_not_start_on_a_damaged_file(tmp_path: Path) -> None:
    path = await _damaged(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith(("BOT_", "DATABASE"))}
    env.update(BOT_TOKEN="1:x", DATABASE_PATH=str(path), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "server"], env=env, cwd=tmp_path, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"damaged" in done.stderr
