"""Golden transcripts: one complete, seeded deal of each game exactly as each participant sees
it — the group and every private chat, every revision of every message, with its buttons — in
Russian and English, written to ``docs/transcripts/``.

    python -m scripts.transcripts            # regenerate docs/transcripts/*.md
    python -m scripts.transcripts --check    # exit 1 if the files differ from a fresh rendering

The real bot runs against the fake Bot API of ``tests/e2e`` (127.0.0.1 only); the players are
scripted (who looks, knocks, goes dark, cuts in), the decks come from fixed seeds, the first
dealer is fixed and the clock of the turn countdown is frozen, so a rendering is the same every
time. ``tests/e2e/test_transcripts.py`` fails when the bot's rendering changes and the files
were not regenerated. Only a turn after a wait (which replaces the hand message by a new one)
is not shown: the clock of notifications is frozen too, so no turn comes after a wait.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.app import services_of
from server.program import database_of
from tables.computers import Thinker
from tests.e2e.fake_telegram import FakeTelegram, Message, User
from tests.e2e.players import start_bot_for

OUT = Path(__file__).resolve().parent.parent / "docs" / "transcripts"
FROZEN_NOW = 1_780_000_000.0  # the clock of turn deadlines: every turn ends at 20:27:40 UTC
TURN_SECONDS = 60
#: a computer's pause before its move, as in production (its turn shows ⏳ 2 s); the turn
#: timers' clock (``timers_now``) jumps past it when the transcript lets the computer move
COMPUTER_PAUSE = 1.5
COMPUTER_WAIT = 0.02
timers_now = [FROZEN_NOW]
NAMES = {"ru": ["Алиса", "Борис", "Вера", "Глеб"], "en": ["Alice", "Boris", "Vera", "Gleb"]}
TITLE = {"ru": "Картёжники", "en": "Card players"}
#: each language's quotation marks, as its texts use them
QUOTES = {"ru": ("«", "»"), "en": ("“", "”")}


@dataclass(frozen=True)
class Scenario:
    """A deal to play: the game, how many at the table, the first dealer, the deck seed, and
    what each seat prefers to do when it may (verbs in order; ``look`` for looking at once)."""

    name: str
    choice: str  # /new argument
    players: int  # people; the computers sit after them
    dealer: int
    seed: str
    prefer: dict[int, tuple[str, ...]] = field(default_factory=dict)
    heading: dict[str, str] = field(default_factory=dict)
    computers: tuple[str, ...] = ()  # lobby buttons pressed by the first player: novice, computer
    practice: bool = False  # the first player alone, at his practice table in private


SCENARIOS = (
    Scenario(
        "classic",
        "stukolka",
        3,
        dealer=0,
        seed="transcript-classic-1",
        prefer={1: ("look", "knock"), 2: ("look", "knock"), 0: ("look", "pass")},
        heading={
            "ru": "Стуколка (классика): трое, двое стучат, сдающий пасует",
            "en": "Stukolka (classic): three players, two knock, the dealer passes",
        },
    ),
    Scenario(
        "shleif",
        "shleif",
        4,
        dealer=0,
        seed="transcript-shleif-3",
        prefer={
            0: ("shleif", "look"),
            1: ("dark",),
            2: ("look", "knock"),
            3: ("look", "pass", "razrez"),
        },
        heading={
            "ru": "Стуколка со шлейфом: Борис играет втёмную, Глеб идёт в разрез",
            "en": "Stukolka with the shleif: Boris plays dark, Gleb cuts in (razrez)",
        },
    ),
    Scenario(
        "computer",
        "stukolka",
        2,
        dealer=0,
        seed="transcript-computer-2",
        prefer={0: ("look", "knock"), 1: ("look", "knock")},
        computers=("novice",),
        heading={
            "ru": "Стуколка с компьютером: двое и 🤖 Новичок 1",
            "en": "Stukolka with a computer: two players and 🤖 Rookie 1",
        },
    ),
    Scenario(
        "practice",
        "stukolka",
        1,
        dealer=2,  # the player speaks first: /stop comes before any computer's move
        seed="transcript-practice-3",
        prefer={0: ("look", "knock")},
        computers=("computer", "novice"),
        practice=True,
        heading={
            "ru": "Тренировка в личке: Алиса против 🤖 Компьютера 1 и 🤖 Новичка 1",
            "en": "Practice in private: Alice against 🤖 Computer 1 and 🤖 Rookie 1",
        },
    ),
    Scenario(
        "starshina",
        "starshina",
        3,
        dealer=0,
        seed="transcript-starshina-1",
        heading={
            "ru": "Старшина: сдача с обменом картами по кругу",
            "en": "Starshina: a deal with the ring exchange",
        },
    ),
)


class Director:
    """Presses, for each player in turn, the button his preferences pick among those the bot
    sent him; a multi-card choice toggles one card and confirms."""

    def __init__(
        self, fake: FakeTelegram, users: list[User], scenario: Scenario, codec: cb.Codec
    ) -> None:
        self.fake = fake
        self.codec = codec
        self.users = users
        self.scenario = scenario
        self.toggled: set[tuple[int, int]] = set()  # (user, message) where a card is selected

    def hand(self, user: User) -> Message | None:
        messages = self.fake.messages(self.fake.private_chat(user), from_bot=True)
        for message in reversed(messages):
            if any(
                isinstance(self.codec.decode(d), cb.Act | cb.Select | cb.Look)
                for d in message.callback_data
            ):
                return message
        return None

    def choose(self, seat: int, message: Message) -> str | None:
        decoded = [(data, self.codec.decode(data)) for data in message.callback_data]
        acts = [(d, c) for d, c in decoded if isinstance(c, cb.Act)]
        looks = [d for d, c in decoded if isinstance(c, cb.Look)]
        selects = [d for d, c in decoded if isinstance(c, cb.Select)]
        prefer = self.scenario.prefer.get(seat, ())
        for verb in prefer:
            if verb == "look" and looks:
                return looks[0]
            for data, act in acts:
                if act.verb == verb:
                    return data
        key = (self.users[seat].id, message.message_id)
        labels = {
            button.get("callback_data"): button["text"]
            for row in message.inline_keyboard
            for button in row
        }
        unselected = [data for data in selects if not labels[data].startswith("✓")]
        if unselected and (key not in self.toggled or not acts):
            self.toggled.add(key)  # one card for a discard; as many as a kitty needs
            return unselected[0]
        if acts:
            return acts[0][0]
        return None

    def next_press(self) -> tuple[User, Message, str] | None:
        for seat, user in enumerate(self.users):
            message = self.hand(user)
            if message is None:
                continue
            data = self.choose(seat, message)
            if data is not None:
                return user, message, data
        return None


async def record(scenario: Scenario, lang: str) -> str:
    """Play ``scenario`` in ``lang`` and return the transcript as Markdown."""
    with tempfile.TemporaryDirectory() as folder:
        async with (
            FakeTelegram() as fake,
            start_bot_for(
                fake,
                Path(folder) / "bot.sqlite3",
                default_language=lang,
                turn_timeout_seconds=TURN_SECONDS,
                computer_pause_seconds=COMPUTER_PAUSE,
            ) as bot,
        ):
            services = services_of(bot.app)
            seeds = iter(f"{scenario.seed}-{n}" for n in range(1000))
            services.tables.steps.seed = lambda: next(seeds)
            services.tables.store.clock = lambda: FROZEN_NOW
            # notifications read the same clock: a turn never comes "after a wait" here
            services.presenter.hands.clock = lambda: FROZEN_NOW
            # turn timers read a clock of their own: frozen, so a turn never runs out, and moved
            # on past a computer's pause only once every message of the move before is out
            # (a computer that moved at once could fold the edit showing its turn into the next)
            timers = services.timers
            timers.clock = lambda: timers_now[0]
            # the computers decide by the easy rules from a fixed seed, on this thread
            thinker = Thinker(0, seed=1)
            services.tables.thinker = services.tables.turns.thinker = thinker

            async def first_dealer(*_: Any) -> int:
                return scenario.dealer

            services.tables.lobby.first_dealer = first_dealer  # type: ignore[method-assign,assignment]
            presses: Presses = {}
            await _play(fake, bot, services, scenario, lang, presses)
            return _render(fake, scenario, lang, presses)


#: (chat, message, revision shown) → who pressed which button on it
Presses = dict[tuple[int, int, int], tuple[str, str]]


def _press(fake: FakeTelegram, presses: Presses, user: User, message: Message, data: str) -> None:
    label = next(
        button["text"]
        for row in message.inline_keyboard
        for button in row
        if button.get("callback_data") == data
    )
    presses[(message.chat.id, message.message_id, len(message.history))] = (user.first_name, label)
    fake.user_presses(user, message, data)


async def _play(
    fake: FakeTelegram, bot: Any, services: Any, scenario: Scenario, lang: str, presses: Presses
) -> None:
    codec: cb.Codec = services.presenter.games.codec
    users = [fake.add_user(name, language_code=lang) for name in NAMES[lang][: scenario.players]]
    # a practice table's "group" is its player's private chat
    group = fake.private_chat(users[0]) if scenario.practice else fake.add_group(TITLE[lang], users)

    async def settle() -> None:
        await bot.settle(timeout=20, quiet=0.0)
        await services.presenter.coalescer.drain()

    for user in users:
        fake.user_starts_bot(user)
    await settle()
    fake.user_sends(users[0], group, f"/new {scenario.choice}")
    await settle()
    lobby = fake.messages(group, from_bot=True)[-1]
    for user in users[1:]:
        data = next(d for d in lobby.callback_data if _lobby(codec, d) == "join")
        _press(fake, presses, user, lobby, data)
        await settle()
    for action in scenario.computers:
        lobby = fake.message(group, lobby.message_id)
        data = next(d for d in lobby.callback_data if _lobby(codec, d) == action)
        _press(fake, presses, users[0], lobby, data)
        await settle()
    lobby = fake.message(group, lobby.message_id)
    begin = next(d for d in lobby.callback_data if _lobby(codec, d) == "begin")
    _press(fake, presses, users[0], lobby, begin)
    await settle()
    # one deal: the table closes when it ends
    fake.user_sends(users[0], group, "/stop")
    await settle()
    director = Director(fake, users, scenario, codec)
    for _ in range(500):
        game = await database_of(bot.app).games.active_game(group.id)
        if game is None:
            return
        press = director.next_press()
        if press is None and scenario.computers:
            # a computer's turn: its pause is over now, and its move comes by itself
            timers_now[0] = FROZEN_NOW + COMPUTER_PAUSE
            services.timers.clock_moved()
            await asyncio.sleep(COMPUTER_WAIT * 5)
            await settle()
            timers_now[0] = FROZEN_NOW
            continue
        if press is None:
            raise RuntimeError(f"{scenario.name}: nobody can move and the deal is not over")
        user, message, data = press
        _press(fake, presses, user, message, data)
        await settle()
    raise RuntimeError(f"{scenario.name}: the deal did not end within 500 presses")


def _lobby(codec: cb.Codec, data: str) -> str | None:
    decoded = codec.decode(data)
    return decoded.action if isinstance(decoded, cb.Lobby) else None


def _buttons(markup: dict[str, Any] | None) -> list[str]:
    if not markup:
        return []
    rows = []
    for row in markup.get("inline_keyboard", []):
        rows.append(" ".join(f"[{button['text']}]" for button in row))
    return rows


def _render(fake: FakeTelegram, scenario: Scenario, lang: str, presses: Presses) -> str:
    world = fake.world
    group = next((chat for chat in world.chats.values() if chat.id < 0), None)
    words = {
        "ru": ("Группа", "Личный чат", "сообщение", "правка", "отправлено", "удалено", "кнопки"),
        "en": ("Group", "Private chat", "message", "edit", "sent", "deleted", "buttons"),
    }[lang]
    group_word, private_word, message_word, edit_word, sent_word, deleted_word, _ = words
    lines = [f"# {scenario.heading[lang]}", ""]
    lines.append(_intro(lang))
    chats: list[tuple[str, Any]] = []
    if group is not None:
        opening, closing = QUOTES[lang]
        chats.append((f"{group_word} {opening}{group.title}{closing}", group))
    for user in sorted(world.users.values(), key=lambda u: u.id):
        if user.id == fake.bot.id:
            continue
        chats.append((f"{private_word}: {user.first_name}", fake.private_chat(user)))
    for title, chat in chats:
        lines += ["", f"## {title}"]
        for message in fake.messages(chat, include_deleted=True):
            if not message.from_bot:
                who = message.sender.first_name if message.sender else "?"
                lines += ["", f"**{who}:** `{message.text}`"]
                continue
            revisions: list[Any] = [*message.history, message]
            for number, revision in enumerate(revisions):
                what = sent_word if number == 0 else f"{edit_word} {number}"
                lines += ["", f"### {message_word} {message.message_id} · {what}", "", "```text"]
                lines += (revision.text or "").split("\n")
                lines += _buttons(revision.reply_markup)
                lines.append("```")
                pressed = presses.get((chat.id, message.message_id, number))
                if pressed:
                    lines += ["", f"👆 {pressed[0]}: **{pressed[1]}**"]
            if message.deleted:
                lines += ["", f"_{message_word} {message.message_id} · {deleted_word}_"]
    return "\n".join(lines).rstrip() + "\n"


def _intro(lang: str) -> str:
    if lang == "ru":
        return (
            "Сгенерировано командой `python -m scripts.transcripts` (не править вручную). "
            "Каждый чат — как его видит участник: каждое сообщение бота и каждая его правка "
            "по порядку, кнопки — в квадратных скобках."
        )
    return (
        "Generated by `python -m scripts.transcripts` (do not edit by hand). Each chat as its "
        "participant sees it: every message of the bot and every edit of it in order, buttons "
        "in square brackets."
    )


async def render_all() -> dict[str, str]:
    """Every transcript, by file name."""
    files = {}
    for scenario in SCENARIOS:
        for lang in ("ru", "en"):
            files[f"{scenario.name}.{lang}.md"] = await record(scenario, lang)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    files = asyncio.run(render_all())
    stale = [name for name, text in files.items() if _read(OUT / name) != text]
    if args.check:
        for name in stale:
            print(f"{name}: differs from a fresh rendering", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (OUT / name).write_text(text, encoding="utf-8")
    print(f"{len(files)} transcripts in {OUT} ({len(stale)} changed)")
    return 0


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


if __name__ == "__main__":
    sys.exit(main())
