"""Fixtures for end-to-end tests: a running fake Telegram and applications polling it.

``fake_telegram`` is a started :class:`FakeTelegram` on 127.0.0.1 (stopped after the test);
``start_application`` starts a real ``Application`` polling it and stops it after the test,
before the fake goes down. Both live in the test's own event loop.

Every test here gives a hint (💡) the least number of worlds and no more: what a hint says and
where it goes is what these tests check, and the bot's own budget (seconds of search, on the
wall's clock) only made them wait; the search and its budget are tests/game/test_ai.py's.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from tables import computers

from .fake_telegram import FakeTelegram, RunningApplication, running
from .fake_telegram.ptb import AnyApplication

StartApplication = Callable[[AnyApplication], Awaitable[RunningApplication]]


@pytest.fixture(autouse=True)
def short_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint in the computers' worker searches its least number of worlds, then stops."""
    monkeypatch.setattr(computers, "HINT_MILLISECONDS", 0.0)


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
