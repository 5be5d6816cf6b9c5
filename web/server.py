"""The Mini App's server: an aiohttp application in the bot's own process and event loop.

    GET  /                 the page (web/static), and its files
    GET  /api/texts        the page's texts in the user's language (``web.texts``); without a
                           valid initData, in the language of ``?lang=``
    GET  /api/state        the seat's view (``web.views``) of the table the page shows
    GET  /api/replay       a finished deal step by step, ``?deal=`` from 0 (``web.endings``)
    POST /api/action       a move: ``{"version", "verb", "arg", "key"}``
    GET  /api/evening      the evening so far of the table's chat: money and the settle-up
    POST /api/hint         💡 at his turn: ``{"version"}`` → ``{"hint"}``, the advice in words
    POST /api/ticket       a ticket that opens the live stream (``web.session``)
    POST /api/presence     the page is on the screen, or not: ``{"visible"}`` (``tables.presence``)
    GET  /api/events       live updates (Server-Sent Events, ``web.live``), ``?ticket=``

Every API request says who is asking only by Telegram's signed ``initData`` (``web.auth``) or
the session it started (``web.session``), in the ``Authorization`` header (``tma <initData>``,
``session <token>``); the event stream, which a browser's EventSource opens with no header, by
a short-lived ticket in its address. Forged, altered, expired or another bot's ``initData`` is
refused with 401; a table where the user holds no seat with 403; a move made from an old view
with 409 and ``{"refused": {"key": "web.stale"}}``; none of them changes anything. The table a
page shows is named by ``?t=<payload>`` (the private chat's button) or the ``start_param`` of a
``startapp`` link; without either, the user's current table. API calls are rate-limited per
user (429), a move's idempotency key makes a retry apply once (and the key sent with another
move is refused, 422), and every response carries a Content-Security-Policy that lets the page
load only its own files and Telegram's script. What a connection may hold (how many, how long
before its headers and its body come) is ``web.connections``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from tables import Refused
from tables.arguments import MAX_GAME_ID, whole_number
from web import session as sessions
from web import tables as page
from web.auth import DEFAULT_MAX_AGE, InitDataError, WebAppUser, validate
from web.connections import BODY_SECONDS, Connections
from web.limits import KeyReused, Once, RateLimit
from web.live import STREAMS_PER_USER, Hub
from web.quiet_log import QuietLog
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
#: why a hint is refused, said in the chat's words
HINT_REFUSALS = frozenset({"no_hints", "hint_failed"})
#: moves one user may have being answered at once (a page sends one at a time)
MOVES_AT_ONCE = 4
#: how long a page's session lasts from its initData, by default (``WEBAPP_SESSION_MAX_AGE``)
DEFAULT_SESSION_AGE = 12 * 3600


@dataclass
class WebApp:
    """The server's parts: the tables, the bot's token (to check ``initData``), the open
    pages, the per-user rate and the moves already answered."""

    tables: WebTables
    token: str
    max_age: int = DEFAULT_MAX_AGE
    session_age: int = DEFAULT_SESSION_AGE
    hub: Hub = field(default_factory=Hub)
    rate: RateLimit = field(default_factory=RateLimit)
    once: Once[tuple[int, dict[str, Any]]] = field(default_factory=Once)
    connections: Connections = field(default_factory=Connections)
    #: seconds a move's body may take to come
    body_seconds: float = BODY_SECONDS
    #: each user's moves being answered now
    moving: dict[int, int] = field(default_factory=dict)

    @functools.cached_property
    def session_key(self) -> bytes:
        return sessions.session_key(self.token)

    # ------------------------------------------------------------------ who is asking

    def user(self, request: web.Request, *, ticket: bool = False) -> WebAppUser:
        """The user the request's ``initData`` (or the session a state answer gave the page;
        for the live stream, the ticket in its address: ``web.session``) speaks for; 401
        without a valid one, 429 once he has asked too often."""
        header = "" if ticket else request.headers.get("Authorization", "")
        stream = request.query.get("ticket", "") if ticket else ""
        try:
            if stream:
                user = sessions.check(stream, self.session_key, "ticket")
            elif header.startswith("session ") and len(header) > 8:
                user = sessions.check(header[8:], self.session_key)
            elif header.startswith("tma ") and len(header) > 4:
                user = validate(header[4:], self.token, max_age=self.max_age)
            else:
                raise _error(web.HTTPUnauthorized, "no initData")
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
        """The page's texts in the user's language; for a page that cannot say who it is
        (its initData forged, expired or missing), the catalogue in the language it names
        (``?lang=``), so that it can say why no table is shown: texts hold nothing of anyone."""
        try:
            user = self.user(request)
        except web.HTTPUnauthorized:
            lang = request.query.get("lang", "")[:16]
        else:
            lang = await self.tables.tables.people.user_language(user.user_id, user.language)
        response = web.json_response(page_texts(lang, self.tables.pages))
        response.enable_compression()  # (gzip where the page accepts it)
        return response

    async def state(self, request: web.Request) -> web.Response:
        user = self.user(request)
        game_id = await self.game(request, user)
        view = await _guarded(self.tables.view(game_id, user.user_id, user.language))
        # the session: a page open all evening stays signed in, until the session's age from
        # the initData that opened it (issued again from itself, it is the same token)
        session = sessions.issue(user, self.session_key, self.session_age)
        response = web.json_response(view, headers={"X-Session": session})
        response.enable_compression()
        return response

    async def replay(self, request: web.Request) -> web.Response:
        """A finished deal step by step: 404 for one not over or not his, 403 not his table."""
        user = self.user(request)
        game_id = await self.game(request, user)
        deal = whole_number(request.query.get("deal", ""), 0, MAX_GAME_ID)
        steps = await _guarded(self.tables.replay(game_id, user.user_id, deal, user.language))
        response = web.json_response(steps)
        response.enable_compression()
        return response

    async def _json(self, request: web.Request) -> Any:
        """The request's body as JSON: 408 if it comes too slowly, 413 if it is too big, 400
        if it is no JSON."""
        try:
            async with asyncio.timeout(self.body_seconds):
                raw = await request.read()
        except TimeoutError:
            raise _error(web.HTTPRequestTimeout, "the body came too slowly") from None
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise _error(web.HTTPBadRequest, "not JSON") from None

    async def presence(self, request: web.Request) -> web.Response:
        """A page's beat: ``{"visible": true}`` while it is on the screen (every few seconds),
        ``false`` once it is not (``tables.presence``)."""
        user = self.user(request)
        game_id = await self.game(request, user)
        body = await self._json(request)
        visible = body.get("visible") if isinstance(body, dict) else None
        if not isinstance(visible, bool):
            raise _error(web.HTTPBadRequest, "no visible")
        self.tables.tables.presence.seen(game_id, user.user_id, visible)
        return web.json_response({})

    async def evening(self, request: web.Request) -> web.Response:
        user = self.user(request)
        game_id = await self.game(request, user)
        said = await _guarded(self.tables.evening(game_id, user.user_id, user.language))
        return web.json_response(said)

    async def hint(self, request: web.Request) -> web.Response:
        """💡: the advice for his seat at the turn ``version`` (``WebTables.hint``); 409 with
        why not (not his turn any more, no hints at this table, none worked out)."""
        user = self.user(request)
        game_id = await self.game(request, user)
        body = await self._json(request)
        version = body.get("version") if isinstance(body, dict) else None
        if isinstance(version, bool) or not isinstance(version, int):
            raise _error(web.HTTPBadRequest, "no version")
        try:
            said = await _guarded(self.tables.hint(game_id, user.user_id, version, user.language))
        except Refused as refused:
            stale = refused.reason in STALE
            why = refusal(stale) if stale or refused.reason not in HINT_REFUSALS else None
            return web.json_response(
                {"refused": why or {"key": f"refuse.{refused.reason}", "params": {}}}, status=409
            )
        return web.json_response({"hint": said})

    async def ticket(self, request: web.Request) -> web.Response:
        """A ticket that opens the live stream of the table the page shows."""
        user = self.user(request)
        if request.query.get("t") or user.start_param:
            await self.game(request, user)
        made = sessions.ticket(user, self.session_key)
        return web.json_response({"ticket": made})

    async def action(self, request: web.Request) -> web.Response:
        user = self.user(request)
        game_id = await self.game(request, user)
        if self.moving.get(user.user_id, 0) >= MOVES_AT_ONCE:
            raise _error(web.HTTPTooManyRequests, "too many moves at once", {"Retry-After": "1"})
        self.moving[user.user_id] = self.moving.get(user.user_id, 0) + 1
        try:
            return await self._action(request, user, game_id)
        finally:
            left = self.moving.pop(user.user_id) - 1
            if left:
                self.moving[user.user_id] = left

    async def _action(self, request: web.Request, user: WebAppUser, game_id: int) -> web.Response:
        body = await self._json(request)
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
                event = await self.tables.act(game_id, user.user_id, version, str(verb), arg)
            except Refused as refused:
                if refused.reason == "not_at_table":
                    return 403, {"error": "not your seat"}
                stale = refused.reason in STALE
                return 409, {"refused": refusal(stale), "reason": refused.reason}
            except BadMove:
                return 400, {"error": "no such move"}
            except (NoTable, NotYours) as error:
                return (404 if isinstance(error, NoTable) else 403), {"error": "no table"}
            if verb == page.AGAIN:  # a new table: the page goes on to it
                return 200, {"table": page.payload(event.game.game_id)}
            return 200, {}

        request_of_key = json.dumps([version, verb, arg], sort_keys=True)
        try:
            status, answer = await self.once.run(
                user.user_id, f"{game_id}:{key}", move, request=request_of_key
            )
        except KeyReused:
            raise _error(web.HTTPUnprocessableEntity, "key used for another move") from None
        if status in (200, 409):
            # the view as it is now: the move's outcome, or what the stale view missed
            with contextlib.suppress(NoTable, NotYours):
                shown = page.game_of(answer.get("table")) or game_id
                view = await self.tables.view(shown, user.user_id, user.language)
                answer = {**answer, "view": view}
        return web.json_response(answer, status=status)

    async def events(self, request: web.Request) -> web.StreamResponse:
        user = self.user(request, ticket=True)
        named = request.query.get("t") or user.start_param
        game_id = None
        if named:
            game_id = await self.game(request, user)
        if self.hub.streams_of(user.user_id) >= STREAMS_PER_USER:
            # a page closed since its last write still counts: let it go first
            self.hub.forget_closed(user.user_id)
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


#: the logger of the server's connections (aiohttp's ``logger``), quietened
HTTP_LOG = logging.getLogger("web.http")
HTTP_LOG.addFilter(QuietLog())


def make_app(server: WebApp) -> web.Application:
    """The aiohttp application of ``server``."""

    @web.middleware
    async def serving(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        with server.connections.serving(request.transport):
            return await handler(request)

    app = web.Application(client_max_size=16 * 1024, middlewares=[serving])
    app.on_response_prepare.append(_headers)

    async def close_streams(_: web.Application) -> None:
        server.hub.close()

    app.on_shutdown.append(close_streams)
    app.router.add_get("/", server.index)
    app.router.add_get("/api/texts", server.texts)
    app.router.add_get("/api/state", server.state)
    app.router.add_get("/api/replay", server.replay)
    app.router.add_post("/api/action", server.action)
    app.router.add_get("/api/evening", server.evening)
    app.router.add_post("/api/hint", server.hint)
    app.router.add_post("/api/ticket", server.ticket)
    app.router.add_post("/api/presence", server.presence)
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
        self.listening: asyncio.Server | None = None
        #: where it listens, once started (port 0: a free port the system chose)
        self.address = ""

    async def start(self) -> None:
        runner = web.AppRunner(
            make_app(self.server),
            shutdown_timeout=2.0,
            access_log=None,
            logger=HTTP_LOG,
            # an idle connection is closed by web.connections' deadline sooner
            keepalive_timeout=self.server.connections.header_seconds,
        )
        await runner.setup()
        assert runner.server is not None  # (set up)
        loop = asyncio.get_running_loop()
        try:
            # aiohttp's low-level server as the protocol factory, each connection counted and
            # timed (web.connections); a site of aiohttp's would take the factory as it is
            listening = await loop.create_server(
                self.server.connections.factory(runner.server), self.host, self.port
            )
        except BaseException:
            await runner.cleanup()
            raise
        self.runner, self.listening = runner, listening
        host, port = listening.sockets[0].getsockname()[:2]
        self.address = f"http://{host}:{port}/"
        log.info(
            "Mini App server listening on %s:%s (at most %d connections, %d from one address)",
            host,
            port,
            self.server.connections.total,
            self.server.connections.per_address,
        )

    async def stop(self) -> None:
        """No more moves from pages; every live stream ends."""
        runner, self.runner = self.runner, None
        listening, self.listening = self.listening, None
        if listening is not None:
            listening.close()
        if runner is not None:
            await runner.cleanup()
        if listening is not None:
            await listening.wait_closed()
