"""End to end, on a clock the test moves: a seeded Старшина game at a human pace (each press
after 3–12 s of thought, a mark of the kitty after 1–2 s), counting the hand messages that
notify (a new message; an edit never does) each player gets per deal.

A player who pressed anything on his hand message in the last ``LOOKING`` seconds is looking
at it: his turn comes as an edit of the message he is reading, never as a new message that
pushes it away under his thumb. The deal's own new hand message (the last one shows the deal's
outcome) is the one exception.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.app import services_of
from bot.screens.hand import LOOKING
from tests.library import CODEC

from .fake_telegram import FakeTelegram, User
from .players import Table, start_bot_for
from .test_games import open_table
from .test_turn_calls import Clock

THINK = (3.0, 12.0)
MARK = (1.0, 2.0)
TIMEOUT = 60
DEALS = 1
SEED = 7


@dataclass
class Sent:
    """A new hand message one player got: when, and how long after his own last press."""

    user: int
    at: float
    since_press: float | None
    deals_message: bool  # the deal's own new hand message


@dataclass
class Measured:
    deals: int
    players: int
    sent: list[Sent] = field(default_factory=list)

    def per_player_deal(self, *, turns_only: bool = False) -> float:
        count = sum(1 for s in self.sent if not (turns_only and s.deals_message))
        return count / (self.deals * self.players)

    def within(self, seconds: float) -> list[Sent]:
        """Turn calls that came within ``seconds`` of the player's own press."""
        return [
            s
            for s in self.sent
            if not s.deals_message and s.since_press is not None and s.since_press < seconds
        ]


def _sends(table: Table, user: User) -> int:
    return len(table.fake.requests("sendMessage", chat=table.fake.private_chat(user), ok=True))


async def play_at_a_human_pace(table: Table, clock: Clock, seed: int, deals: int) -> Measured:
    """Play ``deals`` deals of the table: the player whose hand offers moves thinks, then
    presses one of them (his marks one by one, then the confirm); every new hand message is
    noted with the time since its reader's own last press."""
    rng = random.Random(seed)
    db = table.db
    measured = Measured(deals, len(table.users))
    pressed: dict[int, float] = {}
    seen = {u.id: _sends(table, u) for u in table.users}
    # the first deal's own hand messages (the rest of what the chats got: /start's answers)
    measured.sent += [Sent(user.id, clock.now, None, True) for user in table.users]
    done = await db.history.deal_count(table.group.id)
    for _ in range(2000):
        if await db.history.deal_count(table.group.id) >= deals:
            return measured
        found = table.actionable()
        assert found, "nobody has a move"
        user, message, data = found[0]
        decoded = {d: CODEC.decode(d) for d in data}
        selects = [d for d, c in decoded.items() if isinstance(c, cb.Select)]
        acts = [d for d, c in decoded.items() if isinstance(c, cb.Act)]
        marked = sum(1 for row in message.buttons for text, _ in row if text.startswith("✓"))
        if selects and not acts:
            choice = rng.choice([d for d in selects if not _is_marked(message, d)] or selects)
            await clock.advance(table, rng.uniform(*(MARK if marked else THINK)))
        else:
            choice = rng.choice(acts)
            await clock.advance(table, rng.uniform(*(MARK if marked else THINK)))
        table.fake.user_presses(user, message, choice)
        pressed[user.id] = clock.now
        await table.settle()
        now_done = await db.history.deal_count(table.group.id)
        for other in table.users:
            count = _sends(table, other)
            for index in range(count - seen[other.id]):
                last = pressed.get(other.id)
                measured.sent.append(
                    Sent(
                        other.id,
                        clock.now,
                        None if last is None else clock.now - last,
                        deals_message=now_done != done and index == 0,
                    )
                )
            seen[other.id] = count
        done = now_done
    raise AssertionError("the game did not end")


def _is_marked(message: Any, data: str) -> bool:
    return any(d == data and text.startswith("✓") for row in message.buttons for text, d in row)


async def _measure(tmp_path: Path, seed: int) -> Measured:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", turn_timeout_seconds=TIMEOUT) as bot,
    ):
        clock = Clock(services_of(bot.app))
        table = await open_table(
            fake, bot, 3, "starshina", seed, options={"max_deals": DEALS, "exchange": "ring"}
        )
        measured = await play_at_a_human_pace(table, clock, seed, DEALS)
        assert not bot.handler_errors
        return measured


async def test_no_turn_call_pushes_away_the_message_a_player_is_reading(tmp_path: Path) -> None:
    """No turn comes as a new message within ``LOOKING`` seconds of the player's own press;
    the new hand messages per player per deal are few (the deal's own, and the turns that
    come once he has looked away)."""
    measured = await _measure(tmp_path, SEED)
    print(
        f"new hand messages per player per deal: {measured.per_player_deal():.1f}"
        f" (turn calls {measured.per_player_deal(turns_only=True):.1f});"
        f" within 3 s of his press: {len(measured.within(3))},"
        f" within {LOOKING:.0f} s: {len(measured.within(LOOKING))} of {len(measured.sent)}"
    )
    assert measured.within(LOOKING) == []
    # before, a Старшина player got about 18 a deal, 59 of 108 within 20 s of his own press
    assert measured.per_player_deal() < 10
    # a turn that comes once he has looked away still calls him (6 s after the last call)
    assert any(
        not s.deals_message and s.since_press is not None and s.since_press >= LOOKING
        for s in measured.sent
    )
