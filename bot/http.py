"""The bot's HTTP client: python-telegram-bot's ``BaseRequest`` over keep-alive HTTP/1.1
connections of its own, with the responses parsed by httptools (llhttp, in C).

Why not a general client: the Bot API needs one thing, a POST with a small JSON body to one host
and its JSON reply, hundreds of times a second. PTB's default (httpx) spent about half of the
bot's CPU in its connection-pool bookkeeping; aiohttp's client, which replaced it, still cost
about 230 µs of CPU per request on this machine (a request object, a response object, cookie,
header and tracing machinery, three timers), against about 100 µs for this module's plain
protocol, and it was a quarter of the bot's CPU under ``bench/load.py``. A connection here is an
``asyncio.Protocol``: the request goes out in one write, the parser's callbacks collect the
body, and one future carries the reply back.

Behaviour kept from PTB's ``HTTPXRequest``: the same default timeouts, a read timeout per call
(``getUpdates`` passes its long-poll time; like httpx's, it bounds the wait for each piece of
the reply, not the whole download), a longer write timeout when a file is uploaded, at most
``connection_pool_size`` connections with a wait of ``pool_timeout`` for a free one, and the
same errors: a timeout is ``TimedOut`` and any other transport failure ``NetworkError``. The
cause of a failure that happened before the request left is a ``NotSent``, so the rate
limiter (``bot.ratelimit``) can tell a request that may have been carried out from one that
surely was not (``maybe_performed``). Parameters go as a JSON body (which the Bot API accepts
for every method), or as ``multipart/form-data`` when a file is uploaded. HTTPS uses the
system's certificate store. Proxies are not supported.
"""

from __future__ import annotations

import asyncio
import json
import os
import ssl
import time
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote, urlsplit

import httptools
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.request import BaseRequest, RequestData

#: an idle connection unused for longer is closed instead of reused: servers close idle
#: connections after a while, and one closed just as a request is written loses the request
IDLE_SECONDS = 15.0
#: at most this many distinct URLs keep their parsed form (PTB's are one per method)
ROUTES_KEPT = 256
USER_AGENT = BaseRequest.USER_AGENT
POOL_TIMEOUT_MESSAGE = (
    "Pool timeout: all connections are in use. The request was *not* sent to Telegram."
)


class NotSent(Exception):
    """The cause of a failure before the request left: it was surely not carried out."""


class ConnectFailed(NotSent):
    """The connection could not be made (refused, unreachable, name or TLS failure)."""


class ConnectTimeout(NotSent):
    """The connection was not made in time."""


class PoolTimeout(NotSent):
    """Every connection stayed in use for the whole pool timeout."""


class ConnectionBroken(Exception):
    """The connection closed or sent garbage after the request was written: it may have been
    carried out."""


class _Origin:
    """Where requests go: scheme, host and port, and the bytes every request's head starts
    with after its request line."""

    __slots__ = ("host", "host_header", "key", "port", "tls")

    def __init__(self, scheme: str, host: str, port: int | None) -> None:
        if scheme not in ("http", "https"):
            raise ValueError(f"unsupported URL scheme {scheme!r}")
        self.tls = scheme == "https"
        self.host = host
        self.port = port or (443 if self.tls else 80)
        self.key = (scheme, host, self.port)
        default = 443 if self.tls else 80
        shown = f"[{host}]" if ":" in host else host
        self.host_header = shown if self.port == default else f"{shown}:{self.port}"


class _Route:
    """A parsed URL: its origin and the start of a request's head up to its Content-Length."""

    __slots__ = ("get_head", "json_head", "origin", "target")

    def __init__(self, origin: _Origin, target: str) -> None:
        self.origin = origin
        self.target = target
        common = f"Host: {origin.host_header}\r\nUser-Agent: {USER_AGENT}\r\n"
        self.json_head = (
            f"POST {target} HTTP/1.1\r\n{common}Content-Type: application/json\r\nContent-Length: "
        ).encode("ascii")
        self.get_head = f"GET {target} HTTP/1.1\r\n{common}\r\n".encode("ascii")

    def json_post(self, body: bytes) -> bytes:
        """The head of a POST of ``body``, a JSON object."""
        return self.json_head + str(len(body)).encode("ascii") + b"\r\n\r\n"


def _route(url: str) -> _Route:
    parts = urlsplit(url)
    if not parts.hostname:
        raise ValueError(f"no host in URL {url!r}")
    target = quote(parts.path or "/", safe="/%:@&=+$,;~!*'()")
    if parts.query:
        target += "?" + quote(parts.query, safe="/%:@&=+$,;~!*'()?")
    return _Route(_Origin(parts.scheme, parts.hostname, parts.port), target)


class _Connection(asyncio.Protocol):
    """One keep-alive connection; at most one request on it at a time."""

    def __init__(self, origin: _Origin) -> None:
        self.origin = origin
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[tuple[int, bytes]] | None = None
        self.body: list[bytes] = []
        self.headers_done = False
        self.length_known = False  # Content-Length or chunked: else the body ends at EOF
        self.keep_alive = False  # read when the headers are complete (llhttp resets it after)
        self.closed = False
        self.idle_since = 0.0
        # reading: the read timeout, when the last bytes came, the timer that checks
        self.read_timeout: float | None = None
        self.last_data = 0.0
        self.timer: asyncio.TimerHandle | None = None
        # writing: paused by the transport while its buffer is full
        self.paused = False
        self.drained: asyncio.Future[None] | None = None

    # -- asyncio.Protocol --------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        if self.read_timeout is not None:
            self.last_data = self.loop.time()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as error:
            self._fail(ConnectionBroken(f"unreadable reply: {error}"))
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            if self.headers_done and not self.length_known:
                self._complete()  # a body that ends when the connection does
            else:
                reason = f": {exc}" if exc else ""
                self._fail(ConnectionBroken(f"the connection was closed{reason}"))
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.drained is not None and not self.drained.done():
            self.drained.set_result(None)

    # -- httptools callbacks -----------------------------------------------------------------

    def on_header(self, name: bytes, value: bytes) -> None:
        lowered = name.lower()
        if lowered == b"content-length" or lowered == b"transfer-encoding":
            self.length_known = True

    def on_headers_complete(self) -> None:
        self.headers_done = True
        self.keep_alive = self.parser.should_keep_alive()

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self._complete()

    # -- the connection's user ---------------------------------------------------------------

    async def exchange(
        self, head: bytes, body: bytes, write_timeout: float | None, read_timeout: float | None
    ) -> tuple[int, bytes]:
        """Send one request and return its reply's status and body."""
        transport = self.transport
        if transport is None or self.closed:
            raise ConnectionBroken("the connection was closed")
        waiter: asyncio.Future[tuple[int, bytes]] = self.loop.create_future()
        self.waiter = waiter
        self.headers_done = self.length_known = self.keep_alive = False
        if body:
            transport.writelines((head, body))
        else:
            transport.write(head)
        if self.paused and not self.closed:
            await self._drain(write_timeout)
        if read_timeout is not None:
            self.read_timeout = read_timeout
            self.last_data = self.loop.time()
            self.timer = self.loop.call_later(read_timeout, self._check_read)
        try:
            return await waiter
        finally:
            self.read_timeout = None
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def reusable(self) -> bool:
        return not self.closed and self.waiter is None and self.keep_alive

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    # -- inside ------------------------------------------------------------------------------

    def _complete(self) -> None:
        waiter, self.waiter = self.waiter, None
        status = self.parser.get_status_code()
        body, self.body = b"".join(self.body), []
        if waiter is None:
            self.close()  # a reply nobody asked for: the connection is out of step
        elif not waiter.done():
            waiter.set_result((status, body))

    def _fail(self, error: BaseException) -> None:
        waiter, self.waiter = self.waiter, None
        self.body = []
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)

    def _check_read(self) -> None:
        self.timer = None
        timeout = self.read_timeout
        if timeout is None or self.waiter is None:
            return
        quiet = self.loop.time() - self.last_data
        if quiet < timeout:
            self.timer = self.loop.call_later(timeout - quiet, self._check_read)
            return
        self._fail(TimeoutError("no reply in time"))
        self.close()

    async def _drain(self, write_timeout: float | None) -> None:
        self.drained = self.loop.create_future()
        try:
            async with asyncio.timeout(write_timeout):
                await self.drained
        finally:
            self.drained = None
        if self.closed and self.waiter is not None and not self.waiter.done():
            self._fail(ConnectionBroken("the connection was closed while sending"))


class BotApiRequest(BaseRequest):
    """Requests to the Bot API over this module's connections (the pool is made in the running
    loop by ``initialize``; PTB initializes the bot's requests before it sends anything)."""

    __slots__ = (
        "_connect_timeout",
        "_idle",
        "_media_write_timeout",
        "_open",
        "_pool_size",
        "_pool_timeout",
        "_read_timeout",
        "_routes",
        "_running",
        "_slots",
        "_tls",
        "_write_timeout",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        *,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        """``tls``: how to check servers' certificates (default: the system's store)."""
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._running = False
        self._slots: asyncio.Semaphore | None = None
        #: idle connections by origin, the most recently used last
        self._idle: dict[tuple[str, str, int], list[_Connection]] = {}
        self._open: set[_Connection] = set()
        self._routes: dict[str, _Route] = {}
        self._tls = tls

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if not self._running:
            self._slots = asyncio.Semaphore(self._pool_size)
            self._running = True

    async def shutdown(self) -> None:
        self._running = False
        for connection in list(self._open):
            connection.close()
        self._open.clear()
        self._idle.clear()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        route = self._route(url)
        files = (
            request_data.multipart_data
            if request_data is not None and request_data.contains_files
            else None
        )
        head, body = _encode(route, method, request_data, files)
        write_default = self._media_write_timeout if files else self._write_timeout
        return await self._send(
            route,
            head,
            body,
            _seconds(read_timeout, self._read_timeout),
            _seconds(write_timeout, write_default),
            _seconds(connect_timeout, self._connect_timeout),
            _seconds(pool_timeout, self._pool_timeout),
        )

    async def call(self, url: str, params: Mapping[str, Any]) -> Any:
        """POST ``params``, a plain JSON object, and return the reply's ``result``, with the
        default timeouts: what ``post`` does for PTB's methods, minus PTB's objects. PTB wraps
        every parameter in a ``RequestParameter`` and encodes each on its own before the whole
        (``reply_markup`` goes as JSON text inside the JSON), then maps the reply; for the few
        requests of every button press that was about a tenth of their cost in the bot. The
        errors are the ones ``post`` raises (``api_error`` maps a failed reply as PTB does)."""
        route = self._route(url)
        body = json.dumps(params, ensure_ascii=False, separators=(",", ":")).encode()
        head = route.json_post(body)
        try:
            status, payload = await self._send(
                route,
                head,
                body,
                self._read_timeout,
                self._write_timeout,
                self._connect_timeout,
                self._pool_timeout,
            )
        except TelegramError:
            raise
        except Exception as error:  # as post does: e.g. not initialized
            raise NetworkError(f"Unknown error in HTTP implementation: {error!r}") from error
        if 200 <= status <= 299:
            return self.parse_json_payload(payload)["result"]
        raise api_error(status, payload)

    def _route(self, url: str) -> _Route:
        route = self._routes.get(url)
        if route is None:
            if len(self._routes) >= ROUTES_KEPT:
                self._routes.clear()
            route = self._routes[url] = _route(url)
        return route

    async def _send(
        self,
        route: _Route,
        head: bytes,
        body: bytes,
        read_s: float | None,
        write_s: float | None,
        connect_s: float | None,
        pool_s: float | None,
    ) -> tuple[int, bytes]:
        slots = self._slots
        if not self._running or slots is None:
            raise RuntimeError("This BotApiRequest is not initialized!")
        await self._take_slot(slots, pool_s)
        try:
            connection = self._idle_connection(route.origin)
            if connection is None:
                connection = await self._connect(route.origin, connect_s)
            try:
                reply = await connection.exchange(head, body, write_s, read_s)
            except BaseException:
                self._drop(connection)
                raise
            if connection.reusable() and self._running:
                connection.idle_since = time.monotonic()
                self._idle.setdefault(route.origin.key, []).append(connection)
            else:
                self._drop(connection)
            return reply
        except TimeoutError as error:
            raise TimedOut from error
        except ConnectionBroken as error:
            raise NetworkError(f"{type(error).__name__}: {error}") from error
        finally:
            slots.release()

    async def _take_slot(self, slots: asyncio.Semaphore, timeout: float | None) -> None:
        if not slots.locked():
            await slots.acquire()  # returns at once
            return
        try:
            async with asyncio.timeout(timeout):
                await slots.acquire()
        except TimeoutError as error:
            raise TimedOut(POOL_TIMEOUT_MESSAGE) from PoolTimeout(str(error))

    def _idle_connection(self, origin: _Origin) -> _Connection | None:
        idle = self._idle.get(origin.key)
        now = time.monotonic()
        while idle:
            connection = idle.pop()
            if connection.closed:
                self._open.discard(connection)
                continue
            if now - connection.idle_since > IDLE_SECONDS:
                # this was the most recently used one: the rest are older still
                for stale in (*idle, connection):
                    self._drop(stale)
                idle.clear()
                return None
            return connection
        return None

    async def _connect(self, origin: _Origin, timeout: float | None) -> _Connection:
        loop = asyncio.get_running_loop()
        tls: ssl.SSLContext | None = None
        if origin.tls:
            if self._tls is None:
                self._tls = ssl.create_default_context()
            tls = self._tls
        try:
            async with asyncio.timeout(timeout):
                transport, connection = await loop.create_connection(
                    lambda: _Connection(origin),
                    origin.host,
                    origin.port,
                    ssl=tls,
                    server_hostname=origin.host if tls else None,
                )
        except TimeoutError as error:
            raise TimedOut("Timed out while connecting") from ConnectTimeout(str(error))
        except OSError as error:  # refused, unreachable, DNS, TLS (ssl.SSLError is an OSError)
            message = f"cannot connect to {origin.host}:{origin.port}: {error}"
            raise NetworkError(message) from ConnectFailed(message)
        # uvloop may call connection_made only after create_connection has returned
        connection.transport = transport
        self._open.add(connection)
        return connection

    def _drop(self, connection: _Connection) -> None:
        connection.close()
        self._open.discard(connection)


#: what the bot reads of the message whose button was pressed (``bot.handlers.on_callback``)
PRESSED_MESSAGE_KEPT = frozenset({"message_id", "date", "chat", "message_thread_id"})


class UpdatesRequest(BotApiRequest):
    """The request object of ``getUpdates``: a ``BotApiRequest`` that leaves out of each
    ``callback_query`` the pressed message's content (its text, entities and buttons), which
    the bot never reads: it finds the game from the button's data and its own records, and
    takes only the chat and the message id from the message. PTB builds an object for every
    part of every update, every button of a hand included; parsing a press with its message
    whole took about 540 µs of CPU here, without its content about 240 µs, and presses are
    most of the bot's updates. ``parse_json_payload`` is PTB's documented place for this.
    Updates that come by webhook are parsed whole."""

    __slots__ = ()

    @staticmethod
    def parse_json_payload(payload: bytes) -> dict[str, Any]:
        data: dict[str, Any] = BaseRequest.parse_json_payload(payload)
        updates = data.get("result")
        for update in updates if isinstance(updates, list) else ():
            query = update.get("callback_query") if isinstance(update, dict) else None
            if isinstance(query, dict) and isinstance(query.get("message"), dict):
                query["message"] = {
                    key: value
                    for key, value in query["message"].items()
                    if key in PRESSED_MESSAGE_KEPT
                }
        return data


def api_error(status: int, payload: bytes) -> TelegramError:
    """The error for a reply with a failure ``status``, as ``BaseRequest.post`` makes it (PTB
    22's ``_request_wrapper``; tests/bot/test_http.py holds the two side by side)."""
    try:
        message = f"{HTTPStatus(status).phrase} ({status})"
    except ValueError:
        message = f"Unknown HTTPError ({status})"
    parsing: TelegramError | None = None
    try:
        reply = BaseRequest.parse_json_payload(payload)
    except TelegramError as unreadable:
        message += f". Parsing the server response {payload!r} failed"
        parsing = unreadable
    else:
        message = reply.get("description") or message
        parameters = reply.get("parameters")
        if parameters:
            if parameters.get("migrate_to_chat_id"):
                return ChatMigrated(parameters["migrate_to_chat_id"])
            if parameters.get("retry_after"):
                return RetryAfter(parameters["retry_after"])
            message += f". The server response contained unknown parameters: {parameters}"
    failure: TelegramError
    if status == HTTPStatus.FORBIDDEN:
        failure = Forbidden(message)
    elif status in (HTTPStatus.NOT_FOUND, HTTPStatus.UNAUTHORIZED):
        failure = InvalidToken(message)
    elif status == HTTPStatus.BAD_REQUEST:
        failure = BadRequest(message)
    elif status == HTTPStatus.CONFLICT:
        failure = Conflict(message)
    else:
        failure = NetworkError(message)
    if parsing is not None:
        failure.__cause__ = parsing
    return failure


def _seconds(value: Any, default: float | None) -> float | None:
    """A timeout passed to ``do_request``: PTB's DEFAULT_NONE means "the default"."""
    return default if value is BaseRequest.DEFAULT_NONE else value


def _encode(
    route: _Route, method: str, request_data: RequestData | None, files: dict[str, Any] | None
) -> tuple[bytes, bytes]:
    """The request's head and body."""
    if request_data is None:
        if method == "GET":
            return route.get_head, b""
        return route.json_post(b""), b""
    if not files:
        body = request_data.json_payload
        return route.json_post(body), body
    boundary = os.urandom(16).hex()
    body = _multipart(boundary, request_data, files)
    head = (
        f"{method} {route.target} HTTP/1.1\r\nHost: {route.origin.host_header}\r\n"
        f"User-Agent: {USER_AGENT}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("ascii"), body


def _multipart(boundary: str, request_data: RequestData, files: dict[str, Any]) -> bytes:
    """A ``multipart/form-data`` body: the parameters as strings, then the files."""
    chunks: list[bytes] = []
    for name, value in request_data.json_parameters.items():
        chunks.append(_part(boundary, name, None, None, str(value).encode("utf-8")))
    for name, part in files.items():
        if isinstance(part, tuple):
            filename, content, *rest = part
            content_type = rest[0] if rest else "application/octet-stream"
            data = content if isinstance(content, bytes) else content.read()
            chunks.append(_part(boundary, name, filename, content_type, data))
        else:
            chunks.append(_part(boundary, name, None, None, str(part).encode("utf-8")))
    chunks.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(chunks)


def _part(
    boundary: str, name: str, filename: str | None, content_type: str | None, data: bytes
) -> bytes:
    disposition = f'form-data; name="{_quoted(name)}"'
    if filename is not None:
        disposition += f'; filename="{_quoted(filename)}"'
    head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
    if content_type is not None:
        head += f"Content-Type: {content_type}\r\n"
    return head.encode("utf-8") + b"\r\n" + data + b"\r\n"


def _quoted(value: str) -> str:
    """A name in a quoted header parameter, as browsers write it."""
    return value.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
