"""Keeping within Telegram's limits without falling behind.

A group gets at most ~20 messages or edits a minute from a bot. ``Pacer`` spaces every request
to one group at least ``spacing`` seconds apart (3 s: 20 in any 60 s), and ``Coalescer`` folds
the refreshes asked for while one waits into that one: the refresh renders the state as it is
when its turn comes, so the table shows the latest state at most ``spacing`` after a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Pacer:
    """Per-key spacing of requests (a key is a group chat id)."""

    def __init__(self, spacing: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.spacing = spacing
        self.clock = clock
        self._next: dict[Hashable, float] = {}
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def delay(self, key: Hashable) -> float:
        """Seconds until ``key`` may get its next request."""
        return max(0.0, self._next.get(key, 0.0) - self.clock())

    async def slot(self, key: Hashable) -> None:
        """Wait for ``key``'s next slot and take it."""
        if self.spacing <= 0:
            return
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            wait = self.delay(key)
            if wait > 0:
                await asyncio.sleep(wait)
            self._next[key] = self.clock() + self.spacing

    def forget(self, key: Hashable) -> None:
        self._next.pop(key, None)
        self._locks.pop(key, None)


class Coalescer:
    """At most one pending run per key; asks made while it waits are folded into it, asks made
    while it runs cause exactly one more run afterwards."""

    def __init__(self) -> None:
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}
        self._dirty: dict[Hashable, Job] = {}

    def request(self, key: Hashable, job: Job, before: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` for ``key`` after awaiting ``before`` (its slot), folding repeated asks."""
        self._dirty[key] = job
        if key in self._tasks:
            return
        self._tasks[key] = asyncio.create_task(self._run(key, before))

    async def _run(self, key: Hashable, before: Callable[[], Awaitable[None]]) -> None:
        try:
            while key in self._dirty:
                await before()
                job = self._dirty.pop(key)
                try:
                    await job()
                except Exception:
                    log.exception("refresh of %s failed", key)
        finally:
            self._tasks.pop(key, None)

    async def drain(self) -> None:
        """Wait until nothing is pending (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    def cancel(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._dirty.clear()

    @property
    def pending(self) -> int:
        return len(self._tasks)


async def cancel_quietly(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
