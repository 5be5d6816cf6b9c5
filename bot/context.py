"""The services the handlers use, and the typed context that hands them out.

``Services`` is built once in ``post_init``: the database, the table service, the messenger,
the presenter and the turn timers. ``BotContext.services`` gives it to every handler.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import Application, CallbackContext, ExtBot

from bot.commands import publish_commands
from bot.evenings import EveningPosts
from bot.launch import Launch
from bot.messenger import Messenger
from bot.pacing import Coalescer, Pacer
from bot.presenter import Presenter
from bot.ratelimit import ChatRateLimiter
from bot.screens.menus import Menus
from bot.screens.people import People
from bot.screens.stats import StatsScreens
from bot.settings import Settings
from bot.webapp import WebAppServer
from storage.database import Database
from tables import TableService
from tables.bounded import PLAYERS_KEPT, Recent
from tables.computers import Thinker
from tables.evenings import Evenings
from tables.storage_health import StorageTrouble
from tables.timers import Timers

log = logging.getLogger(__name__)


@dataclass
class Services:
    settings: Settings
    db: Database
    tables: TableService
    messenger: Messenger
    presenter: Presenter
    timers: Timers
    screens: StatsScreens
    evenings: Evenings
    posts: EveningPosts
    people: People
    menus: Menus
    bot_username: str = ""
    #: each user's name and language as last written, for the users seen last
    seen: Recent[int, tuple[str, str | None]] = field(default_factory=lambda: Recent(PLAYERS_KEPT))
    #: storage failures (a full disk, a read-only file): logged once a minute, not per press
    storage: StorageTrouble = field(default_factory=StorageTrouble)
    #: the Mini App's server (only with WEBAPP_URL), over the same table service
    webapp: WebAppServer | None = None

    @staticmethod
    def create(application: Application, settings: Settings, db: Database) -> Services:  # type: ignore[type-arg]
        tables = TableService(
            db,
            turn_timeout=settings.turn_timeout_seconds,
            computer_pause=settings.computer_pause_seconds,
            thinker=Thinker(settings.computer_workers),
        )
        limiter = application.bot.rate_limiter
        pacer = limiter.pacer if isinstance(limiter, ChatRateLimiter) else Pacer(0.0)
        holder: dict[str, Any] = {}

        async def on_blocked(user_id: int) -> None:
            await holder["presenter"].user_blocked(user_id)

        async def on_migrated(old: int, new: int) -> None:
            await holder["presenter"].chat_migrated(old, new)

        async def on_topic_lost(chat_id: int, thread: int) -> None:
            await holder["presenter"].topic_lost(chat_id, thread)

        messenger = Messenger(
            application.bot,
            pacer,
            on_blocked=on_blocked,
            on_migrated=on_migrated,
            on_topic_lost=on_topic_lost,
        )
        timers = Timers()
        presenter = Presenter(
            db=db,
            tables=tables,
            messenger=messenger,
            timers=timers,
            coalescer=Coalescer(),
            default_language=settings.default_language,
        )
        holder["presenter"] = presenter
        timers.on_timeout = presenter.turn_timed_out
        people, menus = presenter.people, presenter.menus
        screens = StatsScreens(db, messenger, people.chat_language, people.chat_ranks)
        posts = EveningPosts(
            db, tables.evenings, messenger, presenter.coalescer, people.chat_language
        )
        tables.listeners.append(posts)
        services = Services(
            settings,
            db,
            tables,
            messenger,
            presenter,
            timers,
            screens,
            tables.evenings,
            posts,
            people,
            menus,
        )
        if settings.webapp_url:
            services.webapp = WebAppServer(settings, tables, presenter)
            launch = Launch(settings.webapp_url, settings.webapp_short_name)
            presenter.hands.launch = presenter.table.launch = launch
        return services

    async def start(self) -> None:
        """After the bot is up: learn its username, re-arm timers, refresh open tables, publish
        the commands menu."""
        me = self.messenger.bot.username if hasattr(self.messenger.bot, "username") else ""
        self.bot_username = me or ""
        self.presenter.bot_username = self.bot_username
        self.presenter.table.launch.bot_username = self.bot_username
        await self.presenter.resume_all()
        await self.evenings.resume()
        await publish_commands(self.messenger.bot, default_language=self.settings.default_language)
        if self.webapp is not None:
            await self.webapp.start()

    async def stop(self) -> None:
        """The bot stops: no page's move or timer any more, the messages still due are sent."""
        if self.webapp is not None:
            await self.webapp.stop()
        await self.timers.stop()
        await self.presenter.hands.reminders.stop()
        await self.evenings.stop()
        await self.presenter.drain()

    async def close(self) -> None:
        """Before the database closes: no timer, and nothing left that could still send."""
        if self.webapp is not None:
            await self.webapp.stop()
        await self.timers.stop()
        await self.presenter.hands.reminders.stop()
        await self.evenings.stop()
        self.presenter.coalescer.cancel()
        self.tables.thinker.close()

    async def saw_player(self, user_id: int, name: str, language: str | None) -> None:
        """Record a user once per name change (every update would be a write otherwise)."""
        if self.seen.get(user_id) == (name, language):
            return
        await self.db.upsert_player(user_id, name, language=language)
        self.seen[user_id] = (name, language)


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The handlers' context: ``context.services`` is the one ``Services`` object."""

    @property
    def services(self) -> Services:
        services: Services = self.bot_data["services"]
        return services
