"""The Mini App's server as a companion of the chat's services (``bot.assembly.Companion``):
made from the settings, the table service and the chat's presenter."""

from __future__ import annotations

from bot.assembly import Services
from bot.presenter import Presenter
from bot.settings import Settings
from tables import TableService
from web.connections import Connections, raise_file_limit
from web.server import WebApp, WebAppServer
from web.tables import Front, WebTables


def webapp(settings: Settings, tables: TableService, presenter: Presenter) -> WebAppServer:
    """The Mini App's server over ``tables``: its moves are published by the table service,
    which the chat shows as a press's."""
    people = presenter.people
    front = Front(
        names=people.names,
        language=people.user_language,
        ranks=people.chat_ranks,
    )
    raise_file_limit()
    server = WebApp(
        WebTables(tables, front),
        settings.bot_token.get_secret_value(),
        max_age=settings.webapp_auth_max_age,
        session_age=settings.webapp_session_max_age,
        connections=Connections(
            total=settings.webapp_max_connections,
            per_address=settings.webapp_max_connections_per_address,
        ),
    )
    tables.watch(lambda game: server.changed(game.game_id, list(game.seats)))
    return WebAppServer(server, settings.webapp_host, settings.webapp_port)


def webapp_of(services: Services) -> WebAppServer | None:
    """The Mini App's server among a running bot's companions, if it has one."""
    return next((c for c in services.companions if isinstance(c, WebAppServer)), None)
