"""Live updates: each open page is told "your view changed" (Server-Sent Events), nothing more.

The table service tells ``Hub.changed`` of every commit (``TableService.watch``); the hub marks
every page that shows that game, or shows its user's current table without naming one, and
each page's stream writes one ``changed`` event however many commits came meanwhile. The page
then reads its state again, as it does on every (re)connection. A comment line every
``HEARTBEAT`` seconds keeps proxies from closing a quiet stream.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from aiohttp import web

#: seconds between keep-alive comments on a quiet stream
HEARTBEAT = 20.0
#: streams one user may hold open at once (each page holds one)
STREAMS_PER_USER = 8


@dataclass(eq=False)
class Listener:
    """One open page: its user and the game it shows (None: whichever is his current one)."""

    user_id: int
    game_id: int | None
    transport: asyncio.BaseTransport | None = None
    dirty: asyncio.Event = field(default_factory=asyncio.Event)

    def gone(self) -> bool:
        """Whether the page has closed its connection (noticed before the next write)."""
        return self.transport is None or self.transport.is_closing()


class Hub:
    """The open pages, by user."""

    def __init__(self, *, heartbeat: float = HEARTBEAT) -> None:
        self.heartbeat = heartbeat
        self._pages: dict[int, set[Listener]] = {}
        self.closing = False
        #: events written, all streams together (tests and the bench read it)
        self.sent = 0

    def streams_of(self, user_id: int) -> int:
        return len(self._pages.get(user_id, ()))

    def changed(self, game_id: int, seats: Iterable[int]) -> None:
        """A commit of ``game_id``, whose seats are ``seats``: mark their pages."""
        for user in seats:
            for page in self._pages.get(user, ()):
                if page.game_id is None or page.game_id == game_id:
                    page.dirty.set()

    def forget_closed(self, user_id: int) -> None:
        """Let go of ``user_id``'s streams whose pages have gone since their last write: each
        ends at once (otherwise a closed page would count until the next heartbeat)."""
        for page in list(self._pages.get(user_id, ())):
            if page.gone():
                self._remove(page)
                page.dirty.set()

    def close(self) -> None:
        """The server stops: every stream ends."""
        self.closing = True
        for pages in self._pages.values():
            for page in pages:
                page.dirty.set()

    def _add(self, page: Listener) -> None:
        self._pages.setdefault(page.user_id, set()).add(page)

    def _remove(self, page: Listener) -> None:
        pages = self._pages.get(page.user_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._pages[page.user_id]

    async def stream(
        self, request: web.Request, user_id: int, game_id: int | None
    ) -> web.StreamResponse:
        """The page's event stream, open until the page goes or the server stops."""
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        page = Listener(user_id, game_id, request.transport)
        self._add(page)
        try:
            await response.prepare(request)
            await response.write(b"retry: 2000\n: open\n\n")
            while not self.closing:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(page.dirty.wait(), self.heartbeat)
                if self.closing or page.gone():
                    break
                if page.dirty.is_set():
                    page.dirty.clear()
                    self.sent += 1
                    await response.write(b"event: changed\ndata: 1\n\n")
                else:
                    await response.write(b": ping\n\n")
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            self._remove(page)
        return response
