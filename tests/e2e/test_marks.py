"""End to end: cards a player has marked for a purchase are his choice, made in time. A turn
that runs out makes that purchase («✓ Д♠️» marked: the queen is changed, not «без покупки»),
and the marks are stored with the table: after a restart his hand still shows them, and a
timeout then still makes that purchase."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot import callback as cb
from game.stukolka.state import Phase, Role
from locales import t, tn
from tests.library import CODEC

from .fake_telegram import FakeTelegram, User
from .players import Table, start_bot_for
from .test_controls import _press, _selects, engine_state
from .test_games import open_table


async def _purchase(table: Table) -> tuple[User, int]:
    """Knock up to a purchase of a player who has looked at his cards: that player and the
    game's id."""
    db = table.db
    for _ in range(400):
        game = await db.games.active_game(table.group.id)
        assert game is not None
        loaded = await table.services.tables.store.snapshot(game)
        state = engine_state(loaded)
        seat = state.to_act
        user = table.fake.world.users[loaded.seats[seat]] if seat is not None else None
        hand = None if user is None else table.hand_message(user)
        if (
            user is not None
            and hand is not None
            and state.phase is Phase.PURCHASE
            and state.roles[seat] is not Role.DARK
            and _selects(hand)
        ):
            return user, game.game_id
        candidates = table.actionable((cb.Act,)) or table.actionable((cb.Look,))
        who, message, data = table.rng.choice(candidates)
        verbs = {getattr(CODEC.decode(d), "verb", None): d for d in data}
        choice = verbs.get("knock") or next(
            (d for v, d in verbs.items() if v not in ("dark", "pass")), None
        )
        await table.press(who, message, choice or table.rng.choice(data))
    raise AssertionError("no purchase")


async def _mark_one(table: Table, user: User) -> tuple[str, str]:
    """Mark one card of his hand: its label, and the card."""
    hand = table.hand_message(user)
    assert hand is not None
    text, data = next(iter(_selects(hand).items()))
    assert await _press(table, user, hand, data) is None
    marked = table.hand_message(user)
    assert marked is not None and f"✓ {text}" in _selects(marked)
    game = await table.db.games.active_game(table.group.id)
    assert game is not None
    loaded = await table.services.tables.store.snapshot(game)
    cards = loaded.meta.marked(user.id)
    assert len(cards) == 1
    return text, cards[0]


async def _time_out(table: Table, game_id: int) -> Any:
    """The turn runs out; the rules' state after it."""
    db = table.db
    loaded = await table.services.tables.store.snapshot(await db.games.game(game_id))
    table.services.timers.arm(game_id, loaded.meta.turn, time.time())
    for _ in range(200):
        await asyncio.sleep(0.02)  # the timer's task runs
        await table.settle()
        after = await table.services.tables.store.snapshot(await db.games.game(game_id))
        if after.meta.turn != loaded.meta.turn:
            return engine_state(after)
    raise AssertionError("the turn did not run out")


def _notices(table: Table) -> str:
    return "\n".join(m.text or "" for m in table.group_messages())


async def test_a_purchase_timeout_changes_the_marked_card(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 41)
        user, game_id = await _purchase(table)
        loaded = await table.services.tables.store.snapshot(await table.db.games.game(game_id))
        seat = loaded.seats.index(user.id)
        _, card = await _mark_one(table, user)
        state = await _time_out(table, game_id)
        assert state.discards[seat] == [card]
        assert state.bought[seat] == 1
        await table.settle()
        said = _notices(table)
        move = tn("ru", "move.discard", 1)
        assert t("ru", "announce.timeout", name=user.first_name, move=move) in said, said
        assert t("ru", "move.keep") not in said
        assert not bot.handler_errors


async def test_marks_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with FakeTelegram() as fake:
        async with start_bot_for(fake, path) as bot:
            table = await open_table(fake, bot, 3, "stukolka", 41)
            user, game_id = await _purchase(table)
            text, card = await _mark_one(table, user)
            assert not bot.handler_errors
        async with start_bot_for(fake, path) as bot:
            again = Table(fake, bot, table.group, table.users, table.rng)
            await again.settle()
            hand = again.hand_message(user)
            assert hand is not None
            assert f"✓ {text}" in _selects(hand), hand.buttons
            loaded = await again.services.tables.store.snapshot(await again.db.games.game(game_id))
            seat = loaded.seats.index(user.id)
            state = await _time_out(again, game_id)
            assert state.discards[seat] == [card]
            assert not bot.handler_errors
