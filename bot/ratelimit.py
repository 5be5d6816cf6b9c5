"""Every Bot API request goes through here: flood control per chat, group pacing, an overall
limit, and retries that never send a message twice.

python-telegram-bot's ``AIORateLimiter`` halts *all* requests when any chat gets a 429
(documented, and shown by ``tests/e2e/test_ratelimit.py``), so one throttled group would hold
up every other table. ``ChatRateLimiter`` holds only the chat that was told to wait.

Retries, by what a failure tells:

* 429 ``RetryAfter``: Telegram did not carry the request out; that chat waits ``retry_after``
  seconds, then the request is tried again.
* A 5xx reply, or a connection that could not be made: not carried out; tried again shortly
  if it is about what players see (it names a chat or answers a press; the bot's own set-up
  calls, such as the commands menu, report their failure to their caller instead).
* A timeout or a connection lost mid-request: Telegram may have carried it out. Requests that
  do the same thing twice over (edits, answers, reads) are tried again; a new message
  (``send*``, ``copy*``, ``forward*``) is not, and the caller learns it may have been sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import BaseRateLimiter

from bot.pacing import GROUP_SPACING, Pacer, SharedRate, is_answer
from bot.request import NOT_SENT
from bot.settings import Settings

log = logging.getLogger(__name__)

JSON = bool | dict[str, Any] | list[dict[str, Any]]
Callback = Callable[..., Coroutine[Any, Any, JSON]]

#: requests that count towards a group's 20 a minute (and so take a slot of its pacer)
PACED = frozenset({"sendmessage", "editmessagetext", "editmessagereplymarkup"})
#: Telegram's limit for all requests of a bot, per second
OVERALL_PER_SECOND = 30
#: the waits before the retries of a request that failed for a network reason
BACKOFF = (0.3, 1.0, 2.0, 4.0)
#: chats held after a 429 the limiter keeps before it drops the holds that are over
HELD_SWEEP = 256


def creates(endpoint: str) -> bool:
    """Whether doing the request twice would show something twice (a new message)."""
    name = endpoint.lower()
    return name.startswith(("send", "copy", "forward"))


def maybe_performed(error: NetworkError) -> bool:
    """Whether Telegram may have carried out a request that failed with ``error``.

    A reply with an error status (5xx) means it did not; so does a connection that was never
    made. A timeout or a connection lost while waiting for the reply leaves it unknown.
    """
    cause = error.__cause__
    if isinstance(cause, NOT_SENT):
        return False
    if isinstance(error, TimedOut):
        return True
    # no cause: the server replied with an error status; a client error: the connection broke
    return cause is not None and not isinstance(cause, TelegramError)


def retry_seconds(error: RetryAfter) -> float:
    """A 429's wait, whether PTB gives it as a timedelta (``PTB_TIMEDELTA``, which the bot
    opts into: ``bot.app``) or as whole seconds."""
    value: Any = error.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def chat_key(data: dict[str, Any]) -> int | str | None:
    chat_id = data.get("chat_id")
    if chat_id is None:
        return None
    with contextlib.suppress(ValueError, TypeError):
        return int(chat_id)
    return str(chat_id)


class ChatRateLimiter(BaseRateLimiter[int]):
    """Per-chat flood control, group pacing, an overall limit, retries (see the module).

    ``pacer`` spaces the message requests of each group (``Pacer(0)``: no spacing);
    ``overall_per_second`` caps all requests that name a chat (0: no cap), as Telegram asks
    (about 30 a second); ``max_retries`` bounds the retries of one request. Every wait is on
    ``clock`` and ``sleep`` (a test moves its own: ``use_clock``).
    """

    def __init__(
        self,
        pacer: Pacer,
        *,
        overall_per_second: float = 30,
        max_retries: int = 3,
        backoff: tuple[float, ...] = BACKOFF,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.pacer = pacer
        self.max_retries = max_retries
        self.backoff = backoff
        self.clock = clock
        self.sleep = sleep
        self._overall = (
            SharedRate(overall_per_second, clock=clock, sleep=sleep)
            if overall_per_second > 0
            else None
        )
        #: chat → when its 429 hold ends; a hold that has ended is dropped (``_hold``)
        self._held_until: dict[int | str | None, float] = {}
        self._sweep_at = HELD_SWEEP

    def use_clock(
        self, clock: Callable[[], float], sleep: Callable[[float], Awaitable[None]]
    ) -> None:
        """Wait on ``clock`` and ``sleep`` from now on, the group pacer and the overall rate
        too (a test's clock). Holds from 429s before are dropped: they were on the old one."""
        self.clock, self.sleep = clock, sleep
        self.pacer.clock, self.pacer.sleep = clock, sleep
        if self._overall is not None:
            self._overall.use_clock(clock, sleep)
        self._held_until.clear()

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    def held(self, chat: int | str | None) -> float:
        """Seconds that ``chat`` must still wait after a 429."""
        until = self._held_until.get(chat)
        if until is None:
            return 0.0
        wait = until - self.clock()
        if wait <= 0:
            del self._held_until[chat]  # the hold is over
            return 0.0
        return wait

    def _hold(self, chat: int | str | None, seconds: float) -> None:
        now = self.clock()
        self._held_until[chat] = max(self._held_until.get(chat, 0.0), now + seconds)
        if len(self._held_until) >= self._sweep_at:
            # the holds that are over, of chats that sent nothing since: a sweep each time
            # the map doubles, so it stays within twice the chats held at once (or the floor)
            self._held_until = {c: t for c, t in self._held_until.items() if t > now}
            self._sweep_at = max(HELD_SWEEP, 2 * len(self._held_until))

    async def process_request(
        self,
        callback: Callback,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> JSON:
        chat = chat_key(data)
        paced = endpoint.lower() in PACED and isinstance(chat, int) and chat < 0
        answer = paced and is_answer()  # an answer to a player goes before the table
        retries = self.max_retries if rate_limit_args is None else rate_limit_args
        attempt = 0
        while True:
            while (wait := self.held(chat)) > 0:
                await self.sleep(wait)
            try:
                turn = self.pacer.turn(chat, answer=answer) if paced else contextlib.nullcontext()
                async with turn:
                    if self._overall is not None and chat is not None:
                        # a group's table, and a private message that answers a player (his
                        # own press's effect, his turn), go before the others (see SharedRate)
                        await self._overall.acquire(urgent=paced, answer=is_answer())
                    if paced:
                        self.pacer.record(chat)
                    return await callback(*args, **kwargs)
            except RetryAfter as error:
                # not carried out: only this chat waits, then the request goes again
                self._hold(chat, retry_seconds(error) + 0.1)
                if attempt >= retries:
                    raise
                log.info("429 for chat %s: waiting %s s", chat, retry_seconds(error))
            except BadRequest:
                # a 400 (PTB makes it a NetworkError) is an answer, not a fault: no retry
                raise
            except NetworkError as error:
                if (
                    attempt >= retries
                    or isinstance(error.__cause__, RuntimeError)  # the client is closed
                    or (chat is None and "callback_query_id" not in data)
                    or (creates(endpoint) and maybe_performed(error))
                ):
                    raise
                log.info("%s failed (%s), trying again", endpoint, error)
                await self.sleep(self.backoff[min(attempt, len(self.backoff) - 1)])
            attempt += 1


def rate_limiter(settings: Settings) -> ChatRateLimiter:
    """The bot's limiter: with ``settings.rate_limiter`` a group gets a request every
    ``GROUP_SPACING`` seconds and the bot at most ``OVERALL_PER_SECOND``; without, no limits
    (tests, a local Bot API server), but the same retries."""
    if settings.rate_limiter:
        return ChatRateLimiter(Pacer(GROUP_SPACING), overall_per_second=OVERALL_PER_SECOND)
    return ChatRateLimiter(Pacer(0.0), overall_per_second=0)
