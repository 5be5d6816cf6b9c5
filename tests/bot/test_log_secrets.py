"""No secret in any log line: the token (and its secret half), the proxy's password, the
webhook's secret token (configured or random), in messages, arguments and tracebacks, from
any logger, and in an uncaught exception's traceback."""

from __future__ import annotations

import io
import logging
import sys
import threading
from collections.abc import Iterator

import pytest

from bot.settings import Settings
from server.logs import REDACTED, keep_secrets_out_of_the_log

TOKEN = "123456:AAH-token_secret_half"
PASSWORD = "p@ss:w/rd"
WEBHOOK = "configured-Webhook_secret"
RANDOM = "random-run-secret_42"


@pytest.fixture
def log_text() -> Iterator[io.StringIO]:
    """The root logger writing to a string, with the redaction in place; put back after."""
    root = logging.getLogger()
    sink = io.StringIO()
    handler = logging.StreamHandler(sink)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    saved = (root.handlers[:], root.level, sys.excepthook, threading.excepthook)
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG)
    settings = Settings(
        bot_token=TOKEN,  # type: ignore[arg-type]
        proxy_url="http://user:p%40ss%3Aw%2Frd@127.0.0.1:3128",  # type: ignore[arg-type]
        webhook_secret=WEBHOOK,
    )
    try:
        keep_secrets_out_of_the_log(settings, [RANDOM])
        yield sink
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
        sys.excepthook, threading.excepthook = saved[2], saved[3]


SECRETS = (TOKEN, TOKEN.split(":")[1], PASSWORD, "p%40ss%3Aw%2Frd", WEBHOOK, RANDOM)


def test_every_secret_is_redacted_from_every_logger_and_level(log_text: io.StringIO) -> None:
    ptb = logging.getLogger("telegram.ext.ExtBot")
    ptb.debug(
        "Calling Bot API endpoint `setWebhook` with parameters `%s`",
        {"url": "https://x.org/h", "secret_token": WEBHOOK},
    )
    ptb.debug("secret_token %s", RANDOM)
    logging.getLogger("aiohttp.client").info("GET https://api.telegram.org/bot%s/getMe", TOKEN)
    logging.getLogger("bot").warning("half %s, proxy %s", TOKEN.split(":")[1], PASSWORD)
    logging.getLogger("x").error("not enough arguments %s %s", WEBHOOK)  # a malformed call
    try:
        raise ValueError(f"https://user:{PASSWORD}@proxy/ and {TOKEN}")
    except ValueError:
        logging.getLogger("telegram.ext.Updater").exception("failed with %s", RANDOM)
    text = log_text.getvalue()
    assert "Traceback" in text and "ValueError" in text and "setWebhook" in text
    assert text.count(REDACTED) >= 9
    for secret in SECRETS:
        assert secret not in text, (secret, text)


def test_an_uncaught_exception_goes_through_the_log_redacted(log_text: io.StringIO) -> None:
    try:
        raise RuntimeError(f"crashed with {WEBHOOK} and {TOKEN}")
    except RuntimeError:
        kind, error, trace = sys.exc_info()
        assert kind is not None and error is not None
        sys.excepthook(kind, error, trace)

    def in_a_thread() -> None:
        raise LookupError(f"no {RANDOM}")

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()
    text = log_text.getvalue()
    assert "RuntimeError" in text and "LookupError" in text and text.count("Traceback") == 2
    for secret in SECRETS:
        assert secret not in text, (secret, text)
