"""Through the fake Bot API, the defects a player or an odd update could reach (the
bot removed from the group, /settings mid-game, menus pressed on other messages, an
unreachable member in the lobby, edited commands, long texts, bad /kick arguments, empty
names, a hand message sent twice). Each test failed before its fix."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import callback as cb
from bot.app import host_of
from game.randomplay import random_action
from server import health
from server.program import Program
from storage.database import Database
from tests.library import CODEC, WORDS
from tests.moves import press

from .fake_telegram import FakeTelegram
from .fake_telegram.serialize import callback_query_json
from .players import Table, start_bot_for
from .resilience import check_books, seat_table, step_for
from .test_fuzz import forge_press
from .test_games import open_table
from .test_resilience import active_game_id


async def test_the_bot_removed_from_the_group_closes_its_table(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        group = fake.add_group("Картёжники", users, admins=[users[0]])
        table = await seat_table(fake, bot, group, users, "starshina", seed=41)
        db: Database = table.db
        game_id = await active_game_id(table)
        for _ in range(5):
            await step_for(table, users)
        fake.user_removes_bot(users[0], group)
        await table.settle()
        game = await db.games.game(game_id)
        assert game.status in ("finished", "stopped")
        balances = await db.ledger.balances(group.id)
        assert balances.total == 0 and game_id not in balances.game_pots
        assert game.turn_deadline is None
        deals = len(await db.history.last_deals(group.id))
        # nothing is played on: no timer, no more deals
        await table.settle()
        assert len(await db.history.last_deals(group.id)) == deals
        for user in users:
            hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
            assert not hand.callback_data, "the hand is closed"
            text = hand.text or ""
            assert "no longer in the group" in text or "Бота больше нет в группе" in text
        await check_books(db, group.id, [game_id])
        assert not bot.handler_errors


async def test_settings_during_a_game_say_the_change_waits_for_the_next_game(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        table = await seat_table(fake, bot, group, users, "stukolka", seed=42)
        await table.say(users[0], "/settings")
        menu = table.group_messages()[-1]
        assert "applies from the next game" in (menu.text or "")
        assert any(isinstance(CODEC.decode(d), cb.Settings) for d in menu.callback_data)


async def test_an_unreachable_member_can_be_removed_from_the_lobby_and_not_join_mid_game(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}", language_code="en") for i in range(4)]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users[:2], random.Random(43))
        for user in users[:2]:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(users[0], "/new stukolka")
        await table.say(users[1], "/join")
        await table.say(users[2], "/join")  # never started the bot
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None and users[2].id in game.seats
        await table.say(users[0], "/begin")
        assert (await db.games.active_game(group.id)).status == "lobby"  # type: ignore[union-attr]
        await table.say(users[1], "/kick 3")
        assert "Only whoever opened the table" in (table.group_messages()[-1].text or "")
        await table.say(users[0], "/kick 3")
        game = await db.games.active_game(group.id)
        assert game is not None and users[2].id not in game.seats
        await table.say(users[0], "/begin")
        game = await db.games.active_game(group.id)
        assert game is not None and game.status == "active"
        # mid-game, an unreachable member is not seated for the next deal
        await table.say(users[3], "/join")
        game = await db.games.active_game(group.id)
        assert game is not None and users[3].id not in game.state["table"]["joining"]
        assert "Start the bot" in (table.group_messages()[-1].text or "")
        assert not bot.handler_errors


async def test_an_edited_message_runs_no_command(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(44))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(users[0], "/new stukolka")
        old = fake.user_sends(users[1], group, "/help")
        await table.settle()
        fake.user_edits(users[1], old, "/join")
        await table.settle()
        game = await table.db.games.active_game(group.id)
        assert game is not None and list(game.seats) == [users[0].id]
        assert not bot.handler_errors


async def test_every_bad_kick_argument_gets_a_clear_answer(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        await seat_table(fake, bot, group, users, "stukolka", seed=45)
        table = Table(fake, bot, group, users, random.Random(45))
        answers = {}
        for argument in ["²", "abc", "-1", "0", "9", "1.5", ""]:
            before = len(table.group_messages())
            await table.say(users[0], f"/kick {argument}".strip())
            after = table.group_messages()
            assert len(after) == before + 1, f"/kick {argument}: no answer"
            answers[argument] = after[-1].text or ""
        assert "seat number" in answers["abc"] and "seat number" in answers["²"]
        assert "seat number" in answers[""] and "seat number" in answers["1.5"]
        for argument in ["-1", "0", "9"]:
            assert "no such seat" in answers[argument], answers[argument]
        assert not bot.handler_errors


async def test_an_empty_first_name_falls_back_to_the_username_or_a_number(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [
            fake.add_user("", username="ghost"),
            fake.add_user(""),
            fake.add_user("Игрок"),
        ]
        group = fake.add_group("Картёжники", users)
        table = await seat_table(fake, bot, group, users, "stukolka", seed=46)
        game = await table.db.games.active_game(group.id)
        assert game is not None and game.status == "active"
        names = await table.services.people.names([u.id for u in users], "ru")
        assert names[0] == "ghost"
        assert names[1].startswith("Игрок ") and names[1][6:].isdigit()
        assert not bot.handler_errors


async def test_a_read_only_database_pauses_the_table_politely_and_play_resumes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database cannot be written for a while (``PRAGMA query_only``: SQLite
    refuses every write, as for a read-only file); every press is answered with an apology,
    the log says it once, the health check fails, and play goes on when writes work again."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        table = await seat_table(fake, bot, group, users, "stukolka", seed=47)
        services = table.services
        db = table.db

        def read_only(on: bool) -> Any:
            def run(conn: sqlite3.Connection) -> None:
                conn.execute(f"PRAGMA query_only = {int(on)}")

            return db._run(run)

        await read_only(True)
        caplog.clear()
        refused = 0
        for _ in range(40):
            choices = table.actionable()
            if not choices:
                break
            user, message, data = choices[0]
            query = fake.user_presses(user, message, data[0])
            await bot.settle(timeout=20, quiet=0.0, raise_errors=False)
            if query.answer is not None and "storage problem" in (query.answer.text or ""):
                refused += 1
            if refused >= 3:
                break
        assert refused >= 3, "the presses were not refused with the apology"
        lines = [r for r in caplog.records if "storage problem" in r.getMessage()]
        assert len(lines) == 1, [r.getMessage() for r in caplog.records][:5]
        assert not [r for r in caplog.records if r.exc_info and r.levelname == "ERROR"]
        # the failures reached the application's error handler (and were answered there)
        assert all(isinstance(e, sqlite3.OperationalError) for e in bot.handler_errors)
        bot.handler_errors.clear()
        program = host_of(bot.app)
        assert isinstance(program, Program) and program.heartbeat is not None
        await program.heartbeat.touch()
        assert health.problem(services.settings) is not None
        await read_only(False)
        await program.heartbeat.touch()
        assert health.problem(services.settings) is None
        deals = len(await db.history.last_deals(group.id))
        for _ in range(300):
            await step_for(table, users)
            if len(await db.history.last_deals(group.id)) > deals:
                break
        assert len(await db.history.last_deals(group.id)) > deals, "play resumed"
        await check_books(db, group.id, [(await active_game_id(table))])


def forge(fake: FakeTelegram, user: Any, message: Any, data: str) -> Any:
    """A press of ``data`` on ``message``, which shows no such button (a forged query)."""
    query = fake.world.add_callback_query(user, message, data, fake.now())
    fake._queue("callback_query", callback_query_json(query))
    return query


async def test_a_menu_press_acts_only_on_a_menu_of_its_kind(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(48))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(users[0], "/new stukolka")
        lobby = table.group_messages()[-1]
        await table.say(users[1], "/balance")
        balance = table.group_messages()[-1]
        await table.say(users[1], "/settings")
        menu = table.group_messages()[-1]
        lobby_text = lobby.text
        settings = CODEC.encode(cb.Settings("stukolka", None, None))
        page = cb.encode(cb.Page("settle"))
        for data in (settings, page):
            query = forge(fake, users[1], lobby, data)
            await table.settle()
            assert query.answer is not None and "outdated" in (query.answer.text or "")
        query = forge(fake, users[1], balance, settings)
        await table.settle()
        assert "outdated" in (query.answer.text or "")
        query = forge(fake, users[1], menu, page)
        await table.settle()
        assert "outdated" in (query.answer.text or "")
        assert lobby.text == lobby_text and not lobby.history, "the lobby was not replaced"
        # the menus themselves still work
        await table.press(users[1], menu, menu.callback_data[0])
        assert menu.history, "the settings menu was edited"
        await table.press(users[1], balance, balance.callback_data[0])
        assert balance.history, "the balance page was switched"
        assert not bot.handler_errors


async def test_a_hand_sent_twice_answers_only_on_its_own_message(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        table = await seat_table(fake, bot, group, users, "stukolka", seed=49)
        user, hand, data = table.actionable()[0]
        # the same hand delivered a second time (its send timed out but went through)
        rows = [[(label, d) for label, d in row if d is not None] for row in hand.buttons]
        messenger = table.services.messenger
        copy_id = await messenger.send(user.id, hand.text or "", rows)
        assert copy_id is not None
        copy = fake.message(fake.private_chat(user), copy_id)
        db = table.db
        version = (await active(db, group.id)).version
        query = fake.user_presses(user, copy, data[0])
        await table.settle()
        assert query.answer is not None and "outdated" in (query.answer.text or "")
        assert (await active(db, group.id)).version == version, "nothing was played"
        assert not copy.callback_data, "the stray copy is closed"
        await table.press(user, hand, data[0])
        assert (await active(db, group.id)).version > version
        assert not bot.handler_errors


async def active(db: Database, chat_id: int) -> Any:
    game = await db.games.active_game(chat_id)
    assert game is not None
    return game


async def test_long_names_and_a_long_history_fit_telegrams_limits(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [
            fake.add_user(f"{i}" + "Щ" * 63, last_name="Ж" * 64, language_code="en")
            for i in range(6)
        ]
        group = fake.add_group("Картёжники", users)
        table = await seat_table(fake, bot, group, users, "stukolka", seed=50)
        tables = table.services.tables
        rng = random.Random(50)
        # eight deals, played straight through the service (what the group sees is /history)
        for _ in range(5000):
            if len(await table.db.history.last_deals(group.id, 8)) >= 8:
                break
            loaded = await tables.store.active(group.id)
            assert loaded is not None and loaded.table is not None
            seat = loaded.table.to_act
            assert seat is not None
            state: Any = loaded.table
            action = random_action(seat, loaded.table.legal(), state.hands[seat], rng)
            await press(
                tables,
                loaded.game.game_id,
                loaded.seats[seat],
                loaded.meta.turn,
                action,
                loaded.table,
            )
        await table.settle()
        before = len(table.group_messages())
        await table.say(users[0], "/history")
        messages = table.group_messages()
        assert len(messages) == before + 1, "the group sees the history"
        assert len(messages[-1].text or "") <= 4096
        assert "Щ" * 40 not in (messages[-1].text or ""), "names are cut for display"
        assert not bot.handler_errors


async def test_every_button_of_a_game_that_does_not_exist_is_refused_in_words(
    tmp_path: Path,
) -> None:
    """Well-formed data for a game that is not there (a forged press, a wiped database): each
    kind of game button is answered «no such game», and nothing fails."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=5)
        game_id = await active_game_id(table)
        missing = game_id + 1000
        verb = next(iter(table.codec.verbs))
        forged: list[cb.Callback] = [
            cb.Act(missing, 1, verb, None),
            cb.Select(missing, 1, "discard", 1),
            cb.Look(missing, 1),
            cb.Hint(missing, 1),
            cb.Lobby(missing, "join"),
            cb.Back(missing),
            cb.Void(missing, 0),
            cb.PlayOn(missing, 0),
            cb.Again(missing),
        ]
        user = table.users[1]
        no_such_game = WORDS.t("ru", "refuse.unknown_game", choices="|").split("|")[0]
        for data in forged:
            private = fake.messages(fake.private_chat(user), from_bot=True)
            for message in (table.group_messages()[-1], private[-1]):
                pressed = asyncio.get_running_loop().time()
                forge_press(fake, user, message, table.codec.encode(data))
                await table.settle()
                (answer,) = fake.requests("answerCallbackQuery", since=pressed)
                said = str(answer.params.get("text"))
                assert said.startswith(no_such_game), (data, said)
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors
