"""Tiny proxies on 127.0.0.1 for the tests of ``PROXY_URL``: an HTTP proxy (absolute-form
requests and ``CONNECT``) and a SOCKS5 proxy, both asking for a user name and password.

A test double, like the fake Bot API: each reads the client's opening (the first request's
head, or the SOCKS5 greeting), checks the credentials, connects to the target and then copies
bytes both ways until either side closes. A proxy knows host names of its own (``aliases``,
name to address) that the client cannot resolve: a bot whose Bot API URL names one reaches it
only through the proxy, so every request that succeeds went through it. ``seen`` records what
came through (the request lines over HTTP, the targets over SOCKS), ``refused`` the attempts
with bad credentials.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ipaddress
import struct
from collections.abc import AsyncIterator
from typing import Literal

Kind = Literal["http", "socks5"]


class TinyProxy:
    def __init__(self, kind: Kind, user: str = "proxyuser", password: str = "p@ss:word") -> None:
        self.kind = kind
        self.user = user
        self.password = password
        self.seen: list[str] = []
        self.refused = 0
        self.aliases: dict[str, str] = {}
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def url(self, *, user: str | None = None, password: str | None = None) -> str:
        """The proxy's URL with credentials (percent-encoded, as a URL needs them)."""
        from urllib.parse import quote

        name = quote(self.user if user is None else user, safe="")
        secret = quote(self.password if password is None else password, safe="")
        return f"{self.kind}://{name}:{secret}@127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            if self.kind == "http":
                await self._http(reader, writer)
            else:
                await self._socks5(reader, writer)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _http(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in header_lines if line)
        }
        secret = base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        if headers.get("proxy-authorization") != f"Basic {secret}":
            self.refused += 1
            writer.write(b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n")
            writer.write(b'Proxy-Authenticate: Basic realm="test"\r\nConnection: close\r\n\r\n')
            await writer.drain()
            return
        self.seen.append(request_line)
        method, target, _ = request_line.split(" ", 2)
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            upstream = await asyncio.open_connection(self.aliases.get(host, host), int(port))
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await self._pipe(reader, writer, *upstream)
            return
        address = target.split("://", 1)[1].split("/", 1)[0]
        host, _, port = address.rpartition(":")
        upstream_reader, upstream_writer = await asyncio.open_connection(
            self.aliases.get(host, host), int(port or 80)
        )
        upstream_writer.write(head)  # servers accept the absolute form (RFC 9112, 3.2.2)
        await self._pipe(reader, writer, upstream_reader, upstream_writer)

    async def _socks5(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        version, count = await reader.readexactly(2)
        methods = await reader.readexactly(count)
        if version != 5 or 2 not in methods:  # 2: user name and password
            writer.write(b"\x05\xff")
            self.refused += 1
            return
        writer.write(b"\x05\x02")
        _, length = await reader.readexactly(2)
        user = (await reader.readexactly(length)).decode()
        (length,) = await reader.readexactly(1)
        password = (await reader.readexactly(length)).decode()
        if (user, password) != (self.user, self.password):
            writer.write(b"\x01\x01")
            self.refused += 1
            return
        writer.write(b"\x01\x00")
        _, command, _, kind = await reader.readexactly(4)
        if kind == 1:
            host = str(ipaddress.IPv4Address(await reader.readexactly(4)))
        elif kind == 4:
            host = str(ipaddress.IPv6Address(await reader.readexactly(16)))
        else:
            (length,) = await reader.readexactly(1)
            host = (await reader.readexactly(length)).decode()
        (port,) = struct.unpack("!H", await reader.readexactly(2))
        if command != 1:  # CONNECT only
            writer.write(b"\x05\x07\x00\x01\x00\x00\x00\x00\x00\x00")
            return
        self.seen.append(f"{host}:{port}")
        upstream = await asyncio.open_connection(self.aliases.get(host, host), port)
        writer.write(b"\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00")
        await self._pipe(reader, writer, *upstream)

    @staticmethod
    async def _pipe(
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        upstream_reader: asyncio.StreamReader,
        upstream_writer: asyncio.StreamWriter,
    ) -> None:
        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while chunk := await source.read(65536):
                    sink.write(chunk)
                    await sink.drain()
            finally:
                sink.close()

        try:
            await asyncio.gather(copy(reader, upstream_writer), copy(upstream_reader, writer))
        finally:
            upstream_writer.close()


@contextlib.asynccontextmanager
async def tiny_proxy(kind: Kind) -> AsyncIterator[TinyProxy]:
    proxy = TinyProxy(kind)
    await proxy.start()
    try:
        yield proxy
    finally:
        await proxy.stop()
