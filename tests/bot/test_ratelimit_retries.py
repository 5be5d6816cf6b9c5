"""Which failures the rate limiter tries again: faults yes, Telegram's answers (400) never."""

from __future__ import annotations

from typing import Any

import pytest
from telegram.error import BadRequest, NetworkError

from bot.pacing import Pacer
from bot.ratelimit import ChatRateLimiter


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
