"""Benchmark: the whole bot under load, against the fake Bot API server over HTTP on 127.0.0.1.

    .venv/bin/python bench/load.py [--groups 200] [--duration 60] [--starshina-share 0.2]
                                   [--computer-share 0.3] [--computer-pause 1.5]
                                   [--rate-limiter off|on] [--rate PRESSES_PER_S]
                                   [--profile none|py-spy|cprofile] [--bot-root DIR]
                                   [--bot-env NAME=VALUE]

The bot is the real thing, ``python -m server`` in a subprocess (long polling), with ``BOT_TOKEN``,
``TELEGRAM_API_BASE_URL`` pointing at the fake, a fresh ``DATABASE_PATH`` in a temporary folder,
``RATE_LIMITER`` off (the default: the bot itself is measured) or on, ``LOG_LEVEL=WARNING`` and
a turn timeout far beyond the run. The fake server (``tests/e2e/fake_telegram``) and the
simulated users run in this process, in one asyncio loop. Not a test: it prints figures (JSON)
and asserts nothing. ``--bot-root`` runs the bot from another copy of the project, to measure a
change before it lands; ``--bot-pythonpath`` adds a folder (a package under trial) after it;
``--bot-env`` sets a variable for the bot alone (``MALLOC_ARENA_MAX=2``: malloc's arenas).

The run
    1. Every user (2–6 per Стуколка table, uniformly; 3 per Старшина table; the share
       ``--starshina-share`` of the groups plays Старшина) sends ``/start`` in private; the
       bot's idle memory is read once every one of them has had his greeting.
    2. In each group the first user sends ``/new stukolka`` or ``/new starshina``, the others
       press Join on the lobby, and when every join is answered the creator presses Begin.
       With ``--computer-share``, that share of the groups (chosen by their own seeded draw,
       so the tables and their sizes are those of a run without computers) has one seat
       fewer of people: the creator presses «🤖 Добавить компьютер» before Begin, and a
       strong computer plays that seat (``COMPUTER_PAUSE_SECONDS`` = ``--computer-pause``).
       Its moves are not presses: what they cost shows as the people's latency (the
       computers' search must not delay the other groups), ``computer_moves`` counts them.
    3. When every table is dealt (plus ``--warmup`` seconds) the measured window of
       ``--duration`` seconds begins. A user presses a random button of his hand message (the
       bot's latest private message with buttons, decoded with the program's codec,
       ``server.games.LIBRARY.chat.codec``):
       «look» with probability 0.3 when offered, a card toggle (``Select``) with probability
       0.4 when offered, else a random ``Act``. He presses as soon as
         - the bot has answered his previous press,
         - his hand message shows a revision (a new message or an edit) he has not pressed on,
         - and, with the rate limiter off, the group's table shows the group's last move and
           this deal's table message has arrived (a player looks at the table too; it is what
           makes the latency below exact);
       and, with ``--rate``, when the presses of all users together stay within that many a
       second (open load: latency at a given throughput; without it, users go as fast as the
       bot lets them, which measures the most it can do). Nobody sleeps or polls: the driver
       reacts to the fake's own method calls (``sendMessage``, ``editMessageText``,
       ``editMessageReplyMarkup`` and ``answerCallbackQuery`` are wrapped). A watchdog only
       acts on a table with no event for ``--stall`` seconds: a user refused earlier may press
       again, moves the table never showed are given up (counted), and a table where nobody
       holds a button (its game is over) starts a new game with ``/new``.
    4. At the end of the window nobody presses any more; presses in flight are answered (at
       most ``--drain`` seconds), the bot gets SIGTERM, and its database is measured.

What is measured (presses made inside the window)
    actions/s   presses the bot answered, per second (Act, Select and Look); ``moves/s`` is
                the part that were accepted game moves (an ``Act`` answered with no refusal).
    latency     for every accepted move: from the press (when the fake queued the
                ``callback_query`` update for the bot) to the table edit that shows it: the
                first ``sendMessage`` or ``editMessageText`` to that group, applied by the fake
                after the press, whose text (the turn countdown left out) differs from what the
                group's latest bot message said at the press (a move still not shown when the
                drain ends counts with the time it waited: at least that). The bot renders the
                table from the stored state when it sends, and with the rate limiter off a user
                presses only once the table shows the group's previous move, so that first new
                text is this move (a deal-ending move shows as the edit into the deal's result).
                ``overlapped`` counts moves pressed while an earlier one was still not shown
                (none with the limiter off; with it on they are the rule, see below).
                Little's law applies: with every group always waiting for its next move, the
                mean latency is about groups / moves per second, so a latency target is read
                at a given ``--rate``, and the most moves per second without ``--rate``.
    own screen  ``own_screen_ms``: for every press, from the press to the first change the fake
                applied to the presser's own private chat after it (his hand edited, or a new
                one sent): what the presser waits for. A refused press is left out.
                ``others_screen_ms``: for every other player at the table, from the first move
                (an ``Act`` press) he has not been shown to the next change of his own chat
                (every move changes every hand): how far behind a waiting player's hand is.
    requests    the bot's Bot API requests while the window was open (``getUpdates`` left
                out) per answered press: to groups, to private chats, ``answerCallbackQuery``,
                ``pings`` (a turn after a wait: its new hand message and the old one deleted);
                failed ones by error.
    capacity    from the messages per press by kind (callback answers aside): how many tables
                at a human pace (a press every 4 s) one bot token carries inside Telegram's
                limits (30 messages a second in all, 20 a minute per group, about one a second
                per private chat) with every player in the chat (``bench.capacity``). With
                every player on the page it is measured by ``bench/webapp.py``, from the
                requests its real run of page moves makes.
    memory      ``rss_idle_kib`` once every user is greeted, ``rss_seated_kib`` once every
                table is dealt; VmHWM (the peak resident set) of the bot process; VmRSS every
                0.5 s; per
                active game = (median VmRSS in the window − VmRSS idle) / groups.
    database    the SQLite file after the bot shut down, per 1,000 deals it holds.
    CPU         the bot's CPU time (``/proc/<pid>/stat``, and its main thread's, which runs
                the event loop) and this process's, over the wall time of the window: the two
                share the machine, and the fake and the users cost CPU too.
                ``cpu_bot_system_share``: the kernel's part of the bot's (its sockets, the
                database's disk, waking its other thread).
    bench lag   ``bench_loop_lag_max_ms``: the longest this process's own loop was late (a
                stall here delays presses and replies, and shows as the bot's latency).
                This process collects no garbage from the window's start to the drain's end:
                its full collections (the fake keeps every message) stopped it ~200 ms.

With ``--rate-limiter on`` users do not wait for the table (the limiter makes it lag, by design,
and that lag is what is measured). It prints, per game (each group's table), the most group
requests (sends and edits) in any 60 s of the whole run, and the longest time the table was
behind: the longest time from an accepted move's press until the table showed it, by the rule
above (a move still not shown when the drain ends counts until then). Here an edit rendered just
before a move was committed but arriving after its press is taken to show it, so a figure may
be low by up to one pacing interval (3 s) when a press lands in the milliseconds between a
refresh's rendering and its arrival. The limiter also keeps the whole bot within Telegram's 30
requests a second, private messages included, which players at full speed fill with about 20
groups (``--groups 20``); with many more, every table is behind by what that cap allows, not
by what the bot does.

``--profile py-spy`` samples the bot's main thread with ``py-spy record`` over the window
(``.venv/bin/pip install py-spy``) and prints its time by package and the functions most often
on the CPU; ``--profile cprofile`` runs the bot under ``python -m cProfile`` (much slower) and
prints the top of the profile. Figures depend on the machine and on what else runs on it (the
load average before the run is printed): compare runs made one after another.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from capacity import capacity, message_kinds  # noqa: E402  (bench/, the script's own folder)

from bot import callback as cb  # noqa: E402
from server.games import LIBRARY  # noqa: E402
from tests.e2e.fake_telegram import FakeTelegram, Message, User  # noqa: E402
from tests.e2e.fake_telegram.model import CallbackQuery, Chat  # noqa: E402

LOOK_CHANCE = 0.3
SELECT_CHANCE = 0.4
BUSIEST_WINDOW = 60.0
COUNTDOWN = re.compile(r"⏳\s*\d+")
#: the deal a hand or table message shows («· сдача 9»; the bench's users speak Russian)
DEAL = re.compile(r"сдача (\d+)")


def deal_of(text: str | None) -> int | None:
    found = DEAL.search(text or "")
    return int(found.group(1)) if found else None


def table_text(text: str | None) -> str | None:
    """A group message's text without the turn countdown, which changes on its own."""
    return None if text is None else COUNTDOWN.sub("⏳", text)


class CountingFilter(logging.Filter):
    """Counts (and silences) the fake server's "Error handling request" records: requests the
    bot abandoned (its HTTP client timed out and closed the connection)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        self.count += 1
        return False


ABANDONED = CountingFilter()


def python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


# ---------------------------------------------------------------------------- the bot process


@dataclass
class BotProcess:
    process: subprocess.Popen[bytes]
    pid: int  # the bot's own pid (py-spy's child when sampled)
    log: Path
    database: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]

    def status(self) -> dict[str, int]:
        """VmRSS and VmHWM in KiB."""
        found = {}
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                name, _, value = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    found[name] = int(value.split()[0])
        return found

    def cpu_seconds(self, task: int | None = None, *, system: bool = False) -> float:
        """utime + stime of the bot process (its threads included), or of one of its threads
        (``task``: the thread id; the main thread's is the pid); with ``system``, stime alone
        (the kernel's part: the sockets, the disk, the wake-ups of the other thread)."""
        path = f"/proc/{self.pid}/stat" if task is None else f"/proc/{self.pid}/task/{task}/stat"
        try:
            fields = Path(path).read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        ticks = int(fields[12]) if system else int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")


def bot_environment(
    fake: FakeTelegram,
    database: Path,
    rate_limiter: bool,
    pythonpath: str,
    turn_timeout: float = 86400,
    extra_env: dict[str, str] | None = None,
) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.upper().startswith(("BOT_", "TELEGRAM_", "DATABASE_", "WEBHOOK_"))
        and key.upper() not in ("RATE_LIMITER", "LOG_LEVEL", "TURN_TIMEOUT_SECONDS")
    }
    env.update(
        BOT_TOKEN=fake.token,
        TELEGRAM_API_BASE_URL=fake.base_url,
        DATABASE_PATH=str(database),
        RATE_LIMITER="true" if rate_limiter else "false",
        TURN_TIMEOUT_SECONDS=str(turn_timeout),
        LOG_LEVEL="WARNING",
        DEFAULT_LANGUAGE="ru",
        PYTHONPATH=pythonpath,
    )
    env.update(extra_env or {})
    return env


def start_bot(
    fake: FakeTelegram,
    folder: Path,
    *,
    rate_limiter: bool,
    profile: str,
    profile_out: Path,
    pythonpath: str,
    turn_timeout: float = 86400,
    extra_env: dict[str, str] | None = None,
) -> BotProcess:
    database = folder / "data" / "bot.sqlite3"
    log = folder / "bot.log"
    # the program's entry: ``server`` now, ``bot`` in a copy from before it had one of its own
    root = Path(pythonpath.split(os.pathsep)[0])
    entry = "server" if (root / "server" / "__main__.py").exists() else "bot"
    command = [python(), "-m", entry]
    if profile == "cprofile":
        command = [python(), "-m", "cProfile", "-o", str(profile_out), "-m", entry]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=bot_environment(fake, database, rate_limiter, pythonpath, turn_timeout, extra_env),
            stdout=sink,
            stderr=sink,
        )
    return BotProcess(process, process.pid, log, database)


async def stop_bot(bot: BotProcess, timeout: float) -> int:
    """SIGTERM, then SIGKILL after ``timeout`` seconds (the exit code is then -9). The fake
    keeps serving meanwhile: the bot's last requests (the drained refreshes) are answered."""
    if bot.process.poll() is None:
        bot.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while bot.process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        if bot.process.poll() is None:
            bot.process.kill()
            await asyncio.to_thread(bot.process.wait)
    return bot.process.returncode


def start_py_spy(bot: BotProcess, seconds: float, output: Path) -> subprocess.Popen[bytes] | None:
    spy = Path(python()).with_name("py-spy")
    if not spy.exists():
        found = shutil.which("py-spy")
        if found is None:
            print("py-spy is not installed: .venv/bin/pip install py-spy", file=sys.stderr)
            return None
        spy = Path(found)
    return subprocess.Popen(
        [
            str(spy),
            "record",
            "--pid",
            str(bot.pid),
            "--duration",
            str(max(1, round(seconds))),
            "--rate",
            "200",
            "--format",
            "raw",
            "--threads",
            "--nonblocking",
            "--output",
            str(output),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


# ---------------------------------------------------------------------------- the simulated world


@dataclass
class Move:
    """An ``Act`` press: whether the bot accepted it, and when the table showed it."""

    group: Group
    pressed: float
    text_before: str | None
    overlapped: bool
    in_window: bool
    query_id: str = ""
    verb: str = ""
    accepted: bool | None = None
    shown: float | None = None
    shown_text: str | None = None


@dataclass
class Press:
    """A press waiting for the bot's answer."""

    query_id: str
    pressed: float
    kind: str  # act / select / look / lobby
    in_window: bool
    move: Move | None = None


@dataclass
class Player:
    """A simulated user and what the bot last showed him."""

    user: User
    group: Group
    hand: Message | None = None
    pressed_on: tuple[int, int] | None = None  # (message id, edits) of the hand last pressed
    pending: Press | None = None
    hands_sent: int = 0  # new hand messages in this game (one per deal)
    hand_deal: int | None = None  # the deal of his latest new hand message
    awaiting: Press | None = None  # his press whose effect on his own screen is still due
    stale_since: float | None = None  # the first move by another he has not been shown since
    deferred: bool = False  # waiting for a slot of --rate


@dataclass
class Group:
    """A group chat with its table and its players."""

    chat: Chat
    kind: str  # stukolka / starshina
    players: list[Player] = field(default_factory=list)
    state: str = "idle"  # idle → lobby_wait → joining → playing
    joins_left: int = 0
    text: str | None = None  # text of the bot's latest message here
    unshown: list[Move] = field(default_factory=list)
    tables_sent: int = 0  # new table messages in this game (one per deal)
    last_event: float = 0.0
    games: int = 0
    computers: int = 0  # computer seats this table has (seated from the lobby)
    computers_left: int = 0  # still to seat in this game's lobby


class Driver:
    """The simulated users of every group, driven by what the fake's Bot API methods do."""

    def __init__(
        self,
        fake: FakeTelegram,
        rng: random.Random,
        stall: float,
        wait_for_table: bool,
        codec: cb.Codec,
        rate: float | None = None,
    ) -> None:
        self.fake = fake
        #: what the bot's buttons carry: the codec of the games it offers (the program's)
        self.codec = codec
        self.rng = rng
        self.stall = stall
        self.wait_for_table = wait_for_table
        self.rate = rate  # presses a second for all users together (None: as fast as they can)
        self._next_slot = 0.0
        self.groups: dict[int, Group] = {}
        self.players: dict[int, Player] = {}
        self.greeted: set[int] = set()
        self.pressing = False  # users press game buttons
        self.window: tuple[float, float] | None = None
        self.moves: list[Move] = []
        self.answered: Counter[str] = Counter()  # kind → answered presses in the window
        self.refused: Counter[str] = Counter()
        self.restarts = 0
        self.stalls_unstuck = 0
        self.given_up = 0  # moves the table never showed (the watchdog stopped waiting)
        self.given_up_kinds: Counter[str] = Counter()
        self._kinds: dict[str, type | None] = {}
        #: press (in the window) → the presser's own screen changed: seconds, per kind
        self.own_screen: dict[str, list[float]] = {}
        #: a move (in the window) by another player at his table → his own chat changed
        self.others_screen: list[float] = []

    # --- wiring -------------------------------------------------------------------------

    def install(self) -> None:
        """Wrap the fake's message and answer methods so every change reaches the driver."""
        api = self.fake.api
        for name, after in (
            ("sendMessage", self._after_message),
            ("editMessageText", self._after_message),
            ("editMessageReplyMarkup", self._after_message),
            ("answerCallbackQuery", self._after_answer),
        ):
            key = name.lower()
            canonical, method = api.methods[key]
            api.methods[key] = (canonical, self._wrapped(method, after))

    @staticmethod
    def _wrapped(method: Callable[[Any], Any], after: Callable[[Any, Any], None]) -> Any:
        def call(params: Any) -> Any:
            result = method(params)
            after(params, result)
            return result

        return call

    def now(self) -> float:
        return self.fake.now()

    def in_window(self, moment: float) -> bool:
        return self.window is not None and self.window[0] <= moment < self.window[1]

    def _kind_of(self, data: str) -> type | None:
        try:
            return type(self.codec.decode(data))
        except cb.BadCallback:
            return None

    def decoded(self, data: str) -> type | None:
        found = self._kinds.get(data, ...)
        if found is ...:
            found = self._kinds[data] = self._kind_of(data)
        return found

    def describe(self) -> str:
        states = Counter(g.state for g in self.groups.values())
        dealt = sum(1 for g in self.groups.values() if any(p.hand for p in g.players))
        pending = sum(1 for p in self.players.values() if p.pending is not None)
        return f"groups by state {dict(states)}, dealt {dealt}, presses unanswered {pending}"

    # --- building -----------------------------------------------------------------------

    def add_group(self, index: int, kind: str, size: int, computers: int = 0) -> Group:
        users = [
            self.fake.add_user(f"P{index}_{seat}", last_name="Load", language_code="ru")
            for seat in range(size - computers)
        ]
        chat = self.fake.add_group(f"Load table {index}", users)
        group = Group(chat, kind, computers=computers)
        for user in users:
            player = Player(user, group)
            group.players.append(player)
            self.players[user.id] = player
        self.groups[chat.id] = group
        return group

    # --- events from the fake -------------------------------------------------------------

    def _after_message(self, params: Any, result: Any) -> None:
        chat_id = result["chat"]["id"]
        message = self.fake.world.chats[chat_id].messages[result["message_id"]]
        moment = self.now()
        sent = "edit_date" not in result
        if chat_id > 0:
            self.greeted.add(chat_id)
            player = self.players.get(chat_id)
            if player is not None:
                stale = player.stale_since
                if stale is not None and moment >= stale:
                    player.stale_since = None
                    self.others_screen.append(moment - stale)
                awaiting = player.awaiting
                if awaiting is not None and moment >= awaiting.pressed:
                    player.awaiting = None
                    self.own_screen.setdefault(awaiting.kind, []).append(moment - awaiting.pressed)
                if sent and player.group.state == "playing" and message.callback_data:
                    # a new deal's hand; a turn after a wait comes as a new message of the
                    # same deal too (the old one deleted), which is no new deal
                    deal = deal_of(message.text)
                    if deal is None or deal != player.hand_deal:
                        player.hands_sent += 1
                        player.hand_deal = deal
                self._hand_changed(player, message)
            return
        group = self.groups.get(chat_id)
        if group is not None:
            if sent and group.state == "playing" and not message.callback_data:
                group.tables_sent += 1
            self._group_changed(group, message, moment)

    def _hand_changed(self, player: Player, message: Message) -> None:
        group = player.group
        if group.state == "lobby_wait" and message.callback_data:
            group.state = "playing"  # the game was not over after all
        current = player.hand
        if message.callback_data:
            if current is None or message.message_id >= current.message_id:
                player.hand = message
        elif current is not None and current.message_id == message.message_id:
            player.hand = None  # the hand message lost its buttons
        player.group.last_event = self.now()
        self.maybe_press(player)

    def _group_changed(self, group: Group, message: Message, moment: float) -> None:
        group.last_event = moment
        text = table_text(message.text)
        shown_now = False
        if group.unshown:
            still = []
            for move in group.unshown:
                if move.pressed <= moment and text != move.text_before:
                    move.shown = moment
                    move.shown_text = text
                    shown_now = True
                else:
                    still.append(move)
            group.unshown = still
        group.text = text
        if shown_now or group.tables_sent:
            for player in group.players:
                self.maybe_press(player)
        lobby = [d for d in message.callback_data if self.decoded(d) is cb.Lobby]
        if not lobby:
            if group.state == "lobby_wait":
                group.state = "playing"  # /new was refused: the table is still on
            return
        if group.state == "lobby_wait":
            group.state = "joining"
            group.computers_left = group.computers
            join = next(d for d in lobby if self.codec.decode(d).action == "join")  # type: ignore[union-attr]
            for player in group.players[1:]:
                self._press(player, message, join, "lobby")
            group.joins_left = len(group.players) - 1
        self._maybe_begin(group, message)

    def _maybe_begin(self, group: Group, message: Message | None = None) -> None:
        if group.state != "joining" or group.joins_left > 0:
            return
        if message is None:
            lobby = [m for m in self.fake.messages(group.chat, from_bot=True) if m.callback_data]
            if not lobby:
                return
            message = lobby[-1]
        creator = group.players[0]
        if group.computers_left > 0:
            seat = [
                d
                for d in message.callback_data
                if self.decoded(d) is cb.Lobby and self.codec.decode(d).action == "computer"  # type: ignore[union-attr]
            ]
            if seat and creator.pending is None:
                self._press(creator, message, seat[0], "lobby")
                group.computers_left -= 1
            return
        begin = [
            d
            for d in message.callback_data
            if self.decoded(d) is cb.Lobby and self.codec.decode(d).action == "begin"  # type: ignore[union-attr]
        ]
        if begin and creator.pending is None:
            self._press(creator, message, begin[0], "lobby")
            group.state = "playing"
            group.games += 1

    def _after_answer(self, params: Any, result: Any) -> None:
        query: CallbackQuery = self.fake.world.callback_queries[
            params.required_str("callback_query_id")
        ]
        player = self.players.get(query.user.id)
        if player is None or player.pending is None or player.pending.query_id != query.id:
            return
        press, player.pending = player.pending, None
        refused = query.answer is not None and query.answer.text is not None
        if refused and player.awaiting is press:
            player.awaiting = None  # a refusal changes nothing on his screen
        if press.kind == "lobby":
            group = player.group
            if group.state == "joining" and player is not group.players[0]:
                group.joins_left -= 1
                self._maybe_begin(group)
            elif group.state == "joining":
                self._maybe_begin(group)  # the creator seated a computer: another, or Begin
            self.maybe_press(player)
            return
        if press.in_window:
            self.answered[press.kind] += 1
            if refused:
                self.refused[press.kind] += 1
        move = press.move
        group = player.group
        group.last_event = self.now()
        if move is not None:
            move.accepted = not refused and press.kind == "act"
            if not move.accepted and move in group.unshown:
                group.unshown.remove(move)
                for other in group.players:
                    self.maybe_press(other)
        self.maybe_press(player)

    # --- pressing -------------------------------------------------------------------------

    def _press(self, player: Player, message: Message, data: str, kind: str) -> Press:
        query = self.fake.user_presses(player.user, message, data)
        moment = query.created_at
        press = Press(query.id, moment, kind, self.in_window(moment))
        player.pending = press
        return press

    def _slot_due(self, player: Player) -> None:
        player.deferred = False
        self.maybe_press(player, slotted=True)

    def maybe_press(self, player: Player, *, slotted: bool = False) -> None:
        if not self.pressing or player.pending is not None or player.deferred:
            return
        group = player.group
        if self.wait_for_table and (group.unshown or group.tables_sent < player.hands_sent):
            return  # the table does not show the last move, or this deal's table, yet
        hand = player.hand
        if hand is None or hand.deleted:
            return
        revision = (hand.message_id, len(hand.history))
        if revision == player.pressed_on:
            return
        looks, selects, acts = [], [], []
        for data in hand.callback_data:
            kind = self.decoded(data)
            if kind is cb.Act:
                acts.append(data)
            elif kind is cb.Select:
                selects.append(data)
            elif kind is cb.Look:
                looks.append(data)
        rng = self.rng
        if looks and rng.random() < LOOK_CHANCE:
            choice, kind_name = looks[0], "look"
        elif selects and rng.random() < SELECT_CHANCE:
            choice, kind_name = rng.choice(selects), "select"
        elif acts:
            choice, kind_name = rng.choice(acts), "act"
        elif looks or selects:
            choice, kind_name = (looks[0], "look") if looks else (rng.choice(selects), "select")
        else:
            return
        if self.rate and not slotted:
            now = self.now()
            slot = max(now, self._next_slot)
            self._next_slot = slot + 1.0 / self.rate
            if slot > now:
                player.deferred = True
                asyncio.get_running_loop().call_at(slot, self._slot_due, player)
                return
        press = self._press(player, hand, choice, kind_name)
        player.awaiting = press if press.in_window else None
        player.pressed_on = revision
        if kind_name == "act":
            move = Move(
                group,
                press.pressed,
                group.text,
                overlapped=bool(group.unshown),
                in_window=press.in_window,
                query_id=press.query_id,
                verb=getattr(self.codec.decode(choice), "verb", ""),
            )
            press.move = move
            group.unshown.append(move)
            self.moves.append(move)
            if press.in_window:
                for other in group.players:
                    if other is not player and other.stale_since is None:
                        other.stale_since = press.pressed

    def start_game(self, group: Group) -> None:
        creator = group.players[0]
        group.state = "lobby_wait"
        group.tables_sent = 0
        for player in group.players:
            player.hand = None
            player.pressed_on = None
            player.hands_sent = 0
            player.hand_deal = None
        self.fake.user_sends(creator.user, group.chat, f"/new {group.kind}")

    async def watchdog(self, stop: asyncio.Event) -> None:
        """Unstick groups that had no event for ``stall`` seconds (see the module docstring)."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.25)
            if not self.pressing or self.window is None:
                continue
            now = self.now()
            for group in self.groups.values():
                if group.state != "playing" or now - group.last_event < self.stall:
                    continue
                if any(p.pending is not None for p in group.players):
                    continue
                if group.unshown and self.wait_for_table:
                    self.given_up += len(group.unshown)
                    self.given_up_kinds[group.kind] += len(group.unshown)
                    group.unshown = []
                holders = [
                    p
                    for p in group.players
                    if p.hand is not None
                    and not p.hand.deleted
                    and any(
                        self.decoded(d) in (cb.Act, cb.Select, cb.Look)
                        for d in p.hand.callback_data
                    )
                ]
                group.last_event = now
                if holders:
                    self.stalls_unstuck += 1
                    for player in holders:
                        player.pressed_on = None
                        player.hands_sent = min(player.hands_sent, group.tables_sent)
                        self.maybe_press(player)
                else:
                    self.restarts += 1
                    self.start_game(group)


# ---------------------------------------------------------------------------- figures


async def loop_lag(stop: asyncio.Event, step: float = 0.01) -> float:
    """The longest this process's loop was late to wake a 10 ms sleep, until ``stop``."""
    worst = 0.0
    while not stop.is_set():
        due = time.perf_counter() + step
        await asyncio.sleep(step)
        worst = max(worst, time.perf_counter() - due)
    return worst


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def database_figures(path: Path) -> dict[str, Any]:
    """The database after the bot stopped: its file once the WAL is checkpointed into it (what
    a backup or a restart finds), the pages in use, and the rows that make it up."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        wal_before = Path(f"{path}-wal").stat().st_size if Path(f"{path}-wal").exists() else 0
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        free = conn.execute("PRAGMA freelist_count").fetchone()[0]
        deals = conn.execute("SELECT count(*) FROM deals").fetchone()[0]
        actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
        computer_moves = conn.execute(
            "SELECT count(*) FROM actions WHERE kind = 'action' AND user_id IS NULL"
            " AND json_extract(action, '$[1]') != 'look'"
        ).fetchone()[0]
    size = path.stat().st_size
    used = (pages - free) * page_size
    return {
        "file_bytes": size,
        "used_bytes": used,
        "wal_left_by_the_bot_bytes": wal_before,
        "deals": deals,
        "actions": actions,
        "computer_moves": computer_moves,  # (and any default move: the turns never run out)
        "bytes_per_1000_deals": round(used / deals * 1000) if deals else None,
        "bytes_per_action": round(used / actions) if actions else None,
    }


def read_stacks(raw: Path, pid: int) -> tuple[list[tuple[list[str], int]], Counter[str]]:
    """py-spy's raw output (``--threads``): the main thread's stacks (the event loop, thread id
    = the bot's pid) with their sample counts, and the samples of every thread by name."""
    stacks: list[tuple[list[str], int]] = []
    threads: Counter[str] = Counter()
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        frames = [f for f in stack.split(";") if f]
        thread = frames.pop(0) if frames and frames[0].startswith("thread (") else "?"
        tid = thread[len("thread (") :].split(")", 1)[0]
        name = "main" if tid == str(pid) else "other threads (sqlite…)"
        threads[name] += int(count_text)
        if tid == str(pid):
            stacks.append((frames, int(count_text)))
    return stacks, threads


def summarize_profile(raw: Path, pid: int, top: int = 25) -> list[str]:
    """The functions most often on top of the main thread's stack (self) and anywhere on it
    (total), as shares of the main thread's samples (py-spy leaves idle samples out)."""
    stacks, threads = read_stacks(raw, pid)
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = sum(count for _, count in stacks)
    for frames, count in stacks:
        if not frames:
            continue
        own[_short(frames[-1])] += count
        for name in {_short(f) for f in frames}:
            total[name] += count
    packages: Counter[str] = Counter()
    for frames, count in stacks:
        packages[_package(frames[-1]) if frames else "?"] += count
    lines = [f"py-spy samples by thread (200 Hz, busy only): {dict(threads)}"]
    lines.append("main thread, self time by package (the frame on top of the stack):")
    lines += [
        f"  {100 * count / samples:5.1f}%  {name}" for name, count in packages.most_common(18)
    ]
    lines.append("main thread:  self%  total%  function")
    for name, count in own.most_common(top):
        lines.append(
            f"             {100 * count / samples:5.1f}  {100 * total[name] / samples:6.1f}  {name}"
        )
    return lines


def summarize_total(raw: Path, pid: int, names: list[str]) -> list[str]:
    """Inclusive shares of the main thread's samples of frames containing each name."""
    stacks, _ = read_stacks(raw, pid)
    samples = sum(count for _, count in stacks)
    total: Counter[str] = Counter()
    for frames, count in stacks:
        joined = ";".join(frames)
        for name in names:
            if name in joined:
                total[name] += count
    return [f"  {100 * total[n] / max(samples, 1):5.1f}%  {n}" for n in names]


STDLIB_TOPS = frozenset(
    {"asyncio", "json", "selectors.py", "uuid.py", "urllib", "dataclasses.py", "enum.py", "re"}
)


def _package(frame: str) -> str:
    """The package a frame's code belongs to (py-spy names files relative to ``sys.path``):
    ``telegram``, ``aiohttp``, ``asyncio``…, and ``bot/presenter.py`` and the like for the
    project's own ``bot`` package."""
    where = frame.partition(" (")[2].rstrip(")")
    parts = Path(where.rpartition(":")[0]).parts
    if not parts:
        return frame
    top = parts[0]
    if top == "bot" and len(parts) > 1:
        return "/".join(parts[:2])
    if top in STDLIB_TOPS or top.endswith(".py"):
        return f"stdlib {top.removesuffix('.py')}"
    return top


def _short(frame: str) -> str:
    # "function (path/to/file.py:123)" → "function (file.py:123)"
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path, _, line = where.rpartition(":")
    parts = Path(path).parts
    for anchor in ("site-packages", "main", "python3.11"):
        if anchor in parts:
            parts = parts[parts.index(anchor) + 1 :]
            break
    return f"{name} ({'/'.join(parts[-3:])}:{line})" if path else frame


# ---------------------------------------------------------------------------- the run


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    profile_out = Path(args.profile_out) if args.profile_out else folder / "bot.prof"
    result: dict[str, Any] = {
        "loadavg_before": os.getloadavg()[0],
        "groups": args.groups,
        "duration_s": args.duration,
        "starshina_share": args.starshina_share,
        "computer_share": args.computer_share,
        "computer_pause_s": args.computer_pause,
        "rate_limiter": args.rate_limiter == "on",
        "offered_rate": args.rate,
    }
    async with FakeTelegram() as fake:
        driver = Driver(
            fake,
            rng,
            args.stall,
            wait_for_table=args.rate_limiter == "off",
            codec=LIBRARY.chat.codec,  # the bot's process offers the program's games
            rate=args.rate,
        )
        driver.install()
        starshina_groups = round(args.groups * args.starshina_share)
        with_computer = random.Random(args.seed + 1)
        for index in range(args.groups):
            kind = "starshina" if index < starshina_groups else "stukolka"
            size = 3 if kind == "starshina" else rng.randint(args.min_players, args.max_players)
            computers = int(with_computer.random() < args.computer_share)
            driver.add_group(index, kind, size, computers)
        result["computer_groups"] = sum(1 for g in driver.groups.values() if g.computers)
        users = list(driver.players.values())
        result["users"] = len(users)
        result["players_per_group"] = round(len(users) / args.groups, 2)

        bot = start_bot(
            fake,
            folder,
            rate_limiter=args.rate_limiter == "on",
            profile=args.profile,
            profile_out=profile_out,
            pythonpath=os.pathsep.join([args.bot_root, *args.bot_pythonpath]),
            extra_env=dict(setting.split("=", 1) for setting in args.bot_env),
        )
        stop = asyncio.Event()
        samples: list[tuple[float, int]] = []

        async def sample_memory() -> None:
            while not stop.is_set():
                status = bot.status()
                if "VmRSS" in status:
                    samples.append((fake.now(), status["VmRSS"]))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.5)

        async def until(predicate: Callable[[], object], what: str, timeout: float) -> None:
            deadline = fake.now() + timeout
            while not predicate():
                if bot.process.poll() is not None:
                    raise RuntimeError(f"the bot exited before {what}:\n{bot.output()}")
                if fake.now() > deadline:
                    raise RuntimeError(
                        f"no {what} within {timeout} s ({driver.describe()}):\n{bot.output()}"
                    )
                with contextlib.suppress(TimeoutError):
                    await fake.wait_until(predicate, timeout=1.0)

        sampler = asyncio.create_task(sample_memory())
        watchdog = asyncio.create_task(driver.watchdog(stop))
        spy: subprocess.Popen[bytes] | None = None
        lag: asyncio.Task[float] | None = None
        try:
            await until(lambda: fake.requests("getUpdates"), "the first getUpdates", 60)
            # 1. every user greets the bot
            started = fake.now()
            for player in users:
                fake.user_starts_bot(player.user)
            await until(
                lambda: len(driver.greeted) >= len(users), "greetings for every user", args.setup
            )
            result["setup_start_s"] = round(fake.now() - started, 2)
            await asyncio.sleep(1.0)
            idle = bot.status()
            result["rss_idle_kib"] = idle.get("VmRSS")
            # 2. lobbies, joins, begins
            started = fake.now()
            driver.pressing = True
            for group in driver.groups.values():
                driver.start_game(group)
            await until(
                lambda: all(
                    any(p.hand is not None for p in g.players) for g in driver.groups.values()
                ),
                "a dealt hand at every table",
                args.setup,
            )
            result["setup_tables_s"] = round(fake.now() - started, 2)
            result["rss_seated_kib"] = bot.status().get("VmRSS")
            await asyncio.sleep(args.warmup)
            # 3. the window. This process must not pause it: a full collection of its heap
            # (the fake keeps every message with its history) stopped the fake and the users
            # for about 200 ms at a time, which showed up as the bot's latency. So collections
            # wait until the window and the drain are over, and the lag of this loop is
            # measured (``bench_loop_lag_max_ms``) to show that nothing else stops it.
            gc.collect()
            gc.freeze()
            gc.disable()
            lag = asyncio.create_task(loop_lag(stop))
            begin = fake.now()
            driver.window = (begin, begin + args.duration)
            requests_before = len(fake.log)
            cpu_bot = bot.cpu_seconds()
            cpu_main = bot.cpu_seconds(bot.pid)
            cpu_system = bot.cpu_seconds(system=True)
            cpu_self = time.process_time()
            if args.profile == "py-spy":
                spy = start_py_spy(bot, args.duration, profile_out)
            while fake.now() < driver.window[1]:
                if bot.process.poll() is not None:
                    raise RuntimeError(f"the bot exited during the run:\n{bot.output()}")
                await asyncio.sleep(min(0.5, max(0.0, driver.window[1] - fake.now())))
            wall = fake.now() - begin
            cpu_bot = bot.cpu_seconds() - cpu_bot
            cpu_main = bot.cpu_seconds(bot.pid) - cpu_main
            cpu_system = bot.cpu_seconds(system=True) - cpu_system
            cpu_self = time.process_time() - cpu_self
            window_log = [e for e in fake.log[requests_before:] if e.time < driver.window[1]]
            # 4. drain
            driver.pressing = False
            with contextlib.suppress(RuntimeError):
                await until(
                    lambda: all(p.pending is None for p in users), "answers in flight", args.drain
                )
            with contextlib.suppress(RuntimeError):
                await until(
                    lambda: not any(m.accepted for g in driver.groups.values() for m in g.unshown),
                    "tables showing every move",
                    args.drain,
                )
            drain_end = fake.now()
            hwm = bot.status().get("VmHWM")
        finally:
            gc.enable()
            stop.set()
            if lag is not None:
                result["bench_loop_lag_max_ms"] = round(1000 * await lag, 1)
            await asyncio.gather(sampler, watchdog, return_exceptions=True)
            if spy is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    await asyncio.to_thread(spy.wait, args.duration + 30)
            stopping = time.monotonic()
            code = await stop_bot(bot, args.stop_timeout)
            stopped = time.monotonic() - stopping
        result["bot_exit_code"] = code
        lines = bot.log.read_text(encoding="utf-8", errors="replace").splitlines()
        problems = [line for line in lines if " ERROR " in line or " WARNING " in line]
        result["bot_log"] = {
            "warnings_and_errors": len(problems),
            "tracebacks": sum(1 for line in lines if line.startswith("Traceback")),
            "first": [line[:240] for line in problems[:5]],
        }
        log_copy = list(fake.log) if args.dump_log else []
        result["shutdown_s"] = round(stopped, 1)

        # ---- figures
        answered = sum(driver.answered.values())
        moves = [m for m in driver.moves if m.in_window and m.accepted]
        # a move the table never showed counts with the time it waited (so: at least that)
        latencies = [(drain_end if m.shown is None else m.shown) - m.pressed for m in moves]
        exact = [m.shown - m.pressed for m in moves if m.shown is not None and not m.overlapped]
        result["actions_per_s"] = round(answered / wall, 1)
        result["moves_per_s"] = round(len(moves) / wall, 1)
        result["presses"] = dict(driver.answered)
        result["refused"] = dict(driver.refused)
        result["new_games"] = driver.restarts
        result["stalls_unstuck"] = driver.stalls_unstuck
        result["moves_given_up"] = driver.given_up
        result["moves_given_up_by_game"] = dict(driver.given_up_kinds)

        def ms(values: list[float]) -> dict[str, float]:
            return {
                f"p{int(q * 100)}": round(1000 * percentile(values, q), 1)
                for q in (0.5, 0.95, 0.99)
            } | {"max": round(1000 * max(values), 1) if values else float("nan")}

        result["latency_ms"] = ms(latencies)
        result["latency_not_overlapped_ms"] = ms(exact)
        result["moves_measured"] = len(latencies)
        result["moves_never_shown"] = sum(1 for m in moves if m.shown is None)
        result["overlapped_share"] = round(
            sum(1 for m in moves if m.overlapped) / max(len(moves), 1), 4
        )
        kinds = message_kinds((entry.method, entry.chat_id) for entry in window_log)
        failed = sum(1 for e in window_log if e.method != "getUpdates" and not e.ok)
        result["requests_per_action"] = {
            k: round(v / max(answered, 1), 2) for k, v in sorted(kinds.items())
        } | {"total": round(sum(kinds.values()) / max(answered, 1), 2)}
        result["requests_per_s"] = round(sum(kinds.values()) / wall, 1)
        own = [v for values in driver.own_screen.values() for v in values]
        result["own_screen_ms"] = ms(own) | {"presses": len(own)}
        # a player who was never shown a move by then counts until the drain ended (at least)
        others = driver.others_screen + [
            drain_end - p.stale_since for p in users if p.stale_since is not None
        ]
        result["others_screen_ms"] = ms(others) | {
            "samples": len(others),
            "over_5s": sum(1 for v in others if v > 5.0),
        }
        result["own_screen_by_kind_ms"] = {
            kind: ms(values) for kind, values in sorted(driver.own_screen.items())
        }
        result["capacity"] = capacity(
            {k: v / max(answered, 1) for k, v in kinds.items()}, result["players_per_group"]
        )
        result["failed_requests"] = failed
        result["abandoned_requests"] = ABANDONED.count
        result["failed_by_error"] = dict(
            Counter(
                f"{e.method}: {e.error}"
                for e in window_log
                if e.method != "getUpdates" and not e.ok
            ).most_common(5)
        )
        result["requests_by_method"] = dict(
            Counter(
                f"{e.method} {e.status}" for e in window_log if e.method != "getUpdates"
            ).most_common()
        )
        result["get_updates_calls"] = sum(1 for e in window_log if e.method == "getUpdates")
        in_window = [rss for moment, rss in samples if begin <= moment < begin + wall]
        rss_window = statistics.median(in_window) if in_window else None
        result["rss_window_median_kib"] = rss_window
        if len(in_window) >= 20:
            tenth = len(in_window) // 10
            first = statistics.median(in_window[:tenth])
            last = statistics.median(in_window[-tenth:])
            result["rss_growth_kib_per_min"] = round((last - first) / (0.9 * wall / 60), 1)
        result["vm_hwm_kib"] = hwm
        if rss_window is not None and result["rss_idle_kib"]:
            result["kib_per_game"] = round((rss_window - result["rss_idle_kib"]) / args.groups, 1)
        result["cpu_bot_share"] = round(cpu_bot / wall, 3)
        result["cpu_bot_main_thread_share"] = round(cpu_main / wall, 3)
        result["cpu_bot_system_share"] = round(cpu_system / wall, 3)
        result["cpu_bench_share"] = round(cpu_self / wall, 3)
        result["database"] = database_figures(bot.database)

        if args.rate_limiter == "on":
            per_game = []
            for group in driver.groups.values():
                behind = [
                    (m.shown if m.shown is not None else drain_end) - m.pressed
                    for m in driver.moves
                    if m.group is group and m.accepted
                ]
                busiest = fake.busiest_window(group.chat.id, BUSIEST_WINDOW)
                per_game.append((busiest, max(behind, default=0.0)))
            windows = [w for w, _ in per_game]
            behinds = [b for _, b in per_game]
            result["group_requests_busiest_60s"] = {
                "max": max(windows),
                "p50": percentile(windows, 0.5),
                "games_over_20": sum(1 for w in windows if w > 20),
            }
            result["table_behind_s"] = {
                "max": round(max(behinds), 2),
                "p50": round(percentile(behinds, 0.5), 2),
                "p95": round(percentile(behinds, 0.95), 2),
                "games_over_3s": sum(1 for b in behinds if b > 3.0),
            }
            result["per_game"] = [
                {"chat": g.chat.id, "kind": g.kind, "busiest_60s": w, "behind_s": round(b, 2)}
                for g, (w, b) in zip(driver.groups.values(), per_game, strict=True)
            ]

        if args.profile == "py-spy" and profile_out.exists():
            result["profile"] = summarize_profile(profile_out, bot.pid, args.profile_top)
            result["bot_pid"] = bot.pid
        elif args.profile == "cprofile" and profile_out.exists():
            import io
            import pstats

            buffer = io.StringIO()
            stats = pstats.Stats(str(profile_out), stream=buffer)
            stats.sort_stats("tottime").print_stats(args.profile_top)
            stats.sort_stats("cumulative").print_stats(args.profile_top)
            result["profile"] = buffer.getvalue().splitlines()
        result["profile_file"] = str(profile_out) if args.profile != "none" else None
    if args.dump_log:
        with open(args.dump_log, "w", encoding="utf-8") as sink:
            for entry in log_copy:
                record = {
                    "time": round(entry.time, 4),
                    "method": entry.method,
                    "chat": entry.chat_id,
                    "status": entry.status,
                    "message_id": entry.params.get("message_id"),
                    "text": entry.params.get("text"),
                    "markup": entry.params.get("reply_markup"),
                    "callback_query_id": entry.params.get("callback_query_id"),
                }
                sink.write(json.dumps(record, ensure_ascii=False) + "\n")
    if args.dump_moves:
        with open(args.dump_moves, "w", encoding="utf-8") as sink:
            for move in driver.moves:
                record = {
                    "chat": move.group.chat.id,
                    "pressed": round(move.pressed, 4),
                    "query": move.query_id,
                    "kind": move.group.kind,
                    "verb": move.verb,
                    "shown": None if move.shown is None else round(move.shown, 4),
                    "accepted": move.accepted,
                    "overlapped": move.overlapped,
                    "before": move.text_before,
                    "after": move.shown_text,
                }
                sink.write(json.dumps(record, ensure_ascii=False) + "\n")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    else:
        result["folder"] = str(folder)
    return result


def report(result: dict[str, Any]) -> None:
    profile = result.pop("profile", None)
    per_game = result.pop("per_game", None)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    if per_game is not None:
        worst = sorted(per_game, key=lambda g: (-g["behind_s"], -g["busiest_60s"]))[:10]
        print("games most behind:")
        for game in worst:
            print(f"  {game}")
    if profile:
        print("\n".join(profile))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--starshina-share", type=float, default=0.2)
    parser.add_argument("--rate-limiter", choices=["off", "on"], default="off")
    parser.add_argument(
        "--rate",
        type=float,
        default=None,
        help="presses a second for all users together (default: as fast as they can)",
    )
    parser.add_argument(
        "--computer-share", type=float, default=0.0, help="groups with a computer seat"
    )
    parser.add_argument(
        "--computer-pause", type=float, default=1.5, help="COMPUTER_PAUSE_SECONDS of the bot"
    )
    parser.add_argument("--min-players", type=int, default=2, help="Стуколка")
    parser.add_argument("--max-players", type=int, default=6, help="Стуколка")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--setup", type=float, default=300.0, help="seconds allowed to set up")
    parser.add_argument("--drain", type=float, default=15.0)
    parser.add_argument("--stop-timeout", type=float, default=60.0, help="SIGTERM to SIGKILL")
    parser.add_argument("--stall", type=float, default=15.0, help="seconds without an event")
    parser.add_argument("--profile", choices=["none", "py-spy", "cprofile"], default="none")
    parser.add_argument("--profile-out", default=None)
    parser.add_argument("--profile-top", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--dump-moves", default=None, help="write every move as JSON lines")
    parser.add_argument("--dump-log", default=None, help="write every request as JSON lines")
    parser.add_argument(
        "--bot-root",
        default=str(ROOT),
        help="run the bot from this copy of the project (to measure a change before it lands)",
    )
    parser.add_argument(
        "--bot-pythonpath",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder put on the bot's PYTHONPATH after --bot-root (e.g. a package under test)",
    )
    parser.add_argument(
        "--bot-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set this in the bot's environment only (e.g. MALLOC_ARENA_MAX=2)",
    )
    args = parser.parse_args(argv)
    if any("=" not in setting for setting in args.bot_env):
        parser.error("--bot-env takes NAME=VALUE")
    if not 2 <= args.min_players <= args.max_players <= 6:
        parser.error("players per Стуколка table: 2 ≤ min ≤ max ≤ 6")
    if args.groups < 1 or args.duration <= 0 or not 0 <= args.starshina_share <= 1:
        parser.error("need groups ≥ 1, duration > 0 and 0 ≤ starshina share ≤ 1")
    logging.getLogger("aiohttp.server").addFilter(ABANDONED)
    os.environ["COMPUTER_PAUSE_SECONDS"] = str(args.computer_pause)  # the bot inherits it
    report(asyncio.run(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
