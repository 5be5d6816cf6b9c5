"""End to end: computer players in the real bot against the fake Telegram.

A Старшина game of two people and a computer seated from the lobby, played to the end; a
Стуколка table with a computer seat over several deals; an away player handed to the computer
and back. (The restart while a computer is to move is in ``test_restart_computer.py``.) The
strong computer thinks in its worker process here, as in production. What is the table's own
life — a game of several deals with a computer, the turns that run out, the away player's
moves after a computer's pause — is tested on the table service alone, on a clock the test
moves (``tests/service/test_computers.py``, ``test_runner.py``, ``test_table_life.py``); here
is what the chat shows of it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from bot import callback as cb
from tables.computers import EASY_IDS, STRONG_IDS, is_computer
from tests.library import CODEC

from .fake_telegram import FakeTelegram, Message, User
from .players import Table, start_bot_for
from .resilience import check_books, texts

PAUSE = 0.05  # the computers' pause before a move (1.5 s in production)


def lobby_button(message: Message, action: str) -> str:
    return next(
        d
        for d in message.callback_data
        if isinstance(CODEC.decode(d), cb.Lobby) and CODEC.decode(d).action == action  # type: ignore[union-attr]
    )


async def seat_table(
    fake: FakeTelegram,
    bot: Any,
    people: int,
    choice: str,
    computers: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> Table:
    """``people`` who started the bot open ``/new choice`` (with the chat's ``options`` for
    the game), seat ``computers`` (lobby actions ``computer`` or ``novice``) with the lobby's
    buttons, and begin."""
    users = [fake.add_user(f"Игрок{i}") for i in range(people)]
    group = fake.add_group("Картёжники", users)
    table = Table(fake, bot, group, users, random.Random(seed))
    for user in users:
        fake.user_starts_bot(user)
    await table.settle()
    if options:
        db = table.db
        await db.chats.upsert_chat(group.id, group.title, now=table.services.tables.clock())
        await db.chats.set_chat_options(
            group.id, choice, options, now=table.services.tables.clock()
        )
    await table.say(users[0], "/new " + choice)
    lobby = table.group_messages()[-1]
    for user in users[1:]:
        await table.press(user, lobby, lobby_button(lobby, "join"))
    for number, action in enumerate(computers):
        lobby = fake.message(group, lobby.message_id)
        await table.press(users[number % people], lobby, lobby_button(lobby, action))
    lobby = fake.message(group, lobby.message_id)
    assert ("🤖" in (lobby.text or "")) == bool(computers)
    await table.press(users[0], lobby, lobby_button(lobby, "begin"))
    return table


async def play(table: Table, done: Any, limit: int = 4000) -> None:
    """People press random buttons; while nobody has one (a computer is thinking or pausing),
    wait for the computer's move."""
    for _ in range(limit):
        if await done():
            return
        if not await table.step():
            await asyncio.sleep(PAUSE)
            await table.settle()
    raise AssertionError("the game did not get there within the press limit")


async def run_out(table: Table, sleeper: User, done: Any, limit: int = 4000) -> None:
    """As ``play``, and each of ``sleeper``'s turns runs out at once: the move the runner makes
    when his time is over, published as it is made (that the timer fires is the
    service's test, on a clock the test moves)."""
    tables = table.services.tables
    for _ in range(limit):
        if await done():
            return
        loaded = await tables.store.active(table.group.id)
        assert loaded is not None and loaded.table is not None
        seat = loaded.table.to_act
        if seat is not None and loaded.seats[seat] == sleeper.id:
            reply = await tables.turns.timeout(loaded.game.game_id, loaded.meta.turn)
            assert reply is not None
            await table.settle()
        elif not await table.step():
            await asyncio.sleep(PAUSE)
            await table.settle()
    raise AssertionError("the game did not get there within the press limit")


def group_text(table: Table) -> str:
    """Every text the group was shown, each message's earlier versions included."""
    return "\n".join(text for m in table.group_messages() for text in texts(m))


async def test_starshina_two_people_and_a_computer_to_the_end(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        # one deal ends the game (twenty by default): the computer's part is the same (a game
        # of three deals is the service's test)
        options = {"max_deals": 1}
        table = await seat_table(fake, bot, 2, "starshina", ["computer"], 11, options)
        db = table.db
        computer = STRONG_IDS[0]
        game = await db.games.active_game(table.group.id)
        assert game is not None and computer in game.seats

        async def over() -> bool:
            return await db.games.active_game(table.group.id) is None

        await play(table, over)
        await table.settle()
        deals = await db.history.last_deals(table.group.id, 100)
        assert deals and deals[0].kind == "starshina"
        assert any(p.user_id == computer for p in deals[0].players)
        text = group_text(table)
        assert "🤖 Компьютер 1" in text
        # the computer thought in its worker process; nothing fell back to the easy rules
        thinker = table.services.tables.thinker
        assert thinker.decisions > 10 and thinker.fallbacks == 0
        # it never got a private message (it has no chat), and no request failed
        assert not [r for r in fake.requests() if r.chat_id in STRONG_IDS]
        assert not [r for r in fake.requests(ok=False) if r.status is not None]
        await check_books(db, table.group.id)
        balances = await db.ledger.balances(table.group.id)
        assert computer in balances.players and balances.total == 0
        await table.say(table.users[0], "/balance")
        balance = table.group_messages()[-1].text or ""
        assert "🤖 Компьютер 1" in balance


async def test_stukolka_with_a_computer_over_several_deals(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        table = await seat_table(fake, bot, 2, "stukolka", ["novice", "computer"], seed=12)
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None
        assert [u for u in game.seats if is_computer(u)] == [EASY_IDS[0], STRONG_IDS[0]]

        async def three_deals() -> bool:
            return len(await db.history.last_deals(table.group.id, 100)) >= 3

        await play(table, three_deals)
        deals = await db.history.last_deals(table.group.id, 100)
        for deal in deals:
            assert {p.user_id for p in deal.players} >= {EASY_IDS[0], STRONG_IDS[0]}
        # the people read the computers by name, with the robot mark
        text = group_text(table)
        assert "🤖 Новичок 1" in text and "🤖 Компьютер 1" in text
        # a computer's turn shows no countdown (it moves at its own pace); a person's does
        turns = [
            line
            for message in table.group_messages()
            for shown in (*(r.text for r in message.history), message.text)
            for line in (shown or "").splitlines()
            if line.startswith("Ход: ")
        ]
        assert [line for line in turns if "🤖" in line]
        assert not [line for line in turns if "🤖" in line and "⏳" in line]
        assert [line for line in turns if "🤖" not in line and "⏳" in line]
        hand = (
            table.hand_message(table.users[0])
            or fake.messages(fake.private_chat(table.users[0]), from_bot=True)[-1]
        )
        assert "🤖" in (hand.text or "")
        await check_books(db, table.group.id)
        # in an English chat the computers' names are English too, wherever names appear
        await table.say(table.users[0], "/lang en")
        for command in ("/balance", "/top", "/history"):
            await table.say(table.users[0], command)
            shown = table.group_messages()[-1].text or ""
            assert "🤖 Computer 1" in shown, (command, shown)
            assert "Компьютер" not in shown and "Новичок" not in shown, (command, shown)
        assert "🤖 Rookie 1" in (table.group_messages()[-3].text or "")  # /balance
        # and in the ledger's CSV, whose players table keeps the Russian names
        for lang, strong, easy, other in (
            ("en", "🤖 Computer 1", "🤖 Rookie 1", "Компьютер"),
            ("ru", "🤖 Компьютер 1", "🤖 Новичок 1", "Computer"),
        ):
            await table.say(table.users[0], f"/lang {lang}")
            await table.say(table.users[0], "/export")
            document = table.group_messages()[-1]
            assert document.media is not None and document.media.kind == "document"
            data = document.media.data.decode("utf-8-sig")
            assert strong in data and easy in data and other not in data, data[:500]


async def test_away_player_is_played_by_the_computer_and_comes_back(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        table = await seat_table(fake, bot, 3, "stukolka", [], seed=13)
        db = table.db
        sleeper: User = table.users[2]
        awake = table.users[:2]
        table.users = awake  # only these two press; the third lets his turns run out

        async def away() -> bool:
            game = await db.games.active_game(table.group.id)
            assert game is not None
            return sleeper.id in game.state["table"]["away"]

        await run_out(table, sleeper, away)
        game = await db.games.active_game(table.group.id)
        assert game is not None
        timeouts = game.state["table"]["timeouts"][str(sleeper.id)]
        await table.settle()
        # announced once (the service's test checks that no later move repeats it), on the
        # table's next refresh (a busy machine may coalesce it with later ones)
        announced = "до возвращения за игрока играет 🤖 компьютер"
        await fake.wait_until(
            lambda: announced in group_text(table), timeout=20, message="the announcement"
        )

        # the computer plays his turns now: several of them, none of them a timeout
        moves_before = len(await db.games.action_log(game.game_id))

        async def his_moves() -> int:
            current = await db.games.active_game(table.group.id)
            assert current is not None
            log = await db.games.action_log(current.game_id)
            return sum(1 for e in log if e.user_id is None and e.kind == "action")

        start = await his_moves()

        async def computer_played() -> bool:
            return await his_moves() >= start + 4

        await play(table, computer_played)
        game = await db.games.active_game(table.group.id)
        assert game is not None
        assert game.state["table"]["timeouts"][str(sleeper.id)] == timeouts
        assert len(await db.games.action_log(game.game_id)) > moves_before

        # he is back: the button in his private chat gives him his seat again
        hand = fake.messages(fake.private_chat(sleeper), from_bot=True)[-1]
        back = next(d for d in hand.callback_data if isinstance(CODEC.decode(d), cb.Back))
        await table.press(sleeper, hand, back)
        game = await db.games.active_game(table.group.id)
        assert game is not None and sleeper.id not in game.state["table"]["away"]
        assert "снова за столом" in group_text(table)
        # and he gets buttons to play from again when his turn comes
        table.users = [*awake, sleeper]

        async def his_turn() -> bool:
            return any(user.id == sleeper.id for user, _, _ in table.actionable())

        for _ in range(400):
            if await his_turn():
                break
            if not any(u.id != sleeper.id for u, _, _ in table.actionable()):
                await asyncio.sleep(PAUSE)
                await table.settle()
                continue
            user, message, data = next(
                (u, m, d) for u, m, d in table.actionable() if u.id != sleeper.id
            )
            acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
            await table.press(user, message, table.rng.choice(acts or data))
        assert await his_turn()
        await check_books(db, table.group.id)


async def test_kick_a_computer_between_deals_and_the_away_setting(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        table = await seat_table(fake, bot, 2, "stukolka", ["novice"], seed=14)
        db = table.db
        computer = EASY_IDS[0]
        game = await db.games.active_game(table.group.id)
        assert game is not None and game.seats[2] == computer
        deals = len(await db.history.last_deals(table.group.id, 100))
        await table.say(table.users[1], "/kick 3")  # not the table's creator nor an admin
        game = await db.games.active_game(table.group.id)
        assert game is not None and computer not in game.state["table"]["leaving"]
        await table.say(table.users[0], "/kick 3")
        game = await db.games.active_game(table.group.id)
        assert game is not None and computer in game.state["table"]["leaving"]

        async def next_deal() -> bool:
            return len(await db.history.last_deals(table.group.id, 100)) > deals

        await play(table, next_deal)  # the computer plays its deal out, then goes
        game = await db.games.active_game(table.group.id)
        assert game is not None and list(game.seats) == [u.id for u in table.users]
        last = (await db.history.last_deals(table.group.id, 1))[0]
        assert computer in {p.user_id for p in last.players}

        # /settings: the creator keeps the plain default moves for the away at the next table
        await table.say(table.users[0], "/settings")
        menu = table.group_messages()[-1]
        assert "🤖 Компьютер" in (menu.text or "")
        choice = next(d for d in menu.callback_data if CODEC.decode(d) == cb.AwayPlay("default"))
        await table.press(table.users[0], menu, choice)
        menu = fake.message(table.group, menu.message_id)
        assert "Ходы по умолчанию" in (menu.text or "")
        assert await table.services.tables.settings.away_play_of(table.group.id) == "default"
        game = await db.games.active_game(table.group.id)
        assert game is not None and game.state["table"]["away_play"] == "computer"  # kept


async def test_people_void_a_deal_at_a_table_with_a_computer(tmp_path: Path) -> None:
    """The vote to void a stopped table's deal counts the people: a computer agrees with
    whatever they decide (it never presses), so the button reads «(0/2)» with two people and a
    computer, and the two people's presses void the deal."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", computer_pause_seconds=PAUSE) as bot,
    ):
        table = await seat_table(fake, bot, 2, "stukolka", ["computer"], seed=17)
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None and STRONG_IDS[0] in game.seats
        game_id = game.game_id
        for _ in range(3):
            if not await table.step():
                await asyncio.sleep(PAUSE)
                await table.settle()
        await table.say(table.users[0], "/stop")
        assert (await db.games.game(game_id)).state["table"]["stop"]

        def void_button(message: Message) -> tuple[str, str]:
            return next(
                (label, data)
                for row in message.buttons
                for label, data in row
                if data is not None and isinstance(CODEC.decode(data), cb.Void)
            )

        for number, user in enumerate(table.users):
            game = await db.games.game(game_id)
            assert game.status == "active" and game.table_message_id is not None
            await table.settle()
            message = fake.message(table.group, game.table_message_id)
            label, data = void_button(message)
            assert f"({number}/2)" in label, label
            await table.press(user, message, data)
        game = await db.games.game(game_id)
        assert game.status == "stopped", "both people agreed: the deal is void"
        deal = game.state["table"]["deals"]
        net: dict[object, int] = {}
        for entry in await db.ledger.transfers(table.group.id, game_id=game_id, deal=deal):
            net[entry.src] = net.get(entry.src, 0) - entry.amount
            net[entry.dst] = net.get(entry.dst, 0) + entry.amount
        assert set(net.values()) <= {0}, "every chip of the voided deal went back"
        await table.settle()
        assert "Сдача отменена" in group_text(table)
        await check_books(db, table.group.id)
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors
