"""Liveness: the running program touches a heartbeat file; ``python -m server.health`` checks
it. It is the whole process's (the event loop, the table service's timers, the database), not the
chat's: the program (``server.program``) beats once everything has started.

Every ``HEARTBEAT_INTERVAL`` seconds an asyncio timer (the mechanism of the turn timers,
``tables.timers``; no JobQueue) asks the table service how its database is
(``tables.storage_health.StorageHealth.problem``: a read through the database's own thread)
and then touches ``<DATABASE_PATH>.heartbeat``. So a fresh file means the event loop is turning,
its timers fire and the database answers; a bot that hangs, loses
its database or dies leaves the file to go stale. Docker's ``HEALTHCHECK`` runs
``python -m server.health``, which exits 0 when the file is at most ``STALE_AFTER`` seconds old
and 1 (with the reason on stderr) otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.settings import Settings, load_settings
from tables.storage_health import StorageTrouble, is_storage_error

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 30.0
"""Seconds between two heartbeats."""
STALE_AFTER = 3 * HEARTBEAT_INTERVAL
"""A heartbeat older than this means the bot is not well: two beats in a row were missed."""


def heartbeat_path(settings: Settings) -> Path:
    """The heartbeat file, beside the database (so every bot instance has its own)."""
    database = settings.database_path
    return database.with_name(database.name + ".heartbeat")


class Heartbeat:
    """Beats now and every ``interval`` seconds until stopped: an asyncio timer handle, armed
    again after each beat, whose beat runs as a task on the loop (as a turn timer's move
    does). A beat that fails is logged and the next one comes all the same."""

    def __init__(
        self,
        storage: Callable[[], Awaitable[str | None]],
        path: Path,
        interval: float = HEARTBEAT_INTERVAL,
    ) -> None:
        #: how the database is: why its writes fail, or None (``StorageHealth.problem``)
        self.storage = storage
        self.path = path
        self.interval = interval
        self._handle: asyncio.TimerHandle | None = None
        self._beating: asyncio.Task[None] | None = None
        self._stopped = False
        self._storage = StorageTrouble()

    async def start(self) -> None:
        await self.touch()
        self._arm()

    async def stop(self) -> None:
        """No more beats; one under way finishes first."""
        self._stopped = True
        if self._handle is not None:
            self._handle.cancel()
        if self._beating is not None:
            await asyncio.gather(self._beating, return_exceptions=True)

    async def touch(self) -> None:
        """One beat: the database asked how it is (if it stops answering, the beats stop),
        then the file touched. While writes fail (a full disk, a read-only file) the beat says
        why, and the check fails."""
        trouble = await self.storage()
        try:
            self.path.write_text(trouble or "", encoding="utf-8")
        except OSError:
            self.path.touch()  # a full disk: the beat itself, at least (its content stays)

    def _arm(self) -> None:
        if not self._stopped:
            loop = asyncio.get_running_loop()
            self._handle = loop.call_later(self.interval, self._fire)

    def _fire(self) -> None:
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    async def _beat(self) -> None:
        try:
            await self.touch()
        except Exception as error:
            if is_storage_error(error):
                self._storage.failed(error, "heartbeat")  # once a minute
            else:
                log.exception("the heartbeat failed")
        finally:
            self._arm()


def stop_heartbeat(settings: Settings) -> None:
    """Remove the heartbeat file: a bot that shut down cleanly is not running."""
    heartbeat_path(settings).unlink(missing_ok=True)


def problem(settings: Settings, now: float | None = None) -> str | None:
    """Why the bot does not look alive, or ``None`` if it does."""
    path = heartbeat_path(settings)
    try:
        beat = path.stat().st_mtime
    except FileNotFoundError:
        return f"no heartbeat at {path}: the bot is not running"
    age = (time.time() if now is None else now) - beat
    if age > STALE_AFTER:
        return f"the last heartbeat is {age:.0f} s old (more than {STALE_AFTER:.0f} s)"
    try:
        trouble = path.read_text(encoding="utf-8").strip()
    except OSError:
        trouble = ""
    if trouble:
        return f"the database cannot be written: {trouble}"
    return None


def main() -> None:
    """Exit 0 if the bot is alive, else 1 with the reason on stderr."""
    found = problem(load_settings())
    if found is not None:
        print(f"unhealthy: {found}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
