"""Liveness: the running bot touches a heartbeat file; ``python -m bot.health`` checks it.

Every ``HEARTBEAT_INTERVAL`` seconds a JobQueue job reads from the database (through the
database's own thread) and then touches ``<DATABASE_PATH>.heartbeat``. So a fresh file means
the event loop is turning, the job queue runs and the database answers; a bot that hangs, loses
its database or dies leaves the file to go stale. Docker's ``HEALTHCHECK`` runs
``python -m bot.health``, which exits 0 when the file is at most ``STALE_AFTER`` seconds old
and 1 (with the reason on stderr) otherwise.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

from telegram.ext import Application, CallbackContext

from bot.settings import Settings, load_settings

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL = 30.0
"""Seconds between two heartbeats."""
STALE_AFTER = 3 * HEARTBEAT_INTERVAL
"""A heartbeat older than this means the bot is not well: two beats in a row were missed."""


def heartbeat_path(settings: Settings) -> Path:
    """The heartbeat file, beside the database (so every bot instance has its own)."""
    database = settings.database_path
    return database.with_name(database.name + ".heartbeat")


async def start_heartbeat(application: Application) -> None:  # type: ignore[type-arg]
    """Beat now and every ``HEARTBEAT_INTERVAL`` seconds while ``application`` runs."""
    job_queue = application.job_queue
    if job_queue is None:
        raise RuntimeError("the heartbeat needs python-telegram-bot's job-queue extra")
    # APScheduler cannot run a job "now", so the first beat is made here.
    await _touch(application.bot_data["services"])
    job_queue.run_repeating(_beat, interval=HEARTBEAT_INTERVAL, name="heartbeat")


def stop_heartbeat(settings: Settings) -> None:
    """Remove the heartbeat file: a bot that shut down cleanly is not running."""
    heartbeat_path(settings).unlink(missing_ok=True)


async def _beat(context: CallbackContext[Any, Any, Any, Any]) -> None:
    await _touch(context.bot_data["services"])


async def _touch(services: Any) -> None:
    # A read through the database thread: if the database stops answering, the beats stop.
    await services.db.chat(0)
    # While writes fail (a full disk, a read-only file) the beat says why, and the check
    # fails; a probe write each beat sees them work again.
    db = services.db
    trouble = db.write_problem
    if trouble is not None and await db.probe_write():
        trouble = None
    path = heartbeat_path(services.settings)
    try:
        path.write_text(trouble or "", encoding="utf-8")
    except OSError:
        path.touch()  # a full disk: the beat itself, at least (its content stays as it was)


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
