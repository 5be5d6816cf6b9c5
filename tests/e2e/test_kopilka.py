"""«Копилка» (``tests/plugin/kopilka.py``), a third game written in the tests alone, is played
through the chat end to end against the fake Bot API: its move of two cards at once is made
with the hand's toggles and one confirmation, its pot of its own (the копилка) is filled every
deal, carried over when nobody takes it and taken by a pair, the ledger keeps every chip, and
/stats shows its own figure (the копилки a player took). Nothing outside ``tests/`` names it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import callback as cb
from bot.keyboards import selection_order
from server.games import Library
from tests.library import library_with
from tests.plugin import kopilka

from .fake_telegram import FakeTelegram, Message, User
from .players import Table, start_bot_for
from .test_computers import PAUSE, play, seat_table
from .test_deal_view import _deal_views
from .test_plugin_game import press_data, texts


@pytest.fixture
def kopilka_game() -> Iterator[Library]:
    library = library_with(kopilka.OFFERED)
    yield library


def chosen(hand: list[str]) -> list[str]:
    """The two cards a player of this test lays: a pair if he holds one, else his two
    highest."""
    for card in hand:
        twin = [other for other in hand if other != card and other[0] == card[0]]
        if twin:
            return [card, twin[0]]
    return sorted(hand, key=lambda card: kopilka.strength([card, card]))[-2:]


async def lay(table: Table, user: User, message: Message, cards: list[str], hand: list[str]) -> int:
    """Mark ``cards`` on ``user``'s hand message one by one, then confirm: the confirmation is
    offered only once two are marked. The mask confirmed."""
    chat = table.fake.private_chat(user)
    order = selection_order(hand, None)
    mask = 0
    for card in cards:
        acts = [table.codec.decode(d) for d in message.callback_data]
        assert not any(isinstance(act, cb.Act) for act in acts), "confirmed before two marked"
        mask |= 1 << order.index(card)
        await table.press(
            user, message, press_data(table, message, cb.Select, verb="lay", mask=mask)
        )
        message = table.fake.message(chat, message.message_id)
    await table.press(user, message, press_data(table, message, cb.Act, verb="lay", arg=mask))
    return mask


async def test_a_third_game_with_a_two_card_move_and_a_pot_of_its_own_is_played_to_its_end(
    tmp_path: Path, kopilka_game: Library
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", library=kopilka_game) as bot,
    ):
        vera = fake.add_user("Вера")
        bob = fake.add_user("Bob", language_code="en")
        alice = fake.add_user("Алиса")
        users = [vera, bob, alice]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(3))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()

        await table.say(vera, "/new копилка")
        lobby = table.group_messages()[-1]
        assert "Копилка" in (lobby.text or "") and "Сдач: 3" in (lobby.text or "")
        for user in (bob, alice):
            await table.press(user, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="begin"))
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None and game.kind == kopilka.KIND
        game_id, seats = game.game_id, list(game.seats)

        # the копилка holds every seat's ante: /balance shows it as the game's own pot, in the
        # name of no other game
        await table.say(vera, "/balance")
        shown = table.group_messages()[-1].text or ""
        assert f"Банк текущей партии: {len(users)}" in shown, shown

        # every deal: each player in turn marks two cards and lays them with one move
        moves = 0
        for _ in range(3 * len(users) + 1):
            ready = table.actionable()
            if not ready:
                break
            assert len(ready) == 1, "only the player to act has buttons"
            user, message, _ = ready[0]
            engine = (await db.games.game(game_id)).state["engine"]
            hand = list(engine["hands"][seats.index(user.id)])
            cards = chosen(hand)
            await lay(table, user, message, cards, hand)
            engine = (await db.games.game(game_id)).state["engine"]
            laid = engine["laid"][seats.index(user.id)]
            assert laid == [] or sorted(laid) == sorted(cards)  # empty once the next deal is dealt
            moves += 1
        assert moves == 3 * len(users)
        finished = await db.games.game(game_id)
        assert finished.status == "finished", "three deals make the game"

        # the money: each deal's ante, stakes and копилка, from what each deal laid
        deals = sorted(await db.history.last_deals(group.id, 10), key=lambda deal: deal.deal)
        assert len(deals) == 3
        expected = {user_id: 0 for user_id in seats}
        carried = taken_mid_game = 0
        kopilki = {user_id: 0 for user_id in seats}
        for number, deal in enumerate(deals):
            summary = deal.summary
            laid, taker = summary["laid"], summary["taker"]
            assert taker == max(range(len(seats)), key=lambda seat: kopilka.strength(laid[seat]))
            for seat, user_id in enumerate(seats):
                expected[user_id] -= 1  # the ante
                expected[user_id] += 2 if seat == taker else -1
            before, after = summary["pot_before"], summary["pot_after"]
            paired = kopilka.is_pair(laid[taker])
            if number == len(deals) - 1 or paired:
                assert after == 0
                expected[seats[taker]] += before
                kopilki[seats[taker]] += 1
                taken_mid_game += number < len(deals) - 1
            else:
                assert after == before
                carried += 1
        assert carried and taken_mid_game, "this deck carries the копилка once and a pair takes it"
        balances = await db.ledger.balances(group.id)
        assert balances.total == 0 and not balances.game_pots
        assert dict(balances.players) == expected

        # what the group read: the game's own words, the копилка carried and taken
        group_texts = texts(table.group_messages())
        assert any(
            "Копилка</b> · сдача 2 из 3" in text or "Копилка · сдача 2 из 3" in text
            for text in group_texts
        ), group_texts[-5:]
        assert any("— пара!" in text for text in group_texts)
        assert any("переходит в следующую сдачу" in text for text in group_texts)
        assert any("Копилку (" in text and "забирает" in text for text in group_texts)
        private = texts(fake.messages(fake.private_chat(bob), from_bot=True))
        assert any("Your cards" in text and "Your turn" in text for text in private)

        # /history: each deal as the game words it, the копилка before and after it
        views = await _deal_views(table)
        assert len(views) == 3
        for view, deal in zip(views, reversed(deals), strict=True):
            summary = deal.summary
            assert "не записаны" not in view and "Взятка" not in view, view
            taker = next(user for user in users if user.id == seats[summary["taker"]])
            assert f"Сдача досталась: {taker.first_name}" in view, view
            for seat, cards in enumerate(summary["laid"]):
                name = next(user.first_name for user in users if user.id == seats[seat])
                assert any(
                    line.startswith(f"{name}:") and len(line.split()) >= 3
                    for line in view.splitlines()
                ), (name, cards, view)
            assert f"Банк партии: был {summary['pot_before']}, стал {summary['pot_after']}" in view

        # /stats: each player's копилки, the game's own figure, in the group's language and in
        # private in his own
        for user in users:
            await table.say(user, "/stats")
            text = table.group_messages()[-1].text or ""
            figure = f"Копилок взято: {kopilki[user.id]}"
            assert (figure in text) == bool(kopilki[user.id]), text
        taker = next(user for user in users if kopilki[user.id])
        fake.user_sends(taker, fake.private_chat(taker), "/stats")
        await table.settle()
        mine = fake.messages(fake.private_chat(taker), from_bot=True)[-1].text or ""
        words = "Piggy banks taken" if taker is bob else "Копилок взято"
        assert f"{words}: {kopilki[taker.id]}" in mine, mine

        # the evening's summary has the game's own line: who took how many копилки
        await table.say(vera, "/evening")
        posted: list[str] = []
        for _ in range(100):
            posted = [
                text for m in table.group_messages() if "Копилки за вечер" in (text := m.text or "")
            ]
            if posted:
                break
            await table.settle()
            await asyncio.sleep(0.05)
        assert posted, [m.text for m in table.group_messages()[-3:]]
        for user in users:
            if kopilki[user.id]:
                assert f"{user.first_name} {kopilki[user.id]}" in posted[-1], posted[-1]
        assert not fake.unanswered_callback_queries() and not bot.handler_errors


async def test_computers_lay_two_cards_with_the_games_own_computer(
    tmp_path: Path, kopilka_game: Library
) -> None:
    """«Копилка» brings its own computer (``kopilka.COMPUTER``: its best two cards at every
    level). A strong computer and a novice seated from its lobby play a whole game with a
    person: the strong one's two-card moves are thought out in the worker process, which imports
    the game's computer by its module name, and come back as moves of two cards."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", library=kopilka_game, computer_pause_seconds=PAUSE
        ) as bot,
    ):
        table = await seat_table(fake, bot, 1, "копилка", ["computer", "novice"], seed=5)
        db = table.db
        game = await db.games.active_game(table.group.id)
        assert game is not None and game.kind == kopilka.KIND
        computers = [user for user in game.seats if user < 0]
        assert len(computers) == 2

        async def over() -> bool:
            return await db.games.active_game(table.group.id) is None

        await play(table, over)
        finished = await db.games.game(game.game_id)
        assert finished.status == "finished"
        deals = await db.history.last_deals(table.group.id, 10)
        assert len(deals) == 3
        seats = list(finished.seats)
        for deal in deals:
            for user in computers:
                laid = deal.summary["laid"][seats.index(user)]
                assert len(laid) == kopilka.LAID
        # the strong computer's move of each deal was thought out in the worker
        thinker = table.services.tables.thinker
        assert thinker.decisions == len(deals) and thinker.fallbacks == 0
        balances = await db.ledger.balances(table.group.id)
        assert balances.total == 0 and not balances.game_pots
        assert not fake.unanswered_callback_queries() and not bot.handler_errors


async def test_a_table_stopped_with_the_kopilka_full_gives_it_back_and_says_so(
    tmp_path: Path, kopilka_game: Library
) -> None:
    """/stop in the first deal: the deal is played out, the table closes, and the копилка goes
    back to who paid into it; the result says so, not that it carries on to a next deal."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", library=kopilka_game) as bot,
    ):
        vera, bob = fake.add_user("Вера"), fake.add_user("Боря")
        group = fake.add_group("Картёжники", [vera, bob])
        table = Table(fake, bot, group, [vera, bob], random.Random(4))
        for user in (vera, bob):
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(vera, "/new копилка")
        lobby = table.group_messages()[-1]
        await table.press(bob, lobby, press_data(table, lobby, cb.Lobby, action="join"))
        lobby = fake.message(group, lobby.message_id)
        await table.press(vera, lobby, press_data(table, lobby, cb.Lobby, action="begin"))
        db = table.db
        game = await db.games.active_game(group.id)
        assert game is not None
        seats = list(game.seats)
        await table.say(vera, "/stop")
        for _ in range(2):
            user, message, _ = table.actionable()[0]
            engine = (await db.games.game(game.game_id)).state["engine"]
            hand = list(engine["hands"][seats.index(user.id)])
            await lay(table, user, message, sorted(hand)[:2], hand)
        finished = await db.games.game(game.game_id)
        assert finished.status == "finished"
        deal = (await db.history.last_deals(group.id, 1))[0]
        balances = await db.ledger.balances(group.id)
        assert balances.total == 0 and not balances.game_pots
        shown = "\n".join(texts(table.group_messages()))
        if deal.summary["pot_after"]:  # nobody took it: it went back
            assert "Копилка (2) переходит" not in shown, shown
            assert "Копилка (2) возвращается: каждому его взнос." in shown, shown
        # the evening's summary counts the return with the deal that closed the table: its nets
        # are the ledger's, and no chip is said to wait in a pot
        summary = next(
            m.text or "" for m in table.group_messages() if "Итоги вечера" in (m.text or "")
        )
        nets = {seats[0]: 0, seats[1]: 0, **dict(balances.players)}
        for user in (vera, bob):
            amount = nets[user.id]
            said = f"+{amount}" if amount > 0 else f"−{-amount}" if amount else "0"
            assert f"{user.first_name}: {said}" in summary, summary
        assert "в кону" not in summary, summary
        assert not bot.handler_errors
