"""The bot-wide request rate (``bot.pacing.SharedRate``): the rate holds, and waiting group
requests, and private ones that answer a player, go before waiting private ones."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.pacing import Pacer, SharedRate, answering
from bot.ratelimit import ChatRateLimiter
from tests.clock import ManualClock


async def _granted(tasks: list[asyncio.Task[None]], count: int) -> None:
    """Wait until ``count`` of ``tasks`` have their token, then a little more: no other may
    get one on a clock that stands still."""
    for _ in range(500):
        if sum(t.done() for t in tasks) >= count:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)
    assert sum(t.done() for t in tasks) == count


async def test_the_rate_holds_after_the_burst() -> None:
    clock = ManualClock(now=1000.0)
    rate = SharedRate(50, burst=5, clock=clock)
    tasks = [asyncio.create_task(rate.acquire()) for _ in range(25)]
    await _granted(tasks, 5)  # the burst goes at once, and nothing more while no time passes
    for step in range(1, 9):
        clock.now += 0.0501  # two and a half new tokens at 50 a second
        await _granted(tasks, 5 + int(2.5 * step))


async def test_waiting_urgent_requests_go_first() -> None:
    rate = SharedRate(40, burst=1)
    await rate.acquire()  # the bucket is empty now
    order: list[str] = []

    async def one(name: str, urgent: bool, answer: bool = False) -> None:
        await rate.acquire(urgent=urgent, answer=answer)
        order.append(name)

    ordinary = [asyncio.create_task(one(f"private {n}", False)) for n in range(6)]
    await asyncio.sleep(0)  # the private ones wait first
    answers = [asyncio.create_task(one(f"answer {n}", False, True)) for n in range(2)]
    await asyncio.sleep(0)
    urgent = [asyncio.create_task(one(f"group {n}", True)) for n in range(3)]
    await asyncio.gather(*ordinary, *answers, *urgent)
    assert order == (
        [f"group {n}" for n in range(3)]
        + [f"answer {n}" for n in range(2)]
        + [f"private {n}" for n in range(6)]
    )


async def test_a_cancelled_waiter_leaves_its_turn_to_the_next() -> None:
    clock = ManualClock(now=1000.0)
    rate = SharedRate(20, burst=1, clock=clock)
    await rate.acquire()
    first = asyncio.create_task(rate.acquire())
    second = asyncio.create_task(rate.acquire())
    await asyncio.sleep(0)
    first.cancel()
    clock.now += 0.051  # one token (a second needs 0.1 s): it goes to the second
    await _granted([second], 1)
    assert first.cancelled()


async def test_waiters_wake_on_the_rates_own_sleep() -> None:
    clock = ManualClock()
    rate = SharedRate(10, burst=1, clock=clock, sleep=clock.sleep)
    await rate.acquire()  # the bucket is empty now; the next token is 0.1 s away
    waiter = asyncio.create_task(rate.acquire())
    for _ in range(20):
        await asyncio.sleep(0)
    assert clock.next_wake() == pytest.approx(1000.1) and not waiter.done()
    clock.advance(0.05)
    for _ in range(20):
        await asyncio.sleep(0)
    assert not waiter.done()
    clock.advance(0.06)
    await asyncio.wait_for(waiter, 5)  # at once: no real time passed


async def test_a_private_answer_goes_before_the_waiting_private_edits() -> None:
    """Through the bot's limiter: a private request made while answering a player (his own
    press's effect, his turn) goes before private edits that waited longer."""
    limiter = ChatRateLimiter(Pacer(0.0), overall_per_second=20)
    assert limiter._overall is not None
    limiter._overall.burst = limiter._overall._tokens = 1
    order: list[int] = []

    def request(chat: int) -> Any:
        async def callback(*args: Any, **kwargs: Any) -> Any:
            order.append(chat)
            return True

        return limiter.process_request(callback, (), {}, "editMessageText", {"chat_id": chat}, None)

    async def answer(chat: int) -> None:
        with answering():
            await request(chat)

    waiting = [asyncio.create_task(request(chat)) for chat in (1, 2, 3)]
    await asyncio.sleep(0)
    urgent = asyncio.create_task(answer(9))
    await asyncio.gather(*waiting, urgent)
    assert order[0] == 1  # the token there was
    assert order[1] == 9  # then the answer, before 2 and 3 that waited longer
