"""Turn timers (``bot.timers``): one per game, for the turn it was armed for."""

from __future__ import annotations

import asyncio
import time

import pytest

import bot.timers
from bot.timers import Timers


def _recording(timers: Timers) -> list[tuple[int, int]]:
    fired: list[tuple[int, int]] = []

    async def on_timeout(game_id: int, turn: int) -> None:
        fired.append((game_id, turn))

    timers.on_timeout = on_timeout
    return fired


class Clock:
    """The timers' clock (Unix seconds), moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_fires_at_the_deadline_for_its_turn() -> None:
    clock = Clock()
    timers = Timers(clock)
    fired = _recording(timers)
    timers.arm(1, 7, clock.now + 60)
    timers.arm(2, 3, clock.now - 5)  # already due (a restart after the deadline): at once
    await asyncio.sleep(0.05)
    assert fired == [(2, 3)]
    clock.now += 50  # ten seconds before the deadline
    timers.clock_moved()
    await asyncio.sleep(0.05)
    assert fired == [(2, 3)]
    clock.now += 10  # the deadline
    timers.clock_moved()
    await asyncio.sleep(0.05)
    assert fired == [(2, 3), (1, 7)]


async def test_arming_again_replaces_and_cancel_or_no_deadline_stops() -> None:
    timers = Timers()
    fired = _recording(timers)
    timers.arm(1, 1, time.time() + 0.1)
    timers.arm(1, 2, time.time() + 0.15)  # the next turn: only this one fires
    timers.arm(2, 1, time.time() + 0.1)
    timers.cancel(2)
    timers.arm(3, 1, time.time() + 0.1)
    timers.arm(3, 2, None)  # a turn without a deadline (the lobby, a finished game)
    timers.cancel(4)  # nothing armed: nothing happens
    await asyncio.sleep(0.4)
    assert fired == [(1, 2)]


async def test_stop_cancels_what_waits_and_waits_for_what_runs() -> None:
    timers = Timers()
    finished: list[int] = []
    started = asyncio.Event()

    async def slow(game_id: int, turn: int) -> None:
        started.set()
        await asyncio.sleep(0.2)
        finished.append(game_id)

    timers.on_timeout = slow
    timers.arm(1, 1, time.time())
    timers.arm(2, 1, time.time() + 0.3)
    await started.wait()
    await timers.stop()
    assert finished == [1]  # the running one finished before stop returned
    timers.arm(3, 1, time.time())  # stopped: nothing is armed any more
    await asyncio.sleep(0.4)
    assert finished == [1]


async def test_a_failing_timeout_is_logged_and_others_still_fire(caplog) -> None:  # type: ignore[no-untyped-def]
    timers = Timers()
    fired: list[int] = []

    async def flaky(game_id: int, turn: int) -> None:
        if game_id == 1:
            raise RuntimeError("boom")
        fired.append(game_id)

    timers.on_timeout = flaky
    timers.arm(1, 1, time.time())
    timers.arm(2, 1, time.time() + 0.05)
    await asyncio.sleep(0.2)
    assert fired == [2]
    assert "turn timer of game 1" in caplog.text


async def test_a_default_move_whose_commit_fails_is_tried_again_until_it_applies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A failed commit (a locked database) keeps the timer: it used to drop it."""
    monkeypatch.setattr(bot.timers, "RETRY_DELAYS", (0.05, 0.1), raising=False)
    timers = Timers()
    calls: list[int] = []

    async def on_timeout(game_id: int, turn: int) -> None:
        calls.append(turn)
        if len(calls) < 3:
            raise RuntimeError("database is locked")

    timers.on_timeout = on_timeout
    timers.arm(1, 5, time.time())
    for _ in range(100):
        if len(calls) >= 3:
            break
        await asyncio.sleep(0.02)
    assert calls == [5, 5, 5]
    await asyncio.sleep(0.2)
    assert calls == [5, 5, 5], "applied: no more tries"
    # a retry never replaces the timer of a newer turn
    calls.clear()
    timers.arm(2, 1, time.time())
    await asyncio.sleep(0.01)
    timers.arm(2, 2, time.time() + 10)
    await asyncio.sleep(0.3)
    assert calls == [1]
    await timers.stop()
