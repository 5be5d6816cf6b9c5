"""Turn timers: one asyncio timer per game, for the turn it was armed for.

A timer that fires late or for an old turn does nothing harmful: the service checks the turn
number under the chat's lock before it makes the default move. The deadline itself is stored
with the game (``turn_deadline``), so after a restart the timer is armed again with the time
that was left, not a fresh turn.

Why not PTB's JobQueue: a timer is re-armed on every move. A JobQueue job is an APScheduler
job; adding one wakes the scheduler through the event loop's self-pipe and finding the old one
by name scans every job, which under bench/load.py cost more than rendering the move. An
``asyncio`` timer handle is armed and cancelled in constant time; the callback runs as a task
on the same loop, like a job would, and goes through the same lock and turn check.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tables.storage_health import StorageTrouble, is_storage_error

log = logging.getLogger(__name__)
_storage = StorageTrouble()

#: seconds before the default move is tried again after its commit failed (a locked or full
#: database): until it applies or the turn moves on, the table never waits for ever
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


class Timers:
    """Arms and cancels the turn timer of each game; ``on_timeout(game, turn)`` runs when
    one fires. On a ``stepped`` clock (one that moves only when its owner says so:
    ``clock_moved``) a timer not yet due waits for the clock, not for the loop's time."""

    def __init__(
        self,
        on_timeout: Callable[[int, int], Awaitable[object]],
        clock: Callable[[], float] = time.time,
        *,
        stepped: bool = False,
    ) -> None:
        self.on_timeout = on_timeout
        self.clock = clock
        self.stepped = stepped
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._armed: dict[int, tuple[int, float]] = {}  # game → (turn, deadline)
        self._firing: set[asyncio.Task[Any]] = set()
        self._stopped = False

    def arm(self, game_id: int, turn: int, deadline: float | None) -> None:
        """Replace the game's timer by one at ``deadline`` (unix seconds) for ``turn``."""
        self.cancel(game_id)
        if deadline is None or self._stopped:
            return
        self._armed[game_id] = (turn, deadline)
        delay = max(0.0, deadline - self.clock())
        if delay and self.stepped:
            return  # due once the clock has moved to it
        loop = asyncio.get_running_loop()
        self._handles[game_id] = loop.call_later(delay, self._fire, game_id, turn)

    def clock_moved(self) -> None:
        """The clock jumped (a test's clock): arm every timer again for its deadline."""
        for game_id, (turn, deadline) in list(self._armed.items()):
            self.arm(game_id, turn, deadline)

    def cancel(self, game_id: int) -> None:
        self._armed.pop(game_id, None)
        handle = self._handles.pop(game_id, None)
        if handle is not None:
            handle.cancel()

    async def stop(self) -> None:
        """Shutting down: no timer fires any more, and those firing now finish first (their
        default move is committed or not at all; a restart arms the timer again)."""
        self._stopped = True
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        while self._firing:
            await asyncio.gather(*list(self._firing), return_exceptions=True)

    def _fire(self, game_id: int, turn: int, attempt: int = 0) -> None:
        self._handles.pop(game_id, None)
        self._armed.pop(game_id, None)
        if self._stopped:
            return
        task = asyncio.get_running_loop().create_task(self._run(game_id, turn, attempt))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _run(self, game_id: int, turn: int, attempt: int) -> None:
        try:
            await self.on_timeout(game_id, turn)
        except Exception as error:
            delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
            if is_storage_error(error):
                _storage.failed(error, "turn timer")  # once a minute, not once per game
            elif attempt == 0:
                log.exception("the turn timer of game %s (turn %s) failed", game_id, turn)
            else:
                log.warning("the turn timer of game %s failed again: %s", game_id, error)
            # again later, unless the game was armed since (the turn moved on) or we stop
            if game_id not in self._handles and not self._stopped:
                loop = asyncio.get_running_loop()
                self._handles[game_id] = loop.call_later(
                    delay, self._fire, game_id, turn, attempt + 1
                )
