"""tables.bounded: the maps that cannot grow with the chats and games the bot has ever seen."""

from __future__ import annotations

import asyncio
import gc

from tables.bounded import Locks, Recent


def test_recent_forgets_the_least_recently_used_past_its_limit() -> None:
    kept: Recent[int, str] = Recent(2)
    kept[1], kept[2] = "ru", "en"
    assert kept.get(1) == "ru"  # 1 is now the most recently used
    kept[3] = "ru"
    assert list(kept) == [1, 3] and kept.get(2, "none") == "none"
    for chat in range(100):
        kept[chat] = "en"
    assert len(kept) == 2


async def test_a_lock_lives_while_it_is_held_or_awaited_and_is_then_dropped() -> None:
    locks: Locks[int] = Locks()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks(7):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"), hold("c"))
    # one lock for the three: never two inside at once
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]
    gc.collect()
    assert len(locks) == 0, "nobody holds it: it is gone"

    for chat in range(1000):
        async with locks(chat):
            pass
    gc.collect()
    assert len(locks) == 0
