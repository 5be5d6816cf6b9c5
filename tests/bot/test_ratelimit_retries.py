"""Which failures the rate limiter tries again: faults yes, Telegram's answers (400) never;
a 429 holds its own chat only, on the limiter's clock."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram.error import BadRequest, NetworkError, RetryAfter

from bot.pacing import Pacer
from bot.ratelimit import ChatRateLimiter
from tests.clock import ManualClock


async def _run(limiter: ChatRateLimiter, error: Exception, endpoint: str) -> int:
    calls = 0

    async def callback(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise error
        return {"ok": True}

    limiter.backoff = (0.0,)
    try:
        await limiter.process_request(callback, (), {}, endpoint, {"chat_id": 5}, None)
    except type(error):
        pass
    return calls


async def test_a_bad_request_is_an_answer_not_a_fault() -> None:
    limiter = ChatRateLimiter(Pacer(0.0), overall_per_second=0)
    message = "Message is not modified: specified new message content is the same"
    assert await _run(limiter, BadRequest(message), "editMessageText") == 1


@pytest.mark.parametrize("endpoint", ["editMessageText", "answerCallbackQuery"])
async def test_a_network_fault_on_an_idempotent_request_is_tried_again(endpoint: str) -> None:
    limiter = ChatRateLimiter(Pacer(0.0), overall_per_second=0)
    assert await _run(limiter, NetworkError("connection reset"), endpoint) == 2


async def _turns(count: int = 20) -> None:
    """Let the event loop run whatever can run now."""
    for _ in range(count):
        await asyncio.sleep(0)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # RetryAfter's
async def test_a_429_holds_its_chat_alone_on_the_limiters_clock() -> None:
    clock = ManualClock()
    limiter = ChatRateLimiter(
        Pacer(3.0), overall_per_second=30, clock=clock.__call__, sleep=clock.sleep
    )
    sent: list[int] = []

    async def send(chat: int) -> Any:
        async def callback(*args: Any, **kwargs: Any) -> Any:
            if chat == -1 and not sent.count(-1) and clock.now == 1000.0:
                sent.append(0)  # the 429: not carried out
                raise RetryAfter(5)
            sent.append(chat)
            return {"ok": True}

        return await limiter.process_request(
            callback, (), {}, "sendMessage", {"chat_id": chat}, None
        )

    throttled = asyncio.create_task(send(-1))
    await _turns()
    assert sent == [0] and limiter.held(-1) > 5.0
    await send(-2)  # another group's message goes at once, on a clock that stands still
    assert sent == [0, -2]
    clock.advance(5.0)
    await _turns()
    assert not throttled.done(), "the 429's 5 s and a margin"
    clock.advance(0.1)
    await throttled
    assert sent == [0, -2, -1]
