"""How the bot talks to the Bot API: python-telegram-bot's ``BaseRequest`` over aiohttp's client.

PTB's ``BaseRequest`` is the documented place to plug in another HTTP library; this adapter
hands each request to one ``aiohttp.ClientSession`` and gives back the reply's status and body,
and PTB does the rest (the JSON, the mapping of failures to ``TelegramError``). aiohttp was
measured against PTB's own ``HTTPXRequest`` with bench/load.py (docs/performance.md) and
cost the bot less CPU per request.

What it keeps from ``HTTPXRequest``: the same default timeouts, a read timeout per call
(``getUpdates`` passes its long-poll time), at most ``connection_pool_size`` connections with
a wait of ``pool_timeout`` for a free one, and the same errors: a timeout is ``TimedOut``, any
other transport failure ``NetworkError``, with aiohttp's exception as the cause. aiohttp has
no write timeout of its own: ``write_timeout`` and ``media_write_timeout`` are accepted for
PTB's sake and bound nothing here (a request's upload is a few hundred bytes of JSON).

A proxy (``PROXY_URL``): ``http://`` and ``https://`` proxies are aiohttp's own (a plain
``http://`` Bot API URL goes to the proxy as an absolute URL, an ``https://`` one through a
``CONNECT`` tunnel); ``socks5://``, ``socks5h://`` (names resolved by the proxy) and
``socks4://`` go through aiohttp-socks' connector. Credentials come in the URL
(``socks5://user:password@host:1080``).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import python_socks
from aiohttp_socks import ProxyConnector
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest, RequestData

#: the proxy URL schemes the bot understands (README, "Settings")
PROXY_SCHEMES = ("http", "https", "socks5", "socks5h", "socks4")

#: failures that mean a request never reached the Bot API: no connection could be made
#: (refused, unreachable, a name or TLS failure, a proxy that refused), or none in time (a
#: free connection of the pool included); ``bot.ratelimit.maybe_performed`` reads them
NOT_SENT: tuple[type[BaseException], ...] = (
    aiohttp.ClientConnectorError,
    aiohttp.ConnectionTimeoutError,
    aiohttp.ClientHttpProxyError,
    python_socks.ProxyError,
    python_socks.ProxyConnectionError,
    python_socks.ProxyTimeoutError,
)

#: what of a pressed button's message the bot never reads, taken out of every update before PTB
#: builds its objects (``trim_update``): the message's text, its formatting, its buttons and its
#: sender (the bot itself; the presser is the query's own ``from``)
UNREAD_MESSAGE_PARTS = ("text", "entities", "reply_markup", "link_preview_options", "from")

#: an idle connection is closed after this many seconds (servers close them after a while,
#: and one closed just as a request is written loses that request)
KEEPALIVE_SECONDS = 15.0


class AiohttpRequest(BaseRequest):
    """Requests to the Bot API through one ``aiohttp.ClientSession`` (made in the running loop
    by ``initialize``, which PTB calls before the bot sends anything)."""

    __slots__ = (
        "_connect_timeout",
        "_pool_size",
        "_pool_timeout",
        "_proxy",
        "_read_timeout",
        "_session",
        "_ssl",
    )

    def __init__(
        self,
        connection_pool_size: int = 256,
        *,
        proxy: str | None = None,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
        ssl: Any = True,
    ) -> None:
        """``proxy``: a URL with one of ``PROXY_SCHEMES``, credentials in it if needed.
        ``ssl``: aiohttp's ``ssl`` argument (``True``: the system's certificate store, or an
        ``ssl.SSLContext``)."""
        if proxy is not None:
            check_proxy_url(proxy)
        del write_timeout, media_write_timeout  # aiohttp has no write timeout (see the module)
        self._pool_size = connection_pool_size
        self._proxy = proxy
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._ssl = ssl
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is not None and not self._session.closed:
            return
        proxy = self._proxy
        scheme = urlsplit(proxy).scheme.lower() if proxy else ""
        common: dict[str, Any] = {
            "limit": self._pool_size,
            "keepalive_timeout": KEEPALIVE_SECONDS,
            "ssl": self._ssl,
        }
        connector: aiohttp.TCPConnector
        session_proxy: str | None = None
        if proxy and scheme.startswith("socks"):
            rdns = scheme == "socks5h"
            url = proxy.replace(f"{scheme}://", "socks5://", 1) if rdns else proxy
            connector = ProxyConnector.from_url(url, rdns=rdns, **common)
        else:
            connector = aiohttp.TCPConnector(**common)
            session_proxy = proxy
        self._session = aiohttp.ClientSession(
            connector=connector,
            proxy=session_proxy,
            headers={"User-Agent": self.USER_AGENT},
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=None),
        )

    async def shutdown(self) -> None:
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()

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
        connect = _seconds(connect_timeout, self._connect_timeout)
        pool = _seconds(pool_timeout, self._pool_timeout)
        timeout = aiohttp.ClientTimeout(
            total=None,
            # aiohttp's "connect" is the wait for a free connection plus the making of one
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect,
            sock_read=_seconds(read_timeout, self._read_timeout),
        )
        data: Any = None
        headers: dict[str, str] | None = None
        if request_data is not None:
            if request_data.contains_files:
                data = _form(request_data)
            else:
                data = request_data.json_payload
                headers = {"Content-Type": "application/json"}
        try:
            async with session.request(
                method, url, data=data, headers=headers, timeout=timeout
            ) as response:
                return response.status, await response.read()
        except aiohttp.ConnectionTimeoutError as error:
            raise TimedOut(
                "Timed out while connecting (or waiting for a free connection): the request "
                "was *not* sent to Telegram"
            ) from error
        except TimeoutError as error:  # aiohttp's read timeout is a TimeoutError too
            raise TimedOut from error
        except (aiohttp.ClientError, OSError, python_socks.ProxyError) as error:
            raise NetworkError(f"aiohttp.{type(error).__name__}: {error}") from error


class UpdatesRequest(AiohttpRequest):
    """The request object of ``getUpdates``: the same, and each update trimmed of what the bot
    never reads (``trim_update``) before PTB parses it."""

    __slots__ = ()

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        """PTB's documented hook for the reply's JSON (``BaseRequest.parse_json_payload``)."""
        try:
            data = json.loads(payload.decode("utf-8", "replace"))
        except ValueError as error:
            raise TelegramError("Invalid server response") from error
        result = data.get("result") if isinstance(data, dict) else None
        if isinstance(result, list):
            for update in result:
                trim_update(update)
        return data  # type: ignore[no-any-return]


def trim_update(update: Any) -> None:
    """Take out of an update, in place, the parts of a pressed button's message the bot never
    reads (``UNREAD_MESSAGE_PARTS``): the press needs the message's id, chat and topic, not
    the hand or table it shows, whose formatting and buttons PTB would otherwise build into
    objects at every press (a tenth of the bot's CPU under bench/load.py)."""
    query = update.get("callback_query") if isinstance(update, dict) else None
    message = query.get("message") if isinstance(query, dict) else None
    if isinstance(message, dict):
        for part in UNREAD_MESSAGE_PARTS:
            message.pop(part, None)


def check_proxy_url(url: str) -> None:
    """Raise ``ValueError`` unless ``url`` is a proxy URL the bot can use."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in PROXY_SCHEMES:
        raise ValueError(
            f"the proxy URL must start with one of {', '.join(s + '://' for s in PROXY_SCHEMES)}"
        )
    if not parts.hostname:
        raise ValueError("the proxy URL names no host")
    try:
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError as error:
        raise ValueError(f"the proxy URL has a bad port: {error}") from None


def _seconds(value: Any, default: float | None) -> float | None:
    """A timeout passed to ``do_request``: PTB's DEFAULT_NONE means "the default"."""
    return default if value is BaseRequest.DEFAULT_NONE else value


def _form(request_data: RequestData) -> aiohttp.FormData:
    """A ``multipart/form-data`` body: the parameters as strings, then the files."""
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, part in request_data.multipart_data.items():
        if isinstance(part, tuple):
            filename, content, *rest = part
            form.add_field(
                name,
                content,
                filename=filename,
                content_type=rest[0] if rest else "application/octet-stream",
            )
        else:
            form.add_field(name, str(part))
    return form
