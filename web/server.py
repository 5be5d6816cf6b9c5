"""The Mini App's server: an aiohttp application in the bot's own process and event loop.

    GET  /                 the page (web/static), and its files
    GET  /api/texts        the page's texts in the user's language (``web.texts``)
    GET  /api/state        the seat's view (``web.views``) of the table the page shows
    POST /api/action       a move: ``{"version", "verb", "arg", "key"}``
    GET  /api/events       live updates (Server-Sent Events, ``web.live``)

Every API request says who is asking only by Telegram's signed ``initData`` (``web.auth``): in
the ``Authorization: tma <initData>`` header, or the ``tma`` query parameter for the event
stream (a browser's EventSource sends no header). Forged, altered, expired or another bot's
``initData`` is refused with 401; a table where the user holds no seat with 403; a move made
from an old view with 409 and ``{"refused": {"key": "web.stale"}}``; none of them changes
anything. The table a page shows is named by ``?t=<payload>`` (the private chat's button) or
the ``start_param`` of a ``startapp`` link; without either, the user's current table. API
calls are rate-limited per user (429), a move's idempotency key makes a retry apply once, and
every response carries a Content-Security-Policy that lets the page load only its own files
and Telegram's script.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from tables import Refused
from web import session as sessions
from web.auth import DEFAULT_MAX_AGE, InitDataError, WebAppUser, validate
from web.limits import Once, RateLimit
from web.live import STREAMS_PER_USER, Hub
from web.tables import BadMove, NoTable, NotYours, WebTables, is_verb
from web.texts import page_texts
from web.views import refusal

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: what the page may load: its own files and Telegram's script, nothing else
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'"
)
#: an idempotency key: what ``crypto.randomUUID`` makes, or any short token
KEY = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: refusals that mean "the table changed since your view" (read it again)
STALE = frozenset({"outdated", "game_over"})


@dataclass
class WebApp:
    """The server's parts: the tables, the bot's token (to check ``initData``), the open
    pages, the per-user rate and the moves already answered."""

    tables: WebTables
    token: str
    max_age: int = DEFAULT_MAX_AGE
    hub: Hub = field(default_factory=Hub)
    rate: RateLimit = field(default_factory=RateLimit)
    once: Once[tuple[int, dict[str, Any]]] = field(default_factory=Once)

    @functools.cached_property
    def session_key(self) -> bytes:
        return sessions.session_key(self.token)

    def changed(self, game_id: int, seats: list[int]) -> None:
        """The table service's "table changed" (``TableService.watch``)."""
        self.hub.changed(game_id, seats)

    # ------------------------------------------------------------------ who is asking

    def user(self, request: web.Request, *, query: bool = False) -> WebAppUser:
        """The user the request's ``initData`` (or the session a state answer gave the page,
        ``web.session``) speaks for; 401 without a valid one, 429 once he has asked too
        often."""
        if query:
            raw, session = request.query.get("tma", ""), request.query.get("session", "")
        else:
            header = request.headers.get("Authorization", "")
            raw = header[4:] if header.startswith("tma ") else ""
            session = header[8:] if header.startswith("session ") else ""
        if not raw and not session:
            raise _error(web.HTTPUnauthorized, "no initData")
        try:
            if session:
                user = sessions.check(session, self.session_key)
            else:
                user = validate(raw, self.token, max_age=self.max_age)
        except InitDataError as error:
            raise _error(web.HTTPUnauthorized, f"initData {error.reason}") from None
        if not self.rate.allow(user.user_id):
            raise _error(web.HTTPTooManyRequests, "too many requests", {"Retry-After": "1"})
        return user

    async def game(self, request: web.Request, user: WebAppUser) -> int:
        """The game the page shows (``?t=``, else the link's ``start_param``, else his
        current table): 404 if none, 403 if he holds no seat there."""
        named = request.query.get("t") or user.start_param
        game_id: int = await _guarded(self.tables.find(user.user_id, named))
        return game_id

    # ------------------------------------------------------------------ routes

    async def texts(self, request: web.Request) -> web.Response:
        user = self.user(request)
        lang = await self.tables.front.language(user.user_id, user.language)
        response = web.json_response(page_texts(lang))
        response.enable_compression()  # (gzip where the page accepts it)
        return response

    async def state(self, request: web.Request) -> web.Response:
        user = self.user(request)
        game_id = await self.game(request, user)
        view = await _guarded(self.tables.view(game_id, user.user_id, user.language))
        # a fresh session with every state read: a page open all evening stays signed in
        session = sessions.issue(user, self.session_key, self.max_age)
        response = web.json_response(view, headers={"X-Session": session})
        response.enable_compression()
        return response

    async def action(self, request: web.Request) -> web.Response:
        user = self.user(request)
        game_id = await self.game(request, user)
        try:
            body = await request.json()
        except ValueError:
            raise _error(web.HTTPBadRequest, "not JSON") from None
        if not isinstance(body, dict):
            raise _error(web.HTTPBadRequest, "not an object")
        version, verb, key = body.get("version"), body.get("verb"), body.get("key")
        if isinstance(version, bool) or not isinstance(version, int) or not is_verb(verb):
            raise _error(web.HTTPBadRequest, "no version or verb")
        if not isinstance(key, str) or not KEY.fullmatch(key):
            raise _error(web.HTTPBadRequest, "no idempotency key")
        arg = body.get("arg")

        async def move() -> tuple[int, dict[str, Any]]:
            try:
                await self.tables.act(game_id, user.user_id, version, str(verb), arg)
            except Refused as refused:
                if refused.reason == "not_at_table":
                    return 403, {"error": "not your seat"}
                stale = refused.reason in STALE
                return 409, {"refused": refusal(stale), "reason": refused.reason}
            except BadMove:
                return 400, {"error": "no such move"}
            except (NoTable, NotYours) as error:
                return (404 if isinstance(error, NoTable) else 403), {"error": "no table"}
            return 200, {}

        status, answer = await self.once.run(user.user_id, f"{game_id}:{key}", move)
        if status in (200, 409):
            # the view as it is now: the move's outcome, or what the stale view missed
            with contextlib.suppress(NoTable, NotYours):
                view = await self.tables.view(game_id, user.user_id, user.language)
                answer = {**answer, "view": view}
        return web.json_response(answer, status=status)

    async def events(self, request: web.Request) -> web.StreamResponse:
        user = self.user(request, query=True)
        named = request.query.get("t") or user.start_param
        game_id = None
        if named:
            game_id = await self.game(request, user)
        if self.hub.streams_of(user.user_id) >= STREAMS_PER_USER:
            raise _error(web.HTTPTooManyRequests, "too many open pages", {"Retry-After": "5"})
        return await self.hub.stream(request, user.user_id, game_id)

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")


def _error(
    kind: type[web.HTTPException], message: str, headers: dict[str, str] | None = None
) -> web.HTTPException:
    return kind(text=f'{{"error": "{message}"}}', content_type="application/json", headers=headers)


async def _guarded(call: Awaitable[Any]) -> Any:
    """``call``'s answer; NoTable as 404, NotYours as 403."""
    try:
        return await call
    except NoTable:
        raise _error(web.HTTPNotFound, "no table") from None
    except NotYours:
        raise _error(web.HTTPForbidden, "not your table") from None


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response: the page may load only its own files and Telegram's script."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")


def make_app(server: WebApp) -> web.Application:
    """The aiohttp application of ``server``."""
    app = web.Application(client_max_size=16 * 1024)
    app.on_response_prepare.append(_headers)

    async def close_streams(_: web.Application) -> None:
        server.hub.close()

    app.on_shutdown.append(close_streams)
    app.router.add_get("/", server.index)
    app.router.add_get("/api/texts", server.texts)
    app.router.add_get("/api/state", server.state)
    app.router.add_post("/api/action", server.action)
    app.router.add_get("/api/events", server.events)
    app.router.add_static("/", STATIC)
    return app


class WebAppServer:
    """``server`` listening on ``host``:``port`` in the running event loop (``start``,
    ``stop``), and the address it listens on."""

    def __init__(self, server: WebApp, host: str, port: int) -> None:
        self.server = server
        self.host = host
        self.port = port
        self.runner: web.AppRunner | None = None
        #: where it listens, once started (port 0: a free port the system chose)
        self.address = ""

    async def start(self) -> None:
        runner = web.AppRunner(make_app(self.server), shutdown_timeout=2.0, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self.runner = runner
        host, port = runner.addresses[0][:2]
        self.address = f"http://{host}:{port}/"
        log.info("Mini App server listening on %s:%s", host, port)

    async def stop(self) -> None:
        """No more moves from pages; every live stream ends."""
        runner, self.runner = self.runner, None
        if runner is not None:
            await runner.cleanup()
