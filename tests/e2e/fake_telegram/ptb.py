"""Running a real python-telegram-bot ``Application`` against the fake, in the test's loop.

``application_builder(fake)`` points an ``ApplicationBuilder`` at the fake server;
``running(app, fake)`` initialises and starts the application with real long polling and
stops it cleanly (and quickly) on exit. :meth:`RunningApplication.settle` waits until the bot
has fetched and fully processed every queued update and answered every press.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationBuilder, ContextTypes

from .fake import FakeTelegram

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


def application_builder(fake: FakeTelegram) -> ApplicationBuilder[Any, Any, Any, Any, Any, Any]:
    """An ``ApplicationBuilder`` with the fake's token, ``base_url`` and ``base_file_url``."""
    return (
        ApplicationBuilder()
        .token(fake.token)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
    )


class RunningApplication:
    """An application polling the fake; collects handler and polling errors.

    ``handler_errors`` are the exceptions the application's handlers raised (seen through an
    error handler added for the test); ``polling_errors`` those of the polling loop.
    """

    def __init__(self, app: AnyApplication, fake: FakeTelegram) -> None:
        self.app = app
        self.fake = fake
        self.handler_errors: list[BaseException] = []
        self.polling_errors: list[TelegramError] = []

    async def _collect_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if context.error is not None:
            self.handler_errors.append(context.error)

    async def settle(
        self,
        timeout: float = 5.0,
        *,
        quiet: float = 0.05,
        require_answers: bool = True,
        raise_errors: bool = True,
    ) -> None:
        """Wait until the bot is idle: no update left to fetch or to process, no request being
        served, every press answered, and ``quiet`` seconds without a request.

        Then re-raise the first handler error, unless ``raise_errors`` is false.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = max(deadline - loop.time(), 0.0)
            await self.fake.wait_idle(remaining, quiet=quiet, require_answers=require_answers)
            marker = self.fake.last_activity
            # Updates confirmed to the fake are already in the application's queue; join()
            # returns once each has been processed by its handlers.
            try:
                await asyncio.wait_for(self.app.update_queue.join(), deadline - loop.time())
            except TimeoutError:
                raise TimeoutError(
                    f"the application did not process its updates within {timeout}s"
                ) from None
            if self.fake.last_activity == marker and self.fake.is_idle(
                require_answers=require_answers
            ):
                break
        if raise_errors and self.handler_errors:
            raise self.handler_errors[0]


@contextlib.asynccontextmanager
async def running(
    app: AnyApplication,
    fake: FakeTelegram,
    *,
    poll_timeout: int = 10,
    drop_pending_updates: bool = False,
    allowed_updates: Sequence[str] | None = Update.ALL_TYPES,
    collect_errors: bool = True,
) -> AsyncIterator[RunningApplication]:
    """Run ``app`` with long polling against ``fake`` for the duration of the block.

    Shutdown is fast whatever ``poll_timeout`` is: PTB cancels its pending ``getUpdates`` and
    the fake ends the abandoned long poll when the next one arrives or when it stops.
    """
    runner = RunningApplication(app, fake)
    if collect_errors:
        app.add_error_handler(runner._collect_error)
    updater = app.updater
    if updater is None:
        raise ValueError("the application has no updater to poll with")
    await app.initialize()
    try:
        await app.start()
        await updater.start_polling(
            poll_interval=0,
            timeout=poll_timeout,
            drop_pending_updates=drop_pending_updates,
            allowed_updates=allowed_updates,
            error_callback=runner.polling_errors.append,
        )
        yield runner
    finally:
        if updater.running:
            await updater.stop()
        if app.running:
            await app.stop()
        await app.shutdown()
        if collect_errors:
            app.remove_error_handler(runner._collect_error)
