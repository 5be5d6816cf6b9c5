"""End to end: the real Application plays complete games against the fake Telegram, users
pressing only buttons the bot really sent, and every message is scanned for cards its reader
could not know."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from bot import callback as cb
from storage.database import Database
from tests.library import CODEC

from .fake_telegram import FakeTelegram
from .players import Table, cards_in, known_cards, replay_states, start_bot_for


async def open_table(
    fake: FakeTelegram,
    bot: Any,
    players: int,
    choice: str,
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    language_code: str = "ru",
) -> Table:
    """A group of ``players`` who started the bot, a table opened with ``/new choice``,
    everyone seated through the lobby's buttons and the game begun."""
    users = [fake.add_user(f"Игрок{i}", language_code=language_code) for i in range(players)]
    group = fake.add_group("Картёжники", users)
    table = Table(fake, bot, group, users, random.Random(seed))
    for user in users:
        fake.user_starts_bot(user)
    await table.settle()
    if options:
        db = table.db
        await db.chats.upsert_chat(group.id, group.title, now=table.services.tables.clock())
        kind = "starshina" if choice == "starshina" else "stukolka"
        await db.chats.set_chat_options(group.id, kind, options, now=table.services.tables.clock())
    await table.say(users[0], f"/new {choice}")
    lobby = table.group_messages()[-1]
    for user in users[1:]:
        join = next(
            d
            for d in lobby.callback_data
            if table.codec.decode(d) == cb.Lobby(_game(table, d), "join")
        )
        await table.press(user, lobby, join)
    lobby = table.fake.message(group, lobby.message_id)
    begin = next(
        d
        for d in lobby.callback_data
        if isinstance(decoded := table.codec.decode(d), cb.Lobby) and decoded.action == "begin"
    )
    await table.press(users[0], lobby, begin)
    return table


def _game(table: Table, data: str) -> int:
    decoded = table.codec.decode(data)
    assert isinstance(decoded, cb.Lobby)
    return decoded.game_id


async def deals_done(db: Database, chat_id: int) -> int:
    return len(await db.history.last_deals(chat_id, 1000))


async def check_no_leaks(table: Table, db: Database) -> None:
    """No group message shows a card that was not public in its deal, and no private message
    a card its reader could not know."""
    chat_id = table.group.id
    games = [g for g in await _games(db, chat_id)]
    public_by_deal: list[set[str]] = []
    private_by_user: dict[int, list[set[str]]] = defaultdict(list)
    for game_id, kind in games:
        per_deal: dict[int, list[Any]] = defaultdict(list)
        seats_of: dict[int, list[int]] = {}
        for deal, state, seats in await replay_states(db, game_id):
            per_deal[deal].append(state)
            seats_of[deal] = seats
        game = await db.games.game(game_id)
        for states in per_deal.values():
            public_by_deal.append(known_cards(kind, states, None))
            for seat, user_id in enumerate(game.seats):
                private_by_user[user_id].append(known_cards(kind, states, seat))
    for message in table.group_messages():
        for text, _ in revisions(message):
            shown = cards_in(text)
            assert any(shown <= public for public in public_by_deal), (
                f"group message shows private cards: {sorted(shown)}\n{text}"
            )
    for user in table.users:
        for message in table.fake.messages(table.fake.private_chat(user), from_bot=True):
            for text, data in revisions(message):
                shown = cards_in(text) | {c for c in (cb_card(d) for d in data) if c}
                assert any(shown <= known for known in private_by_user[user.id]), (
                    f"{user.first_name} was shown cards not his: {sorted(shown)}"
                )


def revisions(message: Any) -> list[tuple[str, list[str]]]:
    """Every text a message showed, with the callback data of its buttons then."""
    shown = []
    for revision in [*message.history, message]:
        markup = revision.reply_markup or {}
        data = [
            button.get("callback_data", "")
            for row in markup.get("inline_keyboard", [])
            for button in row
        ]
        shown.append((revision.text or "", data))
    return shown


def cb_card(data: str | None) -> str | None:
    if not data:
        return None
    try:
        decoded = CODEC.decode(data)
    except cb.BadCallback:
        return None
    if isinstance(decoded, cb.Act) and isinstance(decoded.arg, str) and len(decoded.arg) == 2:
        return decoded.arg
    return None


async def _games(db: Database, chat_id: int) -> list[tuple[int, str]]:
    deals = await db.history.last_deals(chat_id, 10000)
    seen: dict[int, str] = {}
    for deal in deals:
        seen[deal.game_id] = deal.kind
    active = await db.games.active_game(chat_id)
    if active is not None:
        seen[active.game_id] = active.kind
    return sorted(seen.items())


@pytest.mark.parametrize(
    ("players", "choice", "deals", "seed"),
    [(3, "stukolka", 4, 1), (2, "stukolka", 3, 2), (6, "shleif", 3, 3), (4, "shleif", 4, 4)],
)
async def test_stukolka_tables_play_deal_after_deal(
    tmp_path: Path, players: int, choice: str, deals: int, seed: int
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, players, choice, seed)
        db = table.db
        chat_id = table.group.id

        async def count() -> int:
            return await deals_done(db, chat_id)

        done_deals = 0
        for _ in range(5000):
            done_deals = await count()
            if done_deals >= deals:
                break
            if not await table.step():
                raise AssertionError("nobody can move")
        assert done_deals >= deals
        balances = await db.ledger.balances(chat_id)
        assert balances.total == 0
        assert len(balances.players) == players or balances.pot > 0
        await check_no_leaks(table, db)
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (7, {"max_deals": 3}),
        (8, {"max_deals": 2, "exchange": "ring", "trumps": "dealer_names", "scoring": "per_trick"}),
    ],
)
async def test_starshina_game_from_new_to_the_winner(
    tmp_path: Path, seed: int, options: dict[str, Any]
) -> None:
    """A whole Старшина game (several deals, the exchange, the kitty) until someone wins;
    ``max_deals`` keeps it short (a 12-trick end is in the engine's worked cases)."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "starshina", seed, options=options)
        db = table.db
        chat_id = table.group.id
        game = await db.games.active_game(chat_id)
        assert game is not None
        for _ in range(20000):
            if (await db.games.game(game.game_id)).status != "active":
                break
            if not await table.step(look_chance=0.0):
                raise AssertionError("nobody can move")
        final = await db.games.game(game.game_id)
        assert final.status == "finished"
        deals = await db.history.last_deals(chat_id, 100)
        assert len(deals) >= 1
        balances = await db.ledger.balances(chat_id)
        assert balances.total == 0 and not balances.game_pots
        await check_no_leaks(table, db)
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors
