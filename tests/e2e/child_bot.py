"""A bot run as a child process (``python -m server``) against the fake Telegram, so a test can
kill it with SIGKILL and start it again on the same database, and players who press the buttons
the bot really sent them (the restart tests)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.settings import Settings
from tests.library import CODEC

from .fake_telegram import CallbackQuery, Chat, FakeTelegram, Message, NoSuchButton, User

ROOT = Path(__file__).resolve().parents[2]
PHASE_VERBS = {
    "knock": {"knock", "pass", "dark"},
    "purchase": {"discard"},
    "play": {"play"},
}


class EndedBeforePolling(Exception):
    """The bot's process ended before it polled (``Bot.start``)."""


class Bot:
    """The bot as a child process: started, killed and started again on one database.

    Each start is a fork of one process that imported the bot (tests/e2e/bot_forks.py),
    started at the first: the bot's own process all the same, with its environment, working
    directory, log and limits, killed or stopped by its pid."""

    def __init__(self, fake: FakeTelegram, tmp_path: Path, *, turn: float) -> None:
        self.fake = fake
        self.database = tmp_path / "data" / "bot.sqlite3"
        self.log = tmp_path / "bot.log"
        self.forks: asyncio.subprocess.Process | None = None
        self.pid: int | None = None
        self.returncode: int | None = None
        self._exit: asyncio.Task[int] | None = None
        ours = {name.upper() for name in Settings.model_fields}
        self.env = {k: v for k, v in os.environ.items() if k.upper() not in ours}
        self.env.update(
            BOT_TOKEN=fake.token,
            TELEGRAM_API_BASE_URL=fake.base_url,
            DATABASE_PATH=str(self.database),
            RATE_LIMITER="false",
            TURN_TIMEOUT_SECONDS=str(turn),
            DEFAULT_LANGUAGE="en",
            PYTHONPATH=str(ROOT),
        )
        self.cwd = tmp_path
        #: the open-file limit (soft and hard) to run it under, if not the machine's
        self.files: int | None = None

    async def _forked(self) -> int:
        """A new bot process, forked; its pid."""
        if self.forks is None:
            self.forks = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "tests" / "e2e" / "bot_forks.py"),
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
        assert self.forks.stdin is not None and self.forks.stdout is not None
        request = {"cwd": str(self.cwd), "env": self.env, "log": str(self.log)}
        self.forks.stdin.write((json.dumps({**request, "files": self.files}) + "\n").encode())
        await self.forks.stdin.drain()
        return int(await self.forks.stdout.readline())

    async def _exited(self) -> int:
        assert self.forks is not None and self.forks.stdout is not None
        line = (await self.forks.stdout.readline()).decode()
        assert line.startswith("exited "), line
        self.returncode = int(line.split()[1])
        return self.returncode

    async def start(self) -> None:
        """A new bot process, once it polls and has gone quiet. Raises ``EndedBeforePolling``
        if it ends first (its exit code in ``returncode``)."""
        since = self.fake.now()
        self.pid, self.returncode = await self._forked(), None
        ended = self._exit = asyncio.get_running_loop().create_task(self._exited())
        # up: it polls (after post_init has re-armed the timers and refreshed the tables)
        polling = asyncio.ensure_future(
            self.fake.wait_until(
                lambda: self.fake.requests("getUpdates", since=since),
                timeout=60,
                message="polling",
            )
        )
        await asyncio.wait((polling, ended), return_when=asyncio.FIRST_COMPLETED)
        if not polling.done():
            polling.cancel()
            raise EndedBeforePolling(f"the bot ended with {ended.result()} before it polled")
        await polling
        await self.fake.wait_idle(timeout=20, quiet=0.3, require_answers=False)

    async def wait(self) -> int:
        """The bot's exit code, once it has ended."""
        assert self._exit is not None
        return await asyncio.shield(self._exit)

    async def kill(self) -> None:
        assert self.pid is not None
        os.kill(self.pid, signal.SIGKILL)
        await self.wait()

    async def stop(self) -> int:
        assert self.pid is not None
        if self.returncode is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(self.wait(), 20)
            except TimeoutError:
                os.kill(self.pid, signal.SIGKILL)
                await self.wait()
        assert self.returncode is not None
        if self.forks is not None:  # the last of this bot: the forking process goes too
            assert self.forks.stdin is not None
            self.forks.stdin.close()
            await self.forks.wait()
            self.forks = None
        return self.returncode

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


class Players:
    """Users who press the buttons the bot really sent them."""

    def __init__(self, fake: FakeTelegram, users: list[User], seed: int) -> None:
        self.fake = fake
        self.users = users
        self.rng = random.Random(seed)

    def hand(self, user: User) -> Message | None:
        """His newest message from the bot, if it has buttons: what he plays from. (An older
        hand may still show buttons when the bot was killed before it took them off.)"""
        messages = self.fake.messages(self.fake.private_chat(user), from_bot=True)
        return messages[-1] if messages and messages[-1].callback_data else None

    def choices(self) -> list[tuple[User, Message, str, cb.Callback]]:
        found: list[tuple[User, Message, str, cb.Callback]] = []
        for user in self.users:
            message = self.hand(user)
            for data in message.callback_data if message else []:
                decoded = CODEC.decode(data)
                if isinstance(decoded, (cb.Act, cb.Select, cb.Look)):
                    assert message is not None
                    found.append((user, message, data, decoded))
        return found

    def pick(self, phase: str | None = None) -> tuple[User, Message, str, cb.Callback] | None:
        choices = self.choices()
        moves = [c for c in choices if isinstance(c[3], (cb.Act, cb.Select))]
        if phase is not None:
            moves = [c for c in moves if c[3].verb in PHASE_VERBS[phase]]  # type: ignore[union-attr]
            return self.rng.choice(moves) if moves else None
        if not moves:
            moves = choices  # only «look» for now
        return self.rng.choice(moves) if moves else None

    def press(self, choice: tuple[User, Message, str, cb.Callback]) -> CallbackQuery | None:
        user, message, data, _ = choice
        try:
            return self.fake.user_presses(user, message, data)
        except NoSuchButton:
            return None

    async def seat(self, group: Chat, choice: str, *, begin: bool = True) -> int:
        """Every player starts the bot, the first opens a table with ``/new choice`` in
        ``group``, the others join through the lobby's button and the first begins (unless not
        ``begin``); the game's id."""
        fake, users = self.fake, self.users
        for user in users:
            fake.user_starts_bot(user)
        fake.user_sends(users[0], group, f"/new {choice}")
        await fake.wait_until(lambda: fake.messages(group, from_bot=True), timeout=15)
        lobby = fake.messages(group, from_bot=True)[-1]
        game_id = next(
            d.game_id for d in map(CODEC.decode, lobby.callback_data) if isinstance(d, cb.Lobby)
        )
        presses: list[tuple[User, cb.LobbyAction]] = [(user, "join") for user in users[1:]]
        if begin:
            presses.append((users[0], "begin"))
        for user, action in presses:
            query = fake.user_presses(user, lobby, cb.encode(cb.Lobby(game_id, action)))
            await self.answered(query)
        return game_id

    async def answered(self, query: CallbackQuery) -> None:
        await self.fake.wait_until(lambda: query.answer is not None, timeout=15)
        await self.fake.wait_idle(timeout=15, quiet=0.1, require_answers=False)


def read(database: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """A read of the bot's database while it runs (WAL: readers do not block it)."""
    with sqlite3.connect(database, timeout=10) as conn:
        return conn.execute(sql, args).fetchall()


def deals_done(database: Path) -> int:
    return int(read(database, "SELECT COUNT(*) FROM deals")[0][0])


def version(database: Path) -> int:
    return int(read(database, "SELECT MAX(version) FROM games")[0][0])
