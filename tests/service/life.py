"""What the table-life tests share: a service on one manual clock (``tests.clock``), a
recording listener that stands in for every front-end and shows nothing, the clock moved
until the moves that came due are made, and a table played to a deal's end or left frozen as an
older version left it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from game.randomplay import random_action
from storage.database import Database
from storage.records import Game
from tables import Loaded, TableService
from tables.computers import Thinker
from tables.events import EveningEnded, Record, ResultsDue, TableEvent
from tables.listener import TableListener
from tables.steps import deal_record, ledger_transfers
from tests import moves
from tests.clock import ManualClock
from tests.library import GAMES

#: the seconds a person has for a decision in these tests
TURN = 30.0
#: the moment every test's clock starts at
START = 1_800_000_000.0


def service_on(db: Database, clock: ManualClock) -> TableService:
    """A table service on ``db`` whose every timer runs on ``clock`` (stepped: a timer fires
    when ``advance`` moves the clock past it, never in the loop's own time)."""
    seeds = iter(range(10**6))
    return TableService(
        db,
        games=GAMES,
        turn_timeout=TURN,
        clock=clock,
        stepped=True,
        seed=lambda: f"seed-{next(seeds)}",
        computer_pause=1.5,
        thinker=Thinker(0, seed=7),
    )


class Recorder(TableListener):
    """A front-end that shows nothing: every record the service published and every commit,
    in order."""

    def __init__(self, service: TableService) -> None:
        self.commits: list[Game] = []
        self.records: list[Record] = []  # the whole stream, as the listeners take it
        service.stream.listeners.append(self)
        service.store.committed.append(self.commits.append)

    async def took(self, record: Record) -> None:
        self.records.append(record)

    @property
    def events(self) -> list[TableEvent]:
        """Every change of a table published, in order."""
        return [record for record in self.records if isinstance(record, TableEvent)]

    @property
    def evenings(self) -> list[EveningEnded]:
        """Every evening ended that was published, in order."""
        return [record for record in self.records if isinstance(record, EveningEnded)]

    @property
    def results(self) -> list[int]:
        """The games whose results were published as due after a restart, in order."""
        return [record.game.game_id for record in self.records if isinstance(record, ResultsDue)]

    def notices(self) -> list[str]:
        """The keys of every notice published, in order."""
        return [notice.key for event in self.events for notice in event.notices]

    def dealt(self) -> list[int]:
        """The deals whose results were published, in order."""
        return [result.deal for event in self.events for result in event.results]


async def table(service: TableService) -> Loaded:
    """The group's open table."""
    loaded = await service.store.active(-1)
    assert loaded is not None
    return loaded


async def advance(service: TableService, clock: ManualClock, seconds: float) -> None:
    """Move the clock and let every timer that came due make its move."""
    clock.advance(seconds)
    service.clock_moved()
    for timers in (service.runner.timers, service.evenings.timers):
        for _ in range(50):
            await asyncio.sleep(0)
        while timers._firing:
            await asyncio.gather(*list(timers._firing))


async def play_until_deal_ends(
    service: TableService, chat: int, rng: random.Random, *, last: bool = True
) -> tuple[Loaded, Any, int]:
    """Random legal presses at ``chat``'s table up to the move that ends the deal: made with
    ``last``, else only found. The table before that move, the move, and its seat."""
    while True:
        loaded = await service.store.active(chat)
        assert loaded is not None and loaded.table is not None
        seat = loaded.table.to_act
        assert seat is not None
        state: Any = loaded.table
        action = random_action(seat, loaded.table.legal(), state.hands[seat], rng)
        ends = loaded.plugin.rules.load(loaded.table.to_json()).apply(action).deal_over
        if ends and not last:
            return loaded, action, seat
        game_id, user = loaded.game.game_id, loaded.seats[seat]
        await moves.press(service, game_id, user, loaded.meta.turn, action, loaded.table)
        if ends:
            return loaded, action, seat


async def freeze(service: TableService, chat: int, rng: random.Random) -> int:
    """What an older version left behind: a deal's end committed, the next deal not."""
    loaded, action, seat = await play_until_deal_ends(service, chat, rng, last=False)
    assert loaded.table is not None
    step = loaded.table.apply(action)
    loaded.meta.turn += 1
    loaded.meta.deals += 1
    await service.store.commit(
        loaded,
        action,
        loaded.seats[seat],
        ledger_transfers(step, loaded.seats, 0),
        deal_record(step, loaded.seats, 0),
    )
    frozen = await service.store.active(chat)
    assert frozen is not None and frozen.table is not None
    assert frozen.table.to_act is None and frozen.game.turn_deadline is None
    return frozen.game.game_id
