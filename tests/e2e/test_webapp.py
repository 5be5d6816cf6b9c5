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
import random
import re
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import callback as cb
from game.registry import rules_for
from web.limits import RateLimit
from web.server import CSP

from .fake_telegram import FakeTelegram, User
from .players import (
    RANK_CODE,
    SYMBOL_TO_SUIT,
    Table,
    cards_in,
    known_cards,
    replay_states,
    sign,
    start_bot_for,
)
from .test_games import open_table

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
PAGE = "http://127.0.0.1:9/"  # the page's address (never fetched: the tests call the API)


class Page:
    """One user's page talking to the bot's server."""

    def __init__(self, http: aiohttp.ClientSession, base: str, init_data: str, game: str):
        self.http = http
        self.base = base
        self.init_data = init_data
        self.game = game

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"tma {self.init_data}"}

    async def state(self) -> tuple[int, Any, Mapping[str, str]]:
        async with self.http.get(
            f"{self.base}api/state", params={"t": self.game}, headers=self.headers()
        ) as response:
            return response.status, await response.json(), response.headers

    async def act(self, body: dict[str, Any]) -> tuple[int, Any]:
        async with self.http.post(
            f"{self.base}api/action", params={"t": self.game}, headers=self.headers(), json=body
        ) as response:
            return response.status, await response.json()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def _base(table: Table) -> str:
    webapp = table.services.webapp
    assert webapp is not None
    return webapp.address


async def _game_id(table: Table) -> int:
    game = await table.services.db.active_game(table.group.id)
    assert game is not None
    return game.game_id


def _page(table: Table, http: aiohttp.ClientSession, user: User, game_id: int) -> Page:
    return Page(http, _base(table), sign(table.fake.token, user.id), f"g{game_id}")


async def _engine(table: Table, game_id: int) -> Any:
    game = await table.services.db.game(game_id)
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


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


async def test_state_shows_the_seats_own_cards_and_no_others(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 5)
        game_id = await _game_id(table)
        state, game = await _engine(table, game_id)
        for seat, user_id in enumerate(game.seats):
            user = fake.world.users[user_id]
            status, view, headers = await _page(table, http, user, game_id).state()
            assert status == 200 and headers["Content-Security-Policy"] == CSP
            assert view["you"] == seat and view["version"] >= 1
            shown = {item["card"] for item in view["hand"]["cards"]}
            assert shown == set(state.hands[seat])
            others = {c for other, hand in enumerate(state.hands) if other != seat for c in hand}
            assert others and not others & set(_strings(view))
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
        game_id = await _game_id(table)
        # play by the chat until a card is to be played (the exchange and kitty done)
        for _ in range(200):
            state, game = await _engine(table, game_id)
            if state.phase.value == "play" and not state.trick:
                break
            assert await table.step(look_chance=0)
        state, game = await _engine(table, game_id)
        user = fake.world.users[game.seats[state.to_act]]
        page = _page(table, http, user, game_id)
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
        after, _ = await _engine(table, game_id)
        assert after.trick and after.trick[0][1] == card
        # the chat follows: the group's table shows the card, the hand lost it, the next
        # player's hand asks him to play
        group_text = table.group_messages()[-1].text
        assert card in cards_in(group_text or "")
        assert card in held_before
        hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
        assert card not in held(hand) and held(hand)
        assert not any(isinstance(cb.decode(d), cb.Act) for d in hand.callback_data)
        next_user = fake.world.users[game.seats[after.to_act]]
        next_hand = table.hand_message(next_user)
        assert next_hand is not None
        assert any(isinstance(cb.decode(d), cb.Act) for d in next_hand.callback_data)
        assert not bot.handler_errors


async def test_a_chat_button_move_reaches_an_open_page_live(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 11)
        game_id = await _game_id(table)
        watcher = table.users[0]
        page = _page(table, http, watcher, game_id)
        url = f"{page.base}api/events"
        params = {"t": page.game, "tma": page.init_data}
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
            act = next(d for d in data if isinstance(cb.decode(d), cb.Act))
            await table.press(user, message, act)
            event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)
            assert event == b"event: changed\ndata: 1\n\n"
            _, after, _ = await page.state()
            assert after["version"] > before["version"]


async def _unchanged(table: Table, game_id: int) -> tuple[int, int, int]:
    """What a refused request must leave as it was: the game's version, the group's messages
    and the bot's sends."""
    await table.settle()
    game = await table.services.db.game(game_id)
    return game.version, len(table.group_messages()), len(table.fake.requests())


async def test_forged_expired_foreign_stale_and_replayed_requests_change_nothing(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 13)
        game_id = await _game_id(table)
        state, game = await _engine(table, game_id)
        user = fake.world.users[game.seats[state.to_act]]
        page = _page(table, http, user, game_id)
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
        status, answer = await _page(table, http, waiting, game_id).act({**move, "key": "w"})
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
        game_id = await _game_id(table)
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
        page = Page(http, _base(table), sign(fake.token, user.id), f"g{game_id}")
        assert (await page.state())[0] == 200
        linked = Page(http, _base(table), sign(fake.token, user.id, start_param=f"g{game_id}"), "")
        assert (await linked.state())[1]["you"] == (await page.state())[1]["you"]
        current = Page(http, _base(table), sign(fake.token, user.id), "")
        assert (await current.state())[1] == (await page.state())[1]
        assert not bot.handler_errors


async def test_without_webapp_url_no_button_and_no_server(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "shleif", 17)
        assert table.services.webapp is None
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
        game_id = await _game_id(table)
        user = table.users[0]
        opened = sign(fake.token, user.id, auth_date=time.time() - 500)
        page = Page(http, _base(table), opened, f"g{game_id}")
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
        params = {"t": page.game, "session": session}
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


@pytest.mark.parametrize(
    ("choice", "seed", "decisions"), [("shleif", 23, 120), ("starshina", 29, 160)]
)
async def test_no_answer_to_a_seat_holds_a_card_it_may_not_see(
    tmp_path: Path, http: aiohttp.ClientSession, choice: str, seed: int, decisions: int
) -> None:
    """Several deals played on the pages alone, every seat reading its state after every
    change as an open page does: every state and move answer checked against the cards that
    seat could know in that deal (its own, the tricks, what it was shown)."""
    rng = random.Random(seed)
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, choice, seed)
        game_id = await _game_id(table)
        pages = {user.id: _page(table, http, user, game_id) for user in table.users}
        answers: dict[int, list[Any]] = {user_id: [] for user_id in pages}
        # a user reading flat out meets his budget (a burst of 40); the others do not
        first = pages[table.users[0].id]
        statuses = [(await first.state())[0] for _ in range(45)]
        assert statuses[:40] == [200] * 40 and 429 in statuses[40:]
        assert (await pages[table.users[1].id].state())[0] == 200
        # the test plays faster than any person: the budget is lifted
        webapp = table.services.webapp
        assert webapp is not None
        webapp.server.rate = RateLimit(burst=10**6, rate=10**6)
        for number in range(decisions):
            views = {}
            for user_id, page in pages.items():
                status, view, _ = await page.state()
                assert status == 200
                answers[user_id].append(view)
                views[user_id] = view
            acting = [u for u, v in views.items() if v["to_act"] == v["you"]]
            if not acting:
                break
            view = views[acting[0]]
            options: list[tuple[str, Any]] = [(a["verb"], a["arg"]) for a in view["actions"]]
            cards = [item["card"] for item in view["hand"]["cards"]]
            if view["pick"]:
                options.append((view["pick"]["verb"], rng.sample(cards, view["pick"]["min"])))
            else:
                options += [(i["verb"], i["card"]) for i in view["hand"]["cards"] if i["verb"]]
            verb, arg = rng.choice(options)
            move = {"version": view["version"], "verb": verb, "arg": arg, "key": f"m{number}"}
            status, answer = await pages[acting[0]].act(move)
            assert status == 200, answer
            answers[acting[0]].append(answer["view"])
        db = table.services.db
        game = await db.game(game_id)
        rules = rules_for(game.kind)
        by_deal: dict[int, list[Any]] = {}
        for _, state, _ in await replay_states(db, game_id):
            by_deal.setdefault(rules.deal_no(state), []).append(state)
        assert len(by_deal) >= 2, "the test should span deals"
        for user_id, views in answers.items():
            seat = list(game.seats).index(user_id)
            for view in views:
                shown = {s for s in _strings(view) if CARD.match(s)}
                allowed = known_cards(game.kind, by_deal[view["deal"]], seat)
                assert shown <= allowed, (view["deal"], shown - allowed)
        assert not bot.handler_errors


NET = re.compile(r"Ваш итог: (?:\d+ взят\w* · )?([+−]?\d+)")


async def test_the_page_shows_the_last_deals_nets_as_the_hands_outcome_said_them(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """The next deal is dealt in the commit that ends a deal, so a page never sees a deal's
    end by itself: while the next deal is played, its state carries the last deal's nets, the
    very figures each player's hand message gave as his outcome."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 31)
        game_id = await _game_id(table)
        status, view, _ = await _page(table, http, table.users[0], game_id).state()
        assert status == 200 and "last_deal" not in view
        for _ in range(300):
            _, loaded = await _snapshot(table, game_id)
            if loaded.meta.deals >= 1:
                break
            assert await table.step()
        _, loaded = await _snapshot(table, game_id)
        assert loaded.meta.deals == 1
        said = {}
        for user in table.users:
            texts = [m.text or "" for m in fake.messages(fake.private_chat(user), from_bot=True)]
            nets = [NET.search(text) for text in texts]
            said[user.id] = int(next(n for n in nets if n).group(1).replace("−", "-"))
        for user in table.users:
            status, view, _ = await _page(table, http, user, game_id).state()
            assert status == 200 and view["result"] is None
            shown = dict(zip(loaded.seats, view["last_deal"]["nets"], strict=True))
            assert shown == said
            assert view["last_deal"]["label"]["key"] == "web.last_deal"
        assert not bot.handler_errors


async def _snapshot(table: Table, game_id: int) -> tuple[Any, Any]:
    game = await table.services.db.game(game_id)
    return game, await table.services.tables.load(game)


async def test_an_away_players_page_offers_only_im_back_as_his_hand_does(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 37)
        game_id = await _game_id(table)
        user = table.users[1]
        reply = await table.services.tables.mark_unreachable(game_id, user.id)
        assert reply is not None
        await table.services.presenter.show(reply)
        await table.settle()
        page = _page(table, http, user, game_id)
        status, view, _ = await page.state()
        assert status == 200 and view["seats"][view["you"]]["away"]
        assert [a["verb"] for a in view["actions"]] == ["back"] and view["pick"] is None
        assert view["actions"][0]["label"]["key"] == "btn.back"
        assert view["hand"]["cards"] and not any(i["verb"] for i in view["hand"]["cards"])
        status, answer = await page.act(
            {"version": view["version"], "verb": "back", "arg": None, "key": "b1"}
        )
        assert status == 200, answer
        assert not answer["view"]["seats"][answer["view"]["you"]]["away"]
        await table.settle()
        _, loaded = await _snapshot(table, game_id)
        assert user.id not in loaded.meta.away
        assert not bot.handler_errors
