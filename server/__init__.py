"""The running program: the Telegram chat (``bot``) and, when ``WEBAPP_URL`` is set, the Mini
App (``web``) over one table service, in one process. The one package that knows both
front-ends; ``python -m server`` starts it.

``build_application`` is ``bot.app.build_application`` with the Mini App's server as the chat's
companion: a move made on a page is shown in the chat as a button press is, and every commit
reaches the pages open at that table.
"""

from __future__ import annotations

from telegram.ext import Application

from bot.app import build_application as build_chat
from bot.assembly import Services
from bot.presenter import Presenter
from bot.settings import Settings
from tables import TableService
from web.server import WebApp, WebAppServer
from web.tables import Front, WebTables


def build_application(settings: Settings, *, tune_gc: bool = False) -> Application:  # type: ignore[type-arg]
    """The bot as configured by ``settings``, with the Mini App's server when ``WEBAPP_URL``
    is set; not yet running."""
    companions = [webapp] if settings.webapp_url else []
    return build_chat(settings, tune_gc=tune_gc, companions=companions)


def webapp(settings: Settings, tables: TableService, presenter: Presenter) -> WebAppServer:
    """The Mini App's server over ``tables``, showing a change as the chat does."""
    people = presenter.people
    front = Front(
        show=presenter.show,
        names=people.names,
        language=people.user_language,
        ranks=people.chat_ranks,
    )
    server = WebApp(
        WebTables(tables, front),
        settings.bot_token.get_secret_value(),
        max_age=settings.webapp_auth_max_age,
    )
    tables.watch(lambda game: server.changed(game.game_id, list(game.seats)))
    return WebAppServer(server, settings.webapp_host, settings.webapp_port)


def webapp_of(services: Services) -> WebAppServer | None:
    """The Mini App's server among a running bot's companions, if it has one."""
    return next((c for c in services.companions if isinstance(c, WebAppServer)), None)
