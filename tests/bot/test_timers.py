"""Turn timers (``tables.timers``): one per game, for the turn it was armed for."""

from __future__ import annotations

import asyncio

import pytest

import tables.timers
from tables.timers import Timers
from tests.clock import ManualClock


def _recording(clock: ManualClock) -> tuple[Timers, list[tuple[int, int]]]:
    """Timers on ``clock`` and the (game, turn) of each that fired, in order."""
    fired: list[tuple[int, int]] = []

    async def on_timeout(game_id: int, turn: int) -> None:
        fired.append((game_id, turn))

    return Timers(on_timeout, clock), fired


async def test_fires_at_the_deadline_for_its_turn() -> None:
    clock = ManualClock(now=1_800_000_000.0)
    timers, fired = _recording(clock)
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


async def _turns(count: int = 20) -> None:
    """Let the event loop run what is due now (a timer at its deadline, the task it starts)."""
    for _ in range(count):
        await asyncio.sleep(0)


async def test_arming_again_replaces_and_cancel_or_no_deadline_stops() -> None:
    clock = ManualClock(now=1_800_000_000.0)
    timers, fired = _recording(clock)
    timers.arm(1, 1, clock.now + 10)
    timers.arm(1, 2, clock.now + 15)  # the next turn: only this one fires
    timers.arm(2, 1, clock.now + 10)
    timers.cancel(2)
    timers.arm(3, 1, clock.now + 10)
    timers.arm(3, 2, None)  # a turn without a deadline (the lobby, a finished game)
    timers.cancel(4)  # nothing armed: nothing happens
    clock.now += 20
    timers.clock_moved()
    await _turns()
    assert fired == [(1, 2)]


async def test_stop_cancels_what_waits_and_waits_for_what_runs() -> None:
    clock = ManualClock(now=1_800_000_000.0)
    finished: list[int] = []
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow(game_id: int, turn: int) -> None:
        started.set()
        await release.wait()
        finished.append(game_id)

    timers = Timers(slow, clock)
    timers.arm(1, 1, clock.now)
    timers.arm(2, 1, clock.now + 30)
    await started.wait()
    stopping = asyncio.create_task(timers.stop())
    await _turns()
    assert not stopping.done(), "stop waits for the one running"
    release.set()
    await stopping
    assert finished == [1]  # the running one finished before stop returned
    clock.now += 60  # the other one's deadline has passed: it was cancelled
    timers.clock_moved()
    timers.arm(3, 1, clock.now)  # stopped: nothing is armed any more
    await _turns()
    assert finished == [1]


async def test_a_failing_timeout_is_logged_and_others_still_fire(caplog) -> None:  # type: ignore[no-untyped-def]
    clock = ManualClock(now=1_800_000_000.0)
    fired: list[int] = []

    async def flaky(game_id: int, turn: int) -> None:
        if game_id == 1:
            raise RuntimeError("boom")
        fired.append(game_id)

    timers = Timers(flaky, clock)
    timers.arm(1, 1, clock.now)
    timers.arm(2, 1, clock.now + 5)
    clock.now += 5
    timers.clock_moved()
    await _turns()
    assert fired == [2]
    assert "turn timer of game 1" in caplog.text
    await timers.stop()


async def test_a_default_move_whose_commit_fails_is_tried_again_until_it_applies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A failed commit (a locked database) must not drop the timer: it is tried again."""
    monkeypatch.setattr(tables.timers, "RETRY_DELAYS", (0.0, 0.0), raising=False)
    clock = ManualClock(now=1_800_000_000.0)
    calls: list[int] = []

    async def on_timeout(game_id: int, turn: int) -> None:
        calls.append(turn)
        if len(calls) < 3:
            raise RuntimeError("database is locked")

    timers = Timers(on_timeout, clock)
    timers.arm(1, 5, clock.now)
    for _ in range(1000):
        if len(calls) >= 3:
            break
        await asyncio.sleep(0)
    assert calls == [5, 5, 5]
    await _turns()
    assert calls == [5, 5, 5], "applied: no more tries"
    await timers.stop()


async def test_a_retry_never_replaces_the_timer_of_a_newer_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables.timers, "RETRY_DELAYS", (0.0,), raising=False)
    clock = ManualClock(now=1_800_000_000.0)
    calls: list[int] = []
    release = asyncio.Event()

    async def on_timeout(game_id: int, turn: int) -> None:
        calls.append(turn)
        if turn == 1:
            await release.wait()
            raise RuntimeError("database is locked")

    timers = Timers(on_timeout, clock)
    timers.arm(2, 1, clock.now)
    while not calls:
        await asyncio.sleep(0)
    timers.arm(2, 2, clock.now + 10)  # a move meanwhile: the next turn's timer
    release.set()  # turn 1's default move fails now: no retry, turn 2's timer stays
    await _turns()
    assert calls == [1]
    clock.now += 10
    timers.clock_moved()
    await _turns()
    assert calls == [1, 2]
    await timers.stop()
