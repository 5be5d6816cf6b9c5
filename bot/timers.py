"""Turn timers through the JobQueue: one job per game, for the turn it was armed for.

A job that fires late or for an old turn does nothing harmful: the service checks the turn
number under the chat's lock before it makes the default move. The deadline itself is stored
with the game (``turn_deadline``), so after a restart the timer is armed again with the time
that was left, not a fresh turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.ext import Application, ContextTypes


class Timers:
    """Arms and cancels the turn timer of each game."""

    def __init__(self, application: Application) -> None:  # type: ignore[type-arg]
        self.application = application
        self.on_timeout: Callable[[int, int], Awaitable[None]] | None = None
        self._firing: set[asyncio.Task[Any]] = set()
        self._stopped = False

    @staticmethod
    def name(game_id: int) -> str:
        return f"turn-{game_id}"

    def arm(self, game_id: int, turn: int, deadline: float | None) -> None:
        """Replace the game's timer by one at ``deadline`` (unix seconds) for ``turn``."""
        self.cancel(game_id)
        queue = self.application.job_queue
        if deadline is None or queue is None or self._stopped:
            return
        queue.run_once(
            self._fire,
            when=max(0.0, deadline - time.time()),
            data=(game_id, turn),
            name=self.name(game_id),
        )

    def cancel(self, game_id: int) -> None:
        queue = self.application.job_queue
        if queue is None:
            return
        for job in queue.get_jobs_by_name(self.name(game_id)):
            job.schedule_removal()

    async def stop(self) -> None:
        """Shutting down: no timer fires any more, and those firing now finish first (their
        default move is committed or not at all; a restart arms the timer again)."""
        self._stopped = True
        queue = self.application.job_queue
        if queue is not None:
            for job in queue.jobs():
                if job.name and job.name.startswith("turn-"):
                    job.schedule_removal()
        while self._firing:
            await asyncio.gather(*list(self._firing), return_exceptions=True)

    async def _fire(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        job: Any = context.job
        game_id, turn = job.data
        if self.on_timeout is None or self._stopped:
            return
        task = asyncio.current_task()
        if task is not None:
            self._firing.add(task)
        try:
            await self.on_timeout(game_id, turn)
        finally:
            if task is not None:
                with contextlib.suppress(KeyError):
                    self._firing.remove(task)
