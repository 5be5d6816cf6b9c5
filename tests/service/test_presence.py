"""Who looks at a table on the page: a beat holds for its lapse, a hidden page or a lapse
tells the front-ends once, and a beat in time keeps the player looking."""

from __future__ import annotations

import asyncio

from tables.presence import Presence


async def test_a_beat_holds_until_it_lapses_and_then_tells_once() -> None:
    presence = Presence(lapse=0.05)
    gone: list[tuple[int, int]] = []
    presence.looked_away.append(lambda game, user: gone.append((game, user)))
    presence.seen(7, 101, True)
    assert presence.watching(7, 101) and not presence.watching(7, 102)
    assert not presence.watching(8, 101)  # another table of his
    for _ in range(3):  # beats in time: still looking
        await asyncio.sleep(0.03)
        presence.seen(7, 101, True)
        assert presence.watching(7, 101) and gone == []
    await asyncio.sleep(0.1)
    assert not presence.watching(7, 101)
    assert gone == [(7, 101)]


async def test_a_hidden_page_tells_at_once_and_only_if_it_was_looking() -> None:
    presence = Presence(lapse=10)
    gone: list[tuple[int, int]] = []
    presence.looked_away.append(lambda game, user: gone.append((game, user)))
    presence.seen(7, 101, False)  # never looked: nothing to tell
    assert gone == []
    presence.seen(7, 101, True)
    presence.seen(7, 101, False)
    assert gone == [(7, 101)] and not presence.watching(7, 101)
    presence.close()


async def test_closing_stops_every_lapse() -> None:
    presence = Presence(lapse=0.02)
    gone: list[tuple[int, int]] = []
    presence.looked_away.append(lambda game, user: gone.append((game, user)))
    presence.seen(7, 101, True)
    presence.close()
    await asyncio.sleep(0.05)
    assert gone == [] and not presence.watching(7, 101)
