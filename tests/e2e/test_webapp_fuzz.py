"""End to end: the page's API with anything Hypothesis can think of — in the body of a move
(any JSON, any bytes, moves of every shape with wrong types and sizes), the query (any table
name, any Unicode) and the headers (any Authorization, signed and not, sessions and tickets
forged or for another kind) — against the real bot in play: no answer is a server error, every
API answer is JSON, nothing is logged as an error, and the table changes only by a legal move of
the seat to act."""

from __future__ import annotations

import json
import logging
import string
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from server.program import webapp_of
from tests.depth import deep
from web.limits import RateLimit

from .fake_telegram import FakeTelegram, RunningApplication, User
from .players import Table, sign, start_bot_for
from .test_games import open_table
from .webapp_pages import PAGE, base_of, game_id_of

ENDPOINTS = (
    ("GET", "api/state"),
    ("GET", "api/texts"),
    ("POST", "api/action"),
    ("POST", "api/ticket"),
    ("POST", "api/presence"),
    ("GET", "api/events"),
    ("GET", ""),
)
any_text = st.characters(exclude_categories=["Cs"])
#: what a header can carry at all (a client refuses control characters and what Latin-1 lacks)
header_text = st.text(string.ascii_letters + string.digits + string.punctuation + " ", max_size=300)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(any_text, max_size=30),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
card = st.sampled_from([f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"])
move_arguments = st.one_of(
    json_values,
    card,
    st.lists(card, max_size=20),
    st.integers(-3, 40),
    st.sampled_from(["S", "H", "D", "C", "XX", ""]),
)


@st.composite
def moves(draw: st.DrawFn) -> Any:
    body: dict[str, Any] = {
        "version": draw(st.one_of(st.integers(-2, 2**64), json_values)),
        "verb": draw(
            st.one_of(
                st.sampled_from(["play", "discard", "knock", "pass", "dark", "look", "back"]),
                st.text(any_text, max_size=20),
                json_values,
            )
        ),
        "arg": draw(move_arguments),
        "key": draw(st.one_of(st.text(string.ascii_letters, min_size=1, max_size=8), json_values)),
    }
    for name in draw(st.lists(st.sampled_from(list(body)), max_size=2)):
        body.pop(name, None)
    return body


bodies = st.one_of(
    moves().map(lambda body: json.dumps(body).encode()),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=300),
    st.just(b"{" * 5000),
)
tables = st.one_of(
    st.just("mine"),
    st.just("none"),
    st.text(any_text, max_size=30),
    st.text("g0123456789", max_size=25),
)
authorizations = st.one_of(
    st.sampled_from(["tma", "session", "ticket", "none", "stranger"]),
    header_text,
    header_text.map(lambda text: f"tma {text}"),
    header_text.map(lambda text: f"session {text}"),
)


@dataclass
class World:
    fake: FakeTelegram
    bot: RunningApplication
    table: Table
    http: aiohttp.ClientSession
    base: str
    game_id: int
    user: User
    session: str
    ticket: str


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
        aiohttp.ClientSession() as http,
    ):
        table = await open_table(fake, bot, 3, "shleif", 61)
        game_id = await game_id_of(table)
        webapp = webapp_of(table.bot.app)
        assert webapp is not None
        webapp.server.rate = RateLimit(burst=10**6, rate=10**6)  # the fuzz asks flat out
        base = base_of(table)
        user = table.users[0]
        signed = {"Authorization": f"tma {sign(fake.token, user.id)}"}
        query = {"t": f"g{game_id}"}
        async with http.get(f"{base}api/state", params=query, headers=signed) as response:
            session = response.headers["X-Session"]
        async with http.post(f"{base}api/ticket", params=query, headers=signed) as response:
            ticket = (await response.json())["ticket"]
        yield World(fake, bot, table, http, base, game_id, user, session, ticket)


def _authorization(world: World, kind: str) -> dict[str, str]:
    named = {
        "tma": f"tma {sign(world.fake.token, world.user.id)}",
        "session": f"session {world.session}",
        "ticket": f"session {world.ticket}",
        "stranger": f"tma {sign(world.fake.token, world.user.id + 10**6)}",
        "none": "",
    }
    value = named.get(kind, kind)
    return {"Authorization": value} if value else {}


@settings(
    max_examples=deep(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    named=tables,
    authorization=authorizations,
    body=bodies,
    stream_ticket=st.one_of(st.just("good"), header_text),
)
@example(("GET", "api/state"), "g9999999999999999999", "tma", b"", "good")
@example(("POST", "api/action"), "mine", "session", b'{"version": 1, "verb": "play"}', "good")
@example(("GET", "api/events"), "mine", "none", b"", "good")
@example(("POST", "api/action"), "mine", "tma", b"\xff\xfe", "good")
async def test_any_request_to_the_pages_api_is_answered_without_a_server_error(
    world: World,
    caplog: pytest.LogCaptureFixture,
    endpoint: tuple[str, str],
    named: str,
    authorization: str,
    body: bytes,
    stream_ticket: str,
) -> None:
    method, path = endpoint
    params = {}
    if named == "mine":
        params["t"] = f"g{world.game_id}"
    elif named != "none":
        params["t"] = named
    if path == "api/events":
        params["ticket"] = world.ticket if stream_ticket == "good" else stream_ticket
    headers = {**_authorization(world, authorization), "Content-Type": "application/json"}
    caplog.set_level(logging.INFO)
    caplog.clear()
    before = (await world.table.db.games.game(world.game_id)).version
    async with world.http.request(
        method, f"{world.base}{path}", params=params, headers=headers, data=body
    ) as response:
        status = response.status
        if path != "api/events" or status != 200:
            text = await response.text()
            if path.startswith("api/"):
                json.loads(text)  # every API answer, a refusal too, is JSON
    assert status < 500, (endpoint, params, headers, body[:100], status)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [r.getMessage() for r in errors]
    after = (await world.table.db.games.game(world.game_id)).version
    if after != before:
        assert (method, path, status) == ("POST", "api/action", 200)
    assert not world.bot.handler_errors
