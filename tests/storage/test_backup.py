"""``storage.backup``: an online copy of a database the bot is writing, on real files."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from storage import Database
from storage.backup import BackupError, backup
from tests.storage.storage_support import CLOCK

ROOT = Path(__file__).resolve().parents[2]


async def fill(db: Database, players: range) -> None:
    await db.chats.upsert_chat(-100, "friends", now=CLOCK())
    for user in players:
        await db.chats.upsert_player(user, f"player {user}", now=CLOCK())


def player_names(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as connection:
        return [row[0] for row in connection.execute("SELECT name FROM players ORDER BY name")]


async def test_a_copy_of_an_open_database_has_every_commit(tmp_path: Path) -> None:
    source = tmp_path / "data" / "bot.sqlite3"
    destination = tmp_path / "backups" / "bot.sqlite3"
    async with await Database.open(source) as db:
        await fill(db, range(1, 6))
        # the commits are still in the -wal file: a plain file copy would miss them
        assert source.with_name("bot.sqlite3-wal").stat().st_size > 0
        backup(source, destination)
        await db.chats.upsert_player(6, "player 6", now=CLOCK())
    assert player_names(destination) == [f"player {n}" for n in range(1, 6)]
    with closing(sqlite3.connect(destination)) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert sorted(p.name for p in destination.parent.iterdir()) == ["bot.sqlite3"]
    # the copy is a working database for the bot
    async with await Database.open(destination) as restored:
        assert (await restored.chats.players([3]))[3].name == "player 3"


async def test_backup_while_the_bot_keeps_writing(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    async with await Database.open(source) as db:
        await fill(db, range(1, 3))
        stop = asyncio.Event()

        async def writer() -> int:
            written = 0
            while not stop.is_set():
                written += 1
                await db.chats.upsert_player(1000 + written, f"writer {written}", now=CLOCK())
            return written

        task = asyncio.create_task(writer())
        copies = [tmp_path / f"copy{i}.sqlite3" for i in range(5)]
        for copy in copies:
            await asyncio.to_thread(backup, source, copy)
        stop.set()
        written = await task
    assert written > 0
    counts = []
    for copy in copies:
        names = player_names(copy)
        assert names[:2] == ["player 1", "player 2"]
        counts.append(len(names))
    assert counts == sorted(counts)


def test_a_closed_database_and_replacing_an_older_backup(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    destination = tmp_path / "backup.sqlite3"

    async def make(players: range) -> None:
        async with await Database.open(source) as db:
            await fill(db, players)

    asyncio.run(make(range(1, 3)))
    backup(source, destination)
    asyncio.run(make(range(3, 4)))
    backup(source, destination)
    assert player_names(destination) == ["player 1", "player 2", "player 3"]


def test_a_missing_or_broken_source_leaves_the_destination_alone(tmp_path: Path) -> None:
    destination = tmp_path / "backup.sqlite3"
    destination.write_bytes(b"the previous backup")
    with pytest.raises(BackupError, match="no database"):
        backup(tmp_path / "typo.sqlite3", destination)
    assert not (tmp_path / "typo.sqlite3").exists()
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"not a database at all" * 100)
    with pytest.raises(BackupError, match="failed"):
        backup(broken, destination)
    assert destination.read_bytes() == b"the previous backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.sqlite3", "broken.sqlite3"]


def test_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"

    async def make() -> None:
        async with await Database.open(source) as db:
            await fill(db, range(1, 2))

    asyncio.run(make())
    command = [sys.executable, "-m", "storage.backup"]
    made = subprocess.run(
        [*command, str(source), str(tmp_path / "out.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    assert player_names(tmp_path / "out.sqlite3") == ["player 1"]
    failed = subprocess.run(
        [*command, str(tmp_path / "nothing.sqlite3"), str(tmp_path / "x.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert failed.returncode == 1
    assert "no database" in failed.stderr
