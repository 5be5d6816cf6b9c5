"""When the database cannot be written (a full disk, a read-only file, another process holding
the write lock too long): what the bot says, logs and reports while it lasts.

Players get a short apology instead of a blank answer; the log says it once a minute with its
cause instead of a traceback per press; the health check fails while writes fail (see
``server.health``). Nothing is lost: every change is one transaction, so a failed one changed
nothing, and play resumes by itself with the first write that works again (a press, or the
turn timer's next try, or the heartbeat's probe).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.database import Database

log = logging.getLogger(__name__)

LOG_EVERY = 60.0
"""Seconds between two log lines about the same storage problem."""


def is_storage_error(error: BaseException | None) -> bool:
    """Whether ``error`` is the database failing (a full disk, a read-only or locked file),
    not a bug of ours (a constraint or an API misuse)."""
    if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
        return False
    return isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError)


class StorageTrouble:
    """Counts storage failures and says so at most once per ``LOG_EVERY`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.failures = 0
        self._logged_at: float | None = None
        self._since_log = 0
        self._told: dict[int, float] = {}

    def failed(self, error: BaseException, where: str) -> None:
        self.failures += 1
        self._since_log += 1
        now = self.clock()
        if self._logged_at is None or now - self._logged_at >= LOG_EVERY:
            log.error(
                "storage problem (%s; %d failure(s) since the last report): %s: %s",
                where,
                self._since_log,
                type(error).__name__,
                error,
            )
            self._logged_at = now
            self._since_log = 0

    def may_tell(self, chat_id: int) -> bool:
        """Whether the chat may be told (once a minute at most: a chat's apology is not a
        flood of its own)."""
        now = self.clock()
        if now - self._told.get(chat_id, -LOG_EVERY) < LOG_EVERY:
            return False
        self._told[chat_id] = now
        if len(self._told) > 10_000:
            self._told.clear()
        return True


class StorageHealth:
    """The database as a health check sees it (``server.health``'s heartbeat)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def problem(self) -> str | None:
        """One read through the database's thread (it raises, or never returns, if the
        database stops answering), then why writes fail now, if they do (a full disk, a
        read-only file); while they fail, a probe write each call sees them work again."""
        await self.db.chats.chat(0)
        trouble = self.db.write_problem
        if trouble is not None and await self.db.probe_write():
            return None
        return trouble
