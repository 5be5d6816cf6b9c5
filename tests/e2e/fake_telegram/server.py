"""The HTTP side of the fake: an aiohttp server on 127.0.0.1 speaking the Bot API.

It serves ``/bot<TOKEN>/<method>`` (GET or POST, JSON, form or multipart bodies), checks the
token, applies injected faults, runs the method from :class:`BotApi`, logs every request in
:attr:`FakeBotApiServer.log`, and answers ``{"ok": true, "result": ...}`` or the Bot API error
shape. It binds a free port chosen by the OS; ``base_url`` and ``base_file_url`` are what to
give ``ApplicationBuilder().base_url(...)`` and ``.base_file_url(...)``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import errors
from .errors import ApiError
from .faults import (
    Before,
    Delay,
    DropConnection,
    Fault,
    FaultInjector,
    RetryAfter,
    ServerError,
)
from .methods import BotApi
from .params import Params, read_params

_LOGGER = logging.getLogger(__name__)


@dataclass(eq=False)
class ApiRequest:
    """One logged Bot API request and how it ended.

    ``time`` is the event loop's monotonic clock when the request arrived; ``params`` are the
    parameters as sent (strings in a form); ``chat_id`` is the chat it names, resolved to an
    int; ``status`` is ``None`` while the request is being handled and then the HTTP status
    (0 for a dropped connection); ``result`` is the reply's ``result`` when ``ok``.
    """

    method: str
    params: dict[str, Any]
    time: float
    chat_id: int | None
    status: int | None = None
    result: Any = None
    error: str | None = None
    fault: Fault | None = None
    finished: float | None = None

    @property
    def ok(self) -> bool:
        """Whether the request succeeded."""
        return self.status == 200


class FakeBotApiServer:
    """Serves a :class:`BotApi` for one bot token.

    ``on_activity`` is called whenever a request starts or ends, so waiters can re-check.
    """

    def __init__(
        self,
        api: BotApi,
        faults: FaultInjector,
        token: str,
        on_activity: Callable[[], None],
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.api = api
        self.faults = faults
        self.token = token
        self.host = host
        self.log: list[ApiRequest] = []
        self.in_flight: set[ApiRequest] = set()
        self._on_activity = on_activity
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self._wanted_port = port

    @property
    def root_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self.port is None:
            raise RuntimeError("the fake Bot API server is not running")
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The ``base_url`` for python-telegram-bot (it appends the token)."""
        return f"{self.root_url}/bot"

    @property
    def base_file_url(self) -> str:
        """The ``base_file_url`` for python-telegram-bot."""
        return f"{self.root_url}/file/bot"

    async def start(self) -> None:
        """Bind the port given (or a free one) on ``host`` and start serving."""
        self.api.closing.clear()
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._handle_file)
        # Handlers must not be cancelled when a client gives up: a delayed request is still
        # performed, and abandoned long polls are ended by the next getUpdates or by stop().
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._wanted_port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        _LOGGER.debug("fake Bot API listening on %s", self.root_url)

    async def stop(self) -> None:
        """Wake every long poll and delay, then close the server and its connections."""
        self.api.closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.port = None

    async def _handle_file(self, request: web.Request) -> web.Response:
        return web.json_response(
            ApiError(404, "Not Found: the fake has no files").to_json(), status=404
        )

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        token, method = request.match_info["token"], request.match_info["method"]
        if token != self.token:
            return web.json_response(ApiError(401, errors.UNAUTHORIZED).to_json(), status=401)
        try:
            raw = await read_params(request)
        except ApiError as error:
            return web.json_response(error.to_json(), status=error.error_code)
        params = Params(raw)
        found = self.api.lookup(method)
        entry = ApiRequest(
            method=found[0] if found else method,
            params=raw,
            time=asyncio.get_running_loop().time(),
            chat_id=self.api.chat_id_of(params),
        )
        self.log.append(entry)
        self.in_flight.add(entry)
        self._on_activity()
        try:
            return await self._respond(request, entry, params, found)
        finally:
            self.in_flight.discard(entry)
            entry.finished = asyncio.get_running_loop().time()
            self._on_activity()

    async def _respond(
        self,
        request: web.Request,
        entry: ApiRequest,
        params: Params,
        found: tuple[str, Callable[[Params], Any]] | None,
    ) -> web.StreamResponse:
        fault = self.faults.pick(entry.method, entry.chat_id) if found else None
        entry.fault = fault
        if isinstance(fault, RetryAfter):
            return self._error(entry, errors.too_many_requests(fault.retry_after))
        if isinstance(fault, ServerError):
            return self._error(entry, ApiError(fault.status, fault.description))
        if isinstance(fault, DropConnection) and not fault.after_processing:
            return self._drop(request, entry)
        if isinstance(fault, Before):
            fault.action()
        if isinstance(fault, Delay) and not fault.after_processing:
            await self._wait(fault.seconds)
        if found is None:
            return self._error(entry, errors.not_found(entry.method))
        try:
            result = found[1](params)
            if inspect.isawaitable(result):
                result = await result
        except ApiError as error:
            return self._error(entry, error)
        if isinstance(fault, DropConnection):
            return self._drop(request, entry)
        if isinstance(fault, Delay) and fault.after_processing:
            await self._wait(fault.seconds, request)
        entry.status, entry.result = 200, result
        return web.json_response({"ok": True, "result": result})

    async def _wait(self, seconds: float, answer_to: web.Request | None = None) -> None:
        """A delay's pause, cut short when the server closes; and, the request performed and
        only its answer held (``answer_to``), when the client has gone: nobody is left to
        answer (a bot killed meanwhile), and nothing is left in flight."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        closing = asyncio.ensure_future(self.api.closing.wait())
        try:
            while not closing.done():
                left = end - loop.time()
                if left <= 0 or (answer_to is not None and answer_to.transport is None):
                    return
                # the client's going has no event of its own: looked at every 50 ms
                poll = left if answer_to is None else min(left, 0.05)
                await asyncio.wait({closing}, timeout=poll)
        finally:
            closing.cancel()

    def _error(self, entry: ApiRequest, error: ApiError) -> web.Response:
        entry.status, entry.error = error.error_code, error.description
        return web.json_response(error.to_json(), status=error.error_code)

    def _drop(self, request: web.Request, entry: ApiRequest) -> web.Response:
        entry.status, entry.error = 0, "connection dropped"
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=500)
