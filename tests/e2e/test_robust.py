"""Issue 14 through the fake Bot API: the defects a player or an odd update could reach (the
bot removed from the group, /settings mid-game, menus pressed on other messages, an
unreachable member in the lobby, edited commands, long texts, bad /kick arguments, empty
names, a hand message sent twice). Each test failed before its fix."""

from __future__ import annotations

import random
from pathlib import Path

from bot import callback as cb
from storage.database import Database

from .fake_telegram import FakeTelegram
from .players import Table, start_bot_for
from .resilience import check_books, seat_table, step_for
from .test_resilience import active_game_id


async def test_the_bot_removed_from_the_group_closes_its_table(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        group = fake.add_group("Картёжники", users, admins=[users[0]])
        table = await seat_table(fake, bot, group, users, "starshina", seed=41)
        db: Database = table.services.db
        game_id = await active_game_id(table)
        for _ in range(5):
            await step_for(table, users)
        fake.user_removes_bot(users[0], group)
        await table.settle()
        game = await db.game(game_id)
        assert game.status in ("finished", "stopped")
        balances = await db.balances(group.id)
        assert balances.total == 0 and game_id not in balances.game_pots
        assert game.turn_deadline is None
        deals = len(await db.last_deals(group.id))
        # nothing is played on: no timer, no more deals
        await table.settle()
        assert len(await db.last_deals(group.id)) == deals
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
        assert any(isinstance(cb.decode(d), cb.Settings) for d in menu.callback_data)


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
        db = table.services.db
        game = await db.active_game(group.id)
        assert game is not None and users[2].id in game.seats
        await table.say(users[0], "/begin")
        assert (await db.active_game(group.id)).status == "lobby"  # type: ignore[union-attr]
        await table.say(users[1], "/kick 3")
        assert "Only whoever opened the table" in (table.group_messages()[-1].text or "")
        await table.say(users[0], "/kick 3")
        game = await db.active_game(group.id)
        assert game is not None and users[2].id not in game.seats
        await table.say(users[0], "/begin")
        game = await db.active_game(group.id)
        assert game is not None and game.status == "active"
        # mid-game, an unreachable member is not seated for the next deal
        await table.say(users[3], "/join")
        game = await db.active_game(group.id)
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
        game = await table.services.db.active_game(group.id)
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
        game = await table.services.db.active_game(group.id)
        assert game is not None and game.status == "active"
        names = await table.services.presenter.names([u.id for u in users])
        assert names[0] == "ghost"
        assert names[1].startswith("Игрок ") and names[1][6:].isdigit()
        assert not bot.handler_errors
