"""The ``Application`` factory: settings in, a wired python-telegram-bot application out.

It only wires: the program the chat is a front-end of (``bot.assembly.Host``, which ``server``
composes: the database, the table service, the chat, the page) is opened and started in
``post_init``, stopped in ``post_stop`` (the bot can still send then: what is due goes out) and
closed in ``post_shutdown``.
"""

from __future__ import annotations

import gc
import logging
import os

from telegram.ext import Application, ApplicationBuilder, ContextTypes
from telegram.request import BaseRequest

from bot.assembly import Host, Services
from bot.context import BotContext
from bot.handlers import register
from bot.ratelimit import rate_limiter
from bot.request import AiohttpRequest, UpdatesRequest
from bot.settings import Settings
from bot.startup import BotApplication

log = logging.getLogger(__name__)


def _bot(application: Application) -> BotApplication:  # type: ignore[type-arg]
    """The application ``build_application`` built, as PTB hands it to a callback."""
    assert isinstance(application, BotApplication)
    return application


def services_of(application: Application) -> Services:  # type: ignore[type-arg]
    """The services of a started bot that ``build_application`` built (tests, benches)."""
    return _bot(application).services


def host_of(application: Application) -> Host:  # type: ignore[type-arg]
    """The program a bot that ``build_application`` built runs in (tests, benches)."""
    return _bot(application).host


async def _post_init(application: Application) -> None:  # type: ignore[type-arg]
    host = _bot(application).host
    _bot(application).start_with(await host.open(application))
    await host.start()
    if _bot(application).tune_gc:
        tune_garbage_collector()


def tune_garbage_collector() -> None:
    """Keep the collector's pauses out of the players' way.

    What exists once the bot has started (modules, PTB, the handlers) lives until the end:
    ``gc.freeze`` moves it out of the collector's sight, so a full collection looks only at
    what came later (about a fifth of the objects). Under bench/load.py (200 groups, 100
    presses a second) full collections took 40–60 ms each before, a stall of every group at
    once, and 9–18 ms after; p99 from press to table went from about 75 ms to about 30 ms.
    (A larger generation-0 threshold was tried too: fewer collections, but each took longer.)
    """
    gc.collect()
    gc.freeze()


async def _post_stop(application: Application) -> None:  # type: ignore[type-arg]
    # updates have stopped but the bot can still send: what is due goes out now
    if _bot(application).started is not None:
        await _bot(application).host.stop()


async def _post_shutdown(application: Application) -> None:  # type: ignore[type-arg]
    # closed by PTB's shutdown after a start, but not when the start itself failed
    for request in _bot(application).requests:
        await request.shutdown()
    if _bot(application).started is not None:
        await _bot(application).host.close()


def _request(settings: Settings, pool_size: int, *, updates: bool = False) -> BaseRequest:
    """The request object of the bot's calls (``pool_size`` connections; one for
    ``getUpdates``, whose updates are trimmed: ``bot.request.trim_update``), through
    ``PROXY_URL`` when it is set."""
    proxy = settings.proxy_url.get_secret_value() if settings.proxy_url else None
    kind = UpdatesRequest if updates else AiohttpRequest
    return kind(pool_size, proxy=proxy)


def build_application(
    settings: Settings,
    host: Host,
    *,
    tune_gc: bool = False,
) -> Application:  # type: ignore[type-arg]
    """The chat as configured by ``settings``, handlers registered, not yet running, in the
    program ``host`` (``server.program``: the table service, and the page beside the chat).

    ``tune_gc``: freeze what exists once it has started (``tune_garbage_collector``); for the
    bot's own process, not for a test that builds many applications in one."""
    # PTB 22 gives time periods (a 429's retry_after) as whole seconds, warning on every one
    # that they become timedeltas in PTB 23; this opts in now (bot.ratelimit and bot.webhook
    # read a timedelta)
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    requests = (_request(settings, 256), _request(settings, 1, updates=True))
    builder = (
        ApplicationBuilder()
        .application_class(
            BotApplication,
            {
                "settings": settings,
                "requests": requests,
                "tune_gc": tune_gc,
                "host": host,
            },
        )
        .token(settings.bot_token.get_secret_value())
        .base_url(settings.telegram_api_base_url)
        .base_file_url(settings.telegram_file_base_url)
        .request(requests[0])
        .get_updates_request(requests[1])
        .context_types(ContextTypes(context=BotContext))
        .concurrent_updates(True)
        .post_init(_post_init)
        .post_stop(_post_stop)
        .post_shutdown(_post_shutdown)
    )
    # always: retries and per-chat flood control; the limits only with RATE_LIMITER (on)
    builder = builder.rate_limiter(rate_limiter(settings))  # type: ignore[arg-type]
    application = builder.build()
    register(application)
    return application
