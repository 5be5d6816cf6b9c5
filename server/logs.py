"""The process's log keeps no secret: every record of every logger (the chat's, the page's,
python-telegram-bot's, aiohttp's, asyncio's) has the bot's token, the proxy's password and the
webhook's secret replaced before it is written, and an uncaught exception goes through the log
too. The program's entry point (``server.__main__``) installs it once logging is set up."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote, urlsplit

from bot.settings import Settings

log = logging.getLogger("bot")

#: what stands in a log line for a secret
REDACTED = "<secret>"


class RedactSecrets(logging.Filter):
    """Replaces every secret in a log record (its message, its arguments, its traceback) by
    ``REDACTED``: a library that logs a URL with the token in it, ``setWebhook``'s parameters
    with the secret token, or an error that quotes one, cannot leak it into the log. On the
    root logger's handlers, so it sees every logger's records, python-telegram-bot's,
    aiohttp's and asyncio's included."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        # the longest first: a secret that contains another is replaced whole
        self.secrets = sorted({secret for secret in secrets if secret}, key=len, reverse=True)

    def clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the message: shown beside it
            message = f"{record.msg} {record.args!r}"
            record.msg, record.args = message, None
        cleaned = self.clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self.clean(record.stack_info)
        return True


def secrets_of(settings: Settings, more: Iterable[str] = ()) -> list[str]:
    """What must never be logged: the token (and its secret half, after the bot's id), the
    proxy's password (as written in ``PROXY_URL`` and decoded), the webhook's secret token,
    and ``more`` (the random webhook secret of a run without ``WEBHOOK_SECRET``)."""
    token = settings.bot_token.get_secret_value()
    found = [token, token.partition(":")[2]]
    if settings.proxy_url is not None:
        password = urlsplit(settings.proxy_url.get_secret_value()).password
        if password:
            found += [password, unquote(password)]
    if settings.webhook_secret:
        found.append(settings.webhook_secret)
    found += more
    return [secret for secret in found if secret]


def keep_secrets_out_of_the_log(settings: Settings, more: Iterable[str] = ()) -> RedactSecrets:
    """Put ``RedactSecrets`` on every handler of the root logger (call after it is set up), and
    send what would reach stderr around the log (an uncaught exception's traceback, in the main
    thread or another) through the log, so it is redacted too."""
    redact = RedactSecrets(secrets_of(settings, more))
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)

    def uncaught(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        log.critical("uncaught exception", exc_info=(kind, error, trace))

    def uncaught_in_thread(info: threading.ExceptHookArgs) -> None:
        if info.exc_value is not None:
            log.critical(
                "uncaught exception in thread %s",
                info.thread.name if info.thread else "?",
                exc_info=(info.exc_type, info.exc_value, info.exc_traceback),
            )

    sys.excepthook = uncaught
    threading.excepthook = uncaught_in_thread
    return redact
