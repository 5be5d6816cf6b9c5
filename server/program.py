"""The program, composed: the database, the table service over it (with its runner: the
tables' own time and their recovery after a restart), and the front-ends over that service as
peers — the Telegram chat (``bot``) and, when ``WEBAPP_URL`` is set, the Mini App's server
(``web``). Each front-end is one of the service's listeners and sends it commands; neither
calls the other.

The chat's python-telegram-bot application drives the life of the whole (``bot.app``): its
``post_init`` opens the program (``open``: the chat needs the bot's own username) and starts it,
its ``post_stop`` stops it while the bot can still send, its ``post_shutdown`` closes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram.ext import Application

from bot.app import build_application as build_chat
from bot.assembly import Services
from bot.settings import Settings
from server.games import LIBRARY, Library
from server.health import Heartbeat, heartbeat_path, stop_heartbeat
from storage.chat_display import ChatDisplay
from storage.database import Database
from tables import TableService
from tables.computers import Thinker

if TYPE_CHECKING:  # the page's code is loaded only with WEBAPP_URL (about 2 MB)
    from web.server import WebAppServer


class Program:
    """Database → table service → the chat and the page; started and stopped in order."""

    def __init__(self, settings: Settings, library: Library = LIBRARY) -> None:
        self.settings = settings
        #: the games it offers, each with the chat's and the page's presentation
        self.library = library
        self._parts: tuple[Database, TableService, Services] | None = None
        #: the Mini App's server, with WEBAPP_URL
        self.page: WebAppServer | None = None
        #: the file that says the program is alive (``python -m server.health``), once open
        self.heartbeat: Heartbeat | None = None

    @property
    def tables(self) -> TableService:
        return self._opened[1]

    @property
    def db(self) -> Database:
        return self._opened[0]

    @property
    def chat(self) -> Services:
        return self._opened[2]

    @property
    def _opened(self) -> tuple[Database, TableService, Services]:
        if self._parts is None:
            raise RuntimeError("the program is not open")
        return self._parts

    async def open(self, application: Application) -> Services:  # type: ignore[type-arg]
        """The database opened, the table service over it, the chat (for ``application``,
        whose bot knows its username now) and the page over the service; the chat's
        services, which its handlers use."""
        settings = self.settings
        settings.database_path.parent.mkdir(parents=True, exist_ok=True)
        db = await Database.open(settings.database_path, cache_reads=True)
        try:
            tables = TableService(
                db,
                games=self.library.games,
                turn_timeout=settings.turn_timeout_seconds,
                computer_pause=settings.computer_pause_seconds,
                thinker=Thinker(settings.computer_workers),
                default_language=settings.default_language,
            )
            display = ChatDisplay(db)  # the chat's own: its messages, on the same connection
            chat = Services.create(application, settings, tables, display, self.library.chat)
            if settings.webapp_url:
                from server.webapp import webapp

                self.page = webapp(settings, tables, self.library.pages)
            self.heartbeat = Heartbeat(tables.health.problem, heartbeat_path(settings))
        except BaseException:
            # closed here, as nothing else knows of it yet: aiosqlite's thread would keep the
            # process from exiting; a program that did not open is not alive
            await db.close()
            stop_heartbeat(settings)
            raise
        self._parts = (db, tables, chat)
        return chat

    async def start(self) -> None:
        """The tables recover (frozen ones dealt on, the results still due handed out), the
        chat shows every table again, and only then does time run (turn timers with the time
        that was left, the evenings); then the commands menu, the page, the heartbeat."""
        _, tables, chat = self._opened
        await tables.runner.recover()
        await chat.presenter.resume()
        await tables.run()
        if self.page is not None:
            await self.page.start()
        await chat.start()
        if self.heartbeat is not None:
            await self.heartbeat.start()

    async def _halt(self) -> None:
        """No beat, page's move, timer or evening's wait any more."""
        if self.heartbeat is not None:
            await self.heartbeat.stop()
        if self.page is not None:
            await self.page.stop()
        await self.tables.halt()

    async def stop(self) -> None:
        """The bot stops while it can still send: nothing moves any more, and the chat's
        messages still due go out."""
        await self._halt()
        await self.chat.stop()

    async def close(self) -> None:
        """Everything closed, the database last; the heartbeat file goes (a program that
        shut down cleanly is not running)."""
        await self._halt()
        db, tables, chat = self._opened
        await chat.close()
        tables.thinker.close()
        await db.close()
        stop_heartbeat(self.settings)


def webapp_of(application: Application) -> WebAppServer | None:  # type: ignore[type-arg]
    """The Mini App's server of a running program that ``build_application`` built, if
    it has one (tests, benches)."""
    from bot.app import host_of

    host = host_of(application)
    return host.page if isinstance(host, Program) else None


def database_of(application: Application) -> Database:  # type: ignore[type-arg]
    """The database of a running program that ``build_application`` built (tests,
    benches)."""
    from bot.app import host_of

    host = host_of(application)
    if not isinstance(host, Program):
        raise TypeError("not a program's application")
    return host.db


def build_application(
    settings: Settings, *, tune_gc: bool = False, library: Library = LIBRARY
) -> Application:  # type: ignore[type-arg]
    """The program as configured by ``settings``, offering the games of ``library`` (a test
    offers its own), run by the chat's application (its start and stop); not yet running."""
    return build_chat(settings, Program(settings, library), tune_gc=tune_gc)
