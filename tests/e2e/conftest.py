"""Fixtures for end-to-end tests: a running fake Telegram and applications polling it.

``fake_telegram`` is a started :class:`FakeTelegram` on 127.0.0.1 (stopped after the test);
``start_application`` starts a real ``Application`` polling it and stops it after the test,
before the fake goes down. Both live in the test's own event loop.

The strong computer's searches here, a hint (💡) and a move, play out their least number of
worlds and no more: what a hint says, where it goes, that a computer moves through its worker,
is what these tests check; the bot's own budgets (a hint's 1.5 s, a move's 30-100 ms, of the
wall's clock: under load they always ran out) only made them wait. The search and its budget
are tests/game/test_ai.py's.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from game.ai import ComputerAt
from tables import computers

from .fake_telegram import FakeTelegram, RunningApplication, running
from .fake_telegram.ptb import AnyApplication

StartApplication = Callable[[AnyApplication], Awaitable[RunningApplication]]


@pytest.fixture(autouse=True)
def short_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint and a strong computer's move search their least number of worlds, then stop."""
    monkeypatch.setattr(computers, "HINT_MILLISECONDS", 0.0)
    monkeypatch.setattr(ComputerAt, "milliseconds", property(lambda _: 0.0))


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    """A fake Bot API server, started, with an empty world."""
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def start_application(fake_telegram: FakeTelegram) -> AsyncIterator[StartApplication]:
    """``await start_application(app)`` runs ``app`` with long polling until the test ends."""
    async with contextlib.AsyncExitStack() as stack:

        async def start(app: AnyApplication) -> RunningApplication:
            return await stack.enter_async_context(running(app, fake_telegram))

        yield start
