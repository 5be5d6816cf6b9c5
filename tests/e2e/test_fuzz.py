"""End to end: thousands of random and malformed commands and button presses,
from players, an onlooker and a stranger, in the group and in private chats, while a real game
is played: no handler fails, every press is answered, nothing changes but through legal moves
(the action log replays and the money balances), no card leaks, and the game still finishes."""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Any

from bot import callback as cb
from tests.depth import deep
from tests.library import CODEC

from .fake_telegram import FakeTelegram, Message, User
from .fake_telegram.serialize import callback_query_json
from .players import Table, start_bot_for
from .resilience import check_books, seat_table
from .test_games import check_no_leaks, deals_done

ROUNDS = deep(100)  # real moves (a deal of stukolka for three takes about 20)
PER_ROUND = 10  # fuzz updates between two real moves: 1,000 in all
COMMANDS = (
    "new", "join", "leave", "begin", "stop", "kick", "balance", "history", "settings", "lang",
    "help", "rules", "start", "timeout", "back", "foo", "NEW", "stop_now", "балaнс",
)  # fmt: skip
#: commands that would change the seating at the table legally (the driver plays on only for
#: the three players) are not sent by the players and the onlooker
SEATING = {"join", "leave"}
ARGUMENTS = (
    "", "now", "сейчас", "void", "0", "1", "2", "3", "-1", "99999999999999999999999", "1e9",
    "stukolka", "шлейф", "starshina", "en", "ru", "xx", "g1", "g-3", "g" + "9" * 40, "💥",
    "\u202eevil", "a" * 300, "%s%n", "{}", "'; DROP TABLE games;--", "@", "/", "\x00", "10 20",
)  # fmt: skip


def random_text(rng: random.Random, size: int) -> str:
    alphabet = string.printable + "ёжЖ♠♥♦♣🃏\u200b\u202e"
    return "".join(rng.choice(alphabet) for _ in range(size))


def random_command(rng: random.Random, allowed: list[str]) -> str:
    name = rng.choice(allowed)
    suffix = rng.choice(["", "", "@stukolka_test_bot", "@other_bot", "@"])
    args = " ".join(rng.choice(ARGUMENTS) for _ in range(rng.randint(0, 3)))
    return f"/{name}{suffix} {args}".rstrip()[:4000]


def random_callback(rng: random.Random, game_id: int, turn: int, real: list[str]) -> str:
    """Random bytes, random text, and well-formed data for this game, others and old turns."""
    games = [game_id, game_id + 1, 0, 999, cb.MAX_ID]
    turns = [turn, turn - 1, turn + 1, 0, cb.MAX_ID]
    verb = rng.choice(list(CODEC.verbs))
    kind = CODEC.verbs[verb][1]
    arg: Any = None
    if kind is cb.ArgKind.CARD:
        arg = rng.choice(["TH", "AS", "2C", "QD", "7S"])
    elif kind is cb.ArgKind.SUIT:
        arg = rng.choice("SHDC")
    elif kind is cb.ArgKind.MASK:
        arg = rng.randrange(0, 2**20)
    makers = [
        lambda: random_text(rng, rng.randint(1, 64)),
        lambda: "".join(rng.choice("asljnobp:0123456789az-") for _ in range(rng.randint(1, 30))),
        lambda: CODEC.encode(cb.Act(rng.choice(games), rng.choice(turns), verb, arg)),
        lambda: CODEC.encode(
            cb.Select(rng.choice(games), rng.choice(turns), "discard", rng.randrange(2**20))
        ),
        lambda: cb.encode(cb.Look(rng.choice(games), rng.choice(turns))),
        lambda: cb.encode(cb.Lobby(rng.choice(games), rng.choice(["begin", "cancel"]))),
        lambda: CODEC.encode(cb.NewGame(rng.choice(["stukolka", "shleif", "starshina"]))),
        lambda: cb.encode(cb.Back(rng.choice(games))),
        lambda: cb.encode(cb.Page(rng.choice(["balance", "settle"]))),
        lambda: "o" + rng.choice(["k", "t", "-"]) + ":" + rng.choice(["stake", "x", "-"]) + ":"
        + rng.choice(["1", "999", "-", "abc"]),
        lambda: rng.choice(real) if real else "x",
    ]  # fmt: skip
    data = rng.choice(makers)()
    return data.encode("utf-8")[:64].decode("utf-8", "ignore") or "x"


def forge_press(fake: FakeTelegram, user: User, message: Message, data: str) -> None:
    """A press with any data on a message the user sees (what a modified client can send)."""
    query = fake.world.add_callback_query(user, message, data, fake.now())
    fake._queue("callback_query", callback_query_json(query))


async def test_random_and_malformed_input_changes_nothing_and_the_game_finishes(
    tmp_path: Path,
) -> None:
    rng = random.Random(2026)
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        players = [fake.add_user(f"Игрок{i}") for i in range(3)]
        onlooker = fake.add_user("Onlooker", language_code="de")
        stranger = fake.add_user("Stranger", language_code=None)
        group = fake.add_group("Fuzz", [*players, onlooker])
        table: Table = await seat_table(fake, bot, group, players, "stukolka", seed=81)
        for user in (onlooker, stranger):
            fake.user_starts_bot(user)
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None
        game_id = game.game_id
        table.game_id = game_id  # the players open practice tables in private meanwhile
        everyone = [*players, onlooker, stranger]
        in_group = [players[1], players[2], onlooker]  # not the creator: he may stop the game
        commands = [name for name in COMMANDS if name not in SEATING]
        sent = 0
        for _ in range(ROUNDS):
            current = await db.games.game(game_id)
            turn = int(current.state["table"]["turn"])
            real = [d for m in fake.messages(group, from_bot=True) for d in m.callback_data]
            for user in players:
                hand = table.hand_message(user)
                real += hand.callback_data if hand is not None else []
            for _ in range(PER_ROUND):
                sent += 1
                match rng.randrange(5):
                    case 0:
                        fake.user_sends(rng.choice(in_group), group, random_command(rng, commands))
                    case 1:
                        user = rng.choice(everyone)
                        text = (
                            random_command(rng, commands)
                            if rng.random() < 0.8
                            else random_text(rng, 40)
                        )
                        fake.user_sends(user, fake.private_chat(user), text or ".")
                    case 2 | 3:
                        user = rng.choice(in_group)
                        shown = fake.messages(group, from_bot=True)
                        forge_press(
                            fake,
                            user,
                            rng.choice(shown[-5:]),
                            random_callback(rng, game_id, turn, real),
                        )
                    case _:
                        user = rng.choice(everyone)
                        mine = fake.messages(fake.private_chat(user), from_bot=True)
                        if mine:
                            forge_press(
                                fake,
                                user,
                                rng.choice(mine[-3:]),
                                random_callback(rng, game_id, turn, real),
                            )
            await table.settle()  # raises the first handler error, if any
            if (await db.games.game(game_id)).status == "active":
                await table.step()
        assert sent == ROUNDS * PER_ROUND
        assert (await db.games.game(game_id)).status == "active", "nothing stopped the game"
        assert await deals_done(db, group.id) >= 1

        # the creator stops it after the deal; it finishes
        await table.say(players[0], "/stop")
        for _ in range(500):
            if (await db.games.game(game_id)).status != "active":
                break
            if not await table.step():
                await table.settle()
        assert (await db.games.game(game_id)).status == "finished"
        await table.settle()
        assert not bot.handler_errors
        assert not fake.unanswered_callback_queries()
        await check_books(db, group.id, [game_id])
        await check_no_leaks(table, db)
