"""Memory that cannot grow with the number of chats and games the bot has ever seen.

The bot keeps a little in memory to save reads and to order work: a chat's language, a chat's
lock. Kept in plain dicts, each grew by one entry per chat ever seen (``bench/soak.py`` showed
it). What is only a copy of stored data goes in a ``Recent`` map, which forgets the least
recently used entry past its limit (a forgotten entry is read again); a lock lives in ``Locks``
only while someone holds it or waits for it.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")

#: chats whose settings (language, rank letters, title, turn time) stay in memory: more than
#: the chats that play at once on one bot, few enough to be a few hundred kilobytes
CHATS_KEPT = 4096
#: users whose name and language as last stored stay in memory (so an update from them
#: writes nothing when neither changed)
PLAYERS_KEPT = 16384


class Recent(OrderedDict[K, V]):
    """A dict of at most ``limit`` entries that forgets the least recently used."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    @overload
    def get(self, key: K, default: None = None) -> V | None: ...

    @overload
    def get(self, key: K, default: V) -> V: ...

    @overload
    def get(self, key: K, default: T) -> V | T: ...

    def get(self, key: K, default: object = None) -> object:
        """The value of ``key`` (now the most recently used), else ``default``."""
        if key in self:
            self.move_to_end(key)
            return self[key]
        return default

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.limit:
            self.popitem(last=False)


class Locks(Generic[K]):
    """One ``asyncio.Lock`` per key, kept only while in use.

    A lock that nobody holds or waits for has no state worth keeping: it is dropped (weakly
    referenced), and the next caller gets a new one. Two callers at once get the same lock,
    since the first one's ``async with`` keeps it alive.
    """

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[K, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: K) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)
