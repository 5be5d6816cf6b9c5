"""Turn timers through the JobQueue: one job per game, for the turn it was armed for.

A job that fires late or for an old turn does nothing harmful: the service checks the turn
number under the chat's lock before it makes the default move.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from telegram.ext import Application, ContextTypes


class Timers:
    """Arms and cancels the turn timer of each game."""

    def __init__(self, application: Application) -> None:  # type: ignore[type-arg]
        self.application = application
        self.on_timeout: Callable[[int, int], Awaitable[None]] | None = None

    @staticmethod
    def name(game_id: int) -> str:
        return f"turn-{game_id}"

    def arm(self, game_id: int, turn: int, deadline: float | None) -> None:
        """Replace the game's timer by one at ``deadline`` (unix seconds) for ``turn``."""
        self.cancel(game_id)
        queue = self.application.job_queue
        if deadline is None or queue is None:
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

    async def _fire(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        job: Any = context.job
        game_id, turn = job.data
        if self.on_timeout is not None:
            await self.on_timeout(game_id, turn)
