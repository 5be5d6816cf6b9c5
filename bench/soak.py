"""Soak bench: thousands of games through the whole bot in one process; the bot's memory and the
size of every long-lived map at the start and at the end (flat means nothing grows with games).

    .venv/bin/python bench/soak.py [--games 2000] [--tables 20] [--deals 2] [--warmup 100]
                                   [--every 200] [--fresh]

The real ``Application`` (handlers, service, presenter, messenger, timers, storage on a
temporary SQLite file) runs in this process against the fake Bot API (``tests/e2e``) on
127.0.0.1. ``--tables`` groups play at once, three players each (Стуколка classic, «со шлейфом»
and Старшина in turn): they open the table with ``/new``, join, begin, press random buttons of
their hand messages until the game has dealt ``--deals`` deals, then ``/stop`` it and play on
until it is closed, and start the next game. By default each group is the same crowd of friends
game after game, as the bot is used: what the bot keeps per chat and per player stays the same,
and whatever grows grows with the games played. With ``--fresh`` every game is played by new
users in a new group, so the per-chat and per-player caches fill to their caps. What the fake
keeps of a finished game (its group and users with ``--fresh``; else all but the last few
messages of each chat) is dropped, so what grows in memory is the bot's.

Measured after ``--warmup`` games, after every ``--every`` games more (the ``curve``) and at
the end of ``--games``, each time after a full garbage collection:
    rss_kb          this process's resident set (the fake's share is kept flat, see above);
    sqlite_kb       SQLite's own memory (its page caches: they fill to their size, then stay);
    malloc_in_use_kb, malloc_free_held_kb
                    the C heap (glibc ``mallinfo2``) in use, and freed but kept by ``malloc``
                    for reuse: RSS that grows while ``in_use`` stays flat is the allocator's
                    free memory, not objects kept;
    gc_objects      objects the garbage collector tracks;
    maps            every dict, set, list, deque, OrderedDict and weak-valued dict reachable
                    from the bot's services (and PTB's chat_data and user_data), by attribute
                    path, with its length. ``grew`` lists those longer at the end than at the
                    start: a map that grows with the number of games played is a leak unless it
                    is bounded. ``caps`` gives the limit of those that have one (the messenger's
                    memory of messages shown, the chats' settings kept: they fill, then stay);
                    ``grew_without_a_cap`` is what is left: empty means flat.
Not a test: it prints figures (JSON) and asserts nothing.

    .venv/bin/python bench/soak.py --groups 5000 [--batch 100] [--every 500] [--flood 0.1]

``--groups`` soaks the per-chat memory of Telegram's limits instead: the production rate
limiter and group pacing on (20 requests a minute per group, 30 a second overall), ``--groups``
new groups, ``--batch`` at a time, each with a member who sends ``/balance`` (the bot answers
in the group, a paced request; the members are a crowd of ``CROWD`` people, so what grows is
per group); the fake answers a ``--flood`` share of the bot's messages with
a 429 (``retry_after`` 1), so the limiter holds those chats and tries again. A group is dropped
by the fake once answered. After every ``--every`` groups, each after a full garbage
collection: the size of the pacer's send times and gates and of the limiter's 429 holds, and
of every other map (as above), the heap Python allocated (``tracemalloc``), RSS and objects.
The bot's per-chat caches (``tables.bounded.CHATS_KEPT``, the messages shown) fill to their caps
over the first few thousand groups; past them the heap stays flat.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import ctypes
import ctypes.util
import gc
import json
import random
import sys
import tempfile
import time
import tracemalloc
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot import callback as cb  # noqa: E402
from bot.app import services_of  # noqa: E402
from tests.e2e.fake_telegram import FakeTelegram, Message, User  # noqa: E402
from tests.e2e.fake_telegram.faults import RetryAfter  # noqa: E402
from tests.e2e.fake_telegram.model import Chat  # noqa: E402
from tests.e2e.players import start_bot_for  # noqa: E402

CHOICES = ("stukolka", "shleif", "starshina")
PLAYERS = 3
LOOK_CHANCE = 0.3
#: with both a move and a card toggle on the message, the move; toggles pick a discard
ACT_CHANCE = 0.8
#: messages the fake keeps in each chat of a crowd between its games
KEPT_MESSAGES = 3
CONTAINERS = (dict, set, frozenset, list, collections.deque, weakref.WeakValueDictionary)
#: objects whose attributes are walked for maps: the bot's own, and its storage
OWN_MODULES = ("bot.", "storage.")
#: --groups: the people who send the groups' commands, each in many groups
CROWD = 300


@dataclass
class Slot:
    """One group playing one game at a time."""

    number: int
    choice: str = ""
    users: list[User] = field(default_factory=list)
    group: Chat | None = None
    step: str = "idle"  # idle, lobby, playing, stopping


class Soak:
    def __init__(
        self, fake: FakeTelegram, bot: Any, deals: int, seed: int, fresh: bool = False
    ) -> None:
        self.fake = fake
        self.fresh = fresh
        self.bot = bot
        self.services = services_of(bot.app)
        self.deals = deals
        self.rng = random.Random(seed)
        self.games_started = 0
        self.games_done = 0
        self.presses = 0
        self.slots: list[Slot] = []

    async def settle(self) -> None:
        await self.bot.settle(timeout=60, quiet=0.0)
        await self.services.presenter.coalescer.drain()

    async def play(self, games: int, tables: int) -> None:
        """Start ``games`` more games, ``tables`` at a time, and play until they have all
        finished."""
        target = self.games_done + games
        quota = self.games_started + games
        while len(self.slots) < tables:
            self.slots.append(Slot(len(self.slots)))
        slots = self.slots[:tables]
        rounds = 0
        while self.games_done < target:
            rounds += 1
            if rounds % 200 == 0:
                steps = collections.Counter(slot.step for slot in slots)
                print(
                    f"soak: {self.games_done} games done, {self.presses} presses, {dict(steps)}",
                    file=sys.stderr,
                )
            for slot in slots:
                if slot.step == "idle" and self.games_started < quota:
                    self._open(slot)
                elif slot.step == "lobby":
                    self._seat(slot)
                elif slot.step in ("playing", "stopping"):
                    await self._press(slot)
            await self.settle()

    def _open(self, slot: Slot) -> None:
        self.games_started += 1
        slot.choice = CHOICES[self.games_started % len(CHOICES)]
        if slot.group is None:
            number = self.games_started if self.fresh else slot.number
            slot.users = [self.fake.add_user(f"Игрок{number}_{i}") for i in range(PLAYERS)]
            for user in slot.users:
                self.fake.user_starts_bot(user)
            slot.group = self.fake.add_group(f"Стол {number}", slot.users)
        self.fake.user_sends(slot.users[0], slot.group, f"/new {slot.choice}")
        slot.step = "lobby"

    def _decode(self, data: str) -> cb.Callback | None:
        """A button's press, read as the bot's own chat reads it (None: not one of its)."""
        try:
            return self.services.presenter.games.codec.decode(data)
        except cb.BadCallback:
            return None

    def _lobby(self, slot: Slot) -> Message | None:
        assert slot.group is not None
        for message in reversed(self.fake.messages(slot.group, from_bot=True)):
            if any(isinstance(self._decode(d), cb.Lobby) for d in message.callback_data):
                return message
        return None

    def _seat(self, slot: Slot) -> None:
        lobby = self._lobby(slot)
        if lobby is None:
            return
        actions = {d: self._decode(d) for d in lobby.callback_data}
        join = next((d for d, c in actions.items() if getattr(c, "action", "") == "join"), None)
        begin = next((d for d, c in actions.items() if getattr(c, "action", "") == "begin"), None)
        text = lobby.text or ""
        missing = [user for user in slot.users[1:] if user.first_name not in text]
        if missing and join is not None:
            for user in missing:
                self.fake.user_presses(user, lobby, join)
            return
        if begin is not None:
            self.fake.user_presses(slot.users[0], lobby, begin)
            slot.step = "playing"

    async def _press(self, slot: Slot) -> None:
        assert slot.group is not None
        loaded = await self.services.tables.store.active(slot.group.id)
        if loaded is None or loaded.game.status != "active":
            if slot.step in ("playing", "stopping") and (
                loaded is None or loaded.game.status not in ("lobby", "active")
            ):
                self._finish(slot)
            return
        if slot.step == "playing" and loaded.meta.deals >= self.deals:
            self.fake.user_sends(slot.users[0], slot.group, "/stop")
            slot.step = "stopping"
            return
        candidates = []
        for user in slot.users:
            message = self._hand(user)
            if message is None:
                continue
            decoded = {d: self._decode(d) for d in message.callback_data}
            acts = [d for d, c in decoded.items() if isinstance(c, cb.Act)]
            selects = [d for d, c in decoded.items() if isinstance(c, cb.Select)]
            looks = [d for d, c in decoded.items() if isinstance(c, cb.Look)]
            if acts or selects or looks:
                candidates.append((user, message, acts, selects, looks))
        if not candidates:
            return
        user, message, acts, selects, looks = self.rng.choice(candidates)
        if looks and (not (acts or selects) or self.rng.random() < LOOK_CHANCE):
            choice = looks[0]
        elif acts and (not selects or self.rng.random() < ACT_CHANCE):
            choice = self.rng.choice(acts)
        else:
            choice = self.rng.choice(selects)
        self.fake.user_presses(user, message, choice)
        self.presses += 1

    def _hand(self, user: User) -> Message | None:
        for message in reversed(self.fake.messages(self.fake.private_chat(user), from_bot=True)):
            if message.callback_data:
                return message
        return None

    def _finish(self, slot: Slot) -> None:
        """The game is closed. The fake forgets what it keeps of it (not the bot): with
        ``fresh``, the group and its users; else the group's and the players' messages but
        the last few (they play the next game)."""
        self.games_done += 1
        world = self.fake.world
        assert slot.group is not None
        if self.fresh:
            world.chats.pop(slot.group.id, None)
            for user in slot.users:
                world.chats.pop(user.id, None)
                world.users.pop(user.id, None)
            slot.group, slot.users = None, []
        else:
            for chat in (slot.group, *(world.chats.get(user.id) for user in slot.users)):
                if chat is not None:
                    for message_id in sorted(chat.messages)[:-KEPT_MESSAGES]:
                        del chat.messages[message_id]
                    for message in chat.messages.values():
                        message.history.clear()  # the edits before: the fake's, not the bot's
                        message.reply_to = None
        slot.step = "idle"
        answered = [key for key, query in world.callback_queries.items() if query.answer]
        for key in answered:
            del world.callback_queries[key]
        self.fake.server.log.clear()


def map_sizes(
    roots: dict[str, Any], depth: int = 4, caps: dict[str, int] | None = None
) -> dict[str, int]:
    """Every container reachable from ``roots`` through the attributes of the bot's own
    objects (``OWN_MODULES``), by path, with its length. ``caps`` gets the limit of each one
    that has one: its own ``limit`` (``tables.bounded.Recent``), or its owner's ``_max_<name>``
    (the read cache)."""
    sizes: dict[str, int] = {}
    seen: set[int] = set()

    def walk(path: str, obj: Any, level: int, owner: Any = None) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, CONTAINERS):
            sizes[path] = len(obj)
            name = path.rsplit(".", 1)[-1]
            cap = getattr(obj, "limit", None) or getattr(owner, f"_max{name}", None)
            if caps is not None and isinstance(cap, int):
                caps[path] = cap
            return
        module = type(obj).__module__ or ""
        if level >= depth or not module.startswith(OWN_MODULES):
            return
        attributes: dict[str, Any] = {}
        if hasattr(obj, "__dict__"):
            attributes.update(vars(obj))
        for slot_name in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, slot_name):
                attributes[slot_name] = getattr(obj, slot_name)
        for name, value in attributes.items():
            walk(f"{path}.{name}", value, level + 1, obj)

    for name, root in roots.items():
        walk(name, root, 0)
    return sizes


def measure(soak: Soak) -> dict[str, Any]:
    gc.collect()
    app = soak.bot.app
    roots = {"services": soak.services, "chat_data": app.chat_data, "user_data": app.user_data}
    caps: dict[str, int] = {}
    return {
        "games_done": soak.games_done,
        "rss_kb": _rss_kb(),
        **_native_kb(),
        "gc_objects": len(gc.get_objects()),
        "maps": map_sizes(roots, caps=caps),
        "caps": caps,
    }


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2``: what ``malloc`` holds from the system and what of it is
    in use (the C heap: Python's large objects, SQLite, aiohttp's buffers)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def _native_kb() -> dict[str, int]:
    """SQLite's own memory (``sqlite3_memory_used``, the page caches of every connection) and
    the C heap's bytes in use and held free by ``malloc`` (glibc's ``mallinfo2``): RSS that
    grows while ``in_use`` stays is memory ``malloc`` keeps for reuse, not a leak. Empty where
    the libraries are not found (not glibc)."""
    figures: dict[str, int] = {}
    try:
        sqlite = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
        sqlite.sqlite3_memory_used.restype = ctypes.c_int64
        figures["sqlite_kb"] = sqlite.sqlite3_memory_used() // 1024
    except (OSError, AttributeError):
        pass
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
        figures["malloc_in_use_kb"] = (info.uordblks + info.hblkhd) // 1024
        figures["malloc_free_held_kb"] = info.fordblks // 1024
    except (OSError, AttributeError):
        pass
    return figures


def _figures(measured: dict[str, Any]) -> dict[str, Any]:
    """A measurement's single figures (its maps and caps left out)."""
    return {key: value for key, value in measured.items() if key not in ("maps", "caps")}


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.sqlite3"
        async with FakeTelegram() as fake, start_bot_for(fake, path) as bot:
            soak = Soak(fake, bot, args.deals, args.seed, args.fresh)
            began = time.monotonic()
            await soak.play(args.warmup, args.tables)
            start = measure(soak)
            curve = [_figures(start)]
            left = args.games
            while left > 0:
                chunk = min(left, args.every or left)
                await soak.play(chunk, args.tables)
                left -= chunk
                curve.append(_figures(measure(soak)))
                print(f"soak: {json.dumps(curve[-1])}", file=sys.stderr)
            end = measure(soak)
            seconds = time.monotonic() - began
            errors = len(bot.handler_errors)
        database_kb = path.stat().st_size // 1024
    grew = {
        name: [start["maps"].get(name, 0), size]
        for name, size in end["maps"].items()
        if size > start["maps"].get(name, 0)
    }
    caps = end["caps"]
    return {
        "games": args.games,
        "warmup_games": args.warmup,
        "tables_at_once": args.tables,
        "players": "new for every game" if args.fresh else "the same crowd at each table",
        "deals_per_game": args.deals,
        "presses": soak.presses,
        "seconds": round(seconds, 1),
        "handler_errors": errors,
        "database_kb": database_kb,
        "start": _figures(start),
        "end": _figures(end),
        "curve": curve,
        "rss_kb_per_1000_games": round(
            (end["rss_kb"] - start["rss_kb"]) * 1000 / max(1, args.games), 1
        ),
        "grew": grew,
        # a map that grew but has a cap fills up to it, then stays
        "grew_without_a_cap": sorted(name for name in grew if name not in caps),
        "caps": {name: caps[name] for name in sorted(caps)},
        "maps_at_end": end["maps"],
    }


def limit_maps(limiter: Any) -> dict[str, int]:
    """The sizes of the rate limiter's per-chat maps: the group pacer's send times and gates,
    and the chats held after a 429."""
    return {
        "pacer_sent": len(limiter.pacer._sent),
        "pacer_locks": len(limiter.pacer._locks),
        "held_until": len(limiter._held_until),
    }


async def run_groups(args: argparse.Namespace) -> dict[str, Any]:
    """``--groups``: many groups through the limiter and pacing (see the module)."""
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.sqlite3"
        async with (
            FakeTelegram(fault_seed=args.seed) as fake,
            start_bot_for(fake, path, rate_limiter=True) as bot,
        ):
            limiter = bot.app.bot.rate_limiter
            services = services_of(bot.app)
            app = bot.app
            flood = fake.faults.add(
                RetryAfter(1), method="sendMessage", times=None, probability=args.flood
            )
            world = fake.world
            crowd = [fake.add_user(f"Игрок{number}") for number in range(CROWD)]
            began = time.monotonic()
            done = 0
            curve: list[dict[str, Any]] = []
            start_maps: dict[str, int] = {}
            while done < args.groups:
                batch = min(args.batch, args.groups - done)
                made = []
                for number in range(done, done + batch):
                    user = crowd[number % CROWD]
                    group = fake.add_group(f"Стол {number}", [user])
                    fake.user_sends(user, group, "/balance")
                    made.append((group, user))
                # a request 429d past its retries is a handler error: counted, not raised
                await bot.settle(timeout=600, quiet=0.0, raise_errors=False)
                answered = sum(1 for group, _ in made if fake.messages(group, from_bot=True))
                for group, _ in made:
                    world.chats.pop(group.id, None)
                fake.server.log.clear()
                done += batch
                if done % args.every == 0 or done == args.groups:
                    gc.collect()
                    roots = {"services": services, "chat_data": app.chat_data}
                    maps = map_sizes(roots)
                    if not start_maps:
                        start_maps = maps
                    point = {
                        "groups": done,
                        "answered_in_batch": f"{answered}/{batch}",
                        "seconds": round(time.monotonic() - began, 1),
                        "429s": flood.fired,
                        **limit_maps(limiter),
                        "heap_kb": tracemalloc.get_traced_memory()[0] // 1024,
                        "rss_kb": _rss_kb(),
                        "gc_objects": len(gc.get_objects()),
                    }
                    curve.append(point)
                    print(f"soak: {json.dumps(point, ensure_ascii=False)}", file=sys.stderr)
            errors = len(bot.handler_errors)
    tracemalloc.stop()
    grew = {
        name: [start_maps.get(name, 0), size]
        for name, size in maps.items()
        if size > start_maps.get(name, 0)
    }
    return {
        "groups": args.groups,
        "at_once": args.batch,
        "flood_share": args.flood,
        "handler_errors": errors,
        "curve": curve,
        "grew_since_first_point": grew,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games measured")
    parser.add_argument("--warmup", type=int, default=100, help="games before the start")
    parser.add_argument("--tables", type=int, default=20, help="groups playing at once")
    parser.add_argument("--deals", type=int, default=2, help="deals before /stop")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="new users in a new group for every game (the chats' caches fill to their caps)",
    )
    parser.add_argument(
        "--every", type=int, default=0, help="also measure after every N games (the curve)"
    )
    parser.add_argument(
        "--groups", type=int, default=0, help="soak the limiter and pacing over N new groups"
    )
    parser.add_argument("--batch", type=int, default=100, help="--groups: groups at once")
    parser.add_argument("--flood", type=float, default=0.1, help="--groups: share of 429s")
    args = parser.parse_args()
    if args.groups:
        args.every = args.every or 500
        result = asyncio.run(run_groups(args))
    else:
        result = asyncio.run(run(args))
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
