"""The Mini App's server over the table service: a peer of the chat, made from the settings
and the service alone (its names, languages and card style are the service's
``tables.people``); every change of a table reaches the pages open at it (its hub is one of
the service's listeners)."""

from __future__ import annotations

from bot.settings import Settings
from tables import TableService
from web.connections import Connections, raise_file_limit
from web.games import PageGames
from web.server import WebApp, WebAppServer
from web.tables import WebTables


def webapp(settings: Settings, tables: TableService, pages: PageGames) -> WebAppServer:
    """The Mini App's server over ``tables``, showing ``pages``: its moves are published by
    the table service (the chat shows them as it shows a press's), and each change is told to
    its pages."""
    raise_file_limit()
    server = WebApp(
        WebTables(tables, pages),
        settings.bot_token.get_secret_value(),
        max_age=settings.webapp_auth_max_age,
        session_age=settings.webapp_session_max_age,
        connections=Connections(
            total=settings.webapp_max_connections,
            per_address=settings.webapp_max_connections_per_address,
        ),
    )
    tables.stream.listeners.append(server.hub)
    return WebAppServer(server, settings.webapp_host, settings.webapp_port)
