"""What the table-life tests share: a service on one manual clock (``tests.clock``), a
recording listener that stands in for every front-end and shows nothing, and the clock moved
until the moves that came due are made."""

from __future__ import annotations

import asyncio

from storage.database import Database
from storage.records import Game
from tables import Loaded, Reply, TableService
from tables.computers import Thinker
from tables.events import TableEvent
from tests.clock import ManualClock

#: the seconds a person has for a decision in these tests
TURN = 30.0
#: the moment every test's clock starts at
START = 1_800_000_000.0


def service_on(db: Database, clock: ManualClock) -> TableService:
    """A table service on ``db`` whose every timer runs on ``clock``."""
    seeds = iter(range(10**6))
    return TableService(
        db,
        turn_timeout=TURN,
        clock=clock,
        seed=lambda: f"seed-{next(seeds)}",
        computer_pause=1.5,
        thinker=Thinker(0, seed=7),
    )


class Recorder:
    """A front-end that shows nothing: every reply the service published, every commit, and
    the evenings and results it handed out, in order."""

    def __init__(self, service: TableService) -> None:
        self.replies: list[Reply] = []
        self.commits: list[Game] = []
        self.evenings: list[tuple[int, int | None]] = []
        self.results: list[int] = []  # games whose results were handed out as due
        self.events: list[TableEvent] = []  # every change, as the listeners take it
        service.shows.append(self.show)
        service.listeners.append(self)

    async def show(self, reply: Reply) -> None:
        self.replies.append(reply)

    def table_changed(self, game: Game) -> None:
        self.commits.append(game)

    def evenings_due(self, chat_id: int, after_game: int | None) -> None:
        self.evenings.append((chat_id, after_game))

    def results_due(self, game: Game) -> None:
        self.results.append(game.game_id)

    async def took(self, event: TableEvent) -> None:
        self.events.append(event)

    def notices(self) -> list[str]:
        """The keys of every notice published, in order."""
        return [notice.key for reply in self.replies for notice in reply.notices]

    def dealt(self) -> list[int]:
        """The deals whose results were published, in order."""
        return [result.deal for reply in self.replies for result in reply.results]


async def table(service: TableService) -> Loaded:
    """The group's open table."""
    loaded = await service.active(-1)
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
