"""Keeping within Telegram's limits without falling behind.

A group gets at most ~20 messages or edits a minute from a bot. ``Pacer`` spaces every request
to one group at least ``spacing`` seconds apart (3 s) and never lets more than 20 into any
60 seconds, whatever the timing. ``Coalescer`` folds the refreshes asked for while one waits
into that one: a refresh waits for its group's slot *first* and renders the state as it is
then, so the table shows the latest state at most ``spacing`` after a change.

An *answer* — the reply to a player's command, the lobby's buttons retired by «Начать» — goes
before the table: it needs only ``answer_gap`` (1 s) after the group's previous request, and a
table edit waiting meanwhile waits for it, then for its own spacing after it: the table skips
a frame, which its coalesced refresh makes up (it renders the state as it is when it goes).
Within 20 a minute either way. (Table edits queued first made a /history wait 5.5 s.)
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator

from tables.storage_health import StorageTrouble, is_storage_error

log = logging.getLogger(__name__)
_storage = StorageTrouble()

Job = Callable[[], Awaitable[None]]

#: Telegram's limit for one group: this many messages and edits in any ``GROUP_WINDOW`` seconds
GROUP_REQUESTS = 20
GROUP_WINDOW = 60.0
#: seconds between two requests to one group: 20 a minute, evenly
GROUP_SPACING = GROUP_WINDOW / GROUP_REQUESTS
#: seconds an answer to a player waits after the group's previous request (Telegram asks for
#: no more than about one message a second in a chat)
ANSWER_GAP = 1.0

#: whether the requests made now answer a player (``answering``): they go first (see above)
_answering: contextvars.ContextVar[bool] = contextvars.ContextVar("answering", default=False)


@contextlib.contextmanager
def answering() -> Iterator[None]:
    """The requests made inside answer a player: the group's table waits for them."""
    token = _answering.set(True)
    try:
        yield
    finally:
        _answering.reset(token)


def is_answer() -> bool:
    return _answering.get()


#: waits between the tries of a refresh that failed for a network reason
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)


class RetryLater(Exception):
    """A job failed in a way worth another try in a moment (the network, not the request)."""


class _Gate:
    """One key's requests: one at a time, answers first."""

    __slots__ = ("answers", "lock", "no_answers", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # requests holding or waiting for the gate: it is dropped at none
        self.answers = 0  # answers waiting for their slot
        self.no_answers = asyncio.Event()
        self.no_answers.set()


class Pacer:
    """Per-key spacing of requests (a key is a group chat id).

    Two rules: ``spacing`` seconds between two requests (``answer_gap`` before an answer, see
    the module), and at most ``per_window`` requests in any ``window`` seconds (with
    ``margin`` for the clocks of the two ends). With ``spacing`` 0 there is no pacing at all
    (tests, a local Bot API server).

    What it keeps cannot grow with the number of groups ever paced: a key's send times only
    while they still count (its last send less than ``window`` + ``margin`` ago, or less
    than ``spacing``: the groups sent to in the last minute, at most the bot's overall 30 a
    second times that), a key's gate only while a request holds it or waits for it.
    """

    def __init__(
        self,
        spacing: float,
        *,
        per_window: int = GROUP_REQUESTS,
        window: float = GROUP_WINDOW,
        margin: float = 0.25,
        answer_gap: float = ANSWER_GAP,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.spacing = spacing
        self.answer_gap = answer_gap
        self.per_window = per_window
        self.window = window
        self.margin = margin
        self.clock = clock
        self.sleep = sleep
        #: key → its last ``per_window`` send times, the least recently sent to first
        self._sent: OrderedDict[Hashable, deque[float]] = OrderedDict()
        self._locks: dict[Hashable, _Gate] = {}

    def delay(self, key: Hashable, *, answer: bool = False) -> float:
        """Seconds until ``key`` may get its next request (an ``answer``: see the module)."""
        sent = self._sent.get(key)
        if self.spacing <= 0 or not sent:
            return 0.0
        now = self.clock()
        wait = sent[-1] + (min(self.answer_gap, self.spacing) if answer else self.spacing) - now
        if len(sent) >= self.per_window:
            wait = max(wait, sent[0] + self.window + self.margin - now)
        return max(0.0, wait)

    async def ready(self, key: Hashable, *, answer: bool = False) -> None:
        """Wait until ``key``'s next slot is due, without taking it (render, then send)."""
        while (wait := self.delay(key, answer=answer)) > 0:
            await self.sleep(wait)

    async def sleep_unless(self, event: asyncio.Event, seconds: float) -> None:
        """Sleep ``seconds`` on this pacer's clock, or until ``event`` is set if sooner."""
        sleeping = asyncio.ensure_future(self.sleep(seconds))
        woken = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait((sleeping, woken), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            woken.cancel()

    @contextlib.asynccontextmanager
    async def turn(self, key: Hashable, *, answer: bool = False) -> AsyncIterator[None]:
        """``key``'s requests one at a time, answers first: wait for the slot; the caller
        calls ``record`` the moment its request leaves (after any other limit made it wait)."""
        if self.spacing <= 0:
            yield
            return
        gate = self._locks.get(key)
        if gate is None:
            gate = self._locks[key] = _Gate()
        gate.users += 1
        try:
            if answer:
                gate.answers += 1
                gate.no_answers.clear()
            try:
                while True:
                    if not answer:
                        await gate.no_answers.wait()  # an answer waiting goes first
                    await self.ready(key, answer=answer)
                    await gate.lock.acquire()
                    if self.delay(key, answer=answer) <= 0 and (answer or not gate.answers):
                        break
                    gate.lock.release()  # the slot went to another request meanwhile
            finally:
                if answer:
                    gate.answers -= 1
                    if not gate.answers:
                        gate.no_answers.set()
            try:
                yield
            finally:
                gate.lock.release()
        finally:
            gate.users -= 1
            if not gate.users and self._locks.get(key) is gate:
                del self._locks[key]  # nobody holds it or waits: nothing worth keeping

    def record(self, key: Hashable) -> None:
        """A request to ``key`` leaves now. The keys whose last request no longer counts
        (``delay`` would be 0 for them with or without it) are forgotten."""
        if self.spacing <= 0:
            return
        now = self.clock()
        sent = self._sent.get(key)
        if sent is None:
            sent = self._sent[key] = deque(maxlen=self.per_window)
        else:
            self._sent.move_to_end(key)
        sent.append(now)
        horizon = now - max(self.window + self.margin, self.spacing)
        while True:
            oldest = next(iter(self._sent.values()))
            if oldest[-1] > horizon:
                break
            self._sent.popitem(last=False)

    async def slot(self, key: Hashable, *, answer: bool = False) -> None:
        """Wait for ``key``'s next slot and take it."""
        async with self.turn(key, answer=answer):
            self.record(key)

    def forget(self, key: Hashable) -> None:
        self._sent.pop(key, None)
        self._locks.pop(key, None)


class SharedRate:
    """At most ``rate`` requests a second over the whole bot (a bucket of ``burst`` tokens
    that refills at ``rate``), where a waiting *urgent* request goes before every other
    waiting one, and a waiting *answer* before every waiting ordinary one.

    Why the order matters: at full speed a bot's private hand edits alone can use Telegram's
    30 a second, and in first-come order a group's table edit then waits behind them, so the
    group falls behind by more than its own pace (bench/load.py measured tables 5–6 s behind
    with 20 groups). Group requests are the urgent ones: each group has at most one every
    3 s, so they cannot starve the others for long. Then the private messages that answer a
    player (``answering``: the presser's own hand, the hand of the player whose turn it is):
    in first-come order they waited behind the waiting players' edits, seven seconds at 30 a
    second (bench/load.py, 60 groups), and it is the waiting players who may be a few seconds
    behind. (Answers as urgent as the tables put the tables 4 s behind in that run.)
    """

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.burst = rate if burst is None else burst
        self.clock = clock
        self.sleep = sleep
        self._tokens = self.burst
        self._last = clock()
        #: the waiters, most urgent first: urgent, answers, ordinary
        self._queues: tuple[deque[asyncio.Future[None]], ...] = (deque(), deque(), deque())
        self._timer: asyncio.Task[None] | None = None

    def use_clock(
        self, clock: Callable[[], float], sleep: Callable[[float], Awaitable[None]]
    ) -> None:
        """Refill on ``clock`` and wait with ``sleep`` from now on (a test's clock)."""
        self._refill()
        self.clock, self.sleep = clock, sleep
        self._last = clock()

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    async def acquire(self, *, urgent: bool = False, answer: bool = False) -> None:
        """Wait for a token, then take it (``urgent`` and ``answer``: see the class)."""
        self._refill()
        if self._tokens >= 1 and not any(self._queues):
            self._tokens -= 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues[0 if urgent else 1 if answer else 2].append(waiter)
        self._release()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._tokens += 1  # granted just as it was cancelled: give the token back
            raise

    def _release(self) -> None:
        """Hand tokens to waiters, most urgent first; come back when the next token is due."""
        if self._timer is not None:
            return
        self._refill()
        while self._tokens >= 1 and any(self._queues):
            waiter = next(queue for queue in self._queues if queue).popleft()
            if waiter.done():
                continue  # cancelled while it waited
            waiter.set_result(None)
            self._tokens -= 1
        if any(not w.done() for queue in self._queues for w in queue):
            delay = (1 - self._tokens) / self.rate
            self._timer = asyncio.get_running_loop().create_task(self._release_after(delay))

    async def _release_after(self, delay: float) -> None:
        try:
            await self.sleep(delay)
        finally:
            self._timer = None
        self._release()


async def no_wait() -> None:
    """The slot of a coalesced job that waits for nothing (``Coalescer.request``)."""
    return None


class Coalescer:
    """At most one pending run per key; asks made while it waits are folded into it, asks made
    while it runs cause exactly one more run afterwards. A run that raises ``RetryLater`` is
    tried again after a pause (``RETRY_DELAYS``) unless a newer ask replaced it."""

    def __init__(self, retry_delays: tuple[float, ...] = RETRY_DELAYS) -> None:
        self.retry_delays = retry_delays
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}
        self._dirty: dict[Hashable, Job] = {}

    def request(self, key: Hashable, job: Job, before: Callable[[], Awaitable[None]]) -> None:
        """Run ``job`` for ``key`` after awaiting ``before`` (its slot), folding repeated asks."""
        self._dirty[key] = job
        if key in self._tasks:
            return
        self._tasks[key] = asyncio.create_task(self._run(key, before))

    async def _run(self, key: Hashable, before: Callable[[], Awaitable[None]]) -> None:
        failures = 0
        try:
            while key in self._dirty:
                await before()
                job = self._dirty.pop(key)
                try:
                    await job()
                    failures = 0
                except RetryLater as error:
                    if failures >= len(self.retry_delays):
                        log.warning("refresh of %s given up: %s", key, error)
                        failures = 0
                        continue
                    await asyncio.sleep(self.retry_delays[failures])
                    failures += 1
                    self._dirty.setdefault(key, job)
                except Exception as error:
                    if is_storage_error(error):
                        _storage.failed(error, "refresh")  # once a minute with its cause
                    else:
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

    def pending_keys(self) -> list[Hashable]:
        return list(self._tasks)
