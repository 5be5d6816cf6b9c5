"""The chat assembled: every long-lived object of the Telegram front-end, built in one place.

The chat is one front-end of the table service, beside the page: the program (``server``)
opens the database, builds the table service over it, then the chat (``Services.create``, run
in ``post_init``, once the bot knows its own username) and the page, each over that service
(``Host``). ``create`` builds the chat's objects in an order where each gets, when it is built,
everything it will use. Where two must reach each other, a small object built before both
joins them: the table service's listeners (each takes every record it publishes: a change, an
ended evening, the results still due after a restart), and ``ChatEvents`` (what the messenger
learns from Telegram's answers, for the presenter that sends through it).
``BotContext.services`` hands the result to every handler.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from telegram.ext import Application

from bot.chat_events import ChatEvents
from bot.commands import publish_commands
from bot.evenings import EveningPosts
from bot.games import ChatGames
from bot.launch import Launch
from bot.messenger import Messenger
from bot.pacing import Coalescer, Pacer
from bot.presenter import Presenter
from bot.ratelimit import ChatRateLimiter
from bot.screens.menus import Menus
from bot.screens.stats import StatsScreens
from bot.settings import Settings
from storage.chat_display import ChatDisplay
from tables import TableService
from tables.evenings import Evenings
from tables.people import People
from tables.storage_health import StorageTrouble
from tables.timers import Timers


class Host(Protocol):
    """The program the chat runs in (``server.program``): it opens the database, the table
    service and every front-end when the bot has started, the chat's ``Services`` among them;
    starts them in order; stops them before anything they use closes."""

    async def open(self, application: Application) -> Services:  # type: ignore[type-arg]
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def close(self) -> None: ...


@dataclass
class Services:
    settings: Settings
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
    #: storage failures (a full disk, a read-only file): logged once a minute, not per press
    storage: StorageTrouble = field(default_factory=StorageTrouble)

    @staticmethod
    def create(
        application: Application,  # type: ignore[type-arg]
        settings: Settings,
        tables: TableService,
        display: ChatDisplay,
        games: ChatGames,
    ) -> Services:
        """The chat over ``tables``, showing ``games`` (the service's games, each with its
        chat presentation), for ``application`` (initialized: its bot knows its own
        username): its presenter shows every change the service publishes and the results
        still due after a restart, and its evening posts the evenings ended. ``display``: its own
        display storage (``storage.chat_display``), on the service's connection."""
        bot = application.bot
        bot_username = bot.username or ""
        limiter = bot.rate_limiter
        pacer = limiter.pacer if isinstance(limiter, ChatRateLimiter) else Pacer(0.0)
        events = ChatEvents()
        messenger = Messenger(bot, pacer, events)
        presenter = Presenter(
            display=display,
            tables=tables,
            games=games,
            messenger=messenger,
            coalescer=Coalescer(),
            bot_username=bot_username,
            launch=Launch(settings.webapp_url, settings.webapp_short_name, bot_username),
        )
        events.listen(presenter)
        people = tables.people
        posts = EveningPosts(
            games,
            people.names,
            tables.evenings,
            messenger,
            presenter.coalescer,
            people.chat_language,
        )
        tables.stream.listeners.append(posts)
        # every change shows as a press's, whoever made it (a press here, a move on the page,
        # a timeout, a computer's move)
        tables.stream.listeners.append(presenter)
        return Services(
            settings=settings,
            tables=tables,
            messenger=messenger,
            presenter=presenter,
            timers=tables.runner.timers,
            screens=StatsScreens(
                games,
                presenter.display,
                tables.scores,
                people.names,
                messenger,
                people.chat_language,
                people.chat_ranks,
                lambda: tables.clock(),  # read at each call: a test moves the service's clock
            ),
            evenings=tables.evenings,
            posts=posts,
            people=people,
            menus=presenter.menus,
            bot_username=bot_username,
        )

    async def start(self) -> None:
        """Publish the commands menu."""
        await publish_commands(
            self.messenger.bot,
            list(self.presenter.games.games),
            default_language=self.settings.default_language,
        )

    async def stop(self) -> None:
        """The bot stops (the table service halted first): no reminder any more, the
        messages still due are sent."""
        await self.presenter.hands.reminders.stop()
        await self.presenter.coalescer.drain()

    async def close(self) -> None:
        """Before the database closes (the table service halted first): nothing left that
        could still send."""
        await self.presenter.hands.reminders.stop()
        self.presenter.coalescer.cancel()
