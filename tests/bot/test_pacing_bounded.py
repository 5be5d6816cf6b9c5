"""The pacer's and the rate limiter's per-chat memory stays bounded however many groups the bot
has ever sent to, and forgetting changes no wait that still counts."""

from __future__ import annotations

import asyncio

from bot.pacing import GROUP_SPACING, GROUP_WINDOW, Pacer
from bot.ratelimit import HELD_SWEEP, ChatRateLimiter
from tests.clock import ManualClock

GROUPS = 10_000


def test_send_times_are_kept_only_while_they_count() -> None:
    clock = ManualClock(now=1000.0)
    pacer = Pacer(GROUP_SPACING, clock=clock)
    step = 0.1  # a new group every 0.1 s: ten a second for 1,000 s
    for group in range(GROUPS):
        pacer.record(-group)
        clock.now += step
    kept = len(pacer._sent)
    # the groups sent to in the last window (and its margin), not every group ever
    assert kept <= (GROUP_WINDOW + pacer.margin) / step + 2, kept
    # what is kept still paces: the last group waits its spacing, a forgotten one does not
    clock.now -= step
    assert pacer.delay(-(GROUPS - 1)) == GROUP_SPACING
    assert pacer.delay(0) == 0.0


def test_a_busy_group_keeps_its_twenty_a_minute_among_thousands() -> None:
    clock = ManualClock(now=1000.0)
    pacer = Pacer(GROUP_SPACING, clock=clock)
    for request in range(20):  # the busy group fills its minute...
        pacer.record(-1)
        clock.now += 0.5
        for other in range(50):  # ...while thousands of others are sent to
            pacer.record(-(2 + request * 50 + other))
    # it waits for its first request of the window to age out, not just its spacing
    assert pacer.delay(-1) > GROUP_SPACING


async def test_a_gate_lives_only_while_a_request_holds_or_waits_for_it() -> None:
    clock = ManualClock(now=1000.0)

    async def sleep(seconds: float) -> None:
        clock.now += seconds

    pacer = Pacer(GROUP_SPACING, clock=clock, sleep=sleep)
    for group in range(GROUPS):
        async with pacer.turn(-group, answer=group % 2 == 0):
            assert len(pacer._locks) == 1
            pacer.record(-group)
        clock.now += 0.01
    assert len(pacer._locks) == 0

    # two requests to one group at once share its gate, one after the other
    order: list[str] = []

    async def send(name: str) -> None:
        async with pacer.turn(-5):
            order.append(f"{name} in")
            await asyncio.sleep(0)
            order.append(f"{name} out")
            pacer.record(-5)

    await asyncio.gather(send("a"), send("b"))
    assert order == ["a in", "a out", "b in", "b out"]
    assert len(pacer._locks) == 0


def test_holds_after_a_429_are_dropped_once_over() -> None:
    clock = ManualClock(now=1000.0)
    limiter = ChatRateLimiter(Pacer(0.0), overall_per_second=0, clock=clock)
    for group in range(GROUPS):
        limiter._hold(-group, 1.1)  # a 429 with retry_after 1
        clock.now += 0.5
    assert len(limiter._held_until) <= HELD_SWEEP, len(limiter._held_until)
    assert limiter.held(-(GROUPS - 1)) > 0  # the latest hold still holds
    clock.now += 2
    assert limiter.held(-(GROUPS - 1)) == 0.0
    assert -(GROUPS - 1) not in limiter._held_until
