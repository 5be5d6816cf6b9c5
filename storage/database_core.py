"""The machinery under ``storage.database.Database``: one connection, its thread, the group
commit of writes (see "Group commit" in ``storage.database``), the read cache kept fresh, and
the read transaction that makes a read's SELECTs agree. Every repository (``Repository``) is
built on this one core, so all of them share its connection, its batches and its cache."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

import aiosqlite

from storage import connection, games
from storage.cache import NoCache, ReadCache
from storage.errors import GameNotFound, StorageError
from storage.records import (
    Game,
)
from storage.sql import read_transaction

_P = ParamSpec("_P")
_T = TypeVar("_T")


def snapshot(
    function: Callable[Concatenate[sqlite3.Connection, _P], _T],
) -> Callable[Concatenate[sqlite3.Connection, _P], _T]:
    """``function`` run inside a read transaction, so its SELECTs agree with each other."""

    def wrapper(conn: sqlite3.Connection, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        with read_transaction(conn):
            return function(conn, *args, **kwargs)

    return wrapper


class DatabaseCore:
    """The connection and its write batches; the repositories (``Repository``) add the queries."""

    def __init__(
        self,
        link: aiosqlite.Connection,
        path: Path,
        cache_reads: bool = False,
    ) -> None:
        """Internal: use ``Database.open``."""
        self._link = link
        self._path = path
        self._closed = False
        self._cache = ReadCache() if cache_reads else NoCache()
        #: writes waiting for the next batch, and the task that ships batches while any wait
        self._pending: list[_Write] = []
        self._shipper: asyncio.Task[None] | None = None
        #: why the last batch of writes failed (a full disk, a read-only file, a lock held
        #: too long), or None since one succeeded: the health check reports it
        self.write_problem: str | None = None

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    async def _run(
        self,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> _T:
        """Run ``function(connection, …)`` on the connection's thread and wait for it."""
        if self._closed:
            raise StorageError("the database is closed")
        result, _ = await self._trip(function, *args, **kwargs)
        return result

    async def _trip(
        self,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> tuple[_T, bool]:
        """``_run``, and whether what ``function`` read may be remembered: no other connection
        committed while it ran (``PRAGMA data_version`` read before and after it)."""
        if self._closed:
            raise StorageError("the database is closed")
        if not self._cache.enabled:
            return await connection.run(self._link, function, *args, **kwargs), False
        result, before, after = await connection.run(
            self._link, _with_data_version, function, args, kwargs
        )
        self._cache.saw_data_version(before)
        self._cache.saw_data_version(after)
        return result, before == after

    async def _write(
        self,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> tuple[_T, bool]:
        """``_trip`` for a write: it commits in the next batch (see "Group commit" above)."""
        if self._closed:
            raise StorageError("the database is closed")
        done: asyncio.Future[tuple[object, bool]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(function, args, kwargs, done))
        if self._shipper is None:
            self._shipper = asyncio.create_task(self._ship())
        result, fresh = await done
        return result, fresh  # type: ignore[return-value]

    async def _ship(self) -> None:
        """Ship the waiting writes, one batch per trip, until none wait."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                jobs = [(w.function, w.args, w.kwargs) for w in batch]
                try:
                    outcomes, before, after = await connection.run(self._link, _write_batch, jobs)
                except asyncio.CancelledError:
                    for write in [*batch, *self._pending]:
                        write.done.cancel()
                    self._pending = []
                    raise
                except Exception as error:
                    self.write_problem = f"{type(error).__name__}: {error}"
                    for write in batch:
                        if not write.done.done():
                            write.done.set_exception(error)
                    continue
                failed = [v for ok, v in outcomes if not ok and _is_failure(v)]
                self.write_problem = f"{type(failed[0]).__name__}: {failed[0]}" if failed else None
                self._cache.saw_data_version(before)
                self._cache.saw_data_version(after)
                for write, (ok, value) in zip(batch, outcomes, strict=True):
                    if write.done.done():
                        continue  # its caller was cancelled; the write stands all the same
                    if ok:
                        write.done.set_result((value, before == after))
                    else:
                        assert isinstance(value, BaseException)
                        write.done.set_exception(value)
        finally:
            self._shipper = None

    async def _write_game(
        self,
        game_id: int,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> _T:
        """Run a write of ``game_id`` and remember the game as the write left it."""
        with self._cache.writing_game(game_id):
            (result, row), fresh = await self._write(
                _then_game_row, game_id, function, args, kwargs
            )
        if fresh and row is not None and self._cache.enabled:
            self._cache.keep_game(games.game_from_row(row))
        return result

    def _games_from(self, rows: list[sqlite3.Row], fresh: bool) -> list[Game]:
        found = [games.game_from_row(row) for row in rows]
        if fresh:
            for game in found:
                self._cache.keep_game(game)
        return found


class Repository:
    """One concern's queries (chats, games, money…) on the shared core: each method hands the
    core's thread one plain function, a read (``_run``/``_trip``) or a write that goes in the
    core's next group commit (``_write``/``_write_game``)."""

    def __init__(self, core: DatabaseCore) -> None:
        self._db = core


@dataclass(slots=True)
class _Write:
    """A write waiting for its batch."""

    function: Callable[..., object]
    args: tuple[object, ...]
    kwargs: dict[str, object]
    done: asyncio.Future[tuple[object, bool]]


_Outcome = tuple[bool, object]  # (True, result) or (False, the exception it raised)


def _write_batch(
    conn: sqlite3.Connection,
    jobs: list[tuple[Callable[..., object], tuple[object, ...], dict[str, object]]],
) -> tuple[list[_Outcome], int, int]:
    """Run writes in one transaction, each in a savepoint of its own (a write's own
    ``write_transaction`` nests as another), and commit them together. A write that raises
    is undone alone and its exception returned in its place. ``PRAGMA data_version`` before
    and after, as ``_with_data_version``."""
    before: int = conn.execute("PRAGMA data_version").fetchone()[0]
    outcomes: list[_Outcome] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for function, args, kwargs in jobs:
            conn.execute("SAVEPOINT batched_write")
            try:
                outcomes.append((True, function(conn, *args, **kwargs)))
            except Exception as error:
                conn.execute("ROLLBACK TO batched_write")
                outcomes.append((False, error))
            conn.execute("RELEASE batched_write")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    after: int = conn.execute("PRAGMA data_version").fetchone()[0]
    return outcomes, before, after


def _with_data_version(
    conn: sqlite3.Connection,
    function: Callable[..., _T],
    args: tuple[object, ...],
    kwargs: dict[str, object],
) -> tuple[_T, int, int]:
    """``function``'s result between two readings of ``PRAGMA data_version``, which moves when
    another connection commits to the file."""
    before: int = conn.execute("PRAGMA data_version").fetchone()[0]
    result = function(conn, *args, **kwargs)
    after: int = conn.execute("PRAGMA data_version").fetchone()[0]
    return result, before, after


def _then_game_row(
    conn: sqlite3.Connection,
    game_id: int,
    function: Callable[..., _T],
    args: tuple[object, ...],
    kwargs: dict[str, object],
) -> tuple[_T, sqlite3.Row | None]:
    """``function``'s result and the row of ``game_id`` as it left it (None if there is none)."""
    result = function(conn, *args, **kwargs)
    try:
        return result, games.load_game_row(conn, game_id)
    except GameNotFound:
        return result, None


def _is_failure(error: object) -> bool:
    """A write's error that is the file failing (not a refused compare-and-set or a
    constraint): sqlite3's operational errors (full, read-only, locked, I/O)."""
    return isinstance(error, sqlite3.OperationalError)
