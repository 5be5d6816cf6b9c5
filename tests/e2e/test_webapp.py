"""End to end: the Mini App's server in the real bot, against the fake Bot API.

The bot runs with ``WEBAPP_URL`` set and its web server on a free port of 127.0.0.1; the tests
speak to it over HTTP with ``initData`` signed as Telegram signs it (with the fake's token):

- a seat's state shows its own cards and no other seat's;
- a move made by the API is the chat's move: the group's table and the private hands follow;
- a move made by a chat button tells an open page's live stream that its view changed;
- forged, expired, altered and other-bot ``initData`` (401), another user's table (403), a
  move from an old view (409, «stale») and a retried move (its idempotency key) change
  nothing; every response carries the Content-Security-Policy.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import aiohttp

from bot import callback as cb
from server.program import webapp_of
from tests.library import CODEC
from web.server import CSP

from .fake_telegram import FakeTelegram
from .players import Table, cards_in, sign, start_bot_for
from .test_games import open_table
from .webapp_pages import (
    PAGE,
    Page,
    base_of,
    engine_of,
    game_id_of,
    hand_cards,
    held,
    http,
    page_of,
    strings,
)

__all__ = ["http"]  # the fixture, for pytest


async def test_state_shows_the_seats_own_cards_and_no_others(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 5)
        game_id = await game_id_of(table)
        state, game = await engine_of(table, game_id)
        for seat, user_id in enumerate(game.seats):
            user = fake.world.users[user_id]
            status, view, headers = await page_of(table, http, user, game_id).state()
            assert status == 200 and headers["Content-Security-Policy"] == CSP
            assert view["you"] == seat and view["version"] >= 1
            shown = {item["card"] for item in view["hand"]["cards"]}
            assert shown == set(state.hands[seat])
            others = {c for other, hand in enumerate(state.hands) if other != seat for c in hand}
            assert others and not others & set(strings(view))
            # the private hand message shows the same cards
            hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
            assert hand_cards(hand.text or "") == shown


async def test_a_move_on_the_page_shows_in_the_group_and_the_hands(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 7)
        game_id = await game_id_of(table)
        # play by the chat until a card is to be played (the exchange and kitty done)
        for _ in range(200):
            state, game = await engine_of(table, game_id)
            if state.phase.value == "play" and not state.trick:
                break
            assert await table.step(look_chance=0)
        state, game = await engine_of(table, game_id)
        user = fake.world.users[game.seats[state.to_act]]
        page = page_of(table, http, user, game_id)
        status, view, _ = await page.state()
        card = next(item["card"] for item in view["hand"]["cards"] if item["verb"] == "play")
        hand_before = table.hand_message(user)
        assert hand_before is not None
        held_before = held(hand_before)  # (the fake edits its message objects in place)
        status, answer = await page.act(
            {"version": view["version"], "verb": "play", "arg": card, "key": "k-1"}
        )
        assert status == 200, answer
        assert answer["view"]["version"] > view["version"]
        assert card not in {item["card"] for item in answer["view"]["hand"]["cards"]}
        assert [entry["card"] for entry in answer["view"]["trick"]] == [card]
        await table.settle()
        after, _ = await engine_of(table, game_id)
        assert after.trick and after.trick[0][1] == card
        # the chat follows: the group's table shows the card, the hand lost it, the next
        # player's hand asks him to play
        group_text = table.group_messages()[-1].text
        assert card in cards_in(group_text or "")
        assert card in held_before
        hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
        assert card not in held(hand) and held(hand)
        assert not any(isinstance(CODEC.decode(d), cb.Act) for d in hand.callback_data)
        next_user = fake.world.users[game.seats[after.to_act]]
        next_hand = table.hand_message(next_user)
        assert next_hand is not None
        assert any(isinstance(CODEC.decode(d), cb.Act) for d in next_hand.callback_data)
        assert not bot.handler_errors


async def test_a_chat_button_move_reaches_an_open_page_live(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 11)
        game_id = await game_id_of(table)
        watcher = table.users[0]
        page = page_of(table, http, watcher, game_id)
        url = f"{page.base}api/events"
        params = {"t": page.game, "ticket": await page.ticket()}
        async with http.get(url, params=params) as stream:
            assert stream.status == 200
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            assert stream.headers["Content-Security-Policy"] == CSP
            assert (await stream.content.readuntil(b"\n\n")).endswith(b": open\n\n")
            _, before, _ = await page.state()
            # another player presses a chat button
            others = [
                (user, message, data)
                for user, message, data in table.actionable((cb.Act,))
                if user != watcher
            ] or table.actionable((cb.Act,))
            user, message, data = others[0]
            act = next(d for d in data if isinstance(CODEC.decode(d), cb.Act))
            await table.press(user, message, act)
            event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)
            assert event.startswith(b"event: changed\ndata: {")
            # with what happened: the move's public events, of this table
            news = json.loads(event.split(b"data: ", 1)[1])
            assert news["events"] and {e["game"] for e in news["events"]} == {game_id}
            _, after, _ = await page.state()
            assert after["version"] > before["version"]
            # the bot stops: the open stream ends at once (nothing holds the shutdown up)
            webapp = webapp_of(table.bot.app)
            assert webapp is not None
            stopping = asyncio.ensure_future(webapp.stop())
            assert await asyncio.wait_for(stream.content.read(), 10) == b""
            await asyncio.wait_for(stopping, 10)


async def _unchanged(table: Table, game_id: int) -> tuple[int, int, int]:
    """What a refused request must leave as it was: the game's version, the group's messages
    and the bot's sends."""
    await table.settle()
    game = await table.db.games.game(game_id)
    return game.version, len(table.group_messages()), len(table.fake.requests())


async def test_forged_expired_foreign_stale_and_replayed_requests_change_nothing(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 13)
        game_id = await game_id_of(table)
        state, game = await engine_of(table, game_id)
        user = fake.world.users[game.seats[state.to_act]]
        page = page_of(table, http, user, game_id)
        status, view, _ = await page.state()
        assert status == 200
        verb = view["actions"][0]["verb"]
        arg = view["actions"][0]["arg"]
        move = {"version": view["version"], "verb": verb, "arg": arg, "key": "once"}
        before = await _unchanged(table, game_id)
        token = fake.token
        good = sign(token, user.id)
        forged = good.replace("hash=", "hash=0")[:-1]
        altered = good.replace(f"%22id%22%3A{user.id}", f"%22id%22%3A{user.id + 1}")
        assert altered != good
        expired = sign(token, user.id, auth_date=time.time() - 2 * 3600)
        other_bot = sign("123456:another-bots-token", user.id)
        for init_data in ("", forged, altered, expired, other_bot):
            bad = Page(http, page.base, init_data, page.game)
            status, answer, headers = await bad.state()
            assert status == 401 and headers["Content-Security-Policy"] == CSP, init_data
            status, answer = await bad.act(move)
            assert status == 401, init_data
            # yet its texts, in the language it names, so that it can say to open the table
            # again from Telegram: the catalogue alone, nothing of the table
            status, answer = await bad.texts("en")
            assert status == 200 and answer["lang"] == "en", init_data
            assert "Telegram" in answer["texts"]["web.reopen"]
            assert set(answer) == {"lang", "plurals", "texts", "ranks", "suits", "glossary"}
        # another user's table: seated elsewhere, or named by a link of another table
        outsider = fake.add_user("Чужой")
        stranger = Page(http, page.base, sign(token, outsider.id), page.game)
        status, _, _ = await stranger.state()
        assert status == 403
        status, _ = await stranger.act(move)
        assert status == 403
        linked = Page(http, page.base, sign(token, outsider.id, start_param=page.game), "")
        status, _, _ = await linked.state()
        assert status == 403
        # a move from an old view
        status, answer = await page.act({**move, "version": view["version"] - 1, "key": "old"})
        assert status == 409 and answer["refused"] == {"key": "web.stale", "params": {}}
        assert answer["view"]["version"] == view["version"]
        # another seat's move, with the right version: not his turn
        waiting = next(fake.world.users[u] for u in game.seats if u != user.id)
        status, answer = await page_of(table, http, waiting, game_id).act({**move, "key": "w"})
        assert status == 409 and answer["refused"]["key"] == "web.illegal"
        assert await _unchanged(table, game_id) == before
        # the move itself, then the same request again: applied once
        status, first = await page.act(move)
        assert status == 200, first
        moved = await _unchanged(table, game_id)
        assert moved[0] > before[0]
        status, again = await page.act(move)
        assert status == 200 and again["view"]["version"] == first["view"]["version"]
        assert await _unchanged(table, game_id) == moved
        # no key: refused before anything is tried
        status, _ = await page.act({k: v for k, v in move.items() if k != "key"})
        assert status == 400
        assert not bot.handler_errors


def _buttons(message: Any, kind: str) -> list[dict[str, Any]]:
    return [button for row in message.inline_keyboard for button in row if kind in button]


async def test_the_chat_launches_the_page_where_telegram_allows_it(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """The hand message's «🃏 Стол» opens the page at its table (a web_app button: private
    chats only), the private chat's menu button opens the current table, and the group's
    table message links to the app registered with BotFather (startapp=<payload>)."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake,
            tmp_path / "bot.sqlite3",
            webapp_url=PAGE,
            webapp_port=0,
            webapp_short_name="table",
        ) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 17)
        game_id = await game_id_of(table)
        for user in table.users:
            hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
            apps = _buttons(hand, "web_app")
            assert [(b["text"], b["web_app"]["url"]) for b in apps] == [
                ("🃏 Стол", f"{PAGE}?t=g{game_id}")
            ]
            menu = fake.settings.menu_buttons.get(user.id)
            assert menu == {"type": "web_app", "text": "🃏 Стол", "web_app": {"url": PAGE}}
        group_links = _buttons(table.group_messages()[-1], "url")
        assert [(b["text"], b["url"]) for b in group_links] == [
            ("🃏 Стол", f"https://t.me/{fake.world.bot.username}/table?startapp=g{game_id}")
        ]
        # the payload the buttons carry is what the server reads (from the page's address,
        # or from the startapp link's signed start_param)
        user = table.users[1]
        page = Page(http, base_of(table), sign(fake.token, user.id), f"g{game_id}")
        assert (await page.state())[0] == 200
        linked = Page(
            http, base_of(table), sign(fake.token, user.id, start_param=f"g{game_id}"), ""
        )
        assert (await linked.state())[1]["you"] == (await page.state())[1]["you"]
        current = Page(http, base_of(table), sign(fake.token, user.id), "")
        assert (await current.state())[1] == (await page.state())[1]
        assert not bot.handler_errors


async def test_without_webapp_url_no_button_and_no_server(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "shleif", 17)
        assert webapp_of(table.bot.app) is None
        for user in table.users:
            for message in fake.messages(fake.private_chat(user), from_bot=True):
                assert not _buttons(message, "web_app")
        for message in table.group_messages():
            assert not any("t.me/" in b["url"] for b in _buttons(message, "url"))
        assert not fake.requests("setChatMenuButton")
        assert not bot.handler_errors


async def test_a_page_open_past_its_initdatas_age_goes_on_with_its_session(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """Each state answer gives the page a session (X-Session) that outlives the initData: an
    evening's page keeps working once its initData is too old, and a stream reopens with it."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake,
            tmp_path / "bot.sqlite3",
            webapp_url=PAGE,
            webapp_port=0,
            webapp_auth_max_age=600,
        ) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 19)
        game_id = await game_id_of(table)
        user = table.users[0]
        opened = sign(fake.token, user.id, auth_date=time.time() - 500)
        page = Page(http, base_of(table), opened, f"g{game_id}")
        status, view, headers = await page.state()
        assert status == 200
        session = headers["X-Session"]
        # later: the same initData is too old now (simulated by one older still)
        page.init_data = sign(fake.token, user.id, auth_date=time.time() - 700)
        assert (await page.state())[0] == 401
        async with http.get(
            f"{page.base}api/state",
            params={"t": page.game},
            headers={"Authorization": f"session {session}"},
        ) as response:
            assert response.status == 200
            assert (await response.json())["you"] == view["you"]
            assert response.headers["X-Session"]
        page.init_data = ""
        page.session = session
        params = {"t": page.game, "ticket": await page.ticket()}
        async with http.get(f"{page.base}api/events", params=params) as stream:
            assert stream.status == 200
        forged = session[:-2] + ("AA" if not session.endswith("AA") else "BB")
        async with http.get(
            f"{page.base}api/state",
            params={"t": page.game},
            headers={"Authorization": f"session {forged}"},
        ) as response:
            assert response.status == 401
        assert not bot.handler_errors


async def test_a_move_whose_showing_fails_is_still_answered_as_made(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """The move is committed before it is published to the chat: if showing it there fails
    (logged), the page is told the move was made, and a retry of it changes nothing more."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 43)
        game_id = await game_id_of(table)
        webapp = webapp_of(table.bot.app)
        assert webapp is not None

        async def broken(record: Any) -> None:
            raise RuntimeError("the chat cannot be shown it")

        table.services.presenter.took = broken  # type: ignore[method-assign]
        state, game = await engine_of(table, game_id)
        page = page_of(table, http, fake.world.users[game.seats[state.to_act]], game_id)
        _, view, _ = await page.state()
        action = view["actions"][0]
        move = {"version": view["version"], "verb": action["verb"], "arg": action["arg"]}
        status, answer = await page.act({**move, "key": "shown-or-not"})
        assert status == 200 and answer["view"]["version"] > view["version"]
        version = (await table.db.games.game(game_id)).version
        status, again = await page.act({**move, "key": "shown-or-not"})
        assert status == 200 and again["view"]["version"] == answer["view"]["version"]
        assert (await table.db.games.game(game_id)).version == version
        assert not bot.handler_errors


async def test_a_seated_player_sees_the_lobby_until_the_game_begins(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """Before the deal the page shows who is seated and that the table waits for its start
    (it showed no table at all); a move there is no move."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        group = fake.add_group("Картёжники", users)
        table = Table(fake, bot, group, users, random.Random(1))
        for user in users:
            fake.user_starts_bot(user)
        await table.settle()
        await table.say(users[0], "/new shleif")
        lobby = table.group_messages()[-1]
        join = next(
            d
            for d in lobby.callback_data
            if isinstance(CODEC.decode(d), cb.Lobby) and CODEC.decode(d).action == "join"  # type: ignore[union-attr]
        )
        await table.press(users[1], lobby, join)
        game_id = await game_id_of(table)
        page = page_of(table, http, users[1], game_id)
        status, view, _ = await page.state()
        assert status == 200
        assert view["phase"] == "lobby" and view["choice"] == "shleif" and view["you"] == 1
        assert [seat["name"] for seat in view["seats"]] == ["Игрок0", "Игрок1"]
        assert view["prompt"] == {"key": "web.lobby.waiting", "params": {}, "n": 2}
        assert view["hand"]["cards"] == []
        # the chat's lobby buttons for a player who did not open it (no «✖️ Отменить»)
        verbs = [action["verb"] for action in view["actions"]]
        assert verbs == ["computer", "novice", "begin", "leave"]
        status, _ = await page.act({"version": view["version"], "verb": "knock", "arg": None})
        assert status >= 400
        # a user not seated there sees who is, and may only sit down
        status, view, _ = await page_of(table, http, users[2], game_id).state()
        assert status == 200 and view["you"] is None and view["hand"]["cards"] == []
        assert [action["verb"] for action in view["actions"]] == ["join"]
        assert not bot.handler_errors
