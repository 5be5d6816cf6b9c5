"""Start-up as a newcomer meets it: one clear line when the Bot API cannot be reached (and PTB's
bootstrap retries, with backoff, until it can), one clear line and exit code 2 when Telegram
rejects the token (no secret in any log line: ``server.logs``).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from telegram.error import InvalidToken, NetworkError
from telegram.ext import Application
from telegram.request import BaseRequest

from bot.assembly import Host, Services
from bot.settings import Settings

log = logging.getLogger("bot")

#: the exit code of a bot whose token Telegram rejected (retrying would not help)
TOKEN_REJECTED = 2


class BotApplication(Application[Any, Any, Any, Any, Any, Any]):
    """PTB's ``Application`` that says in one line why it cannot start.

    ``run_polling``/``run_webhook`` (with ``bootstrap_retries=-1``) call ``initialize`` again
    and again while it fails for a network reason, waiting longer each time (1 s, then 1.5
    times more, at most 30 s): a container that starts before its network is up recovers by
    itself. Only the first failure is logged. A token Telegram rejects ends the run instead:
    ``SystemExit``, which ``run_polling`` takes as the order to shut down, and the exit code
    in ``bot_data["exit_code"]`` for ``python -m server``.

    Built by ``bot.app.build_application`` with what its start and stop use: the settings,
    the request objects (of the bot's calls and of ``getUpdates``, closed at shutdown),
    whether to freeze what exists once started (``bot.app.tune_garbage_collector``), and the
    program the chat runs in (``bot.assembly.Host``: the table service and every front-end).
    """

    def __init__(
        self,
        *,
        settings: Settings,
        requests: tuple[BaseRequest, ...],
        tune_gc: bool,
        host: Host,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.settings = settings
        self.requests = requests
        self.tune_gc = tune_gc
        self.host = host
        self._services: Services | None = None

    @property
    def services(self) -> Services:
        """The assembled application (``bot.assembly.Services``), which the handlers use:
        built once, when the bot has started (it needs the database open and the bot's own
        username), by ``bot.app``'s ``post_init``."""
        if self._services is None:
            raise RuntimeError("the bot has not started")
        return self._services

    @property
    def started(self) -> Services | None:
        """The services if the bot has started, else None (a start that failed)."""
        return self._services

    def start_with(self, services: Services) -> None:
        """Hand the handlers ``services``: once, at the start. They stay readable after the
        bot stopped (tests read what it stored); an application object runs once, as
        ``python -m server`` and every test use it."""
        if self._services is not None:
            raise RuntimeError("the services are built already")
        self._services = services

    async def initialize(self) -> None:
        try:
            await super().initialize()
        except InvalidToken:
            log.error(
                "Telegram rejected BOT_TOKEN (getMe: 401 Unauthorized): check the token "
                "@BotFather gave (or /revoke and use the new one); not retrying"
            )
            self.bot_data["exit_code"] = TOKEN_REJECTED
            raise SystemExit(TOKEN_REJECTED) from None
        except NetworkError as error:
            failures = self.bot_data.get("startup_failures", 0)
            self.bot_data["startup_failures"] = failures + 1
            if not failures:
                log.error("%s", unreachable_line(self.settings, error))
            raise
        failures = self.bot_data.get("startup_failures", 0)
        if failures:
            log.info("Reached the Telegram Bot API after %s failed attempts", failures)


def unreachable_line(settings: Settings, error: Exception) -> str:
    host = urlsplit(settings.telegram_api_base_url).hostname or settings.telegram_api_base_url
    if settings.proxy_url is not None:
        route = "through the proxy in PROXY_URL"
        advice = "check that the proxy is up and lets the bot through"
    else:
        route = "directly"
        advice = "if this machine reaches Telegram only through a proxy, set PROXY_URL (README)"
    return (
        f"Cannot reach the Telegram Bot API at {host} {route} ({error}); retrying with "
        f"backoff until it answers. {advice[0].upper()}{advice[1:]}."
    )
