"""End to end: cards a player has marked for a purchase are his choice, made in time. A turn
that runs out makes that purchase («✓ Д♠️» marked: the queen is changed, not «без покупки»),
and the marks are stored with the table: after a restart his hand still shows them, and a
timeout then still makes that purchase. A mark shows on his hand before the press is
answered, rendered once, and the front-ends after the chat (the page) hear of it."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot import callback as cb
from game.stukolka.state import Phase, Role
from tables.events import Record, TableEvent
from tables.records import Loaded
from tests.library import CODEC, WORDS

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
        move = WORDS.tn("ru", "move.discard", 1)
        assert WORDS.t("ru", "announce.timeout", name=user.first_name, move=move) in said, said
        assert WORDS.t("ru", "move.keep") not in said
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


class _Heard:
    """A listener after the chat, as the page is: the records it was told of."""

    def __init__(self) -> None:
        self.records: list[Record] = []

    async def took(self, record: Record) -> None:
        self.records.append(record)


async def test_a_mark_renders_his_hand_once_before_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The press shows his hand at once (the edit goes before the press is answered), and the
    record of the mark, which every listener hears, does not make the chat render it again:
    one render of his hand, and no other player's, per mark."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 41)
        user, game_id = await _purchase(table)
        hands = table.services.presenter.hands
        rendered: Counter[int] = Counter()
        content = hands.content

        async def counted(loaded: Loaded, user_id: int) -> Any:
            rendered[user_id] += 1
            return await content(loaded, user_id)

        monkeypatch.setattr(hands, "content", counted)
        heard = _Heard()
        table.services.tables.stream.listeners.append(heard)
        chat = fake.private_chat(user)
        for press in range(2):  # a mark, then another
            hand = table.hand_message(user)
            assert hand is not None
            data = next(d for x, d in _selects(hand).items() if not x.startswith("✓"))
            since = fake.now()
            assert await _press(table, user, hand, data) is None
            assert rendered == {user.id: press + 1}, rendered
            sent = [r.method for r in fake.requests(since=since) if r.method != "getUpdates"]
            assert sent == ["editMessageText", "answerCallbackQuery"], sent
            assert [r.chat_id for r in fake.requests("editMessageText", since=since)] == [chat.id]
            record = heard.records[-1]
            assert isinstance(record, TableEvent) and len(heard.records) == press + 1
            assert record.game.game_id == game_id and record.hands == (user.id,)
        marked = table.hand_message(user)
        assert marked is not None
        assert len([x for x in _selects(marked) if x.startswith("✓")]) == 2
        assert not bot.handler_errors


class _Failing:
    """A listener after the chat that cannot take a record (``Unshown``)."""

    async def took(self, record: Record) -> None:
        raise RuntimeError("the page is down")


async def test_a_mark_a_listener_failed_on_still_shows_on_his_hand(tmp_path: Path) -> None:
    """The mark is committed even though a listener after the chat failed to take its record:
    his hand shows it all the same, rendered once, and the press is answered."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 41)
        user, game_id = await _purchase(table)
        hand = table.hand_message(user)
        assert hand is not None
        text, data = next(iter(_selects(hand).items()))
        table.services.tables.stream.listeners.append(_Failing())
        query = fake.user_presses(user, hand, data)
        await bot.settle(timeout=20, quiet=0.0, raise_errors=False)
        await table.services.presenter.coalescer.drain()
        assert query.answer is not None
        assert [type(error).__name__ for error in bot.handler_errors] == ["Unshown"]
        marked = table.hand_message(user)
        assert marked is not None and f"✓ {text}" in _selects(marked)
        loaded = await table.services.tables.store.snapshot(await table.db.games.game(game_id))
        assert len(loaded.meta.marked(user.id)) == 1
