"""The runner: a table with no front-end attached keeps its own time, on one manual clock. A
turn runs out and its default move is made, computers move when their pause is over, and after
a restart (a new service on the same SQLite file) a turn's timer runs for the time that was
left, not a fresh turn."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from game.randomplay import random_action
from storage.database import Database
from tables.events import EveningEnded
from tests.clock import ManualClock
from tests.moves import press
from tests.service.life import START, TURN, Recorder, advance, service_on, table
from tests.service.test_table_service import seated

USERS = [101, 102, 103]


async def test_a_turn_runs_out_with_no_front_end_attached(db: Database) -> None:
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    await seated(service, USERS)
    before = await table(service)
    assert before.game.turn_deadline == clock() + TURN
    await advance(service, clock, TURN - 1)
    assert (await table(service)).meta.turn == before.meta.turn  # not yet
    shown = Recorder(service)
    await advance(service, clock, 2)
    after = await table(service)
    assert after.meta.turn > before.meta.turn
    assert before.table is not None
    late = before.table.to_act
    assert late is not None and after.meta.timeouts == {str(before.seats[late]): 1}
    assert shown.notices() == ["timeout_move"]
    await service.halt()


async def test_on_a_stepped_clock_no_timer_runs_in_the_loops_own_time(db: Database) -> None:
    """A turn a tenth of a second from running out on the manual clock waits for the clock,
    however long the loop runs meanwhile (a slow machine's read, say): only the clock moves
    it on."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    await seated(service, USERS)
    before = await table(service)
    await advance(service, clock, TURN - 0.1)
    await asyncio.sleep(0.3)  # the loop's own time runs past the deadline
    assert (await table(service)).meta.turn == before.meta.turn
    await advance(service, clock, 0.2)
    assert (await table(service)).meta.turn > before.meta.turn
    await service.halt()


async def test_computers_move_when_their_pause_is_over(db: Database) -> None:
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    await service.lobby.new_table(-1, USERS[0], "starshina")
    await service.lobby.add_computer(-1, USERS[0], "easy")
    await service.lobby.add_computer(-1, USERS[0], "easy")
    await service.lobby.begin(-1, USERS[0], lambda user: True)
    rng = random.Random(3)
    moves = 0
    for _ in range(60):
        loaded = await table(service)
        assert loaded.table is not None
        seat = loaded.table.to_act
        if seat is None:
            break
        if loaded.seats[seat] == USERS[0]:  # the person plays; nothing moves for him
            legal = loaded.table.legal()
            hand = loaded.table.holding(seat).cards
            action = random_action(seat, legal, list(hand), rng)
            await press(
                service, loaded.game.game_id, USERS[0], loaded.meta.turn, action, loaded.table
            )
            continue
        turn = loaded.meta.turn
        await advance(service, clock, service.computer_pause - 0.1)
        assert (await table(service)).meta.turn == turn, "the computer did not wait"
        await advance(service, clock, 0.2)
        assert (await table(service)).meta.turn > turn, "the computer did not move"
        moves += 1
    assert moves >= 20
    await service.halt()


async def test_after_a_restart_a_turn_runs_for_the_time_that_was_left(
    tmp_path: Path, db: Database
) -> None:
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    await seated(service, USERS)
    turn = (await table(service)).meta.turn
    await advance(service, clock, 20)
    await service.halt()  # the bot stops, 10 s left on the turn
    await db.close()

    async with await Database.open(tmp_path / "bot.sqlite3") as reopened:
        again = service_on(reopened, clock)
        await again.start()
        await advance(again, clock, 9)
        assert (await table(again)).meta.turn == turn
        await advance(again, clock, 2)
        assert (await table(again)).meta.turn > turn
        await again.halt()


async def test_a_closed_table_has_no_timer(db: Database) -> None:
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    await seated(service, USERS)
    game_id = (await table(service)).game.game_id
    assert game_id in service.runner.timers._armed
    await service.stopping.close_lost(-1, None, "bot_removed")  # the bot left the group
    assert (await db.games.game(game_id)).status != "active"
    assert game_id not in service.runner.timers._armed
    await service.halt()


async def test_an_evening_closes_with_no_front_end_attached(db: Database) -> None:
    """A person and two computers, the person away after his turns ran out: the runner plays
    the one-deal Старшина game to its end, and the evening it made ends with it and is handed
    to the listeners, with nobody showing anything."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    shown = Recorder(service)
    await service.settings.choose_options(-1, "starshina", {"max_deals": 1})
    await service.lobby.new_table(-1, USERS[0], "starshina")
    await service.lobby.add_computer(-1, USERS[0], "easy")
    await service.lobby.add_computer(-1, USERS[0], "easy")
    await service.lobby.begin(-1, USERS[0], lambda user: True)
    game_id = (await table(service)).game.game_id
    for _ in range(400):
        if (await db.games.game(game_id)).status != "active":
            break
        await advance(service, clock, TURN)
    assert (await db.games.game(game_id)).status == "finished"
    assert shown.evenings == [EveningEnded(-1, game_id)]
    assert await db.evenings.open_evening(-1) is None
    (evening,) = await service.evenings.unposted(-1)
    assert evening.deals == 1
    await service.halt()
