"""End to end, on a clock the test moves: a player is never left to miss his turn.

- a turn notifies (a new hand message, the old one deleted) whenever it comes 6 s or more after
  the last message that notified him — the deal's new hand message that showed «Ход: …» to
  someone else included;
- a turn that came silently (an edit, a notification having just gone out) notifies once more
  before it times out, and no turn times out without a notification during it;
- the turn shows the time it has left, which the reader's app keeps current, and the time it
  ends.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.app import services_of
from tests.clock import ManualClock
from tests.library import CODEC

from .fake_telegram import FakeTelegram, Message, User
from .players import Table, start_bot_for
from .test_games import open_table

TIMEOUT = 60


class Clock:
    """The suite's manual clock (``tests.clock``) as the bot's clocks of turns and
    notifications, moved by the test."""

    def __init__(self, services: Any) -> None:
        self.services = services
        self.manual = ManualClock(now=time.time())
        services.tables.store.clock = self.manual
        services.timers.clock = self.manual
        services.presenter.hands.clock = self.manual

    @property
    def now(self) -> float:
        return self.manual.now

    async def advance(self, table: Table, seconds: float) -> None:
        self.manual.advance(seconds)
        self.services.timers.clock_moved()
        self.services.presenter.hands.clock = self.manual  # its timers are armed again
        await asyncio.sleep(0.05)  # a timer due now fires
        await table.settle()


def _acts(message: Message) -> list[str]:
    return [d for d in message.callback_data if isinstance(CODEC.decode(d), cb.Act)]


def _to_act(table: Table) -> tuple[User, Message]:
    found = [(user, message) for user, message, _ in table.actionable((cb.Act,))]
    assert len(found) == 1, [u.first_name for u, _ in found]
    return found[0]


async def _hands(table: Table) -> dict[int, int]:
    """Each player's hand message of the deal, as stored."""
    game = await table.db.games.active_game(table.group.id)
    assert game is not None
    return dict(game.hand_messages)


def _hand_sends(table: Table, user: User) -> int:
    """How many messages the bot has sent to his private chat (each one notified him)."""
    return len(table.fake.requests("sendMessage", chat=table.fake.private_chat(user), ok=True))


async def _opened(fake: FakeTelegram, bot: Any) -> tuple[Table, Clock]:
    clock = Clock(services_of(bot.app))
    table = await open_table(fake, bot, 4, "stukolka", 3)
    return table, clock


async def test_a_turn_six_seconds_after_the_deals_new_hand_message_notifies(
    tmp_path: Path,
) -> None:
    """The deal's new hand messages notify everyone while they say «Ход: <first speaker>»;
    the next speaker's turn 8 s later is a notification of its own, not a silent edit."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", turn_timeout_seconds=TIMEOUT) as bot,
    ):
        table, clock = await _opened(fake, bot)
        first, _ = _to_act(table)
        waiting = await _hands(table)
        sends = {u.id: _hand_sends(table, u) for u in table.users}
        await clock.advance(table, 8)
        user, message = _to_act(table)
        await table.press(user, message, _acts(message)[0])
        second, hand = _to_act(table)
        assert second.id != first.id
        old = waiting[second.id]
        assert hand.message_id != old, "the turn came as an edit, which is silent"
        assert fake.message(fake.private_chat(second), old).deleted
        assert _hand_sends(table, second) == sends[second.id] + 1
        assert not bot.handler_errors


async def test_a_silent_turn_is_called_again_before_it_times_out(tmp_path: Path) -> None:
    """A turn 2 s after the deal's hand message comes by an edit (he has just been called);
    if he does not move, it notifies when a third of its time is left, and only then does
    it time out."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", turn_timeout_seconds=TIMEOUT) as bot,
    ):
        table, clock = await _opened(fake, bot)
        first, message = _to_act(table)
        await clock.advance(table, 2)
        sends = {u.id: _hand_sends(table, u) for u in table.users}
        before = await _hands(table)
        await table.press(first, message, _acts(message)[0])
        second, hand = _to_act(table)
        old = before[second.id]
        assert hand.message_id == old, "a quick turn: an edit"
        assert _hand_sends(table, second) == sends[second.id]
        # two thirds of his time go by: nothing yet
        await clock.advance(table, TIMEOUT * 2 / 3 - 1)
        assert _hand_sends(table, second) == sends[second.id]
        # a third of it is left: his turn notifies again, as a new message
        await clock.advance(table, 2)
        assert _hand_sends(table, second) == sends[second.id] + 1
        called = table.hand_message(second)
        assert called is not None and called.message_id != old and _acts(called)
        assert fake.message(fake.private_chat(second), old).deleted
        # and once: then his time runs out, and the default move is made for him
        await clock.advance(table, TIMEOUT / 3 - 2)
        assert _hand_sends(table, second) == sends[second.id] + 1
        await clock.advance(table, 2)
        third, _ = _to_act(table)
        assert third.id != second.id
        assert not bot.handler_errors


async def test_the_turn_shows_the_time_left_and_when_it_ends(tmp_path: Path) -> None:
    """The table and the hand of the player to act show the time his turn has left and the
    time it ends, both Telegram date-time entities: the time left in the entity's relative
    format, which each reader's app keeps current (nobody does arithmetic, and no edit has to
    keep it ticking), the end in his own time zone. An app that does not know the entity reads
    «⏳ 60 с, до 20:27 UTC»: the seconds left when the message was written, never the end in
    UTC alone."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", turn_timeout_seconds=TIMEOUT) as bot,
    ):
        table, clock = await _opened(fake, bot)
        user, hand = _to_act(table)
        game = await table.db.games.active_game(table.group.id)
        assert game is not None and game.turn_deadline is not None
        ends = int(game.turn_deadline)
        assert ends == int(clock.now + TIMEOUT)
        utc = datetime.fromtimestamp(ends, UTC).strftime("%H:%M UTC")
        assert game.table_message_id is not None
        table_message = fake.message(table.group, game.table_message_id)
        for message in (hand, table_message):
            text = message.text or ""
            times = [e for e in message.entities if e["type"] == "date_time"]
            assert [(e["unix_time"], e["date_time_format"]) for e in times] == [
                (ends, "r"),
                (ends, "t"),
            ], message.entities
            shown = [utf16_slice(text, e["offset"], e["length"]) for e in times]
            assert shown == [f"{TIMEOUT} с", utc], shown
            assert f"⏳ {TIMEOUT} с, до {utc}" in text
        # 20 s later he moves: the next turn says its own time, from the clock at that edit
        await clock.advance(table, 20)
        await table.press(user, hand, _acts(hand)[0])
        _, hand = _to_act(table)
        later = datetime.fromtimestamp(ends + 20, UTC).strftime("%H:%M UTC")
        table_message = fake.message(table.group, game.table_message_id)
        for message in (hand, table_message):
            assert f"⏳ {TIMEOUT} с, до {later}" in (message.text or ""), message.text
        assert not bot.handler_errors


def utf16_slice(text: str, offset: int, length: int) -> str:
    """The part of ``text`` an entity covers (its offsets count UTF-16 units)."""
    encoded = text.encode("utf-16-le")
    return encoded[offset * 2 : (offset + length) * 2].decode("utf-16-le")
