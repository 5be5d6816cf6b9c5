"""End to end: the bot killed with SIGKILL right after the commit that begins a game
or starts a new deal, before the screens could change anything on screen. What the group and
each player have on screen is part of the game's stored display state, changed by that very
commit (the lobby's message to lose its buttons; the last deal's hand messages made old), so
after the restart the lobby loses its buttons and the first deal's table is a message of its
own, and each player has one live hand message showing the new deal while the last deal's
messages lose their buttons and are never edited into the new deal.

"Right after the commit" is made exact: before the press, every write of the bot that is not a
commit of the game (no new version: the display writes that would follow the move) is refused
by triggers put into the database, and every request to the group and the players' chats fails,
so nothing the bot does after the commit lasts or shows; then it is killed."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot import callback as cb
from storage.database import Database

from .child_bot import Bot, Players, deals_done, read
from .fake_telegram import Chat, FakeTelegram, Message, User
from .fake_telegram.faults import ServerError
from .resilience import check_books

TURN = 30.0  # nobody times out: every move is a press

#: triggers that refuse what the bot would write after a commit (a write of the game's row
#: that adds no version, any change of its hand messages), as if it had died right after it
FREEZE = {
    "test_freeze_games": "BEFORE UPDATE ON games WHEN NEW.version = OLD.version",
    "test_freeze_hands_in": "BEFORE INSERT ON game_messages",
    "test_freeze_hands_out": "BEFORE DELETE ON game_messages",
    "test_freeze_hands_change": "BEFORE UPDATE ON game_messages",
}


@contextmanager
def frozen(fake: FakeTelegram, database: Path, chats: list[Chat]) -> Iterator[None]:
    """Within: nothing the bot writes or sends after its next commit lasts or shows."""
    with sqlite3.connect(database, timeout=10) as conn:
        for name, when in FREEZE.items():
            conn.execute(f"CREATE TRIGGER {name} {when} BEGIN SELECT RAISE(ABORT, 'frozen'); END")
    rules = [fake.faults.add(ServerError(500), chat_id=chat.id, times=None) for chat in chats]
    try:
        yield
    finally:
        for rule in rules:
            fake.faults.remove(rule)
        with sqlite3.connect(database, timeout=10) as conn:
            for name in FREEZE:
                conn.execute(f"DROP TRIGGER {name}")


def showed(message: Message, text: str) -> bool:
    """Whether ``message`` shows ``text`` now or showed it in an earlier revision."""
    texts = [message.text or "", *(revision.text or "" for revision in message.history)]
    return any(text in shown for shown in texts)


def hand_rows(database: Path, game_id: int) -> dict[int, list[int]]:
    """Each user's stored hand messages (whatever deal they show)."""
    rows = read(
        database, "SELECT user_id, message_id FROM game_messages WHERE game_id = ?", game_id
    )
    found: dict[int, list[int]] = {}
    for user, message_id in rows:
        found.setdefault(int(str(user)), []).append(int(str(message_id)))
    return found


def hand_messages(fake: FakeTelegram, ids: dict[int, int]) -> list[Message]:
    """The private messages ``ids`` (user → message id) as the players see them."""
    found = []
    for user, message_id in ids.items():
        chat = fake.private_chat(fake.world.users[user])
        found += [
            m for m in fake.messages(chat, include_deleted=True) if m.message_id == message_id
        ]
    return found


def pass_choice(players: Players) -> tuple[User, Message, str, cb.Callback] | None:
    """The «pass» of the player to knock, once his hand offers it."""
    for choice in players.choices():
        data = choice[3]
        if isinstance(data, cb.Act) and data.verb == "pass":
            return choice
    return None


async def play_on(players: Players, moves: int) -> None:
    """A few moves of whoever is to act, as his hand offers them."""
    for _ in range(moves):
        choice = players.pick()
        query = players.press(choice) if choice is not None else None
        if query is not None:
            await players.answered(query)


@pytest.mark.timeout(240)
async def test_killed_right_after_a_new_deal_the_old_hands_are_retired_not_reused(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(f"P{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Hands", users)
        privates = [fake.private_chat(user) for user in users]
        bot = Bot(fake, tmp_path, turn=TURN)
        players = Players(fake, users, seed=17)
        mark = 0  # where the restarted bot's output begins
        await bot.start()
        try:
            game_id = await players.seat(group, "stukolka")
            await fake.wait_until(lambda: len(hand_rows(bot.database, game_id)) == 3, timeout=15)
            old = {user: rows[0] for user, rows in hand_rows(bot.database, game_id).items()}
            # everyone passes: the third pass ends deal 1 (nobody plays, the pot carries over)
            # and deals deal 2, in one commit
            for passes in range(3):
                await fake.wait_until(lambda: pass_choice(players) is not None, timeout=15)
                choice = pass_choice(players)
                assert choice is not None
                if passes < 2:
                    query = players.press(choice)
                    assert query is not None
                    await players.answered(query)
                    continue
                with frozen(fake, bot.database, [group, *privates]):
                    players.press(choice)
                    await fake.wait_until(lambda: deals_done(bot.database) == 1, timeout=15)
                    await asyncio.sleep(1.0)  # what the bot does now fails, and is lost
                    await bot.kill()
            assert hand_rows(bot.database, game_id) == {u: [m] for u, m in old.items()}
            assert all(showed(m, "· deal 1") for m in hand_messages(fake, old))

            mark = len(bot.output())
            await bot.start()

            def dealt() -> bool:
                return all(
                    any(showed(m, "· deal 2") for m in fake.messages(private, from_bot=True))
                    for private in privates
                )

            await fake.wait_until(dealt, timeout=30)
            await fake.wait_idle(timeout=20, quiet=0.5, require_answers=False)
            for user, private in zip(users, privates, strict=True):
                messages = fake.messages(private, from_bot=True, include_deleted=True)
                before = next(m for m in messages if m.message_id == old[user.id])
                assert not before.callback_data, "the old hand lost its buttons"
                assert not showed(before, "· deal 2"), "the new deal is not edited into it"
                assert "Your result:" in (before.text or ""), "it shows his outcome"
                hand = hand_rows(bot.database, game_id)[user.id]
                assert len(hand) == 1 and hand[0] != old[user.id], "one hand message, new"
                shown = [m for m in messages if not m.deleted and showed(m, "· deal 2")]
                assert [m.message_id for m in shown] == hand, "it shows deal 2"
                live = [m.message_id for m in messages if m.callback_data and not m.deleted]
                assert live in ([], hand), "no other message has buttons"
            # the group: deal 1's result once, and deal 2's table in a message of its own
            posted = [
                m
                for m in fake.messages(group, from_bot=True, include_deleted=True)
                if showed(m, "deal 1 is over")
            ]
            assert len(posted) == 1, [m.text for m in posted]
            tables = [m for m in fake.messages(group, from_bot=True) if showed(m, "· deal 2")]
            assert len(tables) == 1 and tables[0].message_id != posted[0].message_id
            assert "deal 1 is over" in (posted[0].text or "")

            # play on: deal 2 goes on in the new hand messages only
            await play_on(players, 6)
            for user, private in zip(users, privates, strict=True):
                messages = fake.messages(private, from_bot=True, include_deleted=True)
                before = next(m for m in messages if m.message_id == old[user.id])
                assert not before.callback_data and not showed(before, "· deal 2")
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        restarted = bot.output()[mark:]
        assert "Traceback" not in restarted, restarted[-3000:]

        async with await Database.open(bot.database) as db:
            await check_books(db, group.id, [game_id])
            assert await db.check_integrity() == []


@pytest.mark.timeout(240)
async def test_killed_right_after_begin_the_lobby_loses_its_buttons_and_the_table_is_new(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(f"P{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Lobby", users)
        privates = [fake.private_chat(user) for user in users]
        bot = Bot(fake, tmp_path, turn=TURN)
        players = Players(fake, users, seed=19)
        mark = 0  # where the restarted bot's output begins
        await bot.start()
        try:
            game_id = await players.seat(group, "stukolka", begin=False)
            lobby = fake.messages(group, from_bot=True)[-1]
            begin = cb.encode(cb.Lobby(game_id, "begin"))
            assert begin in lobby.callback_data

            def status() -> str:
                return str(read(bot.database, "SELECT status FROM games")[0][0])

            with frozen(fake, bot.database, [group, *privates]):
                fake.user_presses(users[0], lobby, begin)
                await fake.wait_until(lambda: status() == "active", timeout=15)
                await asyncio.sleep(1.0)  # what the bot does now fails, and is lost
                await bot.kill()
            assert not showed(lobby, "· deal 1") and lobby.callback_data, "nothing shown yet"

            mark = len(bot.output())
            await bot.start()
            await fake.wait_until(
                lambda: any(showed(m, "· deal 1") for m in fake.messages(group, from_bot=True)),
                timeout=30,
            )
            await fake.wait_until(lambda: not lobby.callback_data, timeout=30)
            await play_on(players, 4)
            await fake.wait_idle(timeout=20, quiet=0.5, require_answers=False)
            assert not lobby.callback_data, "the lobby lost its buttons"
            assert not showed(lobby, "· deal 1"), "the first deal's table is not in the lobby"
            tables = [m for m in fake.messages(group, from_bot=True) if showed(m, "· deal 1")]
            assert len(tables) == 1 and tables[0].message_id != lobby.message_id
            stored = read(bot.database, "SELECT table_message_id, lobby_message_id FROM games")[0]
            assert stored == (tables[0].message_id, None)
            for user, private in zip(users, privates, strict=True):
                hand = hand_rows(bot.database, game_id)[user.id]
                shown = [m.message_id for m in fake.messages(private, from_bot=True)]
                assert len(hand) == 1 and hand[0] in shown, "each player has his hand"
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        restarted = bot.output()[mark:]
        assert "Traceback" not in restarted, restarted[-3000:]
