"""Debian's Chromium under Playwright for the page's tests and screenshots, with Telegram's
script replaced by ``tests.web.server.telegram_stub`` and the preview server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aiohttp import web

from tests.web.server import (
    FIRST_USER,
    PROGRAM_PREVIEW,
    Preview,
    make_app,
    sign_init_data,
    telegram_stub,
)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"


@contextmanager
def preview_server(preview: Preview = PROGRAM_PREVIEW) -> Iterator[str]:
    """The preview server of ``preview`` (the program's games by default) in a thread of its
    own; yields its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    runner = web.AppRunner(make_app(preview), shutdown_timeout=0.5)

    async def start() -> None:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()

    asyncio.run_coroutine_threadsafe(start(), loop).result(30)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def open_table(
    browser: Any,
    address: str,
    fixture: str,
    *,
    width: int = 390,
    height: int = 844,
    dark: bool = False,
    lang: str = "ru",
    scale: int = 2,
    user_id: int = FIRST_USER,
) -> Any:
    """A phone-sized page at ``fixture``'s table, drawn and waiting: at the fixture's seat, or
    for a later ``user_id``, at a seat after it (``tests.web.server``)."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=scale,
        color_scheme="dark" if dark else "light",
        has_touch=True,
        is_mobile=True,
        # the tests' own probes are evaluated strings, which the page's policy forbids; the
        # policy itself is tested in a context of its own (test_page.py)
        bypass_csp=True,
    )
    stub = telegram_stub(sign_init_data(fixture, lang=lang, user_id=user_id), dark=dark)

    def route(request_route: Any) -> None:
        request_route.fulfill(status=200, content_type="application/javascript", body=stub)

    context.route(TELEGRAM_SCRIPT, route)
    page = context.new_page()
    page.goto(address)
    page.wait_for_selector("#app[aria-busy=false]")
    page.wait_for_timeout(150)
    return page
