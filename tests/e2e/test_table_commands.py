"""End to end: the lobby's rules, /settings, /lang, /balance with settle-up, /history, and the
short refusals every wrong press gets."""

from __future__ import annotations

import random
from pathlib import Path

from bot import callback as cb
from tests.library import CODEC

from .fake_telegram import FakeTelegram
from .players import Table, start_bot_for
from .test_games import open_table


def buttons(message: object) -> list[tuple[str, str]]:
    return [button for row in message.buttons for button in row]  # type: ignore[attr-defined]


def press_data(table: Table, message: object, wanted: object) -> str:
    for _, data in buttons(message):
        if data and CODEC.decode(data) == wanted:
            return data
    raise AssertionError(f"no button {wanted} on the message")


async def test_lobby_marks_who_cannot_get_cards_and_refuses_to_begin(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        alice, bob, carol = (fake.add_user(name) for name in ("Алиса", "Боб", "Вера"))
        group = fake.add_group("Друзья", [alice, bob, carol])
        table = Table(fake, bot, group, [alice, bob, carol], random.Random(1))
        fake.user_starts_bot(alice)
        await table.settle()
        await table.say(alice, "/new@stukolka_test_bot starshina")
        lobby = table.group_messages()[-1]
        game_id = CODEC.decode(buttons(lobby)[0][1]).game_id  # type: ignore[union-attr]
        await table.press(bob, lobby, press_data(table, lobby, cb.Lobby(game_id, "join")))
        await table.press(carol, lobby, press_data(table, lobby, cb.Lobby(game_id, "join")))
        lobby = fake.message(group, lobby.message_id)
        assert "start=g" in (lobby.source or "")  # a deep link for those who did not start
        assert all(CODEC.decode(d) != cb.Lobby(game_id, "begin") for _, d in buttons(lobby))
        await table.say(alice, "/begin")
        assert fake.last_message(group).text != lobby.text  # a refusal was said
        # a fourth player cannot join a Старшина table, a second table cannot be opened
        await table.say(alice, "/new stukolka")
        assert len({m.message_id for m in table.group_messages()}) >= 2
        fake.user_starts_bot(bob, f"g{game_id}")
        fake.user_starts_bot(carol, f"g{game_id}")
        await table.settle()
        lobby = fake.message(group, lobby.message_id)
        begin = press_data(table, lobby, cb.Lobby(game_id, "begin"))
        await table.press(alice, lobby, begin)
        game = await table.db.games.game(game_id)
        assert game.status == "active"
        assert not bot.handler_errors


async def test_presses_out_of_turn_on_old_messages_and_by_strangers_are_refused(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 5)
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None
        stranger = fake.add_user("Чужой")
        fake.user_starts_bot(stranger)
        await table.settle()
        # the lobby message loses «Сесть за стол» / «Начать» once the game runs (/join works)
        lobby = table.group_messages()[0]
        assert not lobby.buttons and lobby.history and lobby.history[-1].reply_markup
        version_before = (await db.games.game(game.game_id)).version
        # a double press (the second before the keyboard is gone): the second is refused
        actionable = table.actionable()
        user, message, data = actionable[0]
        act = next(d for d in data if isinstance(CODEC.decode(d), cb.Act))
        first = fake.user_presses(user, message, act)
        second = fake.user_presses(user, message, act)
        await table.settle()
        assert first.answer is not None and second.answer is not None
        assert second.answer.text  # «this button is outdated» / «not your turn»
        after = await db.games.game(game.game_id)
        turns = after.state["table"]["turn"]
        assert version_before < after.version and turns >= 1
        assert not bot.handler_errors


async def test_settings_language_balance_and_history(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 9)
        db = table.db
        chat_id = table.group.id
        creator, other = table.users[0], table.users[1]
        while len(await db.history.last_deals(chat_id, 10)) < 2:
            assert await table.step()
        # /settings: the menu, a game's options, one option's values, set by the creator;
        # one message, edited in place
        await table.say(creator, "/settings")
        menu = table.group_messages()[-1]
        sent = len(table.group_messages())
        game_button = press_data(table, menu, cb.Settings("stukolka"))
        await table.press(creator, menu, game_button)
        options = fake.message(table.group, menu.message_id)
        stake = press_data(table, options, cb.Settings("stukolka", "stake"))
        await table.press(creator, options, stake)
        values = fake.message(table.group, menu.message_id)
        six = next(d for label, d in buttons(values) if label.strip().endswith("6"))
        query = fake.user_presses(other, values, six)  # not the creator, not an admin
        await table.settle()
        assert query.answer is not None and query.answer.text
        assert (await db.chats.chat_options(chat_id, "stukolka") or {}).get("stake", 3) == 3
        await table.press(creator, values, six)
        # only what the chat chose is stored (/new stukolka chose the variant): an option it
        # never touched follows docs/rules.md's default
        assert await db.chats.chat_options(chat_id, "stukolka") == {
            "variant": "classic",
            "stake": 6,
        }
        marked = fake.message(table.group, menu.message_id)
        assert any(label.startswith("✓") and label.endswith("6") for label, _ in buttons(marked))
        assert len(table.group_messages()) == sent  # every step edited the one menu
        # Старшина's presets (docs/rules.md §4): British sets the exchange and the trumps at once,
        # keeps what else the chat chose, and marks itself in the menu it redraws
        await table.press(creator, marked, press_data(table, marked, cb.Settings("stukolka")))
        page = fake.message(table.group, menu.message_id)
        await table.press(creator, page, press_data(table, page, cb.Settings()))
        root = fake.message(table.group, menu.message_id)
        await table.press(creator, root, press_data(table, root, cb.Settings("starshina")))
        page = fake.message(table.group, menu.message_id)
        british = press_data(table, page, cb.Settings("starshina", "preset", "british"))
        await table.press(creator, page, british)
        assert await db.chats.chat_options(chat_id, "starshina") == {
            "exchange": "updown",
            "trumps": "dealer_names",
        }
        page = fake.message(table.group, menu.message_id)
        assert [label.startswith("✓") for label, _ in buttons(page)[:2]] == [False, True]
        assert len(table.group_messages()) == sent
        # /lang en switches the chat's language
        await table.say(creator, "/lang en")
        await table.say(creator, "/balance")
        balance = table.group_messages()[-1]
        text = balance.text or ""
        assert "Balances" in text or "balance" in text.lower()
        settle = next(d for _, d in buttons(balance) if isinstance(CODEC.decode(d), cb.Page))
        await table.press(creator, balance, settle)
        await table.say(creator, "/history")
        history = table.group_messages()[-1].text
        assert history
        balances = await db.ledger.balances(chat_id)
        assert balances.total == 0
        assert not bot.handler_errors
