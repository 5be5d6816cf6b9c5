"""What every listener is told of each change of a table (``tables.events.TableEvent``): the
game as committed, the rules' events in order — a secret only to the one player it is
addressed to —, and whose own view the change concerns."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from game.randomplay import random_action
from storage.database import Database
from tables import TableService
from tables.commands import Look
from tables.events import Record, TableEvent, Unshown
from tables.listener import TableListener
from tests.clock import ManualClock
from tests.moves import press
from tests.service.life import START, Recorder, service_on, table
from tests.service.test_table_service import seated

USERS = [101, 102, 103]


async def play(service: TableService, rng: random.Random, presses: int) -> None:
    """Random legal moves of the seat to act, each made as a front-end makes it."""
    for _ in range(presses):
        loaded = await table(service)
        assert loaded.table is not None
        seat = loaded.table.to_act
        assert seat is not None
        state: Any = loaded.table
        action = random_action(seat, loaded.table.legal(), state.hands[seat], rng)
        game_id, user, turn = loaded.game.game_id, loaded.seats[seat], loaded.meta.turn
        await press(service, game_id, user, turn, action, loaded.table)


async def test_each_change_is_one_event_with_its_secrets_addressed(db: Database) -> None:
    service = service_on(db, ManualClock(START))
    recorder = Recorder(service)
    await seated(service, USERS, "shleif")
    await play(service, random.Random(3), 60)
    events = recorder.events
    assert events
    versions = [event.version for event in events]
    assert versions == sorted(versions)
    assert events[-1].game == (await db.games.game(events[-1].game.game_id))
    drawn = [
        (user, event)
        for change in events
        for user, private in change.private.items()
        for event in private
        if event.kind == "drew"
    ]
    assert drawn, "a purchase draws cards for its buyer alone"
    for change in events:
        for user, private in change.private.items():
            assert user in change.game.seats
            for other in USERS:
                seen = change.seen_by(other)
                assert all((event in seen) == (other == user) for event in private)
        assert all(event.to is None for event in change.public)


async def test_a_look_concerns_only_the_looker_and_a_move_every_seat(db: Database) -> None:
    service = service_on(db, ManualClock(START))
    recorder = Recorder(service)
    await seated(service, USERS, "shleif")
    await play(service, random.Random(5), 1)  # the dealer's choice: then the cards are dealt
    loaded = await table(service)
    assert loaded.table is not None
    seat = loaded.table.to_act
    assert seat is not None
    looker = loaded.seats[seat]
    look = await service.turns.act(loaded.game.game_id, looker, loaded.meta.turn, Look())
    with pytest.raises(FrozenInstanceError):  # what the operation hands back stays as it was
        look.hands = (*look.hands, looker)  # type: ignore[misc]
    assert recorder.events[-1] is look, "published as it is handed back"
    assert look.hands == (looker,) and not look.table_changed
    assert [event.kind for event in look.public] == ["look"]
    await play(service, random.Random(5), 1)
    move = recorder.events[-1]
    assert move.table_changed and set(move.hands) == set(USERS) and move.public


async def test_a_lost_table_is_told_as_lost_and_no_evening_takes_it(db: Database) -> None:
    """The bot removed from the group: the table closes, and its event says it is lost (the
    chat shows it no more; the page still hears it). No evening takes it: it ends by its gap."""
    service = service_on(db, ManualClock(START))
    recorder = Recorder(service)
    await seated(service, USERS, "shleif")
    await play(service, random.Random(7), 30)
    event = await service.stopping.close_lost(-1, None, "bot_removed")
    assert event is not None
    assert event.lost == "bot_removed" and event.closed and recorder.events[-1] is event
    assert not event.game.is_open
    assert recorder.evenings == []


class Failing(TableListener):
    """A front-end that fails to show anything."""

    async def took(self, record: Record) -> None:
        raise RuntimeError("cannot show it")


async def test_every_change_goes_out_once_as_it_is_made_even_past_a_failing_listener(
    db: Database,
) -> None:
    """No front-end publishes: each operation does, once per change and before it hands the
    record back (a mark of cards, which moves no card, too). A listener that fails does not
    keep the change from the ones after it, nor undo it: its maker hears it failed to be
    shown (``Unshown``), with the record of what was committed."""
    service = service_on(db, ManualClock(START))
    first = Recorder(service)
    await seated(service, USERS, "starshina")
    rng = random.Random(9)
    for _ in range(60):  # to a move of several cards (the kitty's, an exchange's)
        loaded = await table(service)
        assert loaded.table is not None and loaded.table.to_act is not None
        pick = next((entry for entry in loaded.table.legal() if entry.pick), None)
        if pick is not None:
            break
        await play(service, rng, 1)
    assert pick is not None and loaded.table is not None and loaded.table.to_act is not None
    assert len(first.events) == len(set(map(id, first.events))) > 0, "each change once"
    seat = loaded.table.to_act
    held = loaded.table.holding(seat).cards[:1]
    marked = await service.turns.mark(
        loaded.game.game_id, loaded.seats[seat], loaded.meta.turn, pick.verb, held
    )
    assert first.events[-1] is marked and marked.hands == (loaded.seats[seat],)
    service.stream.listeners.insert(0, Failing())
    last = Recorder(service)
    state: Any = loaded.table
    action = random_action(seat, loaded.table.legal(), state.hands[seat], random.Random(1))
    game_id, user, turn = loaded.game.game_id, loaded.seats[seat], loaded.meta.turn
    with pytest.raises(Unshown) as failed:
        await press(service, game_id, user, turn, action, loaded.table)
    made = failed.value.record
    assert isinstance(made, TableEvent) and first.events[-1] is made is last.events[-1]
    assert (await db.games.game(game_id)).version == made.version > loaded.game.version
