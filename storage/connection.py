"""The one SQLite connection: aiosqlite's, with whole jobs run on its thread in one hop.

aiosqlite owns the connection and its thread: it opens the connection there, hands it every
call in order, hands back results and errors, and closes it. Through its public API each call
is one statement (``execute``, ``commit``…), and each is a trip from the event loop to that
thread and back. ``storage.database`` wants one trip per *job* — a whole transaction or a read
snapshot, written as a plain function of a ``sqlite3.Connection`` — so that a transaction is
never split across awaits (no other coroutine's statement can land inside it) and a commit
costs one trip, not one per statement.

sqlite3's own public API gives that: a user-defined SQL function is Python that SQLite calls on
the thread that runs the statement. The connection is made (``aiosqlite.connect(…,
factory=JobConnection)``) with the SQL function ``storage_job(n)``; ``run`` files the job under
a fresh number and has aiosqlite execute ``SELECT storage_job(n)``, so the job runs on
aiosqlite's thread with the connection, between two of aiosqlite's calls, and its result or
exception comes back through the job. Inside the function a job may run any statement,
``BEGIN`` … ``COMMIT`` and ``ROLLBACK`` included: the outer ``SELECT`` reads no table and
holds no transaction (SQLite refuses only ``VACUUM`` while it runs, which storage never uses).
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

import aiosqlite

_P = ParamSpec("_P")
_T = TypeVar("_T")

_RUN: Final = "SELECT storage_job(?)"


class _Job:
    """A function waiting for the connection's thread, then what it returned or raised."""

    __slots__ = ("args", "error", "function", "kwargs", "result")

    def __init__(
        self, function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        self.function = function
        self.args = args
        self.kwargs = kwargs
        self.result: Any = None
        self.error: BaseException | None = None


#: jobs filed for ``storage_job``, by number; the thread takes each out as it starts it
_jobs: dict[int, _Job] = {}
_numbers = itertools.count(1)


class JobConnection(sqlite3.Connection):
    """``sqlite3.Connection`` with the SQL function ``storage_job(n)``: run job ``n`` on it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.create_function("storage_job", 1, self._run_job)

    def _run_job(self, number: int) -> None:
        job = _jobs.pop(number, None)
        if job is None:
            return  # its caller was cancelled before it started: it does not run
        try:
            job.result = job.function(self, *job.args, **job.kwargs)
        except BaseException as error:  # handed to the caller, as the call would raise it
            job.error = error


async def connect(path: str, *, busy_timeout: float) -> aiosqlite.Connection:
    """Open the file in autocommit mode (transactions are explicit: see ``storage.sql``)."""
    return await aiosqlite.connect(
        path, timeout=busy_timeout, isolation_level=None, factory=JobConnection
    )


async def run(
    connection: aiosqlite.Connection,
    function: Callable[Concatenate[sqlite3.Connection, _P], _T],
    *args: _P.args,
    **kwargs: _P.kwargs,
) -> _T:
    """``function(sqlite3_connection, *args, **kwargs)`` on the connection's thread: its result,
    or the exception it raised. A job whose caller is cancelled before it started does not run;
    one that has started runs to its end."""
    number = next(_numbers)
    job = _Job(function, args, kwargs)
    _jobs[number] = job
    try:
        await connection.execute_fetchall(_RUN, (number,))
    finally:
        _jobs.pop(number, None)
    if job.error is not None:
        error, job.error = job.error, None
        raise error
    result: _T = job.result
    return result
