"""The bot's pending updates, with ``getUpdates`` offset semantics and long-poll wake-ups.

As on Telegram, an update stays pending until a ``getUpdates`` call with a greater ``offset``
confirms it, so an update fetched by a request the client abandoned is delivered again. Update
types outside the bot's ``allowed_updates`` are dropped when they happen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
"""Update types a bot receives only when it asks for them in ``allowed_updates``."""


@dataclass
class QueuedUpdate:
    """One update: its id, type (``message``, ``callback_query``...) and JSON."""

    update_id: int
    kind: str
    payload: dict[str, Any]
    delivered: int = 0

    def to_json(self) -> dict[str, Any]:
        """The ``Update`` object."""
        return {"update_id": self.update_id, self.kind: self.payload}


class UpdateQueue:
    """Pending updates in id order; waiters are woken whenever one is added."""

    def __init__(self, first_update_id: int = 1) -> None:
        self.pending: list[QueuedUpdate] = []
        self.allowed_updates: frozenset[str] | None = None
        self.dropped: list[QueuedUpdate] = []
        self._next_id = first_update_id
        self._added = asyncio.Event()

    def set_allowed_updates(self, allowed: Iterable[str] | None) -> None:
        """Apply a bot's ``allowed_updates``; ``None`` keeps the setting, ``[]`` resets it."""
        if allowed is None:
            return
        allowed_set = frozenset(allowed)
        self.allowed_updates = allowed_set or None

    def is_allowed(self, kind: str) -> bool:
        """Whether the bot currently receives updates of this type."""
        if self.allowed_updates is None:
            return kind not in DEFAULT_EXCLUDED_UPDATES
        return kind in self.allowed_updates

    def put(self, kind: str, payload: dict[str, Any]) -> QueuedUpdate | None:
        """Queue an update and wake waiters; returns ``None`` (and keeps it in ``dropped``) if
        the bot does not receive this type."""
        update = QueuedUpdate(update_id=self._next_id, kind=kind, payload=payload)
        self._next_id += 1
        if not self.is_allowed(kind):
            self.dropped.append(update)
            return None
        self.pending.append(update)
        self._added.set()
        self._added = asyncio.Event()
        return update

    def confirm(self, offset: int) -> None:
        """Forget updates below ``offset``; a negative offset keeps only the last ``-offset``."""
        if offset < 0:
            del self.pending[:offset]
            return
        self.pending = [update for update in self.pending if update.update_id >= offset]

    def take(self, limit: int) -> list[QueuedUpdate]:
        """The first ``limit`` pending updates, marked delivered (they stay pending)."""
        batch = self.pending[:limit]
        for update in batch:
            update.delivered += 1
        return batch

    def clear(self) -> None:
        """Drop every pending update (``drop_pending_updates``)."""
        self.dropped.extend(self.pending)
        self.pending = []

    async def wait(self, timeout: float, *interrupts: asyncio.Event) -> None:
        """Return after ``timeout`` seconds, when an update is added, or an interrupt is set."""
        added = asyncio.ensure_future(self._added.wait())
        others = [asyncio.ensure_future(event.wait()) for event in interrupts]
        try:
            await asyncio.wait([added, *others], timeout=timeout, return_when="FIRST_COMPLETED")
        finally:
            for task in (added, *others):
                task.cancel()
