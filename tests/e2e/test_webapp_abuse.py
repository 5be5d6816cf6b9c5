"""End to end: what an attack review of the page's API broke, each held now, against the real
bot and the fake Bot API:

- a player who has not seen his hand (dark, or a blind purchase) cannot probe it through the
  API: a card he holds and one he does not are refused alike, and nothing changes;
- a table id longer than SQLite's integers is no table (404), not a server error;
- an idempotency key sent again with another move is refused as such (422), the first move's
  answer is not replayed for it;
- a session ends where the initData that started it would have, however often it is used;
  the live stream is opened with a short ticket, never the initData or the session in its
  address;
- a body that comes too slowly is given up, one user has few moves in flight, a live stream
  is not cut by the deadline for headers, and a page that closed its stream frees its place at
  once;
- a flood of connections to the page's server, in a bot whose open-file limit is the common
  1,024 or less, never keeps the chat from answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path
from typing import Any

import aiohttp

from server.program import webapp_of
from web.live import STREAMS_PER_USER
from web.session import STREAM_TICKET_SECONDS

from .child_bot import Bot
from .fake_telegram import FakeTelegram
from .players import Table, sign, start_bot_for
from .test_games import open_table
from .test_webhook import free_port
from .webapp_pages import (
    PAGE,
    Page,
    base_of,
    engine_of,
    game_id_of,
    http,
    page_of,
    unbudgeted,
)

__all__ = ["http"]  # the fixture, for pytest


async def _version(table: Table, game_id: int) -> int:
    await table.settle()
    return (await table.db.games.game(game_id)).version


async def _to_a_blind_purchase(
    table: Table, pages: dict[int, Page], rng: random.Random
) -> tuple[Page, dict[str, Any]] | None:
    """Plays on the pages (going dark where offered, never looking) until a seat buys without
    having seen its hand; that seat's page and view, or None if the deal never gets there."""
    unbudgeted(table)
    for number in range(200):
        for page in pages.values():
            status, view, _ = await page.state()
            assert status == 200
            if view["to_act"] != view["you"]:
                continue
            verbs = [action["verb"] for action in view["actions"]]
            if "discard" in verbs and view["hand"]["hidden"]:
                return page, view
            cards = [item for item in view["hand"]["cards"] if item["verb"]]
            if "dark" in verbs:
                verb, arg = "dark", None
            elif view["pick"]:
                hand = [item["card"] for item in view["hand"]["cards"]]
                verb, arg = view["pick"]["verb"], rng.sample(hand, view["pick"]["min"])
            elif cards:
                verb, arg = cards[0]["verb"], cards[0]["card"]
            else:
                options = [a for a in view["actions"] if a["verb"] not in ("look", "pass")]
                choice = (options or view["actions"])[0]
                verb, arg = choice["verb"], choice["arg"]
            move = {"version": view["version"], "verb": verb, "arg": arg, "key": f"d{number}"}
            status, answer = await page.act(move)
            assert status == 200, answer
            break
    return None


async def test_a_player_who_has_not_seen_his_hand_cannot_probe_it(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """A dark player at his purchase (or anyone buying unseen) names cards: the ones he holds
    are refused exactly as the ones he does not, the table does not move, and his count of
    cards is taken as the chat's blind choice is."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 41)
        game_id = await game_id_of(table)
        pages = {user.id: page_of(table, http, user, game_id) for user in table.users}
        found = await _to_a_blind_purchase(table, pages, random.Random(41))
        assert found is not None, "the seed should reach a purchase made unseen"
        page, view = found
        state, _ = await engine_of(table, game_id)
        seat = view["you"]
        assert not state.looked[seat]
        held = list(state.hands[seat])
        not_held = [
            f"{rank}{suit}"
            for rank in "23456789TJQKA"
            for suit in "SHDC"
            if f"{rank}{suit}" not in held
        ]
        before = await _version(table, game_id)
        answers = []
        for number, arg in enumerate(
            [[held[0]], [not_held[0]], held[:2], not_held[:2], held[0], not_held[0]]
        ):
            verb = "discard" if isinstance(arg, list) else "play"
            move = {"version": view["version"], "verb": verb, "arg": arg, "key": f"p{number}"}
            status, answer = await page.act(move)
            answer.pop("view", None)
            answers.append((status, answer))
        assert answers[0] == answers[1] == answers[2] == answers[3], answers
        assert answers[4] == answers[5], answers
        assert answers[0][0] == 409
        assert await _version(table, game_id) == before
        # the blind choice: how many, as the page offers it
        count = next(a["arg"] for a in view["actions"] if a["verb"] == "discard" and a["arg"])
        move = {"version": view["version"], "verb": "discard", "arg": count, "key": "blind"}
        status, answer = await page.act(move)
        assert status == 200, answer
        assert await _version(table, game_id) > before
        assert not bot.handler_errors


async def test_a_table_id_too_long_for_sqlite_is_no_table(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 43)
        user = table.users[0]
        base = base_of(table)
        for named in ("g9999999999999999999", "g9223372036854775808"):
            page = Page(http, base, sign(fake.token, user.id), named)
            status, _, _ = await page.state()
            assert status == 404
            linked = Page(http, base, sign(fake.token, user.id, start_param=named), "")
            assert (await linked.state())[0] == 404
        assert not bot.handler_errors


async def test_a_key_sent_again_with_another_move_is_refused_not_replayed(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 47)
        game_id = await game_id_of(table)
        state, game = await engine_of(table, game_id)
        user = fake.world.users[game.seats[state.to_act]]
        page = page_of(table, http, user, game_id)
        _, view, _ = await page.state()
        first, second = [i["card"] for i in view["hand"]["cards"] if i["verb"]][:2]
        verb = next(i["verb"] for i in view["hand"]["cards"] if i["verb"])
        move = {"version": view["version"], "verb": verb, "arg": first, "key": "same"}
        status, answer = await page.act(move)
        assert status == 200, answer
        version = await _version(table, game_id)
        status, answer = await page.act({**move, "arg": second})
        assert status == 422 and answer["error"] == "key used for another move"
        assert await _version(table, game_id) == version
        # the very same request again is still the first one's answer
        status, _ = await page.act(move)
        assert status == 200
        assert not bot.handler_errors


async def test_a_session_ends_with_its_initdata_and_the_stream_opens_by_ticket(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """The session a state answer gives holds until the initData that started it plus the
    session's age, not a moment longer however often it is used or renewed; the live stream
    takes only a short-lived ticket in its address (a proxy's log gains nothing lasting)."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake,
            tmp_path / "bot.sqlite3",
            webapp_url=PAGE,
            webapp_port=0,
            webapp_auth_max_age=600,
            webapp_session_max_age=900,
        ) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 53)
        game_id = await game_id_of(table)
        user = table.users[0]
        base = base_of(table)
        page = Page(http, base, sign(fake.token, user.id, auth_date=time.time() - 500), "")
        page.game = f"g{game_id}"
        status, _, headers = await page.state()
        assert status == 200
        session = headers["X-Session"]

        async def with_session(token: str) -> tuple[int, Any]:
            async with http.get(
                f"{base}api/state",
                params={"t": page.game},
                headers={"Authorization": f"session {token}"},
            ) as response:
                return response.status, response.headers

        # used and renewed: the same end, never later
        status, renewed = await with_session(session)
        assert status == 200 and renewed.get("X-Session", session) == session
        # what an initData that old (900 s, past the session's age) would start: refused
        stale = Page(http, base, sign(fake.token, user.id, auth_date=time.time() - 950), page.game)
        assert (await stale.state())[0] == 401
        # the stream: not with initData or a session in its address, only with a ticket
        for params in ({"tma": page.init_data}, {"session": session}, {}):
            async with http.get(f"{base}api/events", params={"t": page.game, **params}) as r:
                assert r.status == 401, params
        async with http.post(
            f"{base}api/ticket",
            params={"t": page.game},
            headers={"Authorization": f"session {session}"},
        ) as response:
            assert response.status == 200
            ticket = (await response.json())["ticket"]
        assert 0 < STREAM_TICKET_SECONDS <= 60
        async with http.get(
            f"{base}api/events", params={"t": page.game, "ticket": ticket}
        ) as stream:
            assert stream.status == 200
        # a ticket is no session
        status, _ = await with_session(ticket)
        assert status == 401
        assert not bot.handler_errors


async def _raw(base: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = base.removeprefix("http://").rstrip("/").split(":")
    return await asyncio.open_connection(host, int(port))


async def test_slow_bodies_many_moves_streams_and_closed_pages(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 59)
        game_id = await game_id_of(table)
        webapp = webapp_of(table.bot.app)
        assert webapp is not None
        server = webapp.server
        server.body_seconds = 0.5
        server.connections.header_seconds = 0.3
        user = table.users[0]
        page = page_of(table, http, user, game_id)
        base = base_of(table)
        head = (
            f"POST /api/action?t=g{game_id} HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: tma {page.init_data}\r\nContent-Type: application/json\r\n"
            "Content-Length: 200\r\n\r\n{"
        ).encode()
        # a body that never comes whole: 408, and the connection goes
        reader, writer = await _raw(base)
        writer.write(head)
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:40]
        writer.close()
        # a few moves in flight at once, no more
        server.body_seconds = 5
        slow = [await _raw(base) for _ in range(4)]
        for _, held in slow:
            held.write(head)
        await asyncio.sleep(0.3)
        _, view, _ = await page.state()
        move = {"version": view["version"], "verb": "play", "arg": None, "key": "fifth"}
        status, _ = await page.act(move)
        assert status == 429
        for _, held in slow:
            held.close()
        # a live stream outlives the deadline for headers, and hears the next change
        ticket = await page.ticket()
        async with http.get(
            f"{base}api/events", params={"t": page.game, "ticket": ticket}
        ) as stream:
            assert (await stream.content.readuntil(b"\n\n")).endswith(b": open\n\n")
            await asyncio.sleep(1.0)
            assert await table.step(look_chance=0)
            event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)
            assert event.startswith(b"event: changed\ndata: {")
        # every stream a user may hold, one closed by its page: a new one takes its place now
        streams = []
        for _ in range(STREAMS_PER_USER):
            response = await http.get(
                f"{base}api/events", params={"t": page.game, "ticket": await page.ticket()}
            )
            assert response.status == 200
            await response.content.readuntil(b"\n\n")
            streams.append(response)
        streams.pop().close()
        await asyncio.sleep(0.1)
        again = await http.get(
            f"{base}api/events", params={"t": page.game, "ticket": await page.ticket()}
        )
        assert again.status == 200
        again.close()
        for response in streams:
            response.close()
        assert not bot.handler_errors


async def test_a_flood_of_page_connections_never_starves_the_chat(tmp_path: Path) -> None:
    """The bot under an open-file limit of 256: 400 idle connections to its page's server
    (before: the bot ran out of files, and a reply in the group was lost for good) leave it
    the files to answer the group."""
    async with FakeTelegram() as fake:
        user = fake.add_user("Алиса", language_code="ru")
        group = fake.add_group("Стол", [user])
        port = free_port()
        bot = Bot(fake, tmp_path, turn=60)
        bot.files = 256
        bot.env.update(WEBAPP_URL=PAGE, WEBAPP_PORT=str(port))
        await bot.start()
        held = []
        try:
            for _ in range(400):
                with contextlib.suppress(OSError):
                    held.append(await asyncio.open_connection("127.0.0.1", port))
            await asyncio.sleep(0.5)
            sent = fake.user_sends(user, group, "/balance")
            await fake.wait_until(
                lambda: any(m.reply_to is sent for m in fake.messages(group, from_bot=True)),
                timeout=20,
                message="the reply to /balance",
            )
        finally:
            for _, writer in held:
                writer.close()
            await bot.stop()
        output = bot.output()
        assert "Too many open files" not in output, output[-2000:]
        assert "at most 128 connections" in output
