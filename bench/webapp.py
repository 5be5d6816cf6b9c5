"""Benchmark: the Mini App's page weight, how soon a move on one page reaches the others, and
the Bot API requests a move costs made on the page or by the chat's buttons.

    .venv/bin/python bench/webapp.py [--tables 20] [--moves 30] [--think 1.0] [--seed 1]

The bot is the real one, in this process, against the fake Bot API (as the e2e tests run it),
with ``WEBAPP_URL`` set and its web server on a free port of 127.0.0.1. Not a test: it prints
figures (JSON) and asserts nothing.

1. Page weight: every file the page loads on first open (``web/static``: the HTML, the CSS,
   the JavaScript modules), its texts and one seat's state, raw and gzipped (a reverse proxy
   compresses them; Telegram's own ``telegram-web-app.js`` is not counted: the app has it).
2. Press to update: ``--tables`` tables of three players (Стуколка со шлейфом, every fourth
   one Старшина), every player's page an HTTP client with its live stream open, as the
   browser's page is (on each ``changed`` event it reads its state again). On every table at
   once, the player to act (after ``--think`` seconds on average, uniformly from none to
   twice that; 0: at once) picks a legal decision at random from his page's state and posts it;
   from the post to the moment each other page has read a state of the new version is one
   sample (two a move). Looks (no new version) are made but not measured.
3. Bot API requests per move: the fake's request log over the measured moves made on the
   pages (each page on the screen, beating as the browser's does, so the chat stands back for
   its player), then, the pages hidden, over as many decisions made with the chat's buttons on
   the same tables (a press on an ``Act``, a ``Look`` or a card mark; accepted moves counted
   apart).
4. Capacity with every player on the page (``bench.capacity``), from the messages those page
   moves made (by chat kind, callback answers aside): how many tables at a human pace (a
   press every 4 s) one bot token carries inside Telegram's limits. Measured, not modelled:
   run it at a human pace (``--think 4``: a move every 4 s on average at each table), where
   the chat's pacing merges no edits.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import importlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from capacity import capacity, message_kinds  # noqa: E402  (bench/, the script's own folder)

from bot import callback as cb  # noqa: E402
from server.program import webapp_of  # noqa: E402
from tables.presence import BEAT  # noqa: E402
from tests.e2e.fake_telegram import FakeTelegram, User  # noqa: E402
from tests.e2e.players import Table, sign, start_bot_for  # noqa: E402
from tests.e2e.webapp_pages import Page  # noqa: E402
from web.server import STATIC  # noqa: E402

PAGE = "http://127.0.0.1:9/"
#: the e2e tests' table opener (a test module: looked up here, not type-checked with the benches)
open_table = importlib.import_module("tests.e2e.test_games").open_table


def page_weight(texts: bytes, state: bytes) -> dict[str, int]:
    files = [STATIC / "index.html", STATIC / "app.css", *sorted((STATIC / "js").glob("*.js"))]
    bodies = [path.read_bytes() for path in files] + [texts, state]
    return {
        "files": len(bodies),
        "raw_bytes": sum(len(body) for body in bodies),
        "gzip_bytes": sum(len(gzip.compress(body, 6)) for body in bodies),
    }


@dataclass
class Client:
    """One player's page: its live stream, and the latest version it has read."""

    http: aiohttp.ClientSession
    base: str
    user: User
    game: str
    token: str
    version: int = -1
    view: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    reads: int = 0

    @property
    def page(self) -> Page:
        """The e2e tests' page client, for the calls the bench makes as they do."""
        return Page(self.http, self.base, sign(self.token, self.user.id), self.game)

    def headers(self) -> dict[str, str]:
        return self.page.headers()

    async def state(self) -> dict[str, Any]:
        async with self.http.get(
            f"{self.base}api/state", params={"t": self.game}, headers=self.headers()
        ) as response:
            view: dict[str, Any] = await response.json()
        self.reads += 1
        await self.saw(view)
        return view

    async def saw(self, view: dict[str, Any]) -> None:
        async with self.changed:
            if int(view["version"]) >= self.version:
                self.version, self.view = int(view["version"]), view
            self.changed.notify_all()

    async def listen(self) -> None:
        params = {"t": self.game, "ticket": await self.page.ticket()}
        async with self.http.get(f"{self.base}api/events", params=params) as stream:
            await self.state()
            while True:
                line = await stream.content.readline()
                if not line:
                    return
                if line.startswith(b"event: changed"):
                    await self.state()

    async def beat(self) -> None:
        """On the screen, as a visible page says every few seconds."""
        while True:
            await self.page.present(True)
            await asyncio.sleep(BEAT)

    async def reaches(self, version: int) -> None:
        async with self.changed:
            await self.changed.wait_for(lambda: self.version >= version)

    async def act(self, view: dict[str, Any], rng: random.Random, key: str) -> int:
        """A random legal decision; the version it made (the same for a look)."""
        options: list[tuple[str, Any]] = [(a["verb"], a["arg"]) for a in view["actions"]]
        cards = [item["card"] for item in view["hand"]["cards"]]
        if view["pick"]:
            options.append((view["pick"]["verb"], rng.sample(cards, view["pick"]["min"])))
        else:
            options += [(i["verb"], i["card"]) for i in view["hand"]["cards"] if i["verb"]]
        verb, arg = rng.choice(options)
        body = {"version": view["version"], "verb": verb, "arg": arg, "key": key}
        async with self.http.post(
            f"{self.base}api/action", params={"t": self.game}, headers=self.headers(), json=body
        ) as response:
            answer = await response.json()
        if response.status != 200:
            return -1
        await self.saw(answer["view"])
        return int(answer["view"]["version"])


async def play_on_pages(
    clients: list[Client], moves: int, rng: random.Random, samples: list[float], think: float
) -> int:
    """``moves`` decisions on the pages of one table, each after ``think`` seconds (on
    average) from the last; the moves that made a new version."""
    made = 0
    for number in range(moves):
        await asyncio.sleep(rng.uniform(0, 2 * think))
        newest = max(client.version for client in clients)
        for client in clients:
            await asyncio.wait_for(client.reaches(newest), 30)
        actors = [c for c in clients if c.view.get("to_act") == c.view["you"]]
        if not actors:
            break  # the table has closed
        client = actors[0]
        view = client.view
        started = time.perf_counter()
        version = await client.act(view, rng, f"{client.user.id}-{number}")
        if version <= view["version"]:
            continue  # a look, or a refusal: nothing new for the others
        made += 1
        others = [c for c in clients if c is not client]
        for other in others:
            await asyncio.wait_for(other.reaches(version), 30)
            samples.append(time.perf_counter() - started)
    return made


async def chat_presses(table: Table, presses: int, rng: random.Random) -> int:
    """``presses`` presses of the chat's buttons at one table; how many were moves."""
    moves = 0
    for _ in range(presses):
        candidates = table.actionable((cb.Act, cb.Select, cb.Look))
        if not candidates:
            return moves
        user, message, data = rng.choice(candidates)
        decoded = {d: table.codec.decode(d) for d in data}
        acts = [d for d, c in decoded.items() if isinstance(c, cb.Act)]
        others = [d for d, c in decoded.items() if not isinstance(c, cb.Act)]
        choice = rng.choice(acts) if acts and (not others or rng.random() < 0.6) else None
        await table.press(user, message, choice or rng.choice(others))
        moves += choice is not None
    return moves


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def run(tables_count: int, moves: int, seed: int, think: float) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        async with (
            FakeTelegram() as fake,
            start_bot_for(
                fake, Path(folder) / "bot.sqlite3", webapp_url=PAGE, webapp_port=0
            ) as bot,
            aiohttp.ClientSession() as http,
        ):
            tables = []
            for index in range(tables_count):
                choice = "starshina" if index % 4 == 3 else "shleif"
                tables.append(await open_table(fake, bot, 3, choice, seed + index))
            webapp = webapp_of(tables[0].bot.app)
            assert webapp is not None
            base = webapp.address
            clients: list[list[Client]] = []
            for table in tables:
                game = await table.db.games.active_game(table.group.id)
                assert game is not None
                clients.append(
                    [
                        Client(http, base, user, f"g{game.game_id}", fake.token)
                        for user in table.users
                    ]
                )
            first = clients[0][0]
            async with http.get(f"{base}api/texts", headers=first.headers()) as response:
                texts = await response.read()
            async with http.get(
                f"{base}api/state", params={"t": first.game}, headers=first.headers()
            ) as response:
                state = await response.read()
            weight = page_weight(texts, state)
            listeners = [asyncio.ensure_future(c.listen()) for group in clients for c in group]
            listeners += [asyncio.ensure_future(c.beat()) for group in clients for c in group]
            for group in clients:
                for client in group:
                    await client.reaches(0)
            await tables[0].settle()
            samples: list[float] = []
            before = len(fake.requests())
            started = time.perf_counter()
            made = await asyncio.gather(
                *(
                    play_on_pages(group, moves, random.Random(rng.random()), samples, think)
                    for group in clients
                )
            )
            elapsed = time.perf_counter() - started
            await tables[0].settle()
            page_requests = len(fake.requests()) - before
            # where they went: the group's table (per chat kind) or a private chat, by method
            by_kind = Counter(
                f"{request.method} {'group' if (request.chat_id or 0) < 0 else 'private'}"
                for request in fake.requests()[before:]
            )
            page_moves = sum(made)
            kinds = message_kinds(
                (request.method, request.chat_id) for request in fake.requests()[before:]
            )
            per_move = {kind: count / max(1, page_moves) for kind, count in kinds.items()}
            reads = sum(c.reads for group in clients for c in group)
            for listener in listeners:
                listener.cancel()
            # back to the chat: each page hides, and its player's hand catches up (not counted)
            for group in clients:
                for client in group:
                    await client.page.present(False)
            await tables[0].settle()
            before = len(fake.requests())
            presses = moves * tables_count
            chat_moves = 0
            for table in tables:
                chat_moves += await chat_presses(table, moves, random.Random(rng.random()))
            chat_requests = len(fake.requests()) - before
            return {
                "tables": tables_count,
                "think_s": think,
                "page_weight": weight,
                "page_moves": page_moves,
                "page_moves_per_s": round(page_moves / elapsed, 1),
                "press_to_other_page_ms": {
                    "samples": len(samples),
                    "p50": round(statistics.median(samples) * 1000, 1),
                    "p95": round(percentile(samples, 0.95) * 1000, 1),
                    "max": round(max(samples) * 1000, 1),
                },
                "bot_api_requests_per_page_move": round(page_requests / max(1, page_moves), 2),
                "page_move_requests_by_kind": dict(by_kind.most_common()),
                "state_reads_per_page_move": round(reads / max(1, page_moves), 2),
                "page_capacity": capacity(per_move, 3),
                "chat_presses": presses,
                "chat_moves": chat_moves,
                "bot_api_requests_per_chat_press": round(chat_requests / presses, 2),
                "bot_api_requests_per_chat_move": round(chat_requests / max(1, chat_moves), 2),
            }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=30, help="decisions per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a player takes (0: none)"
    )
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.tables, args.moves, args.seed, args.think))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
