"""End to end: a practice table in a player's private chat, against the computers.

``/new`` in the private chat opens a lobby there; the player seats computers with the lobby's
buttons and begins; his hand message carries the table and, when a deal ends, the deal's result
for every seat; the chips stay in that chat, apart from every group's. Played through the real
bot and the fake Bot API, in Russian and in English, every message the player got read."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot import callback as cb
from bot.app import services_of
from bot.assembly import Services
from bot.render.common import label, ranks_shown
from server.program import database_of
from storage import POT, Transfer
from tables import Refused
from tables.computers import EASY_IDS, STRONG_IDS
from tests.library import CODEC

from .fake_telegram import FakeTelegram, Message, User
from .players import Table, start_bot_for
from .resilience import check_books, eventually, texts
from .test_computers import PAUSE, lobby_button, play

WORDS = {
    "ru": {
        "header": "🎯 Тренировка",
        "lobby": "🎯 Тренировка: Стуколка — собираем стол",
        "started": "🎯 Тренировка: Стуколка — игра началась, карты ниже",
        "stop_answer": "⏹ Стол закроется после этой сдачи",
        "result": "окончена",
        "balances": "Балансы:",
        "stop": "⏹ Игра остановится после этой сдачи.",
        "closed": "Стол закрыт. /new — новый стол.",
        "balance": "🎯 Тренировка с компьютерами — фишки отдельно от групп",
        "stats": "🎯 Тренировка: Алиса · против компьютеров, отдельно от групп",
        "strong": "🤖 Компьютер 1",
        "easy": "🤖 Новичок 1",
        "chooser": "🎯 Тренировка с компьютерами: во что играем?",
        "group_stats": "📊 Статистика: Алиса · всего 1 чат",
    },
    "en": {
        "header": "🎯 Practice",
        "lobby": "🎯 Practice: Stukolka — table open",
        "started": "🎯 Practice: Stukolka — the game has begun, the cards are below",
        "stop_answer": "⏹ The table closes after this deal",
        "result": "over",
        "balances": "Balances:",
        "stop": "⏹ The game will stop after this deal.",
        "closed": "The table is closed. /new opens another.",
        "balance": "🎯 Practice against the computers — chips apart from every group",
        "stats": "🎯 Practice: Alice · against the computers, apart from every group",
        "strong": "🤖 Computer 1",
        "easy": "🤖 Rookie 1",
        "chooser": "🎯 Practice against the computers: which game?",
        "group_stats": "📊 Statistics: Alice · 1 chat in all",
    },
}


def _callback_data(markup: dict[str, Any] | None) -> list[str]:
    rows = (markup or {}).get("inline_keyboard", [])
    return [button["callback_data"] for row in rows for button in row if "callback_data" in button]


def bot_texts(fake: FakeTelegram, chat: Any) -> list[str]:
    """Every text the bot showed in a chat, every revision of every message, in order."""
    return [text for m in fake.messages(chat, from_bot=True) for text in texts(m)]


async def open_group(fake: FakeTelegram, bot: Any, lang: str, seed: int) -> Table:
    """Two people who started the bot open a Стуколка table in their group and begin."""
    names = ("Алиса", "Борис") if lang == "ru" else ("Alice", "Bob")
    users = [fake.add_user(name, language_code=lang) for name in names]
    group = fake.add_group("Картёжники", users)
    table = Table(fake, bot, group, users, random.Random(seed))
    for user in users:
        fake.user_starts_bot(user)
    await table.settle()
    await table.say(users[0], "/new stukolka")
    lobby = table.group_messages()[-1]
    await table.press(users[1], lobby, lobby_button(lobby, "join"))
    lobby = fake.message(group, lobby.message_id)
    await table.press(users[0], lobby, lobby_button(lobby, "begin"))
    return table


async def open_practice(
    fake: FakeTelegram, bot: Any, user: User, seed: int, game: str = "stukolka"
) -> Table:
    """``user`` opens his practice table with /new ``game``, seats a strong computer and a
    rookie with the lobby's buttons, and begins."""
    chat = fake.private_chat(user)
    table = Table(fake, bot, chat, [user], random.Random(seed))
    await table.say(user, f"/new {game}")
    lobby = fake.messages(chat, from_bot=True)[-1]
    assert lobby.callback_data, lobby.text
    for action in ("computer", "novice", "begin"):
        await table.press(user, lobby, lobby_button(lobby, action))
        lobby = fake.message(chat, lobby.message_id)
    return table


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_practice_evening_in_private_apart_from_the_group(
    tmp_path: Path, lang: str
) -> None:
    words = WORDS[lang]
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE, default_language=lang
        ) as bot,
    ):
        # first a group's evening: two people, one deal, stopped
        group_table = await open_group(fake, bot, lang, seed=21)
        alice, group = group_table.users[0], group_table.group
        db = group_table.db

        async def one_deal() -> bool:
            return len(await db.history.last_deals(group.id, 10)) >= 1

        await play(group_table, one_deal)
        await group_table.say(alice, "/stop")

        async def group_closed() -> bool:
            return await db.games.active_game(group.id) is None

        await play(group_table, group_closed)
        group_ledger = await db.ledger.transfers(group.id)
        group_answers = {}
        for command in ("/balance", "/top", "/stats", "/evening"):
            await group_table.say(alice, command)
            group_answers[command] = group_table.group_messages()[-1].text

        group_requests = fake.count_requests(chat=group.id)

        # then the practice table: /new in private, the computers seated from its lobby
        table = await open_practice(fake, bot, alice, seed=22)
        chat = table.group
        game = await db.games.active_game(alice.id)
        assert game is not None and game.chat_id == alice.id
        assert list(game.seats) == [alice.id, STRONG_IDS[0], EASY_IDS[0]]

        async def two_deals() -> bool:
            return len(await db.history.last_deals(alice.id, 10)) >= 2

        await play(table, two_deals)
        await table.say(alice, "/stop")

        async def closed() -> bool:
            return await db.games.active_game(alice.id) is None

        await play(table, closed)

        async def shown_closed() -> bool:
            # the computer's move that ends the game commits before its screens go out
            await table.settle()
            hands = [
                m
                for m in fake.messages(chat, from_bot=True)
                if not m.deleted and (m.text or "").startswith(words["header"])
            ]
            return (hands[-1].text or "").endswith(words["closed"])

        await eventually(shown_closed, 30, "the last hand shows the table closed")
        await check_books(db, alice.id)

        # what the player got: the lobby, then one hand message per deal and nothing else
        # (no table message doubling it) but the answer to his /stop, each hand ending as the
        # deal's result for every seat
        messages = [m for m in fake.messages(chat, from_bot=True) if not m.deleted]
        answers = [m for m in messages if (m.text or "").startswith(words["stop_answer"])]
        assert len(answers) == 1, [m.text for m in messages]
        messages.remove(answers[0])
        lobby_at = next(i for i, m in enumerate(messages) if "🎯" in (m.text or ""))
        lobby = messages[lobby_at]
        assert words["lobby"] in (lobby.text or "") or words["started"] in (lobby.text or "")
        assert not lobby.callback_data  # retired when the game began
        # a private chat has nobody to join: no «Сесть за стол» / «Встать» ever
        assert all(
            not isinstance(CODEC.decode(d), cb.Lobby)
            or CODEC.decode(d).action not in ("join", "leave")  # type: ignore[union-attr]
            for revision in lobby.history
            for d in _callback_data(revision.reply_markup)
        )
        hands = messages[lobby_at + 1 :]
        deals = await db.history.last_deals(alice.id, 10)
        assert len(hands) == len(deals) == 3, [m.text for m in hands]
        for hand in hands:
            shown = texts(hand)
            assert all(text.startswith(words["header"]) for text in shown), shown
            final = hand.text or ""
            assert words["result"] in final.splitlines()[1] and words["balances"] in final
            assert words["strong"] in final and words["easy"] in final
            # the last one, the table's last word, offers its game again; no other button
            again = [cb.encode(cb.Again(game.game_id))] if hand is hands[-1] else []
            assert hand.callback_data == again, hand.callback_data
        assert any(words["stop"] in text for text in texts(hands[-1]))
        assert (hands[-1].text or "").endswith(words["closed"])
        assert not any(words["closed"] in (hand.text or "") for hand in hands[:-1])
        # no evening summary came in private: nobody settles up with a computer
        everything = "\n".join(bot_texts(fake, chat))
        assert "🌙" not in everything

        # the practice table's own /balance and /stats, labelled, apart from the group's
        await table.say(alice, "/balance")
        balance = fake.messages(chat, from_bot=True)[-1].text or ""
        assert group.title in balance and words["balance"] in balance
        practice = (await db.ledger.balances(alice.id)).players
        practice_part = balance.split(words["balance"])[1]
        assert words["strong"] in practice_part and words["easy"] in practice_part
        group_part = balance.split(words["balance"])[0]
        group_money = (await db.ledger.balances(group.id)).players[alice.id]
        assert f"{group_money:+d}".replace("-", "−") in group_part or (
            group_money == 0 and "0" in group_part
        )
        assert practice[alice.id] != 0 or practice[STRONG_IDS[0]] != 0
        await table.say(alice, "/stats")
        stats = fake.messages(chat, from_bot=True)[-1].text or ""
        assert words["group_stats"] in stats and words["stats"] in stats
        assert stats.index(words["group_stats"]) < stats.index(words["stats"])

        # the group saw none of it: its ledger, /balance, /top, /stats and /evening unchanged
        assert await db.ledger.transfers(group.id) == group_ledger
        assert fake.count_requests(chat=group.id) == group_requests
        for command, before in group_answers.items():
            await group_table.say(alice, command)
            after = group_table.group_messages()[-1].text
            assert after == before, (command, before, after)
            assert words["strong"] not in (after or "")


async def test_the_private_chooser_opens_a_practice_table(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        alice = fake.add_user("Алиса")
        fake.user_starts_bot(alice)
        chat = fake.private_chat(alice)
        table = Table(fake, bot, chat, [alice], random.Random(1))
        await table.settle()
        await table.say(alice, "/new")
        chooser = fake.messages(chat, from_bot=True)[-1]
        assert chooser.text == WORDS["ru"]["chooser"]
        starshina = next(
            d for d in chooser.callback_data if CODEC.decode(d) == cb.NewGame("starshina")
        )
        await table.press(alice, chooser, starshina)
        lobby = fake.messages(chat, from_bot=True)[-1]
        assert (lobby.text or "").startswith("🎯 Тренировка: Старшина — собираем стол")
        # alone, the table cannot begin (Старшина needs three); nobody else can join
        actions = [CODEC.decode(d) for d in lobby.callback_data]
        assert {a.action for a in actions if isinstance(a, cb.Lobby)} == {
            "computer",
            "novice",
            "cancel",
        }
        for _ in range(2):
            await table.press(alice, lobby, lobby_button(lobby, "novice"))
            lobby = fake.message(chat, lobby.message_id)
        await table.press(alice, lobby, lobby_button(lobby, "begin"))
        game = await table.db.games.active_game(alice.id)
        assert game is not None and game.status == "active" and game.kind == "starshina"
        # /stop now in private: the player opened it, so he may close it; the deal is
        # played out at once and the table closes
        await table.say(alice, "/stop now")
        for _ in range(200):
            if await table.db.games.active_game(alice.id) is None:
                break
            await asyncio.sleep(PAUSE)
            await table.settle()
        assert await table.db.games.active_game(alice.id) is None
        *_, hand, answer = fake.messages(chat, from_bot=True)
        assert (hand.text or "").endswith(WORDS["ru"]["closed"])
        assert (answer.text or "").startswith("⏹ Бот доиграл сдачу за всех")


#: how a hint reads: played out (its figures, or that the moves are equal), or not
HINT_WAYS: dict[str, dict[str, Any]] = {
    "ru": {
        # «по 131 разыгрыванию», «по 5 разыгрываниям»: how many depends on the time it had
        "playouts": re.compile(r"\(по \d+ (разыгрыванию|разыгрываниям)\)$"),
        "played": ("в среднем", ", а не ", "всё равно"),
        "unplayed": ("Ход здесь один", "так сыграл бы компьютер", "Сначала"),
        "only": "Ход здесь один: ",
    },
    "en": {
        "playouts": re.compile(r"\(over \d+ playouts?\)$"),
        "played": ("on average", "rather than", "makes no difference"),
        "unplayed": ("only one move", "what the computer would", "First"),
        "only": "There is only one move here: ",
    },
}


def hint_data(table: Table, message: Message | None) -> str | None:
    """The 💡 button's data on a message of ``table``'s bot, if it has one."""
    if message is None:
        return None
    return next(
        (d for d in message.callback_data if isinstance(table.codec.decode(d), cb.Hint)), None
    )


async def until_turn(table: Table, user: User) -> Message:
    """Wait (the computers moving) until ``user`` has move buttons; his hand message."""
    for _ in range(400):
        found = [m for u, m, _ in table.actionable() if u.id == user.id]
        if found:
            return found[0]
        await asyncio.sleep(PAUSE)
        await table.settle()
    raise AssertionError("no turn came")


async def press_hint(table: Table, user: User, hand: Message) -> tuple[str, bool]:
    data = hint_data(table, hand)
    assert data is not None, hand.buttons
    query = table.fake.user_presses(user, hand, data)
    await table.settle()
    assert query.answer is not None and query.answer.text
    return query.answer.text, query.answer.show_alert


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_hint_at_the_practice_table(tmp_path: Path, lang: str) -> None:
    """💡 at the player's turn, and only then: the strong computer's choice and why, in one
    line he reads in a box he closes himself; the same line when asked again."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        alice = fake.add_user("Алиса" if lang == "ru" else "Alice", language_code=lang)
        fake.user_starts_bot(alice)
        table = await open_practice(fake, bot, alice, seed=31)
        hints = 0
        while hints < 4:
            hand = await until_turn(table, alice)
            text, alert = await press_hint(table, alice, hand)
            assert alert and text.startswith("💡") and len(text) <= 200, text
            ways = HINT_WAYS[lang]
            if ways["playouts"].search(text):  # played out: why, and how many worlds
                assert [way for way in ways["played"] if way in text], text
            else:  # the only move, or the rules of thumb
                assert [way for way in ways["unplayed"] if way in text], text
            # the move it names first is a button of his hand, as the hand labels it (a
            # purchase: the cards it lists are, the button to confirm them comes once marked)
            labels = [label_ for row in hand.buttons for label_, _ in row]
            named = text.removeprefix("💡 ").removeprefix(ways["only"])
            chosen = (
                named[named.index("(") + 1 : named.index(")")].split()
                if "» (" in named or "” (" in named
                else []
            )
            if chosen:
                assert set(chosen) <= set(labels), text
            else:
                assert [label_ for label_ in labels if named.lstrip("«“").startswith(label_)], text
            again, _ = await press_hint(table, alice, hand)
            assert again == text
            hints += 1
            await table.step()
        # a hand message that is not at its turn offers no 💡
        for message in fake.messages(table.group, from_bot=True):
            if not any(
                isinstance(CODEC.decode(d), cb.Act | cb.Select) for d in message.callback_data
            ):
                assert hint_data(table, message) is None, message.buttons


async def until_hint(table: Table, user: User) -> Message:
    """Wait (the computers moving) until ``user``'s hand offers 💡: his turn, whether or not
    he has seen his cards; his hand message."""
    for _ in range(400):
        hand = table.hand_message(user)
        if hand is not None and hint_data(table, hand) is not None:
            return hand
        await asyncio.sleep(PAUSE)
        await table.settle()
    raise AssertionError("no turn came")


async def test_a_hint_for_a_player_who_has_not_looked_at_his_cards(tmp_path: Path) -> None:
    """A шлейф practice table where Алиса never looks unless she must: at a knock, a blind
    purchase, a dark purchase and the play, 💡 is answered every time, names a button she
    has (she presses it by its label), and never a card she has not seen: at her turn to
    play, before looking, the only move is to look."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        alice = fake.add_user("Алиса")
        fake.user_starts_bot(alice)
        table = await open_practice(fake, bot, alice, seed=37, game="shleif")
        services = table.services
        seen: set[str] = set()
        knocks = 0
        for _ in range(300):
            if {"knock", "purchase", "dark purchase", "play"} <= seen:
                break
            hand = await until_hint(table, alice)
            game = await table.db.games.active_game(alice.id)
            assert game is not None
            loaded = await services.tables.store.snapshot(game)
            assert loaded.table is not None
            seat = loaded.seat_of(alice.id)
            assert seat is not None
            state: Any = loaded.table
            holding = loaded.table.holding(seat)
            text, alert = await press_hint(table, alice, hand)
            assert alert and text.startswith("💡"), text
            if not holding.looked:
                with ranks_shown("ru", None):
                    assert not [c for c in holding.cards if label(c) in text], text
                phase = state.phase.value
                if phase == "purchase" and state.roles[seat].value == "dark":
                    phase = "dark purchase"
                    # her buttons say how many unseen cards to discard: so does the hint
                    assert "Оставить" not in text and "Ход здесь один" not in text, text
                    assert "«Не сбрасывать»" in text or "«Сбросить " in text, text
                if phase == "play":
                    assert text == "💡 Ход здесь один: «👀 Посмотреть карты».", text
                seen.add(phase)
            named = text[text.index("«") + 1 : text.index("»")] if "«" in text else None
            labels = {label_ for row in hand.buttons for label_, _ in row}
            moves = {}
            for data in hand.callback_data:
                decoded = CODEC.decode(data)
                if isinstance(decoded, cb.Act):
                    moves[decoded.verb] = data
            if not holding.looked and state.phase.value in ("knock", "purchase"):
                # she goes on without looking: a knock (dark every other time), a blind purchase
                wanted = "dark" if knocks % 2 and "dark" in moves else "knock"
                if state.phase.value == "purchase":
                    wanted = "discard"
                knocks += wanted != "discard"
                await table.press(alice, hand, moves[wanted])
            elif named is not None and named in labels:
                table.fake.user_presses(alice, hand, text=named)  # the button the hint names
                await table.settle()
            else:
                await table.step(look_chance=0.0)
        assert {"knock", "purchase", "dark purchase", "play"} <= seen, seen


async def test_hints_in_a_group_only_when_its_settings_allow_them(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        table = await open_group(fake, bot, "ru", seed=41)
        users, group = table.users, table.group
        user, hand, _ = table.actionable()[0]
        assert hint_data(table, hand) is None  # off by default: a group plays its own game
        game = await table.db.games.active_game(group.id)
        assert game is not None
        turn = game.state["table"]["turn"]
        with pytest.raises(Refused) as refused:  # a forged 💡 is refused
            await table.services.tables.turns.hint_view(game.game_id, user.id, turn)
        assert refused.value.reason == "no_hints"
        # the table's creator allows hints in /settings: the turn offers 💡 at once
        await table.say(users[0], "/settings")
        menu = table.group_messages()[-1]
        assert "💡 Подсказки компьютера на ходу: выключены" in (menu.text or "")
        allow = next(d for d in menu.callback_data if CODEC.decode(d) == cb.Hints(True))
        await table.press(users[0], menu, allow)
        menu = fake.message(group, menu.message_id)
        assert "💡 Подсказки компьютера на ходу: включены" in (menu.text or "")
        hand = fake.message(fake.private_chat(user), hand.message_id)
        text, alert = await press_hint(table, user, hand)
        assert alert and text.startswith("💡"), text
        # and takes them back: the 💡 goes
        forbid = next(d for d in menu.callback_data if CODEC.decode(d) == cb.Hints(False))
        await table.press(users[0], menu, forbid)
        hand = fake.message(fake.private_chat(user), hand.message_id)
        assert hint_data(table, hand) is None
        with pytest.raises(Refused):
            await table.services.tables.turns.hint_view(game.game_id, user.id, turn)


async def test_a_stop_with_a_large_pot_offers_to_play_on_in_the_hand(tmp_path: Path) -> None:
    """/stop at a practice table while its pot holds four stakes or more: the offer to play on
    comes with the hand (there is no table message to carry it), and the player's press keeps
    the table open."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        alice = fake.add_user("Алиса")
        fake.user_starts_bot(alice)
        await bot.settle(timeout=20, quiet=0.0)
        services: Services = services_of(bot.app)
        db = database_of(bot.app)
        # an earlier practice game in this chat left its pot: four stakes
        await db.chats.upsert_chat(alice.id, None, now=services.tables.clock())
        earlier = await db.games.create_game(
            alice.id, "stukolka", {}, seats=[alice.id], now=services.tables.clock()
        )
        await db.games.commit_action(
            earlier.game_id,
            0,
            {},
            None,
            transfers=[Transfer(alice.id, POT, 4 * 3, "remiz", 0)],
            status="finished",
            now=services.tables.store.clock(),
        )
        table = await open_practice(fake, bot, alice, seed=51)

        async def large_pot() -> bool:
            return (await db.ledger.balances(alice.id)).pot >= 4 * 3

        await play(table, large_pot)
        await table.say(alice, "/stop")
        hand = await until_turn(table, alice)
        play_on = next(
            (d for d in hand.callback_data if isinstance(CODEC.decode(d), cb.PlayOn)), None
        )
        assert play_on is not None, hand.buttons
        assert "Сыграть дальше?" in (hand.text or "")
        await table.press(alice, hand, play_on)
        game = await db.games.active_game(alice.id)
        assert game is not None
        assert not (await table.services.tables.store.snapshot(game)).meta.stop
        deals = await db.history.deal_count(alice.id)

        async def next_deal() -> bool:
            return await db.history.deal_count(alice.id) > deals

        await play(table, next_deal)
        assert await db.games.active_game(alice.id) is not None  # the table plays on
