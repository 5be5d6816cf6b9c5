"""A preview server for the Mini App page: the static page, its texts and seat views of real
engine states, moves applied by the engine, and live updates, behind real ``initData`` checks
with a test token. For the browser tests and ``scripts/webapp_screenshots.py``; the bot's own
server is another matter.

Each table is a fixture named by the ``start_param`` of the signed ``initData``
(``starshina-play``, ``shleif-knock``…): a state found by random play (``tests.web.fixtures``)
and the seat the page sits at. What a server shows is the ``Preview`` it is made with: the
games' pages, the games its fixtures are played in and the fixtures; ``PROGRAM_PREVIEW`` holds
the program's games, and a test of toy games makes a server with a preview of its own.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from aiohttp import web

from game.core import Action, IllegalAction
from locales import language
from tables.people import ranks_style
from tests import library
from tests.web.fixtures import GAMES, NAMES, Game, first_state, states
from web.auth import InitDataError, validate
from web.endings import replay, score_card
from web.games import PageGames
from web.lobby import lobby_actions
from web.texts import page_texts
from web.view_parts import TableInfo, action, text
from web.views import lobby_view, refusal, seat_view

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
TOKEN = "100200:preview-token-for-the-mini-app-tests"
TURN_SECONDS = 45
#: the user id of ``sign_init_data``: his page sits at the fixture's seat; the next ids sit at
#: the seats after it, clockwise (a page that waits for its turn)
FIRST_USER = 1001

#: a table in play: its game (one of the preview's games), where to stop, and whose seat the
#: page sits at ("to_act" or "dealer")
Fixture = tuple[str, Callable[[Any], bool], str]


def _phase(name: str) -> Callable[[Any], bool]:
    return lambda state: state.phase.value == name


#: the program's tables in play by name
FIXTURES: Mapping[str, Fixture] = {
    "starshina-play": (
        "starshina",
        lambda s: (
            s.phase.value == "play"
            and len(s.trick) == 1
            and len(s.hands[s.to_act]) == 16
            and any(card[1] != s.trick[0][1][1] for card in s.hands[s.to_act])
        ),
        "to_act",
    ),
    "starshina-kitty": ("starshina", _phase("kitty"), "to_act"),
    "starshina-exchange": ("starshina", _phase("ring_return"), "to_act"),
    "starshina-trump": ("starshina_named", _phase("name_trump"), "to_act"),
    "starshina-over": ("starshina", _phase("deal_over"), "dealer"),
    "shleif-choose": ("shleif", _phase("choose"), "to_act"),
    "shleif-knock": (
        "shleif",
        lambda s: s.phase.value == "knock" and s.to_act is not None and s.to_act != s.dealer,
        "to_act",
    ),
    "shleif-stopping": (
        "shleif",
        lambda s: s.phase.value == "knock" and s.to_act is not None and s.to_act != s.dealer,
        "to_act",
    ),
    "shleif-purchase": (
        "shleif",
        lambda s: s.phase.value == "purchase" and s.to_act is not None and s.looked[s.to_act],
        "to_act",
    ),
    "shleif-unseen": (
        "shleif",
        lambda s: s.phase.value == "purchase" and s.to_act is not None and not s.looked[s.to_act],
        "to_act",
    ),
    "stukolka-play": (
        "stukolka",
        lambda s: (
            s.phase.value == "play"
            and len(s.trick) >= 1
            and s.to_act is not None
            and s.looked[s.to_act]
            and s.trump_card is not None
            and len(s.played) == 1
        ),
        "to_act",
    ),
    "shleif-lobby": ("shleif", _phase("choose"), "dealer"),
    "stukolka-over": (
        "stukolka",
        lambda s: (
            s.phase.value == "deal_over" and s.outcome is not None and s.outcome.value == "played"
        ),
        "dealer",
    ),
}


#: fixtures of a table still gathering: how many are seated (the page's seat the last)
LOBBIES = {"shleif-lobby": 2}
#: what the table service adds to some fixtures' views (``web.tables``): 💡 offered, and a
#: table stopping after its deal while a large pot waits, one of three agreed to void it
EXTRAS: dict[str, dict[str, Any]] = {
    "shleif-stopping": {
        "hint": True,
        "stopping": {
            "line": text("web.stop_large_pot", pot=text("web.chips", 15)),
            "votes": text("web.void_votes", votes=1, players=3),
            "actions": [
                action("void", text("btn.void_deal", votes=1, players=3), secondary=True),
                action("play_on", text("btn.play_on")),
            ],
        },
    },
}

#: the program's tables at a deal's end by name: (its game, whether the table is closed):
#: the next deal before its first card, with the last deal's score card (and its replay); or
#: a table closed, its game won
ENDS: Mapping[str, tuple[str, bool]] = {
    "stukolka-score": ("stukolka", False),
    "shleif-score": ("shleif", False),
    "starshina-end": ("starshina_one", True),
}


@dataclass
class PreviewTable:
    kind: str
    state: Any
    seat: int
    version: int = 1
    deadline: float = field(default_factory=lambda: time.time() + TURN_SECONDS)
    seen: dict[str, int] = field(default_factory=dict)  # idempotency key → version it made
    lobby: int = 0  # seated so far, while the table gathers (0: in play)
    options: dict[str, object] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # what the service adds (EXTRAS)
    #: the states of the last finished deal (its score card and replay), and whether the
    #: table is closed
    finished: list[Any] = field(default_factory=list)
    closed: bool = False


@dataclass(frozen=True)
class Preview:
    """What a preview server shows: the pages of its games (a ``Library``'s), the games its
    fixtures are played in (name → kind, options, players, as ``tests.web.fixtures.GAMES``),
    and its fixtures by name: tables in play, and tables at a deal's end (as ``FIXTURES`` and
    ``ENDS``)."""

    pages: PageGames
    games: Mapping[str, Game]
    fixtures: Mapping[str, Fixture]
    ends: Mapping[str, tuple[str, bool]] = field(default_factory=dict)

    def __contains__(self, name: object) -> bool:
        return name in self.fixtures or name in self.ends

    def load_table(self, name: str) -> PreviewTable:
        """A new table of the fixture ``name``."""
        if name in self.ends:
            return self._ended_table(*self.ends[name])
        game, where, whose = self.fixtures[name]
        state = first_state(game, where, games=self.games)
        kind, options, _ = self.games[game]
        if name in LOBBIES:
            seated = LOBBIES[name]
            return PreviewTable(kind, state, seated - 1, lobby=seated, options=options)
        seat = state.to_act if whose == "to_act" else state.dealer
        return PreviewTable(kind, state, seat, extra=EXTRAS.get(name, {}))

    def _ended_table(self, game: str, closed: bool) -> PreviewTable:
        """A table after a deal of ``game`` ended, played as ``load_table`` plays: the next
        deal before its first card (a page at the seat to act), its score card of a deal
        played through; or, ``closed``, the game won and the table closed (at the dealer's
        seat)."""
        kind = self.games[game][0]
        for seed in range(200):
            deals: dict[int, list[Any]] = {}
            for state in states(game, seed, deals=1 if closed else 2, games=self.games):
                deals.setdefault(state.deal_no, []).append(state)
            first = deals.get(0, [])
            if not first or not first[-1].deal_over or len(first[-1].trick_winners) < 2:
                continue
            if closed:
                end = first[-1]
                return PreviewTable(kind, end, end.dealer, finished=first, closed=True)
            waiting = [t for t in deals.get(1, []) if t.to_act not in (None, t.dealer)]
            if waiting:
                table = waiting[0]
                return PreviewTable(kind, table, table.to_act or 0, finished=first)
        raise LookupError(f"no finished {game} deal found")


#: the program's games and tables
PROGRAM_PREVIEW = Preview(library.PAGES, GAMES, FIXTURES, ENDS)


def _deal_money(end: Any, players: int) -> list[dict[str, int]]:
    """Each seat's chips by reason that a finished deal moved (the engine's transfers, as
    the bot's ledger holds them)."""
    money: list[dict[str, int]] = [{} for _ in range(players)]
    for item in end.transfers:
        for seat, amount in ((item.src, -item.amount), (item.dst, item.amount)):
            if isinstance(seat, int):
                money[seat][item.reason] = money[seat].get(item.reason, 0) + amount
    return money


def sign_init_data(
    fixture: str, *, lang: str = "ru", token: str = TOKEN, user_id: int = FIRST_USER
) -> str:
    """``initData`` as Telegram would sign it (core.telegram.org/bots/webapps)."""
    user = {"id": user_id, "first_name": "Тест", "language_code": lang}
    fields = {
        "auth_date": str(int(time.time())),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "start_param": fixture,
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields, quote_via=quote)


LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#3390ec",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
}
DARK = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#0f0f0f",
}


def telegram_stub(init_data: str, *, dark: bool = False) -> str:
    """A stand-in for ``telegram-web-app.js``: the signed ``initData``, the theme (as CSS
    variables, as Telegram's script sets them), and Main/Back buttons, haptics and swipes
    that record their calls in ``window.__tg`` (the main button is drawn at the bottom, as
    Telegram draws it under the page)."""
    theme = DARK if dark else LIGHT
    return f"""
(() => {{
  const calls = [];
  const record = (name, ...args) => calls.push([name, ...args]);
  const handlers = {{}};
  const bar = () => document.getElementById("tg-main");
  const main = {{
    text: "", isVisible: false, isActive: true, clicks: [],
    setText(text) {{ this.text = text; record("main.setText", text); this.draw(); return this; }},
    show() {{ this.isVisible = true; record("main.show"); this.draw(); return this; }},
    hide() {{ this.isVisible = false; record("main.hide"); this.draw(); return this; }},
    enable() {{ this.isActive = true; this.draw(); return this; }},
    disable() {{ this.isActive = false; this.draw(); return this; }},
    color: {json.dumps(theme["button_color"])}, textColor: {json.dumps(theme["button_text_color"])},
    setParams(params) {{
      if (params.color) this.color = params.color;
      if (params.text_color) this.textColor = params.text_color;
      record("main.setParams", params); this.draw(); return this;
    }},
    onClick(fn) {{ this.clicks.push(fn); return this; }},
    offClick(fn) {{ this.clicks = this.clicks.filter((f) => f !== fn); return this; }},
    press() {{ if (this.isActive) this.clicks.forEach((fn) => fn()); }},
    draw() {{
      let node = bar();
      if (!node) {{
        node = document.createElement("div");
        node.id = "tg-main";
        node.setAttribute("aria-hidden", "true");
        node.style.cssText = "height:56px;display:none;margin-top:12px;" +
          "align-items:center;justify-content:center;font:600 16px system-ui;z-index:9";
        node.onclick = () => main.press();
        document.body.append(node);
      }}
      node.style.background = this.color;
      node.style.color = this.textColor;
      node.textContent = this.text;
      node.style.display = this.isVisible ? "flex" : "none";
      node.style.opacity = this.isActive ? "1" : "0.55";
    }},
  }};
  const back = {{
    isVisible: false, clicks: [],
    show() {{ this.isVisible = true; record("back.show"); }},
    hide() {{ this.isVisible = false; record("back.hide"); }},
    onClick(fn) {{ this.clicks.push(fn); }},
    offClick(fn) {{ this.clicks = this.clicks.filter((f) => f !== fn); }},
    press() {{ this.clicks.forEach((fn) => fn()); }},
  }};
  const app = {{
    initData: {json.dumps(init_data)},
    initDataUnsafe: {{}},
    version: "8.0",
    platform: "android",
    colorScheme: {json.dumps("dark" if dark else "light")},
    themeParams: {json.dumps(theme)},
    MainButton: main,
    BackButton: back,
    HapticFeedback: {{
      impactOccurred: (style) => record("haptic.impact", style),
      selectionChanged: () => record("haptic.selection"),
      notificationOccurred: (type) => record("haptic.notification", type),
    }},
    isVersionAtLeast: (version) => parseFloat(version) <= 8.0,
    disableVerticalSwipes: () => record("disableVerticalSwipes"),
    ready: () => record("ready"),
    expand: () => record("expand"),
    onEvent: (name, fn) => (handlers[name] = handlers[name] || []).push(fn),
    offEvent: () => {{}},
    setTheme(dark, params) {{
      this.colorScheme = dark ? "dark" : "light";
      this.themeParams = params;
      for (const [name, value] of Object.entries(params)) {{
        document.documentElement.style.setProperty("--tg-theme-" + name.replace(/_/g, "-"), value);
      }}
      (handlers.themeChanged || []).forEach((fn) => fn());
    }},
  }};
  for (const [name, value] of Object.entries(app.themeParams)) {{
    document.documentElement.style.setProperty("--tg-theme-" + name.replace(/_/g, "-"), value);
  }}
  window.Telegram = {{ WebApp: app }};
  window.__tg = {{ calls, main, back, app, light: {json.dumps(LIGHT)}, dark: {json.dumps(DARK)} }};
}})();
"""


PREVIEW = web.AppKey("preview", Preview)
TABLES = web.AppKey("tables", dict[str, PreviewTable])
LISTENERS = web.AppKey("listeners", set[asyncio.Queue[str]])


def _who(request: web.Request, init_data: str | None = None) -> tuple[str | None, str, int]:
    raw = init_data
    if raw is None:
        header = request.headers.get("Authorization", "")
        if not header.startswith("tma "):
            raise web.HTTPUnauthorized(text="initData missing")
        raw = header[4:]
    try:
        user = validate(raw, TOKEN)
    except InitDataError as error:
        raise web.HTTPUnauthorized(text=error.reason) from None
    if user.start_param is None or user.start_param not in request.app[PREVIEW]:
        raise web.HTTPForbidden(text="no such table")
    return user.language, user.start_param, user.user_id


def _seat(table: PreviewTable, user_id: int) -> int:
    """The seat of ``user_id``'s page at ``table``: the fixture's seat for the first user, the
    seats after it for the next ones."""
    if table.lobby:
        return table.seat
    players: int = table.state.players
    return (table.seat + user_id - FIRST_USER) % players


def _table(request: web.Request, name: str) -> PreviewTable:
    tables = request.app[TABLES]
    if name not in tables:
        tables[name] = request.app[PREVIEW].load_table(name)
    return tables[name]


def _view(pages: PageGames, table: PreviewTable, lang: str | None, seat: int) -> dict[str, Any]:
    if table.lobby:
        info = TableInfo(
            names=NAMES[: table.lobby],
            version=table.version,
            ranks=ranks_style(language(lang), None),
            chips=tuple(40 - 7 * seat for seat in range(table.lobby)),
            stamp=table.version,
        )
        # the creator's lobby: computers to seat, begin (two may play), leave and cancel
        actions = lobby_actions(["computer", "novice", "begin", "leave", "cancel"])
        return lobby_view(pages.of(table.kind), table.options, table.seat, info, actions)
    players: int = table.state.players
    info = TableInfo(
        names=NAMES[:players],
        version=table.version,
        ranks=ranks_style(language(lang), None),
        chips=_balances(table.state, players),
        deadline=None if table.closed else table.deadline,
        stamp=table.version,
    )
    view = seat_view(pages.of(table.kind), table.state, seat, info)
    view["score"] = None
    view["closed"] = None
    if table.finished:
        end = table.finished[-1]
        view["score"] = score_card(pages.of(table.kind), end, seat, info, _deal_money(end, players))
    if table.closed:
        view["closed"] = text("web.closed.game_over")
        view.update(actions=[action("again", text("btn.again"))])
        view.update(to_act=None, deadline=None, prompt=None, pick=None)
    # the service's additions at the seat's own turn only, as the service makes them
    return {**view, **table.extra} if view["to_act"] == seat else view


def _balances(state: Any, players: int) -> tuple[int, ...]:
    """Each seat's balance as the bot's would read: a fixed start, plus the money the game's
    state has moved so far (the antes at once, the rest when the deal is settled); the third
    seat and those after it have lost over the evening so far."""
    chips = [40 - 23 * seat for seat in range(players)]
    for item in getattr(state, "transfers", ()):
        if isinstance(item.src, int):
            chips[item.src] -= item.amount
        if isinstance(item.dst, int):
            chips[item.dst] += item.amount
    return tuple(chips)


async def texts(request: web.Request) -> web.Response:
    try:
        lang: str | None = _who(request)[0]
    except web.HTTPUnauthorized:
        # as the bot's server: a page that cannot say who it is still learns why, in words
        lang = request.query.get("lang", "")[:16]
    return web.json_response(page_texts(lang, request.app[PREVIEW].pages))


async def state(request: web.Request) -> web.Response:
    lang, name, user = _who(request)
    table = _table(request, name)
    return web.json_response(_view(request.app[PREVIEW].pages, table, lang, _seat(table, user)))


async def act(request: web.Request) -> web.Response:
    lang, name, user = _who(request)
    table = _table(request, name)
    seat = _seat(table, user)
    body = await request.json()
    if body.get("key") in table.seen:
        return web.json_response({"view": _view(request.app[PREVIEW].pages, table, lang, seat)})
    if body.get("version") != table.version:
        return web.json_response({"refused": refusal(stale=True)}, status=409)
    verb, arg = body.get("verb"), body.get("arg")
    if isinstance(arg, int) and not isinstance(arg, bool):
        arg = tuple(table.state.holding(seat).cards[:arg])
    elif isinstance(arg, list):
        arg = tuple(arg)
    try:
        table.state.apply(Action(seat, str(verb), arg))
    except IllegalAction:
        return web.json_response({"refused": refusal(stale=False)}, status=409)
    table.version += 1
    table.deadline = time.time() + TURN_SECONDS
    table.seen[str(body.get("key"))] = table.version
    for queue in request.app[LISTENERS]:
        queue.put_nowait("changed")
    return web.json_response({"view": _view(request.app[PREVIEW].pages, table, lang, seat)})


async def replay_of(request: web.Request) -> web.Response:
    """A finished deal step by step: only the table's last finished deal (404 for any other,
    the deal in play among them)."""
    lang, name, _user = _who(request)
    table = _table(request, name)
    deal = request.query.get("deal", "")
    if not table.finished or deal != str(table.finished[-1].deal_no):
        raise web.HTTPNotFound(text="no such deal")
    players = table.state.players
    info = TableInfo(names=NAMES[:players], version=0, ranks=ranks_style(language(lang), None))
    page = request.app[PREVIEW].pages.of(table.kind)
    return web.json_response(replay(page, table.finished, info, table.seat))


async def ticket(request: web.Request) -> web.Response:
    """The stream's ticket: in this preview, the initData itself (the bot's server signs a
    short-lived one, web.session)."""
    _who(request)
    return web.json_response({"ticket": request.headers["Authorization"][4:]})


async def presence(request: web.Request) -> web.Response:
    """A page's beat: this preview has no chat to stand back."""
    _who(request)
    return web.json_response({})


async def events(request: web.Request) -> web.StreamResponse:
    _who(request, request.query.get("ticket", ""))
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    queue: asyncio.Queue[str] = asyncio.Queue()
    request.app[LISTENERS].add(queue)
    try:
        await response.write(b": hello\n\n")
        while (kind := await queue.get()) != "close":
            await response.write(f"event: {kind}\ndata: 1\n\n".encode())
    except ConnectionResetError:
        pass
    finally:
        request.app[LISTENERS].discard(queue)
    return response


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


#: what the page may load: its own files and Telegram's script, nothing else
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'"
)


@web.middleware
async def _security_headers(
    request: web.Request, handler: Callable[[web.Request], Any]
) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


async def _close_streams(app: web.Application) -> None:
    for queue in app[LISTENERS]:
        queue.put_nowait("close")


def make_app(preview: Preview = PROGRAM_PREVIEW) -> web.Application:
    """The preview server of ``preview``'s games and tables."""
    app = web.Application(middlewares=[_security_headers])
    app.on_shutdown.append(_close_streams)
    app[PREVIEW] = preview
    app[TABLES] = {}
    app[LISTENERS] = set()
    app.router.add_get("/", index)
    app.router.add_get("/api/texts", texts)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/replay", replay_of)
    app.router.add_post("/api/action", act)
    app.router.add_post("/api/ticket", ticket)
    app.router.add_post("/api/presence", presence)
    app.router.add_get("/api/events", events)
    app.router.add_static("/", STATIC)
    return app
