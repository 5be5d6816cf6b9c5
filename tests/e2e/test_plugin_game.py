"""A new game registered from the tests alone — «Старшая карта»
(``tests/plugin/highcard.py``: one phase, one card each) — is played end to end through the
real service and screens against the fake Bot API: /new, the lobby, the table and hand
messages, the buttons, the results, the money, the end of the game, /rules and /settings,
in Russian and in English. Nothing in ``game/``, ``bot/`` or ``locales/`` names it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import callback as cb
from server.games import Library
from tests.library import library_with
from tests.plugin import tricks
from tests.plugin.highcard import KIND, OFFERED, strength

from .fake_telegram import FakeTelegram, Message
from .players import Table, start_bot_for
from .test_computers import PAUSE, play, seat_table
from .test_fuzz import forge_press


@pytest.fixture
def highcard() -> Iterator[Library]:
    library = library_with(OFFERED)
    yield library


def texts(messages: list[Message]) -> list[str]:
    """Every revision of every message, as the reader saw them, oldest first."""
    return [revision.text or "" for m in messages for revision in m.history] + [
        m.text or "" for m in messages
    ]


def press_data(table: Table, message: Message, kind: type, **fields: object) -> str:
    for data in message.callback_data:
        decoded = table.codec.decode(data)
        if isinstance(decoded, kind) and all(getattr(decoded, k) == v for k, v in fields.items()):
            return data
    raise AssertionError(f"no {kind.__name__} {fields} button in {message.text!r}")


async def test_a_game_registered_by_the_tests_is_played_to_its_end(
    tmp_path: Path, highcard: Library
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", library=highcard) as bot,
    ):
        vera = fake.add_user("Вера")
        bob = fake.add_user("Bob", language_code="en")
        alice = fake.add_user("Алиса")
        users = [vera, bob, alice]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(5))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()

        # /new with the game's alias opens its lobby, titled and summarised by the plugin
        await table.say(vera, "/new старшая")
        lobby = table.group_messages()[-1]
        assert "Старшая карта" in (lobby.text or "")
        assert "Сдач: 2" in (lobby.text or "") and "Ставка: 1" in (lobby.text or "")
        for user in (bob, alice):
            await table.press(user, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="begin"))

        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None and game.kind == KIND
        game_id = game.game_id

        # each player shows his card when his turn comes, with the one button he is given
        for _ in range(20):
            ready = table.actionable()
            if not ready:
                break
            assert len(ready) == 1, "only the player to act has a button"
            user, message, data = ready[0]
            assert len(data) == 1
            await table.press(user, message, data[0])
        finished = await db.games.game(game_id)
        assert finished.status == "finished", "two deals make the game"

        deals = await db.history.last_deals(group.id, 10)
        assert len(deals) == 2
        balances = await db.ledger.balances(group.id)
        assert balances.total == 0
        seats = list(finished.seats)
        expected = {user: 0 for user in seats}
        for deal in deals:
            cards = deal.summary["cards"]
            winner = max(range(len(cards)), key=lambda seat: strength(cards[seat]))
            for seat, user_id in enumerate(seats):
                expected[user_id] += 2 if seat == winner else -1
        assert dict(balances.players) == expected

        # what the group read: the table, each deal's result naming who took it, the end
        group_texts = texts(table.group_messages())
        assert any("сдача 1 из 2" in text for text in group_texts)
        results = [text for text in group_texts if "Сдачу берёт" in text]
        assert len({text.split("Сдачу берёт")[0] for text in results}) == 2
        assert any(text.startswith("Ход:") or "Ход:" in text for text in group_texts)

        # what each player read in private, in his own language: his card, his prompt, and
        # each deal's outcome with his money and balance
        for user, yours, prompt in (
            (vera, "Ваша карта", "Ваш ход"),
            (alice, "Ваша карта", "Ваш ход"),
            (bob, "Your card", "Your turn"),
        ):
            private = texts(fake.messages(fake.private_chat(user), from_bot=True))
            assert any(yours in text for text in private), user.first_name
            assert any(prompt in text for text in private), user.first_name
            amount = expected[user.id]
            sign = "+" if amount > 0 else "−" if amount < 0 else ""
            balance = f"{sign}{abs(amount)}" if amount else "0"
            assert any(balance in text for text in private[-3:]), (user.first_name, private[-3:])

        # /rules and /settings know the game too
        await table.say(bob, "/rules highcard")
        assert "One card each" not in (table.group_messages()[-1].text or "")
        assert "старшая берёт по 1" in (table.group_messages()[-1].text or "")
        await table.say(vera, "/settings")
        settings = table.group_messages()[-1]
        assert "Старшая карта" in (settings.text or "")
        await table.press(vera, settings, press_data(table, settings, cb.Settings, game=KIND))
        settings = fake.message(group, settings.message_id)
        await table.press(
            vera, settings, press_data(table, settings, cb.Settings, game=KIND, option="rounds")
        )
        settings = fake.message(group, settings.message_id)
        await table.press(
            vera,
            settings,
            press_data(table, settings, cb.Settings, game=KIND, option="rounds", value="3"),
        )
        assert (await db.chats.chat_options(group.id, KIND)) == {"rounds": 3}
        await table.say(vera, "/new highcard")
        assert "Сдач: 3" in (table.group_messages()[-1].text or "")
        assert not fake.unanswered_callback_queries()


async def test_a_game_without_computer_players_offers_none_and_refuses_a_forged_one(
    tmp_path: Path, highcard: Library
) -> None:
    """«Старшая карта» has no computer player: its lobby has no «🤖 Добавить компьютер» or
    «🤖 Добавить новичка», and a press forged with either is answered with a short refusal in
    the presser's language and changes nothing (before, it seated a computer that raised
    ValueError at its first turn)."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", library=highcard) as bot,
    ):
        vera = fake.add_user("Вера")
        bob = fake.add_user("Bob", language_code="en")
        group = fake.add_group("Картёжники", [vera, bob])
        table = Table(fake, bot, group, [vera, bob], random.Random(7))
        for user in (vera, bob):
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(vera, "/new старшая")
        lobby = table.group_messages()[-1]
        await table.press(bob, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        offered = {table.codec.decode(d).action for d in lobby.callback_data}  # type: ignore[union-attr]
        assert offered == {"join", "leave", "begin", "cancel"}
        assert "🤖" not in str(lobby.inline_keyboard)
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None
        before = (lobby.text, len(lobby.history), game.seats)
        for user, action, refusal in (
            (vera, "computer", "В эту игру компьютер не играет."),
            (bob, "novice", "Computers do not play this game."),
        ):
            forge_press(fake, user, lobby, cb.encode(cb.Lobby(game.game_id, action)))  # type: ignore[arg-type]
            await table.settle()
            answer = list(fake.world.callback_queries.values())[-1].answer
            assert answer is not None and answer.text == refusal
        lobby = fake.message(group, lobby.message_id)
        game = await db.games.active_game(group.id)
        assert game is not None and (lobby.text, len(lobby.history), game.seats) == before
        assert not fake.unanswered_callback_queries() and not bot.handler_errors

        # a game that has computers still offers them
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="cancel"))
        await table.say(vera, "/new stukolka")
        lobby = table.group_messages()[-1]
        offered = {table.codec.decode(d).action for d in lobby.callback_data}  # type: ignore[union-attr]
        assert {"computer", "novice"} <= offered


async def test_an_away_player_of_a_game_without_computers_gets_the_default_moves(
    tmp_path: Path, highcard: Library
) -> None:
    """The chat's setting says the computer plays for an away player, but «Старшая карта» has
    no computer player: a player who blocked the bot is played by the default moves, and the
    group is told so (before, his turn raised ValueError and the table stood still)."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", library=highcard, computer_pause_seconds=0.05
        ) as bot,
    ):
        vera, bob, alice = (fake.add_user(name) for name in ("Вера", "Боря", "Алиса"))
        users = [vera, bob, alice]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(9))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(vera, "/new старшая")
        lobby = table.group_messages()[-1]
        for user in (bob, alice):
            await table.press(user, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="begin"))
        fake.user_blocks_bot(bob)
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None
        table.users = [vera, alice]  # bob never presses: he blocked the bot
        for _ in range(100):
            if (await db.games.game(game.game_id)).status != "active":
                break
            if not await table.step():
                await asyncio.sleep(0.05)
                await table.settle()
        assert (await db.games.game(game.game_id)).status == "finished"
        assert len(await db.history.last_deals(group.id, 10)) == 2
        shown = "\n".join(texts(table.group_messages()))
        assert "Боря не получает карты в личке" in shown
        assert "компьютер" not in shown.lower(), shown
        assert not bot.handler_errors


@pytest.fixture
def tricks_game() -> Iterator[Library]:
    library = library_with(tricks.OFFERED)
    yield library


async def test_a_trick_taking_game_with_verbs_of_its_own_is_played_to_its_end(
    tmp_path: Path, tricks_game: Library
) -> None:
    """«Взятки» (``tests/plugin/tricks.py``) leads and follows with verbs no other game has:
    its buttons carry the wire codes its chat side brought, a card off the led suit is
    refused with the engine's reason, each trick's money goes through the ledger, and the
    game ends with its one deal. Nothing outside ``tests/`` names it or its verbs."""
    assert {"lead", "follow"} <= set(tricks_game.chat.codec.verbs)
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", library=tricks_game) as bot,
    ):
        vera = fake.add_user("Вера")
        bob = fake.add_user("Bob", language_code="en")
        alice = fake.add_user("Алиса")
        users = [vera, bob, alice]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(11))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(vera, "/new взятки")
        lobby = table.group_messages()[-1]
        assert "Взятки" in (lobby.text or "")
        for user in (bob, alice):
            await table.press(user, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="begin"))
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None and game.kind == tricks.KIND
        game_id = game.game_id

        verbs: list[str] = []
        refused = False
        for _ in range(20):
            ready = table.actionable()
            if not ready:
                break
            assert len(ready) == 1, "only the player to act has buttons"
            user, message, data = ready[0]
            acts = [table.codec.decode(d) for d in data]
            assert all(isinstance(act, cb.Act) for act in acts)
            verbs += [act.verb for act in acts if isinstance(act, cb.Act)]
            state = (await db.games.game(game_id)).state["engine"]
            if state["trick"] and not refused:
                # a card of his that the buttons do not offer (off the led suit) is refused
                offered = {act.arg for act in acts if isinstance(act, cb.Act)}
                seat = list((await db.games.game(game_id)).seats).index(user.id)
                other = [card for card in state["hands"][seat] if card not in offered]
                if other:
                    turn = acts[0].version  # type: ignore[union-attr]
                    forged = table.codec.encode(cb.Act(game_id, turn, "follow", other[0]))
                    forge_press(fake, user, message, forged)
                    await table.settle()
                    answer = list(fake.world.callback_queries.values())[-1].answer
                    assert answer is not None and answer.text
                    refused = True
            await table.press(user, message, data[0])
        finished = await db.games.game(game_id)
        assert finished.status == "finished", "one deal makes the game"
        assert {"lead", "follow"} <= set(verbs)

        deals = await db.history.last_deals(group.id, 10)
        assert len(deals) == 1
        won = deals[0].summary["won"]
        assert len(won) == tricks.CARDS
        seats = list(finished.seats)
        expected = {user_id: 0 for user_id in seats}
        for taker in won:
            for seat, user_id in enumerate(seats):
                expected[user_id] += 2 if seat == taker else -1
        balances = await db.ledger.balances(group.id)
        assert balances.total == 0 and dict(balances.players) == expected
        private = texts(fake.messages(fake.private_chat(bob), from_bot=True))
        assert any("Your cards" in text for text in private)
        assert not fake.unanswered_callback_queries() and not bot.handler_errors


async def test_computer_seats_play_the_trick_taking_game_with_its_own_computer(
    tmp_path: Path, tricks_game: Library
) -> None:
    """«Взятки» brings its own computer player (``tricks.COMPUTER``: at every level the lowest
    card it may play). A strong computer and a novice seated from its lobby play its deal with
    a person: the strong one thinks in the worker process, which imports the game's computer
    by its module name, the novice on the bot's thread. Nothing outside ``tests/`` names it."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", library=tricks_game, computer_pause_seconds=PAUSE
        ) as bot,
    ):
        table = await seat_table(fake, bot, 1, "взятки", ["computer", "novice"], seed=5)
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None and game.kind == tricks.KIND
        computers = [user for user in game.seats if user < 0]
        assert len(computers) == 2

        async def over() -> bool:
            return await db.games.active_game(table.group.id) is None

        await play(table, over)
        finished = await db.games.game(game.game_id)
        assert finished.status == "finished"
        assert all(not hand for hand in finished.state["engine"]["hands"])
        deals = await db.history.last_deals(table.group.id, 10)
        assert {p.user_id for p in deals[0].players} >= set(computers)
        # the strong computer's two cards were thought out in the worker, none by the easy rules
        thinker = table.services.tables.thinker
        assert thinker.decisions == tricks.CARDS and thinker.fallbacks == 0
        balances = await db.ledger.balances(table.group.id)
        assert balances.total == 0 and set(computers) <= set(balances.players)
        assert not fake.unanswered_callback_queries() and not bot.handler_errors


async def test_a_game_registered_by_the_tests_brings_stats_figures_of_its_own(
    tmp_path: Path, tricks_game: Library
) -> None:
    """«Взятки» declares two /stats figures of its own (``tests/plugin/tricks.py``): the chips
    its tricks won, counted off the ledger, and the tricks a player led, read off the deal's
    summary. After its one deal each player's /stats shows both, worded by its chat side, in
    the group's language and in private in his own, and the evening's summary its leads;
    storage and the bot's stats and evening code name neither."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", library=tricks_game) as bot,
    ):
        vera = fake.add_user("Вера")
        bob = fake.add_user("Bob", language_code="en")
        alice = fake.add_user("Алиса")
        users = [vera, bob, alice]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(11))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(vera, "/new взятки")
        lobby = table.group_messages()[-1]
        for user in (bob, alice):
            await table.press(user, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="begin"))
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None
        for _ in range(20):
            ready = table.actionable()
            if not ready:
                break
            user, message, data = ready[0]
            await table.press(user, message, data[0])
        finished = await db.games.game(game.game_id)
        assert finished.status == "finished"
        summary = (await db.history.last_deals(group.id, 1))[0].summary
        seats = list(finished.seats)
        shown = 0
        for user in users:
            seat = seats.index(user.id)
            chips = 2 * summary["won"].count(seat)  # a trick takes 1 from each of the two others
            leads = summary["leads"][seat]
            sign = f"+{chips}" if chips else "0"
            await table.say(user, "/stats")  # in the group: in its language
            text = table.group_messages()[-1].text or ""
            assert "🃏 Взятки" in text, text
            if leads or chips:
                shown += 1
                assert f"Заходов: {leads} · за взятки: {sign}" in text, text
            else:  # two tricks among three: one may neither lead nor take one
                assert "Заходов" not in text, text
            if user is bob:  # in private: in his own
                fake.user_sends(bob, fake.private_chat(bob), "/stats")
                await table.settle()
                private = fake.messages(fake.private_chat(bob), from_bot=True)[-1].text or ""
                assert "🃏 Tricks" in private, private
                mine = f"Leads: {leads} · for tricks: {sign}"
                assert (mine in private) == bool(leads or chips), private
        assert shown, "someone led"

        # the evening's summary has the game's own line too: who led how many tricks
        await table.say(vera, "/evening")
        for _ in range(100):
            posted = [
                text for m in table.group_messages() if "Заходы за вечер" in (text := m.text or "")
            ]
            if posted:
                break
            await table.settle()
            await asyncio.sleep(0.05)
        assert posted, [m.text for m in table.group_messages()[-3:]]
        leaders = {
            user.first_name: summary["leads"][seats.index(user.id)]
            for user in users
            if summary["leads"][seats.index(user.id)]
        }
        for first_name, count in leaders.items():
            assert f"{first_name} {count}" in posted[-1], posted[-1]
        assert not bot.handler_errors
