"""The page's server under abuse, with no bot behind it: what a connection may hold (how many
together and from one address, how long before its headers come), that a slow or idle one is
closed and a live request is not, and that a malformed request costs the log one line."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import cast

import aiohttp
import pytest

from tests.clock import ManualClock
from web.connections import Connections, file_limit, usable
from web.quiet_log import QuietLog
from web.server import HTTP_LOG, WebApp, WebAppServer
from web.tables import WebTables

Serve = Callable[[Connections], Awaitable[WebAppServer]]


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    servers: list[WebAppServer] = []

    async def start(connections: Connections) -> WebAppServer:
        # the tables are never reached: these requests are static files or refused unsigned
        app = WebApp(cast(WebTables, None), "1:token", connections=connections)
        server = WebAppServer(app, "127.0.0.1", 0)
        await server.start()
        servers.append(server)
        return server

    yield start
    while _opened:
        writer = _opened.pop()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    for server in servers:
        await server.stop()


#: every connection a test opened, closed when its server stops
_opened: list[asyncio.StreamWriter] = []


async def _open(address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = address.removeprefix("http://").rstrip("/").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    _opened.append(writer)
    return reader, writer


async def _until(check: Callable[[], bool], within: float = 10.0) -> None:
    """Wait until ``check()`` holds, or ``within`` seconds have passed (the test's own assert
    then says what did not happen): a loaded machine accepts and closes late, never wrongly."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while not check() and loop.time() < end:
        await asyncio.sleep(0.02)


async def _closed(reader: asyncio.StreamReader, within: float = 10.0) -> bool:
    """Whether the server closes the connection within ``within`` seconds."""
    try:
        await asyncio.wait_for(reader.read(), within)
    except TimeoutError:
        return False
    except ConnectionError:
        return True
    return True


async def _get(address: str) -> int:
    async with aiohttp.ClientSession() as http, http.get(address) as response:
        return response.status


async def test_connections_past_the_cap_are_closed_at_once_and_the_rest_are_served(
    serve: Serve,
) -> None:
    server = await serve(Connections(total=8, per_address=1000, loopback_counted=True))
    held = [await _open(server.address) for _ in range(20)]
    connections = server.server.connections
    await _until(lambda: connections.refused == 12)
    assert len(connections) == 8 and connections.refused == 12
    closed = [await _closed(reader) for reader, _ in held[8:]]
    assert all(closed)
    for _, writer in held:
        writer.close()
    await _until(lambda: len(connections) == 0)
    assert len(connections) == 0
    assert await _get(server.address) == 200


async def test_one_address_holds_at_most_its_share(serve: Serve) -> None:
    server = await serve(Connections(total=100, per_address=3, loopback_counted=True))
    held = [await _open(server.address) for _ in range(3)]
    extra, _ = await _open(server.address)
    assert await _closed(extra)
    with pytest.raises(aiohttp.ClientError):
        await _get(server.address)
    for _, writer in held:
        writer.close()
    connections = server.server.connections
    await _until(lambda: len(connections) == 0)
    assert await _get(server.address) == 200


async def test_a_loopback_address_counts_only_towards_the_total() -> None:
    """A reverse proxy on this machine brings every page from one loopback address."""
    connections = Connections(total=100, per_address=2)
    assert not connections.loopback_counted
    assert connections._counted("203.0.113.9") and not connections._counted("127.0.0.1")
    assert not connections._counted("::1")


def test_the_cap_stays_below_half_the_open_file_limit() -> None:
    assert usable(10**9) == file_limit() // 2
    assert usable(16) == min(16, file_limit() // 2)


async def test_a_partial_header_or_an_idle_connection_is_closed_at_the_deadline(
    serve: Serve,
) -> None:
    server = await serve(Connections(header_seconds=0.3))
    reader, writer = await _open(server.address)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and never the rest
    assert await _closed(reader)
    silent, _ = await _open(server.address)
    assert await _closed(silent)
    # a whole request is answered, then its connection waits no longer than the deadline
    reader, writer = await _open(server.address)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    assert await _closed(reader)
    assert server.server.connections.timed_out >= 3


async def test_a_malformed_request_costs_the_log_one_line_at_most_every_few_seconds(
    serve: Serve, caplog: pytest.LogCaptureFixture
) -> None:
    server = await serve(Connections())
    for quiet in HTTP_LOG.filters:  # (a line another test caused would hold this one back)
        assert isinstance(quiet, QuietLog)
        quiet.last = None
    caplog.set_level(logging.DEBUG)
    for _ in range(5):
        reader, writer = await _open(server.address)
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
        await reader.read()
        writer.close()
    lines = [r for r in caplog.records if r.name == "web.http"]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    (line,) = lines
    assert line.levelno == logging.WARNING and line.exc_info is None and not line.exc_text
    assert "\n" not in line.getMessage()


def test_the_quiet_log_counts_what_it_held_back() -> None:
    clock = ManualClock(now=0.0)
    quiet = QuietLog(every=10, clock=clock)

    def record(message: str) -> logging.LogRecord:
        try:
            raise ValueError("bad header\nsecond line")
        except ValueError as error:
            return logging.LogRecord(
                "web.http", logging.ERROR, __file__, 1, message, (), (ValueError, error, None)
            )

    first = record("Error handling request")
    assert quiet.filter(first)
    assert first.getMessage() == "Error handling request: ValueError: bad header"
    assert first.levelno == logging.WARNING and first.exc_info is None
    assert not quiet.filter(record("again")) and not quiet.filter(record("again"))
    clock.advance_to(11)
    later = record("Error handling request")
    assert quiet.filter(later)
    assert later.getMessage().endswith("(and 2 more since)")
