"""End to end: how a table's end reads in the group — the stop notice kept in sight above
the notices that follow it, a second /stop answered instead of said twice — and the lobby
that stops taking presses as the game begins."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot import callback as cb
from tables.computers import EASY_IDS, STRONG_IDS
from tests.library import CODEC

from .fake_telegram import FakeTelegram, User
from .players import Table, start_bot_for
from .test_computers import PAUSE, lobby_button, play, seat_table
from .test_fuzz import forge_press
from .test_games import open_table

STOP = "⏹ Игра остановится после этой сдачи."
STOP_NOW = "⏹ Игра останавливается: бот доигрывает"


def _void(table: Table, data: list[str]) -> str:
    return next(d for d in data if isinstance(CODEC.decode(d), cb.Void))


async def _board(table: Table) -> str:
    game = await table.db.games.active_game(table.group.id)
    assert game is not None and game.table_message_id is not None
    return table.fake.message(table.group, game.table_message_id).text or ""


async def test_the_stop_notice_stays_above_the_votes_and_a_second_stop_is_answered(
    tmp_path: Path,
) -> None:
    """Four players, /stop, three of them vote to void the deal (the fourth does not): the
    table still says it stops, above the three votes; a second /stop is answered once and
    says nothing twice; /stop now then says the bot plays the deal out, once."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "stukolka", 12)
        alice = table.users[0]
        await table.say(alice, "/stop")
        board = await _board(table)
        assert board.count(STOP) == 1, board
        game = await table.db.games.active_game(table.group.id)
        assert game is not None and game.table_message_id is not None
        for user in table.users[:3]:
            message = fake.message(table.group, game.table_message_id)
            await table.press(user, message, _void(table, message.callback_data))
        board = await _board(table)
        votes = [line for line in board.splitlines() if line.startswith("✋")]
        assert len(votes) == 3, board
        assert board.count(STOP) == 1, board
        assert board.index(STOP) < board.index(votes[0]), board
        # a second /stop: a reply saying it is stopping already, nothing more on the table
        await table.say(alice, "/stop")
        answer = table.group_messages()[-1]
        assert answer.reply_to is not None and answer.reply_to.text == "/stop"
        assert "уже останавливается" in (answer.text or ""), answer.text
        assert (await _board(table)).count(STOP) == 1
        # /stop now after /stop: the bot plays the deal out, said once
        await table.say(alice, "/stop now")
        await table.settle()
        shown = [text for m in table.group_messages() for text in _revisions(m)]
        assert not any(text.count(STOP_NOW) > 1 for text in shown)
        result = fake.message(table.group, game.table_message_id).text or ""
        assert result.count("бот доиграл сдачу") == 1 and STOP not in result, result
        assert await table.db.games.active_game(table.group.id) is None
        assert not bot.handler_errors


def _revisions(message: object) -> list[str]:
    return [r.text or "" for r in [*message.history, message]]  # type: ignore[attr-defined]


async def test_the_lobby_says_the_game_began_and_loses_its_buttons_in_one_edit(
    tmp_path: Path,
) -> None:
    """/begin: the lobby becomes «▶️ … игра началась, стол ниже» with who plays, its buttons
    gone in that same request (no separate edit of its buttons that leaves «собираем стол»);
    a press that reaches it after the game began (sent before its buttons went) is told the
    game has begun."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        users = [fake.add_user(name) for name in ("Алиса", "Борис", "Вера")]
        group = fake.add_group("Картёжники", users)
        for user in users:
            fake.user_starts_bot(user)
        table = Table(fake, bot, group, users, random.Random(3))
        await table.settle()
        await table.say(users[0], "/new stukolka")
        lobby = table.group_messages()[-1]
        for user in users[1:]:
            join = next(
                d for d in lobby.callback_data if getattr(CODEC.decode(d), "action", "") == "join"
            )
            await table.press(user, lobby, join)
            lobby = fake.message(group, lobby.message_id)
        join = next(
            d for d in lobby.callback_data if getattr(CODEC.decode(d), "action", "") == "join"
        )
        since = fake.now()
        await table.say(users[0], "/begin")
        lobby = fake.message(group, lobby.message_id)
        text = lobby.text or ""
        assert text.startswith("▶️ Стуколка — игра началась, стол ниже"), text
        assert "Играют 3 игрока:" in text and "собираем стол" not in text
        assert not lobby.callback_data
        edits = [
            r
            for r in fake.requests(chat=group.id, since=since)
            if r.params.get("message_id") in (lobby.message_id, str(lobby.message_id))
        ]
        assert [r.method for r in edits] == ["editMessageText"], [r.method for r in edits]
        # a press sent while the buttons were still there, arriving once the game began
        forge_press(fake, users[1], lobby, join)
        await table.settle()
        late = list(fake.world.callback_queries.values())[-1]
        assert late.data == join
        assert late.answer is not None
        assert late.answer.text == "Игра уже началась — стол ниже.", late.answer.text
        game = await table.db.games.active_game(group.id)
        assert game is not None and game.status == "active"
        assert game.table_message_id not in (None, lobby.message_id)
        assert not bot.handler_errors


def _private(fake: FakeTelegram, user: User) -> list[str]:
    return [m.text or "" for m in fake.messages(fake.private_chat(user), from_bot=True)]


async def test_the_practice_table_answers_stop_new_settings_and_lets_a_computer_go(
    tmp_path: Path,
) -> None:
    """In the private chat: the lobby takes a computer off the table again; /settings works
    there (no evening, no hints switch); /new at the open table says so without groups or
    topics; /stop is answered below the command, a second /stop too, and the hand says it
    stops once; /stop now is answered, and the table closes."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        alice = fake.add_user("Алиса")
        fake.user_starts_bot(alice)
        chat = fake.private_chat(alice)
        table = Table(fake, bot, chat, [alice], random.Random(4))
        await table.settle()
        await table.say(alice, "/settings")
        menu = fake.messages(chat, from_bot=True)[-1]
        assert (menu.text or "").startswith("⚙️"), menu.text
        assert "Итоги вечера" not in (menu.text or "") and "Подсказки" not in (menu.text or "")
        decoded = [CODEC.decode(d) for d in menu.callback_data]
        assert cb.Settings("stukolka") in decoded
        assert not any(isinstance(c, cb.EveningGap | cb.Hints) for c in decoded)
        # a game's options may be changed there: the player is his chat's only admin
        await table.press(
            alice,
            menu,
            next(d for d in menu.callback_data if CODEC.decode(d) == cb.Settings("stukolka")),
        )
        menu = fake.message(chat, menu.message_id)
        assert "Стуколка" in (menu.text or "") and menu.callback_data

        await table.say(alice, "/new stukolka")
        lobby = fake.messages(chat, from_bot=True)[-1]
        for action in ("computer", "novice", "novice"):
            await table.press(alice, lobby, lobby_button(lobby, action))
            lobby = fake.message(chat, lobby.message_id)
        game = await table.db.games.active_game(alice.id)
        assert game is not None and len(game.seats) == 4
        await table.press(alice, lobby, lobby_button(lobby, "uncomputer"))
        lobby = fake.message(chat, lobby.message_id)
        game = await table.db.games.active_game(alice.id)
        assert game is not None and list(game.seats) == [alice.id, STRONG_IDS[0], EASY_IDS[0]]
        assert "🚪 🤖 Новичок 2 встаёт из-за стола." in (lobby.text or "")
        assert "4. " not in (lobby.text or "")
        await table.say(alice, "/new")
        assert _private(fake, alice)[-1] == (
            "Тренировочный стол уже открыт — он выше. Закрыть его: /stop (сразу: /stop now)."
        )
        await table.say(alice, "/new starshina")
        assert "тем" not in _private(fake, alice)[-1] and "групп" not in _private(fake, alice)[-1]
        await table.press(alice, lobby, lobby_button(lobby, "begin"))

        await table.say(alice, "/stop")
        answer = _private(fake, alice)[-1]
        assert answer.startswith("⏹ Стол закроется после этой сдачи"), answer
        await table.say(alice, "/stop")
        assert "уже останавливается" in _private(fake, alice)[-1]
        hand = next(
            m
            for m in reversed(fake.messages(chat, from_bot=True))
            if "🎯 Тренировка" in (m.text or "")
        )
        assert all((text or "").count(STOP) <= 1 for text in _revisions(hand)), hand.text
        await table.say(alice, "/stop now")
        for _ in range(200):
            if await table.db.games.active_game(alice.id) is None:
                break
            await asyncio.sleep(PAUSE)
            await table.settle()
        assert await table.db.games.active_game(alice.id) is None
        await table.settle()
        answers = [
            m
            for m in fake.messages(chat, from_bot=True)
            if (m.text or "").startswith("⏹ Бот доигр")
        ]
        assert len(answers) == 1, _private(fake, alice)[-3:]
        again = _again(answers[0])
        assert again is not None
        # «▶️ Новая партия» there: the same practice table again, the computers seated
        ended = await table.db.games.game(CODEC.decode(again).game_id)  # type: ignore[union-attr]
        await table.press(alice, answers[0], again)
        reopened = await table.db.games.active_game(alice.id)
        assert reopened is not None and reopened.status == "active"
        assert list(reopened.seats) == list(ended.seats)
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


def _again(message: object) -> str | None:
    data: list[str] = message.callback_data  # type: ignore[attr-defined]
    return next((d for d in data if isinstance(CODEC.decode(d), cb.Again)), None)


async def test_a_won_game_ends_with_its_summary_and_a_new_game_for_the_same_table(
    tmp_path: Path,
) -> None:
    """A Старшина game of two people and a computer ends by itself (its one deal allowed):
    the evening's summary comes right after the result, the chat's last message, with
    «▶️ Новая партия»; /balance names only the pot this chat has; the button opens and
    begins the same game, same players (the computer too) and options, played to its end."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        table = await seat_table(fake, bot, 2, "starshina", ["computer"], 5, {"max_deals": 1})
        db = table.db
        group = table.group
        first = await db.games.active_game(group.id)
        assert first is not None

        async def play_to_the_summary(game_id: int) -> None:
            """Play game ``game_id`` to its end, until the evening's summary is out."""

            async def over() -> bool:
                return (await db.games.game(game_id)).status != "active"

            await play(table, over)
            for _ in range(200):  # the computer's last move commits before its screens go out
                await table.settle()
                if "Итоги вечера" in (table.group_messages()[-1].text or ""):
                    break
                await asyncio.sleep(PAUSE)

        await play_to_the_summary(first.game_id)
        *_, result, summary = table.group_messages()
        assert "🏆" in (result.text or "") and _again(result) is None, result.text
        assert (summary.text or "").startswith("🌙 Итоги вечера · 1 сдача"), summary.text
        again = _again(summary)
        assert again == cb.encode(cb.Again(first.game_id))
        assert (
            await db.evenings.unposted_evenings() == []
            and await db.evenings.open_evening(group.id) is None
        )

        await table.say(table.users[1], "/balance")
        balance = table.group_messages()[-1].text or ""
        assert "Кон на столе" not in balance, balance

        pressed = asyncio.get_running_loop().time()
        await table.press(table.users[1], summary, again)
        assert _again(fake.message(group, summary.message_id)) is None
        # the button pressed comes off before the new table is posted
        sent = fake.requests(chat=group, since=pressed, ok=True)
        off = next(
            i
            for i, request in enumerate(sent)
            if request.method == "editMessageReplyMarkup"
            and int(request.params["message_id"]) == summary.message_id
        )
        assert off < next(i for i, r in enumerate(sent) if r.method == "sendMessage"), sent
        second = await db.games.active_game(group.id)
        assert second is not None and second.game_id != first.game_id
        assert second.status == "active" and second.kind == "starshina"
        assert list(second.seats) == list(first.seats)
        assert dict(second.options) == dict(first.options)
        assert second.created_by == table.users[1].id
        # a second press on an old button opens nothing more
        forge_press(fake, table.users[0], summary, again)
        await table.settle()

        await play_to_the_summary(second.game_id)
        last = table.group_messages()[-1]
        assert (last.text or "").startswith("🌙 Итоги вечера · 1 сдача"), last.text
        assert _again(last) == cb.encode(cb.Again(second.game_id))
        assert len(await db.history.last_deals(group.id, 10)) == 2
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_a_stopped_table_offers_its_game_again_where_another_table_plays_on(
    tmp_path: Path,
) -> None:
    """No evening's summary after a table of a group whose other table plays on: the stopped
    table's own last message offers «▶️ Новая партия»."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 9)
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None
        # another table of the group, in a topic of its own: a lobby still gathering
        await db.games.create_game(
            table.group.id,
            "stukolka",
            {"engine": None, "table": {}},
            created_by=table.users[0].id,
            seats=[table.users[0].id],
            options={},
            status="lobby",
            thread_id=77,
            now=table.services.tables.clock(),
        )
        await table.say(table.users[0], "/stop now")
        await table.settle()
        ended = fake.message(table.group, game.table_message_id or 0)
        assert "Стол закрыт" in (ended.text or ""), ended.text
        assert _again(ended) == cb.encode(cb.Again(game.game_id))
        assert not any("Итоги вечера" in (m.text or "") for m in table.group_messages())
        assert not bot.handler_errors
