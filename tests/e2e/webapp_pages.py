"""The Mini App's pages as the e2e tests speak to the bot's server: a player's page over
HTTP with ``initData`` signed as Telegram signs it, and what the tests read of the answers."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import pytest

from server.program import webapp_of
from tests.library import rules_for
from web.limits import RateLimit

from .fake_telegram import User
from .players import RANK_CODE, SYMBOL_TO_SUIT, Table, cards_in, sign

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
PAGE = "http://127.0.0.1:9/"  # the page's address (never fetched: the tests call the API)


class Page:
    """One user's page talking to the bot's server."""

    def __init__(self, http: aiohttp.ClientSession, base: str, init_data: str, game: str):
        self.http = http
        self.base = base
        self.init_data = init_data
        self.game = game
        #: the session to speak with instead of the initData, once set
        self.session = ""

    def headers(self) -> dict[str, str]:
        if self.session:
            return {"Authorization": f"session {self.session}"}
        return {"Authorization": f"tma {self.init_data}"}

    async def present(self, visible: bool) -> int:
        """The page's beat: on the screen, or not."""
        async with self.http.post(
            f"{self.base}api/presence",
            params={"t": self.game},
            headers=self.headers(),
            json={"visible": visible},
        ) as response:
            return response.status

    async def ticket(self) -> str:
        """A ticket that opens the page's live stream."""
        async with self.http.post(
            f"{self.base}api/ticket", params={"t": self.game}, headers=self.headers()
        ) as response:
            assert response.status == 200, response.status
            ticket: str = (await response.json())["ticket"]
            return ticket

    async def texts(self, lang: str = "") -> tuple[int, Any]:
        """The page's texts (``lang``: the language the page names, for when it cannot say
        who it is)."""
        async with self.http.get(
            f"{self.base}api/texts", params={"t": self.game, "lang": lang}, headers=self.headers()
        ) as response:
            return response.status, await response.json()

    async def state(self) -> tuple[int, Any, Mapping[str, str]]:
        async with self.http.get(
            f"{self.base}api/state", params={"t": self.game}, headers=self.headers()
        ) as response:
            return response.status, await response.json(), response.headers

    async def evening(self) -> tuple[int, Any]:
        """The evening so far of the table's chat (``/api/evening``)."""
        async with self.http.get(
            f"{self.base}api/evening", params={"t": self.game}, headers=self.headers()
        ) as response:
            return response.status, await response.json(content_type=None)

    async def replay(self, deal: object) -> tuple[int, Any]:
        """A finished deal step by step (``/api/replay?deal=``)."""
        params = {"t": self.game, "deal": str(deal)}
        async with self.http.get(
            f"{self.base}api/replay", params=params, headers=self.headers()
        ) as response:
            return response.status, await response.json(content_type=None)

    async def act(self, body: dict[str, Any]) -> tuple[int, Any]:
        async with self.http.post(
            f"{self.base}api/action", params={"t": self.game}, headers=self.headers(), json=body
        ) as response:
            return response.status, await response.json()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def base_of(table: Table) -> str:
    webapp = webapp_of(table.bot.app)
    assert webapp is not None
    return webapp.address


async def game_id_of(table: Table) -> int:
    game = await table.db.games.active_game(table.group.id)
    assert game is not None
    return game.game_id


def unbudgeted(table: Table) -> None:
    """Lift the per-user budget of API requests: a test reads and moves faster than a page."""
    webapp = webapp_of(table.bot.app)
    assert webapp is not None
    webapp.server.rate = RateLimit(burst=10**6, rate=10**6)


def page_of(table: Table, http: aiohttp.ClientSession, user: User, game_id: int) -> Page:
    return Page(http, base_of(table), sign(table.fake.token, user.id), f"g{game_id}")


async def engine_of(table: Table, game_id: int) -> Any:
    game = await table.db.games.game(game_id)
    return rules_for(game.kind).load(game.state["engine"]), game


def hand_cards(text: str) -> set[str]:
    """The cards of a hand message's suit lines («♠️ Т 10 8 7 4»), as card codes."""
    found = set()
    for line in text.splitlines():
        parts = line.replace("\ufe0f", "").split()
        if len(parts) > 1 and parts[0] in SYMBOL_TO_SUIT:
            suit = SYMBOL_TO_SUIT[parts[0]]
            found |= {RANK_CODE.get(rank, rank) + suit for rank in parts[1:]}
    return found


def held(message: Any) -> set[str]:
    """The cards a hand message shows: its suit lines and its card buttons."""
    labels = " ".join(text for row in message.buttons for text, _ in row)
    return hand_cards(message.text) | cards_in(labels)


def strings(value: Any) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


async def snapshot_of(table: Table, game_id: int) -> tuple[Any, Any]:
    game = await table.db.games.game(game_id)
    return game, await table.services.tables.store.load(game)
