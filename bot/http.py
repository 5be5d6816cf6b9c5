"""The bot's HTTP client: python-telegram-bot's ``BaseRequest`` over aiohttp.

Why not PTB's default (httpx): under bench/load.py the bot spent about half of its CPU inside
httpx and httpcore, most of it in connection-pool bookkeeping that runs on every request (each
idle connection's socket is polled and asked for its peer name to see whether it expired). The
aiohttp client keeps its pool without that, parses responses in C, and is already what the
project's test server is built on.

Behaviour kept from PTB's ``HTTPXRequest``: the same default timeouts, a read timeout per call
(``getUpdates`` passes its long-poll time), a longer write timeout when a file is uploaded, and
the same errors: a timeout is ``TimedOut`` and any other transport failure ``NetworkError``, so
the rate limiter (``bot.ratelimit``) can tell a request that may have been carried out from one
that surely was not (``maybe_performed``). Parameters go as a JSON body (which the Bot API
accepts for every method), or as ``multipart/form-data`` when a file is uploaded.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

log = logging.getLogger(__name__)

JSON_HEADERS = {"Content-Type": "application/json", "User-Agent": BaseRequest.USER_AGENT}
FORM_HEADERS = {"User-Agent": BaseRequest.USER_AGENT}


def _seconds(value: Any, default: float | None) -> float | None:
    """A timeout passed to ``do_request``: PTB's DEFAULT_NONE means "the default"."""
    return default if value is BaseRequest.DEFAULT_NONE else value


class AiohttpRequest(BaseRequest):
    """Requests to the Bot API through one ``aiohttp.ClientSession`` (made in the running loop
    by ``initialize``; PTB initializes the bot's requests before it sends anything)."""

    __slots__ = (
        "_connect_timeout",
        "_media_write_timeout",
        "_pool_size",
        "_pool_timeout",
        "_read_timeout",
        "_session",
        "_timeouts",
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
    ) -> None:
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        #: the timeouts of each combination of arguments (nearly always the defaults)
        self._timeouts: dict[tuple[Any, ...], aiohttp.ClientTimeout] = {}

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size, ttl_dns_cache=300)
            # no session-wide timeout: every request gets its own (see do_request)
            self._session = aiohttp.ClientSession(
                connector=connector, timeout=aiohttp.ClientTimeout(total=None)
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    def _timeout(
        self, read: Any, write: Any, connect: Any, pool: Any, *, upload: bool
    ) -> aiohttp.ClientTimeout:
        key = (read, write, connect, pool, upload)
        timeout = self._timeouts.get(key)
        if timeout is None:
            if len(self._timeouts) >= 64:
                self._timeouts.clear()  # callers passing ever new values: keep it small
            timeout = self._timeouts[key] = self._make_timeout(*key)
        return timeout

    def _make_timeout(
        self, read: Any, write: Any, connect: Any, pool: Any, upload: bool
    ) -> aiohttp.ClientTimeout:
        read_s = _seconds(read, self._read_timeout)
        write_s = _seconds(write, self._media_write_timeout if upload else self._write_timeout)
        connect_s = _seconds(connect, self._connect_timeout)
        pool_s = _seconds(pool, self._pool_timeout)
        # aiohttp has no write timeout of its own: the whole request gets the sum as a bound
        parts = (read_s, write_s, connect_s, pool_s)
        total = None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
        # ``connect`` covers the wait for a free connection in the pool and the connecting
        acquire = None if pool_s is None or connect_s is None else pool_s + connect_s
        return aiohttp.ClientTimeout(
            total=total, connect=acquire, sock_connect=connect_s, sock_read=read_s
        )

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
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data is not None else None
        timeout = self._timeout(
            read_timeout, write_timeout, connect_timeout, pool_timeout, upload=bool(files)
        )
        body: bytes | aiohttp.FormData | None = None
        headers = FORM_HEADERS
        if request_data is not None:
            if files:
                body = _form(request_data)
            else:
                body = request_data.json_payload
                headers = JSON_HEADERS
        try:
            async with session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as response:
                return response.status, await response.read()
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            # the class name helps when the message is empty (e.g. a dropped connection)
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error


def _form(request_data: RequestData) -> aiohttp.FormData:
    """A ``multipart/form-data`` body: the parameters as strings, then the files."""
    form = aiohttp.FormData(quote_fields=False)
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, part in request_data.multipart_data.items():
        if isinstance(part, tuple):
            filename, content, *rest = part
            content_type = rest[0] if rest else None
            form.add_field(name, content, filename=filename, content_type=content_type)
        else:
            form.add_field(name, part)
    return form
