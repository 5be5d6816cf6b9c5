"""Webhook delivery: while the bot has a webhook set, POST each pending update to it.

As Telegram does, updates go one at a time in order, as JSON, with the
``X-Telegram-Bot-Api-Secret-Token`` header when the bot set a secret; a 2xx reply confirms the
update, anything else is retried after a short pause and recorded as the webhook's last error.
Only loopback URLs are accepted (``setWebhook`` refuses others), so no test can send traffic
off this machine.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp

from .update_queue import UpdateQueue

RETRY_DELAY = 0.1
"""Seconds between attempts to deliver an update the webhook did not accept."""


@dataclass
class Webhook:
    """The webhook the bot set (``url`` empty when polling)."""

    url: str = ""
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None
    last_error_message: str | None = None


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` is http(s) on 127.0.0.0/8, ::1 or localhost."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return parts.scheme in ("http", "https") and (
        host in ("localhost", "::1") or host.startswith("127.")
    )


class WebhookDelivery:
    """The task that pushes pending updates to the bot's webhook.

    ``current`` returns the webhook setting in force; ``closing`` is set when the fake stops.
    """

    def __init__(
        self, current: Callable[[], Webhook], updates: UpdateQueue, closing: asyncio.Event
    ) -> None:
        self.current = current
        self.updates = updates
        self.closing = closing
        self.attempts = 0
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    def webhook_changed(self) -> None:
        """Start delivering if a webhook is now set; a running loop re-reads the setting."""
        self._changed.set()
        if self.current().url and (self._task is None or self._task.done()):
            self._task = asyncio.create_task(self._deliver(), name="fake-telegram-webhook")

    async def stop(self) -> None:
        """Stop delivering (pending updates stay pending)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _deliver(self) -> None:
        async with aiohttp.ClientSession() as session:
            while (webhook := self.current()).url and not self.closing.is_set():
                if not self.updates.pending:
                    self._changed.clear()
                    await self.updates.wait(1.0, self._changed, self.closing)
                    continue
                update = self.updates.pending[0]
                update.delivered += 1
                self.attempts += 1
                if await self._post(session, webhook, update.to_json()):
                    if self.updates.pending and self.updates.pending[0] is update:
                        self.updates.confirm(update.update_id + 1)
                else:
                    await asyncio.sleep(RETRY_DELAY)

    async def _post(
        self, session: aiohttp.ClientSession, webhook: Webhook, body: dict[str, object]
    ) -> bool:
        headers = {}
        if webhook.secret_token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = webhook.secret_token
        try:
            async with session.post(
                webhook.url, json=body, headers=headers, timeout=aiohttp.ClientTimeout(total=10)
            ) as response:
                if 200 <= response.status < 300:
                    return True
                webhook.last_error_message = f"Wrong response from the webhook: {response.status}"
        except (aiohttp.ClientError, TimeoutError) as error:
            webhook.last_error_message = f"Connection failed: {error!r}"
        return False
