"""The application assembled: every long-lived object of a running bot, built in one place.

``Services.create`` (run in ``post_init``, once the bot knows its own username) builds them in
an order where each gets, when it is built, everything it will use, and nothing is wired in
afterwards. Where two must reach each other, a small object built before both joins them: the
table service's listeners (a commit, an ended evening, for the chat's posts and the Mini App's
live pages), and ``ChatEvents`` (what the messenger learns from Telegram's answers, for the
presenter that sends through it). ``BotContext.services`` hands the result to every handler.

Another front-end over the same table service (the Mini App's server, which ``server`` puts
together) comes as a ``Companion`` made from the table service and the presenter when the
services are built, started with them and stopped with them; ``bot`` knows no more of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from telegram.ext import Application

from bot.chat_events import ChatEvents
from bot.commands import publish_commands
from bot.evenings import EveningPosts
from bot.health import Heartbeat, heartbeat_path
from bot.launch import Launch
from bot.messenger import Messenger
from bot.pacing import Coalescer, Pacer
from bot.presenter import Presenter
from bot.ratelimit import ChatRateLimiter
from bot.screens.menus import Menus
from bot.screens.people import People
from bot.screens.stats import StatsScreens
from bot.settings import Settings
from storage.database import Database
from tables import TableService
from tables.bounded import PLAYERS_KEPT, Recent
from tables.computers import Thinker
from tables.evenings import Evenings
from tables.storage_health import StorageTrouble
from tables.timers import Timers


class Companion(Protocol):
    """A front-end beside the chat, over the same table service: started once the bot is up,
    stopped before anything it uses closes."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


#: what makes a companion: the settings, the table service and the chat's presenter (its ways
#: of showing a change, names, languages and card style)
CompanionMaker = Callable[[Settings, TableService, Presenter], Companion]


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
    bot_username: str
    #: the front-ends beside the chat (the Mini App's server, with WEBAPP_URL)
    companions: list[Companion]
    #: the file that says the bot is alive (``python -m bot.health``)
    heartbeat: Heartbeat
    #: each user's name and language as last written, for the users seen last
    seen: Recent[int, tuple[str, str | None]] = field(default_factory=lambda: Recent(PLAYERS_KEPT))
    #: storage failures (a full disk, a read-only file): logged once a minute, not per press
    storage: StorageTrouble = field(default_factory=StorageTrouble)

    @staticmethod
    def create(
        application: Application,  # type: ignore[type-arg]
        settings: Settings,
        db: Database,
        companions: Sequence[CompanionMaker] = (),
    ) -> Services:
        """The whole bot over ``db``, for ``application`` (initialized: its bot knows its own
        username), with a companion from each of ``companions``."""
        bot = application.bot
        bot_username = bot.username or ""
        tables = TableService(
            db,
            turn_timeout=settings.turn_timeout_seconds,
            computer_pause=settings.computer_pause_seconds,
            thinker=Thinker(settings.computer_workers),
        )
        limiter = bot.rate_limiter
        pacer = limiter.pacer if isinstance(limiter, ChatRateLimiter) else Pacer(0.0)
        events = ChatEvents()
        messenger = Messenger(bot, pacer, events)
        presenter = Presenter(
            db=db,
            tables=tables,
            messenger=messenger,
            coalescer=Coalescer(),
            default_language=settings.default_language,
            bot_username=bot_username,
            launch=Launch(settings.webapp_url, settings.webapp_short_name, bot_username),
        )
        events.listen(presenter)
        # a reply the chat did not make (a timeout, a computer's move, a move on the page)
        # shows as a press's
        tables.shows.append(presenter.show)
        people = presenter.people
        posts = EveningPosts(
            db, tables.evenings, messenger, presenter.coalescer, people.chat_language
        )
        tables.listeners.append(posts)
        tables.listeners.append(presenter)
        return Services(
            settings=settings,
            db=db,
            tables=tables,
            messenger=messenger,
            presenter=presenter,
            timers=tables.runner.timers,
            screens=StatsScreens(
                db, tables.scores, people.names, messenger, people.chat_language, people.chat_ranks
            ),
            evenings=tables.evenings,
            posts=posts,
            people=people,
            menus=presenter.menus,
            bot_username=bot_username,
            companions=[make(settings, tables, presenter) for make in companions],
            heartbeat=Heartbeat(db, heartbeat_path(settings)),
        )

    async def start(self) -> None:
        """After the bot is up: re-arm timers, refresh open tables, publish the commands menu,
        start the companions, beat."""
        await self.tables.recover()
        await self.presenter.resume()
        await self.tables.run()
        await publish_commands(self.messenger.bot, default_language=self.settings.default_language)
        for companion in self.companions:
            await companion.start()
        await self.heartbeat.start()

    async def _quiet(self) -> None:
        """No beat, page's move, timer, reminder or evening's wait any more."""
        await self.heartbeat.stop()
        for companion in self.companions:
            await companion.stop()
        await self.tables.halt()
        await self.presenter.hands.reminders.stop()

    async def stop(self) -> None:
        """The bot stops: no beat, page's move or timer any more, the messages still due are
        sent."""
        await self._quiet()
        await self.presenter.drain()

    async def close(self) -> None:
        """Before the database closes: no beat or timer, and nothing left that could still
        send."""
        await self._quiet()
        self.presenter.coalescer.cancel()
        self.tables.thinker.close()

    async def saw_player(self, user_id: int, name: str, language: str | None) -> None:
        """Record a user once per name change (every update would be a write otherwise)."""
        if self.seen.get(user_id) == (name, language):
            return
        await self.db.upsert_player(user_id, name, language=language)
        self.seen[user_id] = (name, language)
