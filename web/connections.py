"""What a connection to the page's server may hold, so that the pages can never take from the
chat what it needs to run (its sockets to the Bot API, the database's files).

- **A cap on connections**, all together and from one address. A connection past either is
  closed as soon as it is accepted, before it reads a byte. The total is kept below half the
  process's open-file limit, whatever the setting says, so the chat always has files left. A
  loopback address (a reverse proxy on this machine, which brings every page) counts only
  towards the total.
- **A deadline outside a request**: a connection must bring its next request's headers within
  ``HEADER_SECONDS`` of opening, or of its last answer; one that sends a partial header, or
  sits idle between requests, is closed then. A request being answered (a live stream
  included) has no such deadline: its handler decides, and a body must come within
  ``BODY_SECONDS`` (``web.server``).

aiohttp's server reads no request with a deadline of its own (the headers of one may come
byte by byte for ever), so every connection's protocol is wrapped here: ``Connections.factory``
makes the server's protocol factory (aiohttp's low-level ``web.Server``) into one that counts
and times its connections, and the application's middleware (``Connections.serving``) tells it
when a request is being answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import resource
from collections.abc import Callable, Iterator
from typing import Any, Final, cast

#: seconds a connection may take, outside a request, to bring the next request's headers
HEADER_SECONDS: Final = 10.0
#: seconds a request may take to bring its body
BODY_SECONDS: Final = 10.0


def file_limit() -> int:
    """The process's open-file limit (its soft limit)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def raise_file_limit() -> int:
    """Raise the open-file limit to the hard limit the system allows (as many servers do at
    start-up: the common soft limit of 1,024 is a relic of select()); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return file_limit()


def usable(total: int) -> int:
    """``total`` connections, or fewer: at most half the open-file limit."""
    return max(1, min(total, file_limit() // 2))


class _Guarded(asyncio.Protocol):
    """One connection: the server's protocol, counted and timed by ``Connections``."""

    def __init__(self, connections: Connections, inner: asyncio.Protocol) -> None:
        self.connections = connections
        self.inner: asyncio.Protocol | None = inner
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.serving = 0
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (a stream transport: uvloop's is one without being asyncio's class)
        transport = cast(asyncio.Transport, transport)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.connections.admit(self, transport):
            self.inner = None
            transport.abort()
            return
        self.transport = transport
        assert self.inner is not None
        self.inner.connection_made(transport)
        self.wait_for_headers()

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_waiting()
        if self.inner is None:
            return
        self.connections.forget(self)
        inner, self.inner = self.inner, None
        inner.connection_lost(exc)

    # ------------------------------------------------------------------ the deadline

    def wait_for_headers(self) -> None:
        """From now, the next request's headers must come within the deadline."""
        self.stop_waiting()
        loop = asyncio.get_running_loop()
        self.deadline = loop.call_later(self.connections.header_seconds, self.too_slow)

    def stop_waiting(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def too_slow(self) -> None:
        self.deadline = None
        if self.serving == 0 and self.transport is not None:
            self.connections.timed_out += 1
            self.transport.abort()


class Connections:
    """The page's server's connections: at most ``total`` (and never more than half the
    open-file limit), at most ``per_address`` from one address other than loopback, and
    ``header_seconds`` for a request's headers outside a request."""

    def __init__(
        self,
        *,
        total: int = 512,
        per_address: int = 32,
        header_seconds: float = HEADER_SECONDS,
        loopback_counted: bool = False,
    ) -> None:
        self.total = usable(total)
        self.per_address = per_address
        self.header_seconds = header_seconds
        #: whether a loopback address has a cap of its own too (only tests, which have no other)
        self.loopback_counted = loopback_counted
        self._open: dict[asyncio.BaseTransport, _Guarded] = {}
        self._by_address: dict[str, int] = {}
        #: connections closed at once for a cap, and for a deadline (tests and logs read them)
        self.refused = 0
        self.timed_out = 0

    def __len__(self) -> int:
        return len(self._open)

    def factory(self, make: Callable[[], Any]) -> Callable[[], asyncio.Protocol]:
        """``make`` (a protocol factory: aiohttp's ``web.Server``) with each of its
        connections counted and timed here."""
        return lambda: _Guarded(self, make())

    def admit(self, connection: _Guarded, transport: asyncio.BaseTransport) -> bool:
        """Whether ``connection`` (on ``transport``) fits under the caps; if so, it is
        counted from now on."""
        address = connection.address
        counted = self._counted(address)
        if len(self._open) >= self.total or (
            counted and self._by_address.get(address, 0) >= self.per_address
        ):
            self.refused += 1
            return False
        if counted:
            self._by_address[address] = self._by_address.get(address, 0) + 1
        self._open[transport] = connection
        return True

    def forget(self, connection: _Guarded) -> None:
        if connection.transport is not None:
            self._open.pop(connection.transport, None)
        address = connection.address
        if self._counted(address) and address in self._by_address:
            left = self._by_address[address] - 1
            if left > 0:
                self._by_address[address] = left
            else:
                del self._by_address[address]

    def _counted(self, address: str) -> bool:
        return self.loopback_counted or not _loopback(address)

    @contextlib.contextmanager
    def serving(self, transport: asyncio.BaseTransport | None) -> Iterator[None]:
        """A request on ``transport`` is being answered: no deadline meanwhile; from its end,
        the next request's headers are awaited."""
        connection = self._open.get(transport) if transport is not None else None
        if connection is None:
            yield
            return
        connection.serving += 1
        connection.stop_waiting()
        try:
            yield
        finally:
            connection.serving -= 1
            if connection.serving == 0 and connection.inner is not None:
                connection.wait_for_headers()


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
