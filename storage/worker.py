"""``Worker``: one thread of its own that runs functions one after another, for the one SQLite
connection (``storage.database``).

A ``sqlite3.Connection`` belongs to the thread that made it, and SQLite calls block, so the
connection lives on this thread: ``Database`` opens it here and hands every job here, each job
a plain function that does a whole transaction or read. Jobs run in the order they were handed
over, one at a time; each result comes back to the event loop through
``loop.call_soon_threadsafe``. It replaced aiosqlite, whose public API costs a thread hop per
statement and whose way of running a whole function was private (``Connection._execute``).
The standard library's ``ThreadPoolExecutor`` with one worker does the same job, but a hop
through it cost 66–110 µs of CPU here against 40–45 µs through aiosqlite's private queue; a hop
through this queue costs the same as aiosqlite's (36–49 µs against 31–55 µs in alternating
runs of 5,000 hops of a trivial job).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

_P = ParamSpec("_P")
_T = TypeVar("_T")

_Job = tuple[
    asyncio.AbstractEventLoop,
    "asyncio.Future[Any]",
    Callable[..., Any],
    tuple[Any, ...],
    dict[str, Any],
]


class Worker:
    """One thread; ``await run(function, …)`` runs ``function(…)`` on it and returns its
    result (or raises its exception). A job whose caller was cancelled before it started does
    not run; one that has started runs to its end."""

    def __init__(self, name: str = "sqlite") -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()
        self._stopped = False

    async def run(self, function: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        if self._stopped:
            raise RuntimeError("the worker has stopped")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        self._jobs.put((loop, future, function, args, kwargs))
        return await future

    async def stop(self) -> None:
        """Let the jobs handed over finish, then end the thread (no job may come after)."""
        if self._stopped:
            return
        self._stopped = True
        done = asyncio.get_running_loop().create_future()
        self._jobs.put((asyncio.get_running_loop(), done, lambda: None, (), {}))
        self._jobs.put(None)
        await done
        await asyncio.get_running_loop().run_in_executor(None, self._thread.join)

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, function, args, kwargs = job
            if future.cancelled():
                continue
            try:
                result = function(*args, **kwargs)
            except BaseException as error:  # handed to the caller, as the call would raise it
                _settle(loop, future, None, error)
            else:
                _settle(loop, future, result, None)


def _settle(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    result: Any,
    error: BaseException | None,
) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        loop.call_soon_threadsafe(_set, future, result, error)


def _set(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
