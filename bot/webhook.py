"""Webhook mode: the HTTP server Telegram POSTs updates to, and the bot's run around it.

python-telegram-bot's own webhook server (tornado, inside ``Application.run_webhook``) answers
a POST that carries the right secret but a body that is not a JSON object with HTTP 500 and a
traceback in the log, and compares the secret with ``!=``. This one is the custom webhook PTB
documents (``Application.update_queue``, ``Update.de_json``), on aiohttp, which the bot already
uses: the secret is compared in constant time (missing or wrong: 403), a body that is not an
update is answered 400 with one line in the log, an update is queued and answered 200.

``run_webhook`` runs the application as PTB's ``run_webhook`` does: initialise (retrying while
the Bot API cannot be reached), ``post_init``, serve, ``setWebhook`` with the secret, then on
SIGINT/SIGTERM stop, ``post_stop``, shut down, ``post_shutdown``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.error import InvalidToken, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import Application

from bot.request import trim_update
from bot.startup import TOKEN_REJECTED

log = logging.getLogger("bot.webhook")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: the largest body read: an update is a few kilobytes; Telegram's largest are well under this
MAX_BODY = 1 << 20
#: waits between attempts while the Bot API cannot be reached: 1 s, then 1.5 times more, ≤ 30 s
FIRST_WAIT, GROWTH, LONGEST_WAIT = 1.0, 1.5, 30.0
#: the exit code when Telegram refuses the webhook (a wrong WEBHOOK_URL: retrying would not help)
WEBHOOK_REFUSED = 2

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class WebhookConfig:
    listen: str
    port: int
    #: the path of the public URL, without its leading slash (``server.__main__.webhook_path``)
    path: str
    url: str
    secret: str


def _body_kind(data: object) -> str:
    return "null" if data is None else type(data).__name__


def webhook_app(application: AnyApplication, path: str, secret: str) -> web.Application:
    """The aiohttp application that takes Telegram's POSTs on ``/path`` (and ``/path/``)."""
    expected = secret.encode()

    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, expected):
            log.debug("webhook: a POST without the right secret token, refused")
            return web.Response(status=HTTPStatus.FORBIDDEN)
        body = await request.read()
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):  # not UTF-8, not JSON, or nested too deep
            log.warning("webhook: refused a body that is not JSON (%d bytes)", len(body))
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        if not isinstance(data, dict):
            log.warning("webhook: refused a JSON %s, not an update object", _body_kind(data))
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        update_id = data.get("update_id")
        if not isinstance(update_id, int) or isinstance(update_id, bool):
            log.warning("webhook: refused a JSON object without a whole-number update_id")
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        trim_update(data)
        try:
            update = Update.de_json(data, application.bot)
        except Exception as error:  # any shape de_json cannot read: not an update
            log.warning(
                "webhook: refused a JSON object that is not an update (%s)", type(error).__name__
            )
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        await application.update_queue.put(update)
        return web.Response(status=HTTPStatus.OK)

    app = web.Application(client_max_size=MAX_BODY)
    route = "/" + path.strip("/")
    app.router.add_post(route, receive)
    if route != "/":
        app.router.add_post(route + "/", receive)
    return app


async def _until_done(action: Callable[[], Awaitable[object]], stop: asyncio.Event) -> bool:
    """Call ``action`` until it succeeds, waiting between network failures as PTB's bootstrap
    does (Telegram's ``retry_after`` when it asks for one); False if ``stop`` came first."""
    wait = FIRST_WAIT
    while not stop.is_set():
        try:
            await action()
            return True
        except RetryAfter as error:
            pause = error.retry_after
            wait_now = (pause if isinstance(pause, int | float) else pause.total_seconds()) + 0.5
        except TimedOut:
            wait_now = 0.0
        except InvalidToken:
            raise
        except NetworkError:
            wait_now, wait = wait, min(LONGEST_WAIT, wait * GROWTH)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), wait_now)
    return False


async def serve_webhook(application: AnyApplication, config: WebhookConfig) -> None:
    """Run ``application`` on the webhook until SIGINT or SIGTERM (see the module)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGABRT):
        with contextlib.suppress(NotImplementedError):  # a loop without signals (Windows)
            loop.add_signal_handler(sig, stop.set)
    runner: web.AppRunner | None = None
    try:
        if not await _until_done(application.initialize, stop):
            return
        if application.post_init is not None:
            await application.post_init(application)
        # no access log: a line per update is noise (PTB's server keeps none either)
        runner = web.AppRunner(
            webhook_app(application, config.path, config.secret), access_log=None
        )
        await runner.setup()
        await web.TCPSite(runner, config.listen, config.port).start()
        await application.start()

        async def set_webhook() -> None:
            await application.bot.set_webhook(
                config.url, allowed_updates=Update.ALL_TYPES, secret_token=config.secret
            )

        try:
            if not await _until_done(set_webhook, stop):
                return
        except TelegramError as error:
            log.error("Telegram refused the webhook at WEBHOOK_URL: %s; not retrying", error)
            application.bot_data["exit_code"] = WEBHOOK_REFUSED
            return
        log.info("Webhook set; listening on %s:%s", config.listen, config.port)
        await stop.wait()
    except SystemExit as exit_:  # the token was rejected (bot.startup.BotApplication)
        application.bot_data.setdefault("exit_code", exit_.code or TOKEN_REJECTED)
    finally:
        if runner is not None:
            await runner.cleanup()
        if application.running:
            await application.stop()
            if application.post_stop is not None:
                await application.post_stop(application)
        await application.shutdown()
        if application.post_shutdown is not None:
            await application.post_shutdown(application)


def run_webhook(application: AnyApplication, config: WebhookConfig) -> None:
    """``serve_webhook`` on the event loop ``server.__main__.use_uvloop`` set (or asyncio's)."""
    try:
        loop = asyncio.get_event_loop()
    except RuntimeError:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(serve_webhook(application, config))
    finally:
        loop.close()


__all__ = ["WebhookConfig", "run_webhook", "serve_webhook", "webhook_app"]
