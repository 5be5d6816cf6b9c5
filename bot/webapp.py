"""The Mini App's server assembled: the page's front-end (``web``) given the same table
service the chat's buttons use, and the chat front-end's ways of showing a change, names,
languages and card style. The one module of ``bot`` that knows ``web``.

It listens on ``WEBAPP_HOST``:``WEBAPP_PORT`` in the bot's own event loop, only when
``WEBAPP_URL`` is set; a reverse proxy with TLS puts it at that address (docs/operations.md).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiohttp import web

from web.server import WebApp, make_app
from web.tables import Front, WebTables

if TYPE_CHECKING:
    from bot.presenter import Presenter
    from bot.settings import Settings
    from tables import TableService

log = logging.getLogger(__name__)


class WebAppServer:
    """The running server (``start``/``stop``), and the address it listens on."""

    def __init__(self, settings: Settings, tables: TableService, presenter: Presenter) -> None:
        people = presenter.people
        front = Front(
            show=presenter.show,
            names=people.names,
            language=people.user_language,
            ranks=people.chat_ranks,
        )
        self.server = WebApp(
            WebTables(tables, front),
            settings.bot_token.get_secret_value(),
            max_age=settings.webapp_auth_max_age,
        )
        tables.watch(lambda game: self.server.changed(game.game_id, list(game.seats)))
        self.host = settings.webapp_host
        self.port = settings.webapp_port
        self.runner: web.AppRunner | None = None
        #: where it listens, once started (``WEBAPP_PORT`` 0: a free port the system chose)
        self.address = ""

    async def start(self) -> None:
        runner = web.AppRunner(make_app(self.server), shutdown_timeout=2.0, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self.runner = runner
        host, port = runner.addresses[0][:2]
        self.address = f"http://{host}:{port}/"
        log.info("Mini App server listening on %s:%s", host, port)

    async def stop(self) -> None:
        """No more moves from pages; every live stream ends."""
        runner, self.runner = self.runner, None
        if runner is not None:
            await runner.cleanup()
