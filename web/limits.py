"""What keeps one user from costing the bot too much, and a retried move from counting twice.

``RateLimit``: a token bucket per user over every API request (a burst, then a steady rate);
``Once``: each idempotency key's answer, so a request sent again (a lost answer, a flaky
network) gets the first one's answer and changes nothing more. Both are bounded: the users and
keys seen longest ago are forgotten first.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: users whose buckets are kept (one absent comes back with a full bucket: no harm)
USERS_KEPT = 10_000
#: idempotency keys whose answers are kept (a retry comes within seconds)
KEYS_KEPT = 20_000


class RateLimit:
    """A token bucket per user: ``burst`` requests at once, then ``rate`` a second."""

    def __init__(
        self,
        *,
        burst: float = 40,
        rate: float = 10,
        clock: Callable[[], float] = time.monotonic,
        kept: int = USERS_KEPT,
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.kept = kept
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()

    def allow(self, user_id: int) -> bool:
        """Take one token of ``user_id``'s bucket; False if it is empty."""
        now = self.clock()
        tokens, then = self._buckets.pop(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[user_id] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > self.kept:
            self._buckets.popitem(last=False)
        return allowed


class KeyReused(Exception):
    """An idempotency key sent again with another request than the one it was first sent
    with: not a retry, and not answered as one."""


class Once(Generic[T]):
    """Each key's answer, computed once: a key seen again with the same request (while the
    first is still being answered, or after) gets the same answer without running anything
    again; with another request, ``KeyReused``."""

    def __init__(self, kept: int = KEYS_KEPT) -> None:
        self.kept = kept
        self._answers: OrderedDict[tuple[int, str], tuple[str, asyncio.Future[T]]] = OrderedDict()

    def seen(self, user_id: int, key: str) -> bool:
        return (user_id, key) in self._answers

    async def run(
        self, user_id: int, key: str, make: Callable[[], Awaitable[T]], *, request: str = ""
    ) -> T:
        """``make()``'s answer for the first request with ``key`` of ``user_id``; the same
        answer for every later one of the same ``request`` (what it asks, as a string), and
        ``KeyReused`` for another. A failure (an exception) is not kept: the key may be tried
        again."""
        slot = (user_id, key)
        kept = self._answers.get(slot)
        if kept is not None:
            first, pending = kept
            if first != request:
                raise KeyReused(key)
            return await asyncio.shield(pending)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._answers[slot] = (request, future)
        while len(self._answers) > self.kept:
            self._answers.popitem(last=False)
        try:
            answer = await make()
        except BaseException as error:
            self._answers.pop(slot, None)
            if isinstance(error, Exception):
                future.set_exception(error)
                future.exception()  # retrieved: nobody else may be waiting
            else:
                future.cancel()
            raise
        future.set_result(answer)
        return answer
