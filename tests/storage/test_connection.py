"""The connection is aiosqlite's, used through its public API: a whole job (a transaction or a
read snapshot) makes one trip to aiosqlite's thread, and storage keeps no thread or queue of
its own."""

from __future__ import annotations

import ast
import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import storage.connection as connection_module
from storage import Database, StaleVersion
from tests.storage.storage_support import CHAT, CLOCK, USERS, raw

STORAGE = Path(__file__).resolve().parents[2] / "storage"


@pytest.fixture
async def link(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """A bare connection as ``Database`` opens it."""
    opened = await connection_module.connect(str(tmp_path / "jobs.sqlite3"), busy_timeout=1.0)
    yield opened
    await opened.close()


async def test_the_database_opens_an_aiosqlite_connection_and_closes_it(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[aiosqlite.Connection] = []
    real = aiosqlite.connect

    def spying(*args: Any, **kwargs: Any) -> aiosqlite.Connection:
        opened.append(real(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(aiosqlite, "connect", spying)
    # the threads by identity: one an earlier test left ending meanwhile must not count
    threads = set(threading.enumerate())
    db = await Database.open(db_path)
    assert len(opened) == 1
    await db.chats.upsert_chat(CHAT, "friends", now=CLOCK())
    started = set(threading.enumerate()) - threads
    assert len(started) == 1  # aiosqlite's thread, and no other
    await db.close()
    with pytest.raises(ValueError):  # aiosqlite's own answer once it is closed
        await opened[0].execute("SELECT 1")
    for _ in range(100):
        if not any(thread.is_alive() for thread in started):
            break
        await asyncio.sleep(0.01)
    assert not any(thread.is_alive() for thread in started)


async def test_a_job_runs_whole_on_the_connections_thread(
    link: aiosqlite.Connection, tmp_path: Path
) -> None:
    seen: list[str] = []

    def job(conn: sqlite3.Connection, value: int, *, twice: bool) -> int:
        seen.append(threading.current_thread().name)
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (?)", (value,))
        conn.execute("COMMIT")
        result: int = conn.execute("SELECT x FROM t").fetchone()[0]
        return result * (2 if twice else 1)

    assert await connection_module.run(link, job, 21, twice=True) == 42
    assert seen and seen[0] != threading.current_thread().name
    # committed for another connection to see
    assert raw(tmp_path / "jobs.sqlite3").execute("SELECT x FROM t").fetchall() == [(21,)]


async def test_a_jobs_exception_reaches_its_caller_as_raised(link: aiosqlite.Connection) -> None:

    def stale(conn: sqlite3.Connection) -> None:
        raise StaleVersion(7, 5, 6)

    def undone(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE u (x)")
        conn.execute("ROLLBACK")
        conn.execute("SELECT * FROM u")

    with pytest.raises(StaleVersion) as caught:
        await connection_module.run(link, stale)
    assert (caught.value.game_id, caught.value.expected, caught.value.actual) == (7, 5, 6)
    with pytest.raises(sqlite3.OperationalError, match="no such table: u"):
        await connection_module.run(link, undone)
    assert await connection_module.run(link, lambda conn: conn.in_transaction) is False


async def test_a_job_cancelled_before_it_starts_does_not_run(link: aiosqlite.Connection) -> None:
    started, gate = threading.Event(), threading.Event()
    ran: list[str] = []

    def blocking(conn: sqlite3.Connection) -> None:
        started.set()
        gate.wait(10)
        ran.append("first")

    def second(conn: sqlite3.Connection) -> None:
        ran.append("second")

    first = asyncio.ensure_future(connection_module.run(link, blocking))
    waiting = asyncio.ensure_future(connection_module.run(link, second))
    while not started.is_set():  # both handed to aiosqlite; the first holds its thread
        await asyncio.sleep(0.001)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    gate.set()
    await first
    await connection_module.run(link, lambda conn: None)  # after the second's turn
    assert ran == ["first"]


async def test_a_move_is_one_trip_to_the_thread(
    table: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
    trips: list[str] = []
    real = aiosqlite.Connection.execute_fetchall

    def counting(self: aiosqlite.Connection, sql: str, parameters: Any = None) -> Any:
        trips.append(sql)
        return real(self, sql, parameters)

    monkeypatch.setattr(aiosqlite.Connection, "execute_fetchall", counting)
    monkeypatch.setattr(aiosqlite.Connection, "execute", None)  # no statement-by-statement
    await table.games.commit_action(game.game_id, 0, {"n": 1}, ["move"], now=CLOCK())
    assert trips == ["SELECT storage_job(?)"]


def _storage_modules() -> list[Path]:
    files = sorted(STORAGE.glob("*.py"))
    assert files
    return files


def test_storage_keeps_no_thread_or_queue_of_its_own() -> None:
    assert not (STORAGE / "worker.py").exists()
    for path in _storage_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            bad = [n for n in names if n.split(".")[0] in ("threading", "queue", "concurrent")]
            assert not bad, f"{path.name} imports {bad}"


def test_storage_reads_no_private_attribute_of_a_dependency() -> None:
    """``x._name`` only for a name storage defines itself (its own classes' attributes and
    methods): never into aiosqlite's (or sqlite3's, or anyone's) insides."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in _storage_modules()]
    own: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
    assert "_link" in own and "_run_job" in own
    for path, tree in zip(_storage_modules(), trees, strict=True):
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                dunder = node.attr.startswith("__") and node.attr.endswith("__")
                assert dunder or node.attr in own, f"{path.name}:{node.lineno} reads .{node.attr}"
