"""Crash loop: the real bot killed with SIGKILL at random points, again and again,
while three groups play Стуколка classic, шлейф and Старшина, and another process holds
SQLite's write lock (``BEGIN IMMEDIATE``) at random moments; then the checks.

    .venv/bin/python bench/crash_loop.py [--kills 100] [--seed 1] [--turn 2] [--lock-chance 0.3]

The bot is ``python -m server`` in a subprocess polling the fake Bot API on 127.0.0.1, each
start a fork of one process that imported the bot (tests/e2e/child_bot.py's, as in
tests/e2e/test_restart.py). Each round: the tables that ended are opened again (``/new``, the
lobby's Join, Begin), a few random presses are played (each waiting for its answer), then one
more press and SIGKILL 0–60 ms after it (before, during or after its commit), then a restart.
Independently, a locker process takes the write lock for 0.5–7 s (the bot's busy timeout is
5 s) at random moments, with probability ``--lock-chance`` per round. A start-up that fails
(the lock held while the bot migrates) is restarted, and counted.

After the last kill, the bot runs without any press for two turn times: every active game
must move on by itself (its timer), or be finished. Then it stops, and the database is checked:
- every game's action log replays to its stored state, and every action's transfers, made
  again by the rules from the state before it, are exactly the ledger rows of its commit (the
  ledger replays commit by commit);
- balances plus pots sum to zero in every chat, and no closed game keeps a game pot;
- SQLite's integrity check;
- each finished deal's result is shown in its group exactly once.

Prints the counts as JSON; exits 1 if a check failed. tests/e2e/test_crash_loop.py runs a short
version of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot import callback as cb  # noqa: E402
from game.core import Action  # noqa: E402
from game.tools import tools_for  # noqa: E402
from server.games import LIBRARY  # noqa: E402
from storage.database import Database  # noqa: E402
from tests.e2e.child_bot import Bot, EndedBeforePolling  # noqa: E402
from tests.e2e.fake_telegram import FakeTelegram, NoSuchButton, User  # noqa: E402
from tests.e2e.fake_telegram.model import CallbackQuery, Chat  # noqa: E402

GAMES = ("stukolka", "shleif", "starshina")
RESULT = re.compile(r"deal (\d+) is over")
LOCKER = (
    "import sqlite3, sys, time\n"
    "c = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)\n"
    "c.execute('BEGIN IMMEDIATE')\n"
    "time.sleep(float(sys.argv[2]))\n"
    "c.rollback()\n"
)


@dataclass
class Report:
    kills: int = 0
    kills_after_commit: int = 0
    kills_at_a_deal_end: int = 0  # the killing press (or timer) ended a deal
    presses: int = 0
    storage_apologies: int = 0
    locks: int = 0
    lock_seconds: float = 0.0
    failed_starts: int = 0
    games: dict[str, int] = field(default_factory=dict)
    deals: dict[str, int] = field(default_factory=dict)
    moved_on_by_itself: int = 0
    finished_at_end: int = 0
    frozen: list[str] = field(default_factory=list)
    replay_mismatches: list[str] = field(default_factory=list)
    ledger_mismatches: list[str] = field(default_factory=list)
    chat_sums: dict[str, int] = field(default_factory=dict)
    closed_game_pots: int = 0
    integrity: list[str] = field(default_factory=list)
    results_missing: int = 0
    results_twice: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (
            self.frozen
            or self.replay_mismatches
            or self.ledger_mismatches
            or any(self.chat_sums.values())
            or self.closed_game_pots
            or self.integrity
            or self.results_missing
            or self.results_twice
        )


def read(database: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """A read of the bot's database while it runs (WAL: readers do not block it)."""
    with sqlite3.connect(database, timeout=30) as conn:
        return conn.execute(sql, args).fetchall()


class BotProcess(Bot):
    """The bot of tests/e2e/child_bot.py (each start a fork of one process that imported the
    bot, as the restart tests start theirs), killed and started again on one database. A
    start-up that fails (the lock held while the bot opens its database) is tried again."""

    def __init__(self, fake: FakeTelegram, tmp: Path, turn: float) -> None:
        super().__init__(fake, tmp, turn=turn)
        self.env["LOG_LEVEL"] = "WARNING"
        self.failed_starts = 0

    async def start(self) -> None:
        for _ in range(10):
            try:
                await super().start()
                return
            except (EndedBeforePolling, TimeoutError):
                self.failed_starts += 1
                await self.kill()
        raise RuntimeError("the bot does not start:\n" + self.output()[-3000:])

    async def kill(self) -> None:
        if self.pid is not None and self.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # it has just ended by itself
                os.kill(self.pid, signal.SIGKILL)
            await self.wait()

    async def close(self) -> None:
        """The bot killed if it runs, and the process that forks it gone."""
        await self.kill()
        if self.pid is not None:
            await self.stop()


class Loop:
    def __init__(self, fake: FakeTelegram, tmp: Path, args: argparse.Namespace) -> None:
        self.fake = fake
        self.args = args
        self.rng = random.Random(args.seed)
        self.bot = BotProcess(fake, tmp, args.turn)
        self.report = Report()
        self.groups: dict[str, tuple[Chat, list[User]]] = {}
        for kind in GAMES:
            users = [fake.add_user(f"{kind[:3]}{i}", language_code="en") for i in range(3)]
            self.groups[kind] = (fake.add_group(f"Crash {kind}", users), users)
        self.users = [u for _, users in self.groups.values() for u in users]
        self.lockers: set[asyncio.Task[None]] = set()

    @property
    def database(self) -> Path:
        return self.bot.database

    def latest(self, chat: Chat) -> tuple[int, str, list[int]] | None:
        if not self.database.exists():
            return None
        rows = read(
            self.database,
            "SELECT game_id, status, seats FROM games WHERE chat_id = ? ORDER BY game_id DESC"
            " LIMIT 1",
            chat.id,
        )
        if not rows:
            return None
        game_id, status, seats = rows[0]
        return int(game_id), str(status), json.loads(str(seats))

    async def answered(self, query: CallbackQuery) -> None:
        try:
            await self.fake.wait_until(lambda: query.answer is not None, timeout=20)
        except Exception:
            return  # the bot was killed, or the lock held it: the press is lost
        self.report.presses += 1
        if query.answer is not None and "storage problem" in (query.answer.text or ""):
            self.report.storage_apologies += 1

    async def tables(self) -> None:
        """Every group has a table in play: a finished one is opened again, a lobby that a
        kill interrupted is filled and begun."""
        for kind, (group, users) in self.groups.items():
            latest = self.latest(group)
            if latest is None or latest[1] in ("finished", "stopped"):
                self.fake.user_sends(users[0], group, f"/new {kind}")
                await self.fake.wait_idle(timeout=20, quiet=0.1, require_answers=False)
                latest = self.latest(group)
            if latest is None or latest[1] != "lobby":
                continue
            game_id, _, seats = latest
            lobby = next(
                (
                    m
                    for m in reversed(self.fake.messages(group, from_bot=True))
                    if cb.encode(cb.Lobby(game_id, "join")) in m.callback_data
                ),
                None,
            )
            if lobby is None:
                continue
            for user in users:
                if user.id not in seats:
                    data = cb.encode(cb.Lobby(game_id, "join"))
                    if data in lobby.callback_data:
                        await self.answered(self.fake.user_presses(user, lobby, data))
            data = cb.encode(cb.Lobby(game_id, "begin"))
            if data in lobby.callback_data:
                await self.answered(self.fake.user_presses(users[0], lobby, data))

    async def press(self) -> CallbackQuery | None:
        """A random button of a player's newest hand message (a move rather than a look when
        there is one)."""
        moves, looks = [], []
        for user in self.users:
            messages = self.fake.messages(self.fake.private_chat(user), from_bot=True)
            if not messages or not messages[-1].callback_data:
                continue
            for data in messages[-1].callback_data:
                kind = LIBRARY.chat.codec.decode(data)  # the program's games, as the bot offers
                if isinstance(kind, cb.Act | cb.Select):
                    moves.append((user, messages[-1], data))
                elif isinstance(kind, cb.Look):
                    looks.append((user, messages[-1], data))
        choices = moves or looks
        if not choices:
            await asyncio.sleep(0.05)
            return None
        user, message, data = self.rng.choice(choices)
        try:
            return self.fake.user_presses(user, message, data)
        except NoSuchButton:
            return None

    def maybe_lock(self) -> None:
        if self.rng.random() >= self.args.lock_chance:
            return
        delay, hold = self.rng.uniform(0.0, 3.0), self.rng.uniform(0.5, 7.0)

        async def lock() -> None:
            await asyncio.sleep(delay)
            self.report.locks += 1
            self.report.lock_seconds += hold
            locker = await asyncio.create_subprocess_exec(
                sys.executable, "-c", LOCKER, str(self.database), str(hold)
            )
            await locker.wait()

        task = asyncio.get_running_loop().create_task(lock())
        self.lockers.add(task)
        task.add_done_callback(self.lockers.discard)

    def deals(self) -> int:
        return int(read(self.database, "SELECT COUNT(*) FROM deals")[0][0])

    def version(self) -> int:
        return int(read(self.database, "SELECT COALESCE(MAX(version), 0) FROM games")[0][0])

    async def run(self) -> Report:
        started = time.monotonic()
        await self.bot.start()
        for user in self.users:
            self.fake.user_starts_bot(user)
        await self.fake.wait_idle(timeout=20, quiet=0.2, require_answers=False)
        for _ in range(self.args.kills):
            await self.tables()
            self.maybe_lock()
            for _ in range(self.rng.randint(0, 10)):
                query = await self.press()
                if query is not None:
                    await self.answered(query)
            before, deals = self.version(), self.deals()
            query = await self.press()
            if query is not None:
                await asyncio.sleep(self.rng.uniform(0.0, 0.06))
            else:
                await asyncio.sleep(self.rng.uniform(0.0, self.args.turn))  # on a timer
            await self.bot.kill()
            self.report.kills += 1
            self.report.kills_after_commit += self.version() > before
            self.report.kills_at_a_deal_end += self.deals() > deals
            await self.bot.start()
        while self.lockers:
            await asyncio.gather(*list(self.lockers))
        await self.settle_by_itself()
        await self.bot.stop()
        self.report.failed_starts = self.bot.failed_starts
        await self.check()
        self.report.seconds = round(time.monotonic() - started, 1)
        self.report.lock_seconds = round(self.report.lock_seconds, 1)
        return self.report

    async def settle_by_itself(self) -> None:
        """No press any more: each active game moves on by its timer, or is finished."""
        before = {
            int(g): int(v)
            for g, v in read(
                self.database, "SELECT game_id, version FROM games WHERE status = 'active'"
            )
        }

        def rows() -> dict[int, tuple[str, int, float | None]]:
            return {
                game_id: read(
                    self.database,
                    "SELECT status, version, turn_deadline FROM games WHERE game_id = ?",
                    game_id,
                )[0]
                for game_id in before
            }

        def settled(game_id: int, status: str, version: int, deadline: float | None) -> bool:
            return status != "active" or (version > before[game_id] and deadline is not None)

        # two turn times and a little more for the timers to fire, as long as one has not
        end = time.monotonic() + 2 * self.args.turn + 2
        games = rows()
        while time.monotonic() < end and not all(settled(g, *row) for g, row in games.items()):
            await asyncio.sleep(0.1)
            games = rows()
        for game_id, (status, version, deadline) in games.items():
            if status != "active":
                self.report.finished_at_end += 1
            elif settled(game_id, status, version, deadline):
                self.report.moved_on_by_itself += 1
            else:
                self.report.frozen.append(f"game {game_id} at version {version}")

    async def check(self) -> None:
        report = self.report
        async with await Database.open(self.database) as db:
            report.integrity = await db.check_integrity()
            for kind, (group, _) in self.groups.items():
                balances = await db.ledger.balances(group.id)
                report.chat_sums[kind] = balances.total
                games = [
                    int(g)
                    for (g,) in read(
                        self.database, "SELECT game_id FROM games WHERE chat_id = ?", group.id
                    )
                ]
                report.games[kind] = len(games)
                for game_id in games:
                    game = await db.games.game(game_id)
                    if not game.is_open and balances.game_pots.get(game_id):
                        report.closed_game_pots += 1
                    await self.replays(db, game_id)
                shown: Counter[int] = Counter()
                for message in self.fake.messages(group, from_bot=True):
                    shown.update(int(n) for n in RESULT.findall(message.text or ""))
                wanted: Counter[int] = Counter()
                for deal in await db.history.last_deals(group.id, 100_000):
                    wanted[deal.deal + 1] += 1
                report.deals[kind] = sum(wanted.values())
                report.results_missing += sum((wanted - shown).values())
                report.results_twice += sum((shown - wanted).values())

    async def replays(self, db: Database, game_id: int) -> None:
        """The action log replays to the stored state, and each action's transfers, made
        again by the rules, are the ledger rows of its commit."""
        game = await db.games.game(game_id)
        rules = tools_for(LIBRARY.tools, game.kind).rules
        log = await db.games.action_log(game_id)
        ledger: dict[int, Counter[Move]] = {}
        for row in await db.ledger.transfers(game.chat_id, game_id=game_id):
            moves = ledger.setdefault(row.version, Counter())
            moves[(row.src, row.dst, row.amount, row.reason)] += 1
        seats = list(game.seats)  # nobody joins or leaves in the loop: the seats never change

        def load(state: Any) -> Any:
            data = dict(state or {}).get("engine")
            return None if data is None else rules.load(data)

        engine = load(log[0].state)
        for entry in log[1:]:
            if entry.kind == "action" and entry.action is not None:
                step = engine.apply(Action.from_json(entry.action))
                made: Counter[Move] = Counter(
                    (_party(t.src, seats), _party(t.dst, seats), t.amount, t.reason)
                    for t in step.transfers
                )
                stored = ledger.get(entry.version, Counter())
                # a game that ends without a winner gives its pot back in the same commit
                made.update(m for m in stored.elements() if m[3] == "game_pot_return")
                if made != stored:
                    self.report.ledger_mismatches.append(f"game {game_id} v{entry.version}")
            elif entry.state is not None:
                engine = load(entry.state)
        replayed = None if engine is None else json.loads(json.dumps(engine.to_json()))
        if replayed != game.state["engine"]:
            self.report.replay_mismatches.append(f"game {game_id}")


Move = tuple[object, object, int, str]


def _party(party: object, seats: list[int]) -> object:
    return seats[party] if isinstance(party, int) else party


async def crash_loop(args: argparse.Namespace, tmp: Path) -> Report:
    async with FakeTelegram() as fake:
        loop = Loop(fake, tmp, args)
        try:
            return await loop.run()
        finally:
            await loop.bot.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn", type=float, default=2.0, help="seconds a turn lasts")
    parser.add_argument("--lock-chance", type=float, default=0.3)
    return parser.parse_args(argv)


def main() -> None:
    args = parse()
    with tempfile.TemporaryDirectory(prefix="crash-loop-") as folder:
        report = asyncio.run(crash_loop(args, Path(folder)))
    print(json.dumps({**asdict(report), "ok": report.ok}, ensure_ascii=False, indent=2))
    sys.exit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
