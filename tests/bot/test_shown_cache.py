"""The messenger remembers what recent messages show, and forgets the least recently used."""

from __future__ import annotations

from bot.messenger import Shown, ShownCache


def test_forgets_the_least_recently_used_beyond_its_limit() -> None:
    cache = ShownCache(3)
    for n in range(3):
        cache[(1, n)] = Shown(f"text {n}", ())
    assert cache.get((1, 0)) == Shown("text 0", ())  # used: now the most recent
    cache[(1, 3)] = Shown("text 3", ())
    assert len(cache) == 3
    assert cache.get((1, 1)) is None  # the least recently used went
    assert cache.get((1, 0)) is not None and cache.get((1, 3)) is not None
    cache[(1, 2)] = Shown("again", ())  # a rewrite counts as a use
    cache[(1, 4)] = Shown("text 4", ())
    assert list(cache) == [(1, 3), (1, 2), (1, 4)]  # (1, 0) was the least recently used
