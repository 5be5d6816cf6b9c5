"""Simulated players for end-to-end games: they read the buttons the bot really sent to their
private chats and press them, like people who know the rules as little as the buttons do.

``Table`` wraps a running bot, the fake Telegram and a group; ``play_until`` presses random
offered buttons until a condition holds. ``check_no_leaks`` replays every game from the
database and checks that no message showed a card its reader could not know.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import json
import os
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from bot import callback as cb
from bot.app import services_of
from bot.assembly import Services
from bot.settings import Settings
from game.cards import FULL_DECK, label
from game.core import Action
from server.games import LIBRARY, Library
from server.program import build_application, database_of
from storage.database import Database
from tests.library import rules_for

from .fake_telegram import FakeTelegram, Message, RunningApplication, User, running

CARD_LABEL = re.compile(r"(10|[2-9JQKAВДКТ])([♠♥♦♣])")
SYMBOL_TO_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
#: the Russian rank letters (a chat setting, the default in Russian) and the 10
RANK_CODE = {"10": "T", "В": "J", "Д": "Q", "К": "K", "Т": "A"}


def cards_in(text: str) -> set[str]:
    """Every card a text shows, as card codes (``10♥️`` → ``TH``, ``Д♠️`` → ``QS``)."""
    found = set()
    for rank, symbol in CARD_LABEL.findall(text):
        found.add(RANK_CODE.get(rank, rank) + SYMBOL_TO_SUIT[symbol])
    return found


def settings_for(fake: FakeTelegram, path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "bot_token": fake.token,
        "telegram_api_base_url": fake.base_url,
        "database_path": path,
        "rate_limiter": False,
        "turn_timeout_seconds": 600,
    }
    values.update(overrides)
    return Settings(**values)


@dataclass
class Table:
    """A group at which simulated users play with the real bot."""

    fake: FakeTelegram
    bot: RunningApplication
    group: Any
    users: list[User]
    rng: random.Random
    presses: int = 0
    refusals: list[str] = field(default_factory=list)
    #: when set, a private message whose buttons are all another game's (a practice table the
    #: player opened in private meanwhile) is not this table's hand
    game_id: int | None = None

    @property
    def services(self) -> Services:
        services: Services = services_of(self.bot.app)
        return services

    @property
    def db(self) -> Database:
        """The bot's database, to read what it stored."""
        return database_of(self.bot.app)

    @property
    def codec(self) -> cb.Codec:
        """What the bot's buttons carry: the codec of the games its chat shows."""
        return self.services.presenter.games.codec

    async def settle(self) -> None:
        """Wait until the bot has handled everything and its coalesced refreshes are sent."""
        await self.bot.settle(timeout=20, quiet=0.0)
        await self.services.presenter.coalescer.drain()

    async def say(self, user: User, text: str) -> None:
        self.fake.user_sends(user, self.group, text)
        await self.settle()

    async def press(self, user: User, message: Message, data: str) -> None:
        self.fake.user_presses(user, message, data)
        self.presses += 1
        await self.settle()

    def group_messages(self) -> list[Message]:
        return self.fake.messages(self.group, from_bot=True)

    def hand_message(self, user: User) -> Message | None:
        messages = self.fake.messages(self.fake.private_chat(user), from_bot=True)
        for message in reversed(messages):
            # a hand message's buttons; not a menu's (the private /rules chooser)
            decoded = [self.codec.decode(d) for d in message.callback_data]
            if not decoded or any(isinstance(c, cb.RulesOf) for c in decoded):
                continue
            games = {getattr(c, "game_id", None) for c in decoded}
            if self.game_id is None or self.game_id in games:
                return message
        return None

    def actionable(
        self, kinds: tuple[type, ...] = (cb.Act, cb.Select)
    ) -> list[tuple[User, Message, list[str]]]:
        """Users with game buttons of ``kinds`` right now: (user, message, its callback data)."""
        found = []
        for user in self.users:
            message = self.hand_message(user)
            if message is None:
                continue
            if any(isinstance(self.codec.decode(d), kinds) for d in message.callback_data):
                found.append((user, message, list(message.callback_data)))
        return found

    async def step(self, look_chance: float = 0.3) -> bool:
        """One random press by a player who has buttons; False if nobody has any."""
        candidates = self.actionable() or self.actionable((cb.Look,))
        if not candidates:
            return False
        user, message, data = self.rng.choice(candidates)
        decoded = {d: self.codec.decode(d) for d in data}
        looks = [d for d, c in decoded.items() if isinstance(c, cb.Look)]
        selects = [d for d, c in decoded.items() if isinstance(c, cb.Select)]
        acts = [d for d, c in decoded.items() if isinstance(c, cb.Act)]
        if looks and self.rng.random() < look_chance:
            choice = looks[0]
        elif selects and self.rng.random() < 0.4:
            choice = self.rng.choice(selects)
        elif acts:
            choice = self.rng.choice(acts)
        else:
            choice = self.rng.choice(looks or selects)
        await self.press(user, message, choice)
        return True

    async def play_until(self, done: Callable[[], bool], limit: int = 3000) -> None:
        for _ in range(limit):
            if done():
                return
            if not await self.step():
                await self.settle()
                if done():
                    return
                if not self.actionable((cb.Act, cb.Select, cb.Look)):
                    raise AssertionError("nobody can move and the condition does not hold")
        raise AssertionError("the game did not get there within the press limit")


@contextlib.asynccontextmanager
async def start_bot_for(
    fake: FakeTelegram, path: Path, *, library: Library = LIBRARY, **overrides: Any
) -> AsyncIterator[RunningApplication]:
    """The real bot polling ``fake``, dealing from decks seeded by the test's name
    (``seed_decks``); PTB runs ``post_init``/``post_shutdown`` only from ``run_polling``, so
    they are called here around the test's own polling loop, in its order (``post_shutdown``
    once the application has shut down); offering the games of ``library``."""
    application = build_application(settings_for(fake, path, **overrides), library=library)
    assert application.post_init is not None and application.post_shutdown is not None
    initialised = False
    try:
        async with running(application, fake) as bot:
            await application.post_init(application)
            initialised = True
            # the decks from the test's own name: a run plays as the one before it did
            seed_decks(bot, os.environ.get("PYTEST_CURRENT_TEST", str(path)).split(" ")[0])
            yield bot
    finally:
        # after the updater and the application have stopped, as run_polling orders it: the
        # updater's last getUpdates must not find the request objects already closed
        if initialised:
            await application.post_shutdown(application)


def seed_decks(bot: RunningApplication, name: str) -> None:
    """Every deck ``bot`` deals from now on shuffled from ``name`` and a count, not from a
    secret seed: a test whose play depends on the cards (how long a game lasts, whether a
    Старшина deal ends the game) plays the same in every run."""
    decks = itertools.count()
    services: Services = services_of(bot.app)
    services.tables.steps.seed = lambda: f"{name}-{next(decks)}"


async def replay_states(db: Database, game_id: int) -> list[tuple[int, Any, list[int]]]:
    """Every engine state a game went through, with its deal number and seats, from the log."""
    game = await db.games.game(game_id)
    rules = rules_for(game.kind)
    states: list[tuple[int, Any, list[int]]] = []
    engine = None
    seats: list[int] = list(game.seats)
    deal = 0
    for entry in await db.games.action_log(game_id):
        if entry.state is not None:
            data = entry.state.get("engine")
            table = entry.state.get("table", {})
            deal = int(table.get("deals", deal))
            if data is None:
                continue
            engine = rules.load(data)
        elif entry.action is not None and engine is not None:
            engine = rules.load(engine.to_json())
            engine.apply(Action.from_json(entry.action))
        if engine is not None:
            states.append((deal, rules.load(engine.to_json()), seats))
    return states


def known_cards(kind: str, states: list[Any], seat: int | None) -> set[str]:
    """The cards ``seat`` (None: the group) could know in one deal, from all its states."""
    known: set[str] = set()
    for state in states:
        known |= {card for trick in state.played for _, card in trick}
        known |= {card for _, card in state.trick}
        if kind == "stukolka":
            over = state.phase.value == "deal_over"
            if state.trump_card and (state.shleif is False or over):
                known.add(state.trump_card)
            if seat is not None:
                known |= set(state.hands[seat]) | set(state.discards[seat]) | set(state.dead[seat])
                if state.shleif and seat == state.dealer and state.trump_card:
                    known.add(state.trump_card)
        else:
            if seat is not None:
                known |= set(state.hands[seat])
                if seat == state.dealer:
                    known |= set(state.discards) | set(state.kitty)
                known |= {e.card for e in state.exchanged if seat in (e.giver, e.receiver)}
                known |= {
                    e.returned
                    for e in state.exchanged
                    if e.returned and seat in (e.giver, e.receiver)
                }
    return known


def sign(
    token: str,
    user_id: int,
    *,
    start_param: str | None = None,
    auth_date: float | None = None,
    lang: str = "ru",
) -> str:
    """A Mini App page's ``initData`` as Telegram signs it with the bot's ``token``
    (core.telegram.org/bots/webapps)."""
    user = {"id": user_id, "first_name": "Игрок", "language_code": lang}
    fields = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields, quote_via=quote)


def all_cards() -> set[str]:
    return set(FULL_DECK)


__all__ = [
    "Table",
    "cards_in",
    "known_cards",
    "label",
    "replay_states",
    "sign",
    "start_bot_for",
]
