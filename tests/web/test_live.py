"""The page's live stream (``web.live.Hub``): a change of a table reaches the pages of its
seats with the events each user may see — the public ones and his own, never another's
secret —, folded into one write however many came meanwhile."""

from __future__ import annotations

import json

from game.core import Event
from storage.records import Game
from tables.events import Seen, TableEvent
from web.live import EVENTS_KEPT, Hub, Listener


def change(game_id: int, version: int, *seen: Seen) -> TableEvent:
    game = Game(
        game_id=game_id,
        chat_id=-1,
        kind="stukolka",
        status="active",
        version=version,
        state_text="{}",
        options={},
        seats=(101, 102),
        created_by=101,
        table_message_id=None,
        hand_messages={},
        turn_deadline=None,
        created_at=0.0,
        updated_at=0.0,
    )
    return TableEvent(game, seen, (), (), (), False, True, False, False)


def opened(hub: Hub, user: int, game_id: int | None) -> Listener:
    page = Listener(user, game_id)
    hub._add(page)
    return page


def news(page: Listener) -> dict[str, object]:
    head, data = page.written().decode().split("data: ", 1)
    assert head == "event: changed\n" and data.endswith("\n\n")
    parsed: dict[str, object] = json.loads(data)
    return parsed


async def test_each_page_hears_the_public_events_and_only_its_own_secrets() -> None:
    hub = Hub()
    mine, theirs, elsewhere = opened(hub, 101, 7), opened(hub, 102, None), opened(hub, 102, 8)
    await hub.took(
        change(
            7,
            3,
            Seen(Event("bought", {"seat": 0, "count": 2})),
            Seen(Event("drew", {"cards": ["AS", "KH"]}, to=0), 101),
        )
    )
    await hub.took(change(7, 4, Seen(Event("play", {"seat": 1, "card": "7D"}))))
    assert mine.dirty.is_set() and theirs.dirty.is_set() and not elsewhere.dirty.is_set()
    assert news(mine) == {
        "events": [
            {"game": 7, "version": 3, "kind": "bought", "data": {"seat": 0, "count": 2}},
            {"game": 7, "version": 3, "kind": "drew", "data": {"cards": ["AS", "KH"]}},
            {"game": 7, "version": 4, "kind": "play", "data": {"seat": 1, "card": "7D"}},
        ]
    }
    assert [e["kind"] for e in news(theirs)["events"]] == ["bought", "play"]  # type: ignore[attr-defined]
    assert news(theirs) == {"events": []}  # told once


async def test_a_page_that_falls_behind_is_told_it_missed_some() -> None:
    hub = Hub()
    page = opened(hub, 101, None)
    for version in range(EVENTS_KEPT + 1):
        await hub.took(change(7, version, Seen(Event("play", {"seat": 0}))))
    told = news(page)
    events = told["events"]
    assert told["missed"] is True and isinstance(events, list) and len(events) == EVENTS_KEPT
    assert events[0]["version"] == 1
