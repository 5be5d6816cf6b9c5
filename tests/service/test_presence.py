"""Who looks at a table on the page: a beat holds for its lapse, a hidden page or a lapse
tells the front-ends once, and a beat in time keeps the player looking (on the suite's one
manual clock)."""

from __future__ import annotations

from storage.database import Database
from tables import TableService
from tables.presence import LAPSE, Presence
from tests.clock import ManualClock
from tests.library import GAMES


def presence_on(clock: ManualClock) -> tuple[Presence, list[tuple[int, int]]]:
    presence = Presence(clock=clock)
    gone: list[tuple[int, int]] = []
    presence.looked_away.append(lambda game, user: gone.append((game, user)))
    return presence, gone


def advance(presence: Presence, clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    presence.clock_moved()


async def test_a_beat_holds_until_it_lapses_and_then_tells_once() -> None:
    clock = ManualClock()
    presence, gone = presence_on(clock)
    presence.seen(7, 101, True)
    assert presence.watching(7, 101) and not presence.watching(7, 102)
    assert not presence.watching(8, 101)  # another table of his
    for _ in range(3):  # beats in time: still looking
        advance(presence, clock, LAPSE - 1)
        assert presence.watching(7, 101) and gone == []
        presence.seen(7, 101, True)
    advance(presence, clock, LAPSE - 0.5)
    assert presence.watching(7, 101) and gone == []
    advance(presence, clock, 1)
    assert not presence.watching(7, 101)
    assert gone == [(7, 101)]
    advance(presence, clock, LAPSE)
    assert gone == [(7, 101)]  # told once
    presence.close()


async def test_a_hidden_page_tells_at_once_and_only_if_it_was_looking() -> None:
    presence, gone = presence_on(ManualClock())
    presence.seen(7, 101, False)  # never looked: nothing to tell
    assert gone == []
    presence.seen(7, 101, True)
    presence.seen(7, 101, False)
    assert gone == [(7, 101)] and not presence.watching(7, 101)
    presence.close()


async def test_closing_stops_every_lapse() -> None:
    clock = ManualClock()
    presence, gone = presence_on(clock)
    presence.seen(7, 101, True)
    presence.close()
    advance(presence, clock, 2 * LAPSE)
    assert gone == [] and not presence.watching(7, 101)


async def test_the_service_halted_tells_no_lapse(db: Database) -> None:
    """The program stops: a page still on the screen is not told as gone afterwards (the
    chat would refresh a hand through a closed coalescer)."""
    clock = ManualClock()
    service = TableService(db, games=GAMES, turn_timeout=30, clock=clock)
    presence = service.presence
    gone: list[tuple[int, int]] = []
    presence.looked_away.append(lambda game, user: gone.append((game, user)))
    presence.seen(7, 101, True)
    await service.halt()
    advance(presence, clock, 2 * LAPSE)
    assert gone == [] and not presence.watching(7, 101)
