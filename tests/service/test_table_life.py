"""A table's life with no front-end attached, on one manual clock: a recording listener
(``tests.service.life.Recorder``) stands in for the chat and the page and shows nothing. An
away player's turns are made after a computer's pause; /stop and the vote to void close the
table and its evening; and a restart (a new service on the same SQLite file) deals on a table
an older version left frozen, hands out the results still due once, and times every turn for
what was left of it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from game.randomplay import random_action
from storage.database import Database
from tables import AWAY_AFTER_TIMEOUTS, Loaded, TableService
from tables.events import EveningEnded, ResultsDue, TableEvent
from tests import moves
from tests.clock import ManualClock
from tests.service.life import (
    START,
    TURN,
    Recorder,
    advance,
    freeze,
    play_until_deal_ends,
    service_on,
    table,
)

USERS = [101, 102, 103]
#: the second group of the restart test
OTHER = -2


async def opened(service: TableService, chat: int, users: list[int]) -> Loaded:
    """A Стуколка table of ``users`` begun in ``chat``."""
    await service.lobby.new_table(chat, users[0], "stukolka")
    for user in users[1:]:
        await service.lobby.join(chat, user)
    await service.lobby.begin(chat, users[0], lambda user: True)
    loaded = await service.store.active(chat)
    assert loaded is not None
    return loaded


async def press(service: TableService, loaded: Loaded, seat: int, rng: random.Random) -> None:
    """A random legal press of the seat to act, as a front-end makes it."""
    assert loaded.table is not None
    state: Any = loaded.table
    action = random_action(seat, loaded.table.legal(), state.hands[seat], rng)
    user = loaded.seats[seat]
    game_id, turn = loaded.game.game_id, loaded.meta.turn
    await moves.press(service, game_id, user, turn, action, loaded.table)


async def test_an_away_players_turns_come_after_a_computers_pause(db: Database) -> None:
    """The others press; 103 never does: his turns run out until he is away, and from then
    on his moves are made a computer's pause after his turn comes, by the runner alone."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    shown = Recorder(service)
    rng = random.Random(5)
    await opened(service, -1, USERS)
    late = played = 0
    for _ in range(600):
        loaded = await table(service)
        assert loaded.table is not None
        seat = loaded.table.to_act
        assert seat is not None
        if loaded.seats[seat] != 103:
            await press(service, loaded, seat, rng)
            continue
        turn = loaded.meta.turn
        away = 103 in loaded.meta.away
        wait = service.computer_pause if away else TURN
        await advance(service, clock, wait - 0.1)
        assert (await table(service)).meta.turn == turn, "his turn ended early"
        await advance(service, clock, 0.2)
        assert (await table(service)).meta.turn > turn, "nobody moved for him"
        if away:
            played += 1
            if played == 5:
                break
        else:
            late += 1
    assert (late, played) == (AWAY_AFTER_TIMEOUTS, 5)
    assert shown.notices().count("timeout_move") == AWAY_AFTER_TIMEOUTS
    assert shown.notices().count("now_away") == 1
    await service.halt()


async def test_stop_after_the_deal_closes_the_table_and_its_evening(db: Database) -> None:
    """/stop: the turns run out until the deal ends, then the table closes, and with it the
    evening (the group's last table), handed to the listeners after the table's messages."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    shown = Recorder(service)
    game_id = (await opened(service, -1, USERS)).game.game_id
    await service.stopping.stop(-1, USERS[0], is_admin=False)
    for _ in range(400):
        if (await db.games.game(game_id)).status != "active":
            break
        await advance(service, clock, TURN)
    assert (await db.games.game(game_id)).status == "finished"
    assert shown.dealt() == [0] and shown.events[-1].closed
    # on the one stream: the change that closed the table, then the evening it ended
    closing, ended = shown.records[-2:]
    assert closing is shown.events[-1] and ended == EveningEnded(-1, game_id)
    assert shown.evenings == [ended]
    assert await db.evenings.open_evening(-1) is None
    (evening,) = await service.evenings.unposted(-1)
    assert evening.deals == 1
    assert game_id not in service.runner.timers._armed
    await service.halt()


async def test_an_evening_ends_by_its_gap_on_the_services_clock(db: Database) -> None:
    """A deal ends, then the table is lost (its group gone: no table's end ends the evening):
    the evening, stamped on the service's manual clock, ends exactly its gap after its last
    deal, by the evenings' own timer and the clock alone — no front-end, no sleep."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    shown = Recorder(service)
    await opened(service, -1, USERS)
    await advance(service, clock, 7)
    await play_until_deal_ends(service, -1, random.Random(11))
    last_deal = clock()
    evening = await db.evenings.open_evening(-1)
    assert evening is not None and (evening.started_at, evening.last_at) == (last_deal, last_deal)
    lost = await service.stopping.close_lost(-1, None, "bot_removed")
    assert lost is not None and lost.closed
    gap = await service.evenings.gap(-1)
    await advance(service, clock, gap - 1)
    assert shown.evenings == [] and await db.evenings.open_evening(-1) is not None
    await advance(service, clock, 1)
    assert shown.evenings == [EveningEnded(-1)]
    assert await db.evenings.open_evening(-1) is None
    (ended,) = await service.evenings.unposted(-1)
    assert ended.ended_at == last_deal + gap and ended.deals == 2
    await service.halt()


async def test_a_voided_deal_closes_the_table_and_moves_no_chip(db: Database) -> None:
    """/stop, then every player agrees to void the deal: every chip goes back, the table is
    stopped, its timer gone, and the evening (the deal was not counted) ends with nothing."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    shown = Recorder(service)
    loaded = await opened(service, -1, USERS)
    game_id = loaded.game.game_id
    await service.stopping.stop(-1, USERS[0], is_admin=False)
    await advance(service, clock, TURN)  # a turn runs out meanwhile
    for user in USERS:
        await service.stopping.vote_void(game_id, user, 0)
    assert shown.events[-1].closed and shown.notices()[-1] == "deal_voided"
    assert (await db.games.game(game_id)).status == "stopped"
    balances = await db.ledger.balances(-1)
    assert balances.total == 0 and not any(balances.players.values()) and balances.pot == 0
    assert game_id not in service.runner.timers._armed
    await advance(service, clock, TURN)
    assert (await db.games.game(game_id)).version == shown.events[-1].game.version
    await service.halt()


async def test_a_restart_resumes_every_table_with_no_front_end(
    tmp_path: Path, db: Database
) -> None:
    """The bot stops with a deal's result not yet posted in one group, and a table frozen by
    an older version in another. On the same file again, the service alone: the frozen table
    is dealt on and its result published; the result still due is handed out once (not the
    unfrozen one's: its reply carries it); the turns run for the time that was left."""
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    await db.chats.upsert_chat(OTHER, "other group", now=clock())
    rng = random.Random(5)
    due_id = (await opened(service, -1, USERS)).game.game_id
    await play_until_deal_ends(service, -1, rng)
    await opened(service, OTHER, [104, *USERS[:2]])
    frozen_id = await freeze(service, OTHER, rng)
    await advance(service, clock, 20)  # nobody plays for 20 s: 10 s left of the turn
    turn = (await table(service)).meta.turn
    await service.halt()
    await db.close()

    async with await Database.open(tmp_path / "bot.sqlite3") as reopened:
        again = service_on(reopened, clock)
        shown = Recorder(again)
        await again.start()
        assert shown.results == [due_id]
        # the unfrozen table's change (its result in it), then the result still due
        assert [type(record) for record in shown.records[:2]] == [TableEvent, ResultsDue]
        (reply,) = shown.events
        assert reply.game is not None and reply.game.game_id == frozen_id
        assert reply.new_deal and [result.deal for result in reply.results] == [0]
        unfrozen = await reopened.games.game(frozen_id)
        assert unfrozen.turn_deadline == clock() + TURN
        assert set(again.runner.timers._armed) == {due_id, frozen_id}
        await advance(again, clock, 9)
        assert (await table(again)).meta.turn == turn
        await advance(again, clock, 2)
        assert (await table(again)).meta.turn > turn
        assert "timeout_move" in shown.notices()
        # the front-end posts them: the next restart hands out nothing
        await again.steps.results_posted(due_id, [0])
        await again.steps.results_posted(frozen_id, [0])
        await again.halt()
        once_more = service_on(reopened, clock)
        shown = Recorder(once_more)
        await once_more.start()
        assert shown.results == [] and shown.events == []
        await once_more.halt()
