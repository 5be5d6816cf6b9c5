"""Who is looking at a table on the page right now, so that the chat can stand back for him.

A page that is open and on the screen says so every ``BEAT`` seconds (``seen``); one not heard
from for ``LAPSE`` seconds (closed, put in the background, its phone asleep or off the network),
or that says it is hidden, is not looking any more. While a player looks at his table on the
page, his private hand message is not edited and his turn is not called in the chat: the page
shows both. When he looks away, every front-end that stood back is told (``looked_away``), and
the chat brings his hand message up to date with one edit.

It is the table service's (``TableService.presence``): the page writes it, the chat reads it,
and neither calls the other.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Final

#: seconds between a visible page's beats
BEAT: Final = 5.0
#: seconds without a beat after which a page counts as gone
LAPSE: Final = 12.0
#: pages kept at most (a page is one user at one table)
KEPT: Final = 20_000


class Presence:
    """The pages on the screen now, by (game, user), each until its beat lapses."""

    def __init__(self, *, lapse: float = LAPSE, clock: Callable[[], float] = time.monotonic):
        self.lapse = lapse
        self.clock = clock
        self._until: dict[tuple[int, int], float] = {}
        self._lapses: dict[tuple[int, int], asyncio.TimerHandle] = {}
        #: told (game, user) when a user stops looking at that table's page
        self.looked_away: list[Callable[[int, int], None]] = []

    def watching(self, game_id: int, user_id: int) -> bool:
        """Whether ``user_id`` looks at ``game_id`` on the page now."""
        until = self._until.get((game_id, user_id))
        return until is not None and until > self.clock()

    def seen(self, game_id: int, user_id: int, visible: bool) -> None:
        """A page's beat: on the screen (``visible``) until the beat lapses, or hidden now."""
        key = (game_id, user_id)
        handle = self._lapses.pop(key, None)
        if handle is not None:
            handle.cancel()
        if not visible:
            self._gone(key)
            return
        if key not in self._until and len(self._until) >= KEPT:
            return  # past what is kept: the chat goes on as if no page were open
        self._until[key] = self.clock() + self.lapse
        self._lapses[key] = asyncio.get_running_loop().call_later(self.lapse, self._lapsed, key)

    def _lapsed(self, key: tuple[int, int]) -> None:
        self._lapses.pop(key, None)
        until = self._until.get(key)
        if until is not None and until > self.clock():
            # (a clock moved back, or a beat came between: wait for the rest)
            self._lapses[key] = asyncio.get_running_loop().call_later(
                until - self.clock(), self._lapsed, key
            )
            return
        self._gone(key)

    def _gone(self, key: tuple[int, int]) -> None:
        if self._until.pop(key, None) is None:
            return
        for told in self.looked_away:
            told(*key)

    def clock_moved(self) -> None:
        """The clock jumped (a test's clock): every page whose beat has lapsed by it is gone
        now."""
        now = self.clock()
        for key, until in list(self._until.items()):
            if until <= now:
                handle = self._lapses.pop(key, None)
                if handle is not None:
                    handle.cancel()
                self._gone(key)

    def close(self) -> None:
        """Shutting down: no lapse fires any more."""
        for handle in self._lapses.values():
            handle.cancel()
        self._lapses.clear()
        self._until.clear()
