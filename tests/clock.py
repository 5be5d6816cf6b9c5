"""A clock and a sleep that a test moves: what the bot's waits run on in a test.

``ManualClock()`` is the ``clock`` (call it for the time) and ``clock.sleep`` the ``sleep`` of
whatever takes them (``Pacer``, ``SharedRate``, ``ChatRateLimiter``). Nothing that sleeps on
it wakes until the test moves it: ``advance`` by some seconds, or ``advance_to`` a moment;
then each sleeper whose end has come resumes on the event loop's next rounds. ``next_wake`` is
the earliest end anyone waits for (a test that simulates time jumps there); ``wake(everyone=
True)`` lets every sleeper go at the end of a test. ``at`` maps the event loop's time to this
clock's: what it read at a given loop time (the fake Bot API logs requests on the loop's).
"""

from __future__ import annotations

import asyncio
import bisect
import heapq
import itertools


class ManualClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = self._start = now
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._loop_times: list[float] = []
        self._readings: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(seconds, 0.0), next(self._order), future))
        await future

    def next_wake(self) -> float | None:
        """When the earliest sleeper still waiting is due (None: nobody sleeps)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)  # cancelled
        return self._sleepers[0][0] if self._sleepers else None

    def advance(self, seconds: float) -> None:
        self.advance_to(self.now + seconds)

    def advance_to(self, moment: float) -> None:
        """Move to ``moment`` (never back) and wake whoever is due by then."""
        if moment > self.now:
            self.now = moment
            self._note()
        self.wake()

    def wake(self, everyone: bool = False) -> None:
        while self._sleepers and (everyone or self._sleepers[0][0] <= self.now):
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)

    def _note(self) -> None:
        try:
            loop_time = asyncio.get_running_loop().time()
        except RuntimeError:
            return
        self._loop_times.append(loop_time)
        self._readings.append(self.now)

    def at(self, loop_time: float) -> float:
        """What this clock read at the event loop's ``loop_time``."""
        index = bisect.bisect_right(self._loop_times, loop_time)
        return self._readings[index - 1] if index else self._start
