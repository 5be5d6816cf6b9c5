"""Live updates: each open page is told "your view changed" (Server-Sent Events), with what
happened meanwhile.

The hub is one of the table service's listeners: every change of a table comes to ``Hub.took``
as its ``TableEvent``, whoever made it. The hub marks every page of the table's seats that
shows that game, or shows its user's current table without naming one, and keeps for it the
rules' events its user may see (the public ones and the ones addressed to him: no one else's
secret); a page that names a game its user does not sit at (a group's lobby, open to anyone
with its link) is told its public events. Each page's stream writes one ``changed`` event
however many changes came meanwhile, its data those events in order (``{"events": [{"game",
"version", "kind", "data"}…]}``, the oldest dropped past ``EVENTS_KEPT``: then ``"missed":
true``). The page then reads its state again, as it does on every (re)connection. A comment
line every ``HEARTBEAT`` seconds keeps proxies from closing a quiet stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

from tables.events import Record, TableEvent
from tables.listener import TableListener

#: seconds between keep-alive comments on a quiet stream
HEARTBEAT = 20.0
#: streams one user may hold open at once (each page holds one)
STREAMS_PER_USER = 8
#: events a page's stream keeps for its next write (the oldest go first)
EVENTS_KEPT = 64


@dataclass(eq=False)
class Listener:
    """One open page: its user and the game it shows (None: whichever is his current one)."""

    user_id: int
    game_id: int | None
    transport: asyncio.BaseTransport | None = None
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    #: the events its user may see since the stream's last write
    news: deque[dict[str, object]] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))
    #: whether events were dropped since (more than ``EVENTS_KEPT``)
    missed: bool = False

    def tell(self, events: list[dict[str, object]]) -> None:
        """Keep ``events`` for the next write, and wake the stream."""
        self.missed = self.missed or len(self.news) + len(events) > EVENTS_KEPT
        self.news.extend(events)
        self.dirty.set()

    def written(self) -> bytes:
        """The ``changed`` event with what happened since the last write; forgotten."""
        data: dict[str, object] = {"events": list(self.news)}
        if self.missed:
            data["missed"] = True
        self.news.clear()
        self.missed = False
        text = json.dumps(data, separators=(",", ":"), default=str)
        return f"event: changed\ndata: {text}\n\n".encode()

    def gone(self) -> bool:
        """Whether the page has closed its connection (noticed before the next write)."""
        return self.transport is None or self.transport.is_closing()


class Hub(TableListener):
    """The open pages, by user."""

    def __init__(self, *, heartbeat: float = HEARTBEAT) -> None:
        self.heartbeat = heartbeat
        self._pages: dict[int, set[Listener]] = {}
        #: the pages that name their game, by game: a group's lobby is open to anyone with its
        #: link, and a page there before its user sits down is told of the lobby's changes too
        self._named: dict[int, set[Listener]] = {}
        self.closing = False
        #: events written, all streams together (tests and the bench read it)
        self.sent = 0

    def streams_of(self, user_id: int) -> int:
        return len(self._pages.get(user_id, ()))

    async def took(self, record: Record) -> None:
        """A change of a table (``tables.events.Stream``): the pages of its seats that show
        it are told, each with the events its user may see. (An evening ended, or a result
        due after a restart, is the chat's to post.)"""
        if not isinstance(record, TableEvent):
            return
        event = record
        game = event.game
        for user in game.seats:
            pages = [
                page
                for page in self._pages.get(user, ())
                if page.game_id is None or page.game_id == game.game_id
            ]
            if not pages:
                continue
            seen = _seen(event, user)
            for page in pages:
                page.tell(seen)
        for page in self._named.get(game.game_id, ()):
            if page.user_id not in game.seats:
                # not (or no longer) seated: what anyone at the table may see
                page.tell(_seen(event, page.user_id))

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
        if page.game_id is not None:
            self._named.setdefault(page.game_id, set()).add(page)

    def _remove(self, page: Listener) -> None:
        pages = self._pages.get(page.user_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._pages[page.user_id]
        if page.game_id is not None:
            named = self._named.get(page.game_id)
            if named is not None:
                named.discard(page)
                if not named:
                    del self._named[page.game_id]

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
                    await response.write(page.written())
                else:
                    await response.write(b": ping\n\n")
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            self._remove(page)
        return response


def _seen(event: TableEvent, user: int) -> list[dict[str, object]]:
    """The events of ``event`` that ``user`` may see, as a page's stream writes them."""
    game = event.game
    return [
        {"game": game.game_id, "version": game.version, "kind": e.kind, "data": e.data}
        for e in event.seen_by(user)
    ]
