"""Benchmark: people at a human pace — are they called to every turn, and answered at once?

    .venv/bin/python bench/human_pace.py [--groups 6] [--players 4] [--duration 420]
                                         [--turn-timeout 60] [--away 0.05] [--seed 1]
                                         [--bot-root DIR]

The real bot (``python -m server`` in a subprocess, the rate limiter ON, as in production) plays
against the fake Bot API on 127.0.0.1 (``bench/load.py`` starts it the same way). Each group
seats ``--players`` people at Стуколка through the lobby's buttons and plays deal after deal.
Nothing is measured by the bot: every figure is read from what the people's chats received.

A person, as simulated here
    - looks at his private chat for 3–8 s after each message that notifies him (a new
      message: an edit never notifies) and after each of his own presses, then looks away;
    - sees his turn (his hand message offering moves) when it comes while he looks, or when a
      notification comes during it; then thinks 3–12 s and presses a random move;
    - with probability ``--away`` is away for a whole turn (it times out);
    - now and then (``--commands``, per press) sends /balance in the group.

What it prints (JSON)
    turns            every turn of a person: how many came "after a wait" (6 s or more after
                     the last message that notified him, and 20 s or more after his own last
                     press: before that he is reading his hand message, and his turn comes
                     as an edit of it) and how many of those notified (came as a new
                     message): the share must be at least 95%;
    timeouts         turns that timed out, and how many of them had no notification during
                     the turn (must be none): a person cannot be blamed for a turn nobody
                     told him about;
    missed           turns the person did not see at once (he had looked away): never seen
                     (they timed out), or seen only at a later notification, and how late;
    replies          /balance in the group: seconds from the command to the bot's reply
                     (p50, p95, max), while the tables are being edited;
    lobby            per game: seconds from the first table message to the lobby losing its
                     buttons (negative: before the table came), and presses of the lobby's
                     buttons refused because the game had begun.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# bench/ is the script's own folder, so load.py is importable as ``load``
from load import percentile, start_bot, stop_bot  # noqa: E402

from bot import callback as cb  # noqa: E402
from bot.screens.hand import LOOKING  # noqa: E402
from server.games import LIBRARY  # noqa: E402
from tests.e2e.fake_telegram import FakeTelegram, Message, User  # noqa: E402
from tests.e2e.fake_telegram.model import Chat  # noqa: E402

#: a turn that comes this long after the last notification must notify (seconds), unless the
#: person pressed on his hand message less than ``LOOKING`` seconds before (he is reading it)
WAIT = 6.0
LOOK = (3.0, 8.0)
THINK = (3.0, 12.0)


@dataclass
class Turn:
    """One turn of a person, as his private chat showed it."""

    arrived: float
    by_new_message: bool
    since_notification: float | None
    since_press: float | None = None
    seen: float | None = None
    notifications: int = 0  # notifying messages during the turn, its first message included
    pressed: bool = False
    ended: float | None = None
    away: bool = False


@dataclass
class Person:
    user: User
    group: Group
    last_notified: float | None = None
    last_pressed: float | None = None
    looking_until: float = 0.0
    turn: Turn | None = None
    turn_version: int | None = None
    hand: int | None = None  # the message that shows his turn
    pressing: asyncio.TimerHandle | None = None
    turns: list[Turn] = field(default_factory=list)


@dataclass
class Group:
    chat: Chat
    people: list[Person] = field(default_factory=list)
    late: User | None = None  # a member who comes to sit down as the game begins
    lobby: Message | None = None
    lobby_retired: float | None = None
    first_table: float | None = None
    games: list[tuple[float | None, float | None]] = field(default_factory=list)


class People:
    """Every simulated person, driven by the fake's own method calls."""

    def __init__(
        self,
        fake: FakeTelegram,
        rng: random.Random,
        away: float,
        commands: float,
        codec: cb.Codec,
    ) -> None:
        self.fake = fake
        #: what the bot's buttons carry: the codec of the games it offers (the program's)
        self.codec = codec
        self.rng = rng
        self.away = away
        self.commands = commands
        self.groups: dict[int, Group] = {}
        self.people: dict[int, Person] = {}
        self.playing = False
        self.commands_sent: dict[int, float] = {}  # command message id → when
        self.replies: list[float] = []
        self.lobby_refusals = 0
        self.late_presses = 0

    def install(self) -> None:
        api = self.fake.api
        for name in ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage"):
            key = name.lower()
            canonical, method = api.methods[key]
            api.methods[key] = (canonical, self._wrapped(method, name))
        canonical, method = api.methods["answercallbackquery"]
        api.methods["answercallbackquery"] = (canonical, self._wrapped(method, "answer"))

    def _wrapped(self, method: Any, name: str) -> Any:
        def call(params: Any) -> Any:
            result = method(params)
            self._after(name, params, result)
            return result

        return call

    def add_group(self, index: int, size: int) -> Group:
        users = [self.fake.add_user(f"H{index}_{seat}") for seat in range(size)]
        late = self.fake.add_user(f"H{index}_late")
        group = Group(self.fake.add_group(f"Human pace {index}", [*users, late]), late=late)
        for user in users:
            person = Person(user, group)
            group.people.append(person)
            self.people[user.id] = person
        self.groups[group.chat.id] = group
        return group

    # --- what the bot did ---------------------------------------------------------------

    def _after(self, name: str, params: Any, result: Any) -> None:
        now = self.fake.now()
        if name == "answer":
            query = self.fake.world.callback_queries[params.required_str("callback_query_id")]
            text = query.answer.text if query.answer is not None else None
            if text and isinstance(self.codec.decode(query.data or ""), cb.Lobby):
                self.lobby_refusals += "игра" in text.lower()
            return
        chat_id = int(params.chat_id())
        if name == "deleteMessage":
            return
        message = self.fake.world.chats[chat_id].messages[result["message_id"]]
        new = name == "sendMessage"
        if chat_id < 0:
            self._group_message(self.groups.get(chat_id), message, new, now)
            return
        person = self.people.get(chat_id)
        if person is None:
            return
        before = person.last_notified
        if new:
            person.last_notified = now
            person.looking_until = max(person.looking_until, now + self.rng.uniform(*LOOK))
            if person.turn is not None:
                person.turn.notifications += 1
        acts = [d for d in message.callback_data if isinstance(self.codec.decode(d), cb.Act)]
        if acts:
            version = self.codec.decode(acts[0]).version  # type: ignore[union-attr]
            if version != person.turn_version or person.turn is None:
                # a new turn (a commit since the last one: his move, or the default move)
                self._turn_ends(person, now)
                since = None if before is None else now - before
                pressed = None if person.last_pressed is None else now - person.last_pressed
                person.turn = Turn(now, new, since, pressed, notifications=int(new))
                person.turn.away = self.rng.random() < self.away
                person.turns.append(person.turn)
            person.turn_version = version
            person.hand = message.message_id
        elif new or message.message_id == person.hand:
            self._turn_ends(person, now)
        if person.turn is not None and person.turn.seen is None and now < person.looking_until:
            self._sees(person, now)

    def _turn_ends(self, person: Person, now: float) -> None:
        turn = person.turn
        if turn is None or turn.ended is not None:
            return
        turn.ended = now
        person.turn = None
        if person.pressing is not None:
            person.pressing.cancel()
            person.pressing = None

    def _group_message(self, group: Group | None, message: Message, new: bool, now: float) -> None:
        if group is None:
            return
        replied = message.reply_to
        if new and replied is not None and replied.message_id in self.commands_sent:
            self.replies.append(now - self.commands_sent.pop(replied.message_id))
            return
        if group.lobby is not None and message.message_id == group.lobby.message_id:
            if not message.callback_data and group.lobby_retired is None:
                group.lobby_retired = now
                self._game_shown(group)
            return
        if (
            new
            and message.callback_data
            and any(isinstance(self.codec.decode(d), cb.Lobby) for d in message.callback_data)
        ):
            group.lobby, group.lobby_retired, group.first_table = message, None, None
            return
        if (
            new
            and group.lobby is not None
            and group.first_table is None
            and "сдача" in (message.text or "")
        ):
            group.first_table = now
            self._game_shown(group)

    def _game_shown(self, group: Group) -> None:
        if group.first_table is not None and group.lobby_retired is not None:
            group.games.append((group.first_table, group.lobby_retired))

    # --- what the people do ---------------------------------------------------------------

    def _sees(self, person: Person, now: float) -> None:
        turn = person.turn
        assert turn is not None
        turn.seen = now
        if turn.away or not self.playing:
            return
        delay = self.rng.uniform(*THINK)
        person.pressing = asyncio.get_running_loop().call_later(delay, self._press, person)

    def _press(self, person: Person) -> None:
        person.pressing = None
        turn = person.turn
        if turn is None or person.hand is None or not self.playing:
            return
        message = self.fake.message(self.fake.private_chat(person.user), person.hand)
        acts = [d for d in message.callback_data if isinstance(self.codec.decode(d), cb.Act)]
        if not acts:
            return
        turn.pressed = True
        self.fake.user_presses(person.user, message, self.rng.choice(acts))
        now = self.fake.now()
        person.last_pressed = now
        person.looking_until = now + self.rng.uniform(*LOOK)
        if self.rng.random() < self.commands:
            command = self.fake.user_sends(person.user, person.group.chat, "/balance")
            self.commands_sent[command.message_id] = now

    async def watch(self, stop: asyncio.Event) -> None:
        """A person who looks away sees his turn only when a notification comes: the events
        do that; this only lets a person who is looking notice a turn shown while he looked
        (a notification of another chat, his own press)."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.2)
            now = self.fake.now()
            for person in self.people.values():
                turn = person.turn
                if turn is not None and turn.seen is None and now < person.looking_until:
                    self._sees(person, now)

    def _lobby_button(self, group: Group, action: str) -> tuple[Message, str | None]:
        assert group.lobby is not None
        lobby = self.fake.message(group.chat, group.lobby.message_id)
        for data in lobby.callback_data:
            decoded = self.codec.decode(data)
            if isinstance(decoded, cb.Lobby) and decoded.action == action:
                return lobby, data
        return lobby, None

    async def seat(self, group: Group) -> None:
        """/new, everyone joins at a human pace, the creator begins; then a late comer tries
        to sit down while the table is being dealt."""
        creator = group.people[0]
        self.fake.user_sends(creator.user, group.chat, "/new stukolka")
        await self.fake.wait_until(lambda: group.lobby is not None, timeout=30)
        for person in [*group.people[1:], creator]:
            await asyncio.sleep(self.rng.uniform(1.0, 4.0))
            action = "begin" if person is creator else "join"
            lobby, data = self._lobby_button(group, action)
            assert data is not None, action
            self.fake.user_presses(person.user, lobby, data)
        await asyncio.sleep(self.rng.uniform(0.5, 3.0))
        lobby, data = self._lobby_button(group, "join")
        if data is not None:
            self.late_presses += 1
            assert group.late is not None
            self.fake.user_presses(group.late, lobby, data)


def figures(people: People, window_end: float) -> dict[str, Any]:
    turns = [t for p in people.people.values() for t in p.turns if t.arrived < window_end]
    waited = [
        t
        for t in turns
        if (t.since_notification is None or t.since_notification >= WAIT)
        and (t.since_press is None or t.since_press >= LOOKING)
    ]
    notified = [t for t in waited if t.by_new_message]
    ended = [t for t in turns if t.ended is not None]
    timeouts = [t for t in ended if not t.pressed]
    unannounced = [t for t in timeouts if t.notifications == 0]
    # a turn the person did not see at once: he had looked away and nothing called him
    missed = [t for t in turns if not t.away and (t.seen is None or t.seen - t.arrived > 1.0)]
    replies = sorted(people.replies)
    games = people_games(people)
    return {
        "turns": len(turns),
        "turns_after_a_wait": len(waited),
        "of_those_notified": len(notified),
        "notified_share": round(len(notified) / len(waited), 4) if waited else None,
        "turns_by_edit_within_6s": sum(1 for t in turns if not t.by_new_message),
        "timeouts": len(timeouts),
        "timeouts_without_a_notification": len(unannounced),
        "away_turns": sum(1 for t in turns if t.away),
        "missed_turns": len(missed),
        "missed_never_seen": sum(1 for t in missed if t.seen is None),
        "missed_seen_after_s": [round(t.seen - t.arrived, 1) for t in missed if t.seen][:20],
        "replies": len(replies),
        "reply_s": {
            "p50": round(statistics.median(replies), 2) if replies else None,
            "p95": round(percentile(replies, 0.95), 2) if replies else None,
            "max": round(replies[-1], 2) if replies else None,
        },
        "games": len(games),
        "lobby_buttons_after_table_s": [round(retired - table, 2) for table, retired in games],
        "late_join_presses": people.late_presses,
        "lobby_presses_refused_game_running": people.lobby_refusals,
    }


def people_games(people: People) -> list[tuple[float, float]]:
    return [
        (table, retired)
        for group in people.groups.values()
        for table, retired in group.games
        if table is not None and retired is not None
    ]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-human-"))
    result: dict[str, Any] = {
        "loadavg_before": os.getloadavg()[0],
        "groups": args.groups,
        "players": args.players,
        "duration_s": args.duration,
        "turn_timeout_s": args.turn_timeout,
        "away_share": args.away,
    }
    async with FakeTelegram() as fake:
        people = People(fake, rng, args.away, args.commands, LIBRARY.chat.codec)
        people.install()
        groups = [people.add_group(index, args.players) for index in range(args.groups)]
        bot = start_bot(
            fake,
            folder,
            rate_limiter=True,
            profile="none",
            profile_out=folder / "unused",
            pythonpath=args.bot_root,
            turn_timeout=args.turn_timeout,
        )
        stop = asyncio.Event()
        watcher = asyncio.create_task(people.watch(stop))
        try:
            await fake.wait_until(lambda: fake.requests("getUpdates"), timeout=60)
            for person in people.people.values():
                fake.user_starts_bot(person.user)
            await asyncio.sleep(2.0)
            people.playing = True
            await asyncio.gather(*(people.seat(group) for group in groups))
            end = fake.now() + args.duration
            while fake.now() < end:
                if bot.process.poll() is not None:
                    raise RuntimeError(f"the bot exited:\n{bot.output()}")
                await asyncio.sleep(0.5)
            people.playing = False
            result.update(figures(people, end))
        finally:
            stop.set()
            await asyncio.gather(watcher, return_exceptions=True)
            result["bot_exit_code"] = await stop_bot(bot, 30)
        lines = bot.log.read_text(encoding="utf-8", errors="replace").splitlines()
        result["bot_tracebacks"] = sum(1 for line in lines if line.startswith("Traceback"))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--groups", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--duration", type=float, default=420.0, help="seconds of play")
    parser.add_argument("--turn-timeout", type=float, default=60.0)
    parser.add_argument("--away", type=float, default=0.05, help="share of turns let time out")
    parser.add_argument("--commands", type=float, default=0.08, help="/balance per press")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-root", default=str(ROOT), help="run the bot from this copy")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args)), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
