"""End to end: the bot killed with SIGKILL right after the last move of a deal and
before that deal's result reached the group. The result still to post is part of the game's
stored display state, committed with the move, so after the restart it is posted, exactly once,
and the game goes on with the next deal's table in a message of its own. And the bot killed
just after it sent a result as a new message, before it could write that down: the restart
does not post it again."""

from __future__ import annotations

import asyncio
import json
from functools import partial
from pathlib import Path

import pytest

from bot import callback as cb
from storage.database import Database

from .child_bot import Bot, Players, read
from .fake_telegram import CallbackQuery, FakeTelegram, Message
from .fake_telegram.faults import Delay, DropConnection, ServerError
from .resilience import check_books

TURN = 30.0  # nobody times out: every move is a press


def results_due(database: Path, game_id: int) -> list[int]:
    """The deals (from 0) whose results the bot still has to post, as stored."""
    rows = read(database, "SELECT state FROM games WHERE game_id = ?", game_id)
    due = json.loads(str(rows[0][0])).get("table", {}).get("due", [])
    return [int(entry["deal"]) for entry in due]


def answered(query: CallbackQuery) -> bool:
    return query.answer is not None


def showing(messages: list[Message], text: str) -> list[Message]:
    """The messages that show ``text`` now or showed it in an earlier revision."""
    return [
        message
        for message in messages
        if text in (message.text or "")
        or any(text in (revision.text or "") for revision in message.history)
    ]


@pytest.mark.timeout(240)
async def test_a_result_due_when_the_bot_was_killed_is_posted_once_after_the_restart(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(f"P{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Results", users)
        bot = Bot(fake, tmp_path, turn=TURN)
        players = Players(fake, users, seed=13)
        await bot.start()
        try:
            game_id = await players.seat(group, "stukolka")
            await fake.wait_until(
                lambda: showing(fake.messages(group, from_bot=True), "· deal 1"), timeout=15
            )
            # from now on nothing reaches the group: the deal's result cannot be posted
            fake.faults.add(ServerError(500), chat_id=group.id, times=None)
            due: list[int] = []
            for _ in range(500):
                choice = players.pick()
                if choice is None:
                    await asyncio.sleep(0.05)
                    continue
                query = players.press(choice)
                if query is None:
                    continue
                await fake.wait_until(partial(answered, query), timeout=15)
                due = results_due(bot.database, game_id)
                if due:
                    break
                await fake.wait_idle(timeout=15, quiet=0.1, require_answers=False)
            assert due == [0], "the deal ended and its result is stored as due"
            await bot.kill()
            title = "deal 1 is over"
            assert not showing(fake.messages(group, from_bot=True), title), "not posted yet"

            fake.faults.clear()
            await bot.start()
            await fake.wait_until(
                lambda: showing(fake.messages(group, from_bot=True), title), timeout=30
            )
            # the next deal is dealt and its table comes as a message of its own
            await fake.wait_until(
                lambda: showing(fake.messages(group, from_bot=True), "· deal 2"), timeout=30
            )
            # a few moves of the next deal: nothing edits the result away or posts it again
            for _ in range(6):
                choice = players.pick()
                query = players.press(choice) if choice is not None else None
                if query is not None:
                    await players.answered(query)
            await fake.wait_idle(timeout=20, quiet=0.5, require_answers=False)
            posted = showing(fake.messages(group, from_bot=True, include_deleted=True), title)
            assert len(posted) == 1, [m.text for m in posted]
            assert title in (posted[0].text or ""), "the result stays in its message"
            tables = showing(fake.messages(group, from_bot=True), "· deal 2")
            assert tables and all(m.message_id != posted[0].message_id for m in tables)
            assert results_due(bot.database, game_id) == []
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        assert "Traceback" not in bot.output(), bot.output()[-3000:]

        async with await Database.open(bot.database) as db:
            await check_books(db, group.id, [game_id])
            assert await db.check_integrity() == []


@pytest.mark.timeout(240)
async def test_a_result_sent_as_a_new_message_is_not_sent_again_after_a_kill(
    tmp_path: Path,
) -> None:
    """A result goes out as a new message where its deal's table message is not known (here:
    the table's send lost its connection, so it may exist, and none other was sent). The bot
    is killed once that message is in the group and before its answer comes back, so it never
    wrote the result down as posted: after the restart it is still due, and must not be sent
    a second time."""
    async with FakeTelegram() as fake:
        users = [fake.add_user(f"P{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Results", users)
        bot = Bot(fake, tmp_path, turn=TURN)
        players = Players(fake, users, seed=17)
        await bot.start()
        try:
            game_id = await players.seat(group, "stukolka", begin=False)
            # the first deal's table is sent as the answer to «Begin»; its connection drops
            # before Telegram carries it out, and the bot cannot know: no table message
            fake.faults.add(DropConnection(), method="sendMessage", chat_id=group.id)
            lobby = fake.messages(group, from_bot=True)[-1]
            query = fake.user_presses(users[0], lobby, cb.encode(cb.Lobby(game_id, "begin")))
            await players.answered(query)
            assert not showing(fake.messages(group, from_bot=True), "· deal 1")
            # from now on a message to the group is delivered, its answer held back
            fake.faults.add(
                Delay(12, after_processing=True),  # longer than the bot waits (5 s)
                method="sendMessage",
                chat_id=group.id,
                times=None,
            )
            title = "deal 1 is over"
            for _ in range(500):
                if showing(fake.messages(group, from_bot=True), title):
                    break
                choice = players.pick()
                if choice is None:
                    await asyncio.sleep(0.05)
                    continue
                pressed = players.press(choice)
                if pressed is not None:
                    await fake.wait_until(partial(answered, pressed), timeout=15)
            assert showing(fake.messages(group, from_bot=True), title), "the result went out"
            assert results_due(bot.database, game_id) == [0], "not written down as posted"
            await bot.kill()

            fake.faults.clear()
            await bot.start()
            await fake.wait_until(
                lambda: showing(fake.messages(group, from_bot=True), "· deal 2"), timeout=30
            )
            for _ in range(6):
                choice = players.pick()
                pressed = players.press(choice) if choice is not None else None
                if pressed is not None:
                    await players.answered(pressed)
            await fake.wait_idle(timeout=20, quiet=0.5, require_answers=False)
            posted = showing(fake.messages(group, from_bot=True, include_deleted=True), title)
            assert len(posted) == 1, [m.text for m in posted]
            assert results_due(bot.database, game_id) == []
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        assert "Traceback" not in bot.output(), bot.output()[-3000:]

        async with await Database.open(bot.database) as db:
            await check_books(db, group.id, [game_id])
            assert await db.check_integrity() == []
