"""The bot-wide request rate (``bot.pacing.SharedRate``): the rate holds, and waiting group
requests go before waiting private ones."""

from __future__ import annotations

import asyncio
import time

from bot.pacing import SharedRate


async def test_the_rate_holds_after_the_burst() -> None:
    rate = SharedRate(50, burst=5)
    start = time.monotonic()
    times = []
    for _ in range(25):
        await rate.acquire()
        times.append(time.monotonic() - start)
    assert max(times[:5]) < 0.02  # the burst goes at once
    # the other 20 need 20 new tokens at 50 a second: 0.4 s
    assert 0.36 <= times[-1] < 1.0


async def test_waiting_urgent_requests_go_first() -> None:
    rate = SharedRate(40, burst=1)
    await rate.acquire()  # the bucket is empty now
    order: list[str] = []

    async def one(name: str, urgent: bool) -> None:
        await rate.acquire(urgent=urgent)
        order.append(name)

    ordinary = [asyncio.create_task(one(f"private {n}", False)) for n in range(6)]
    await asyncio.sleep(0)  # the private ones wait first
    urgent = [asyncio.create_task(one(f"group {n}", True)) for n in range(3)]
    await asyncio.gather(*ordinary, *urgent)
    assert order == [f"group {n}" for n in range(3)] + [f"private {n}" for n in range(6)]


async def test_a_cancelled_waiter_leaves_its_turn_to_the_next() -> None:
    rate = SharedRate(20, burst=1)
    await rate.acquire()
    first = asyncio.create_task(rate.acquire())
    second = asyncio.create_task(rate.acquire())
    await asyncio.sleep(0)
    first.cancel()
    start = time.monotonic()
    await second
    assert time.monotonic() - start < 0.09  # the first token (due in 0.05 s) went to it
    assert first.cancelled()
