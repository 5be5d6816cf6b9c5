"""End to end in a browser: whole deals played on the Mini App's page by three players, against
the real bot and the fake Bot API, with Debian's Chromium under Playwright (Telegram's script
replaced by a stub holding initData signed with the fake's token).

A Стуколка со шлейфом deal and a Старшина deal: each player has his own page open at the
table, the player to act taps his page (a card, a button, or cards marked and confirmed with
Telegram's MainButton), and one player switches to the chat's buttons halfway through the
deal. After every move every page shows the new state without being touched (live updates),
the chat follows the pages' moves, and the page of the player who went back to the chat
follows his chat moves. Every state and move answer a page got is checked for cards its seat
could not know.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import callback as cb
from server.program import webapp_of
from tests.library import CODEC, WORDS
from tests.web.browser import ARGS, CHROMIUM, TELEGRAM_SCRIPT
from tests.web.server import telegram_stub

from .fake_telegram import FakeTelegram, User
from .players import Table, known_cards, replay_states, sign, start_bot_for
from .resilience import eventually
from .test_games import open_table
from .webapp_pages import CARD, PAGE, strings

# the tests of a module share one event loop, the loop of their one Chromium
pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
async_api = pytest.importorskip("playwright.async_api")

WAIT_MS = 15_000


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium() -> AsyncIterator[Any]:
    """Chromium, launched once for the tests of a module (on the module's event loop)."""
    async with async_api.async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="module")
async def browser(chromium: Any) -> AsyncIterator[Any]:
    """The module's Chromium for one test: every page the test opened (each in a context of
    its own) is closed after it, so none of them talks to the next test's server."""
    yield chromium
    for context in chromium.contexts:
        await context.close()


class Seat:
    """One player's page, and every view the server sent it."""

    def __init__(self, user: User, page: Any) -> None:
        self.user = user
        self.page = page
        self.views: list[dict[str, Any]] = []
        self.reads: list[asyncio.Future[None]] = []
        page.on("response", self._response)

    def _response(self, response: Any) -> None:
        if "/api/state" in response.url or "/api/action" in response.url:
            self.reads.append(asyncio.ensure_future(self._keep(response)))

    async def _keep(self, response: Any) -> None:
        try:
            body = json.loads(await response.text())
        except Exception:
            return
        view = body.get("view", body) if isinstance(body, dict) else None
        if isinstance(view, dict) and "hand" in view:
            self.views.append(view)

    async def version(self) -> int | None:
        value = await self.page.get_attribute("#app", "data-version")
        return None if value is None else int(value)


async def open_page(browser: Any, address: str, token: str, user: User, game_id: int) -> Seat:
    context = await browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        bypass_csp=True,  # the tests' probes are evaluated strings the page's policy forbids
    )
    stub = telegram_stub(sign(token, user.id))

    async def route(request_route: Any) -> None:
        await request_route.fulfill(status=200, content_type="application/javascript", body=stub)

    await context.route(TELEGRAM_SCRIPT, route)
    page = await context.new_page()
    seat = Seat(user, page)
    await page.goto(f"{address}?t=g{game_id}")
    await page.wait_for_selector("#app[data-version]", timeout=WAIT_MS)
    return seat


async def _loaded(table: Table, game_id: int) -> tuple[Any, Any, int]:
    game = await table.db.games.game(game_id)
    loaded = await table.services.tables.store.load(game)
    return game, loaded, loaded.meta.turn


async def _all_pages_show(seats: list[Seat], turn: int) -> None:
    """Every page has drawn the state of ``turn``: the ones that did not move learnt of it
    by their live updates alone. None scrolls sideways (a phone would zoom the page out)."""
    for seat in seats:
        await seat.page.wait_for_selector(f"#app[data-version='{turn}']", timeout=WAIT_MS)
        width = await seat.page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1] == 390, width


async def _tap(seat: Seat, view: dict[str, Any], rng: random.Random) -> None:
    """One decision on the page, as a player makes it: a legal card, a control, or cards
    marked and confirmed with the MainButton."""
    page = seat.page
    legal = [item["card"] for item in view["hand"]["cards"] if item["verb"]]
    choices: list[tuple[str, Any]] = [("action", index) for index in range(len(view["actions"]))]
    if view["pick"] is None:
        choices += [("card", card) for card in legal]
    else:
        choices.append(("pick", None))
    assert choices, view
    kind, what = rng.choice(choices)
    if kind == "action":
        await page.locator("#controls button.action:not(#confirm)").nth(what).click()
    elif kind == "card":
        await _tap_card(page, what)
    else:
        pick = view["pick"]
        cards = [item["card"] for item in view["hand"]["cards"]]
        count = rng.randint(pick["min"], min(pick["max"], len(cards)))
        for card in rng.sample(cards, count):
            await _tap_card(page, card)
        await page.wait_for_function("window.__tg.main.isActive && window.__tg.main.isVisible")
        await page.evaluate("window.__tg.main.press()")


async def _tap_card(page: Any, card: str) -> None:
    """A tap on the part of a card a player sees: in a fan of many cards the next card
    covers the rest, so the tap goes to its left edge, low (a legal card is raised)."""
    button = page.locator(f"#cards button.card[data-card='{card}']")
    box = await button.bounding_box()
    assert box is not None
    await button.click(position={"x": 4, "y": box["height"] - 6})


async def _press_chat(table: Table, user: User, rng: random.Random) -> None:
    """One decision by the chat's buttons on his hand message."""
    message = table.hand_message(user)
    assert message is not None
    decoded = {data: CODEC.decode(data) for data in message.callback_data}
    acts = [d for d, c in decoded.items() if isinstance(c, cb.Act)]
    looks = [d for d, c in decoded.items() if isinstance(c, cb.Look)]
    selects = [d for d, c in decoded.items() if isinstance(c, cb.Select)]
    choice = rng.choice(acts or looks or selects)
    await table.press(user, message, choice)


async def _moved(table: Table, game_id: int, version: int) -> None:
    for _ in range(400):
        game = await table.db.games.game(game_id)
        if game.version != version:
            return
        await asyncio.sleep(0.025)
    raise AssertionError("the page's move never reached the table")


async def play_a_deal(
    browser: Any, fake: FakeTelegram, bot: Any, choice: str, seed: int
) -> tuple[Table, list[Seat], int]:
    table = await open_table(fake, bot, 3, choice, seed)
    rng = random.Random(seed)
    game = await table.db.games.active_game(table.group.id)
    assert game is not None
    game_id = game.game_id
    webapp = webapp_of(table.bot.app)
    assert webapp is not None
    seats = [await open_page(browser, webapp.address, fake.token, u, game_id) for u in table.users]
    by_user = {seat.user.id: seat for seat in seats}
    switcher = table.users[2]
    moves = {"page": 0, "chat": 0, "switcher page": 0, "switcher chat": 0}
    for _ in range(300):
        game, loaded, turn = await _loaded(table, game_id)
        if loaded.meta.deals >= 1 or game.status != "active":
            break
        await _all_pages_show(seats, turn)
        seat_no = loaded.table.to_act
        assert seat_no is not None
        user = fake.world.users[loaded.seats[seat_no]]
        # the switcher plays his first decisions on the page, the rest by the chat's buttons
        by_chat = user.id == switcher.id and moves["switcher page"] >= 2
        if by_chat:
            if moves["switcher chat"] == 0:
                # he leaves the page for the chat: it hides, says so, and his hand catches up
                await by_user[user.id].page.evaluate(HIDE)
                await _caught_up(table, user, turn)
            await _press_chat(table, user, rng)
            moves["chat"] += 1
            moves["switcher chat"] += 1
        else:
            seat = by_user[user.id]
            await asyncio.gather(*seat.reads)
            view = seat.views[-1]
            assert view["version"] == turn and view["to_act"] == view["you"] == seat_no
            await _tap(seat, view, rng)
            await _moved(table, game_id, game.version)
            await table.settle()
            moves["page"] += 1
            if user.id == switcher.id:
                moves["switcher page"] += 1
    else:
        raise AssertionError("the deal did not end")
    assert moves["page"] >= 3 and moves["switcher page"] >= 2, moves
    await table.settle()
    return table, seats, game_id


#: what a page's webview does when Telegram hides it (the page keeps running here)
HIDE = """
Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
document.dispatchEvent(new Event("visibilitychange"));
"""


async def _caught_up(table: Table, user: User, turn: int) -> None:
    """Wait until ``user``'s hand message in the chat has buttons of ``turn``."""

    async def current() -> bool:
        await table.settle()
        message = table.hand_message(user)
        return message is not None and any(
            getattr(CODEC.decode(data), "version", None) == turn for data in message.callback_data
        )

    await eventually(current, WAIT_MS / 1000, "the hand message catching up")


async def _check_the_views_leak_nothing(table: Table, seats: list[Seat], game_id: int) -> None:
    for seat in seats:
        await asyncio.gather(*seat.reads)
    db = table.db
    game = await db.games.game(game_id)
    by_deal: dict[int, list[Any]] = {}
    for _, state, _ in await replay_states(db, game_id):
        by_deal.setdefault(state.deal_no, []).append(state)
    for seat in seats:
        index = list(game.seats).index(seat.user.id)
        assert seat.views
        for view in seat.views:
            # the last deal's score card holds that deal's cards, as that deal showed them
            score = view.get("score")
            shown = {s for s in strings({**view, "score": None}) if CARD.match(s)}
            allowed = known_cards(game.kind, by_deal[view["deal"]], index)
            assert shown <= allowed, (view["deal"], shown - allowed)
            if score is not None:
                shown = {s for s in strings(score) if CARD.match(s)}
                allowed = known_cards(game.kind, by_deal[score["deal"]], index)
                assert shown <= allowed, (score["deal"], shown - allowed)


@pytest.mark.parametrize(("choice", "seed"), [("shleif", 3), ("starshina", 4)])
async def test_a_deal_played_on_three_pages_one_player_going_back_to_the_chat(
    tmp_path: Path, browser: Any, choice: str, seed: int
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table, seats, game_id = await play_a_deal(browser, fake, bot, choice, seed)
        # the deal's result reached the group, and every page shows the next deal
        game, loaded, turn = await _loaded(table, game_id)
        assert loaded.meta.deals >= 1
        assert not loaded.meta.due  # posted to the group
        if game.status == "active":
            await _all_pages_show(seats, turn)
            for seat in seats:
                await asyncio.gather(*seat.reads)
                assert seat.views[-1]["deal"] == loaded.table.deal_no
                # the deal just played: its score card in the table's place, each seat's net
                # as the server gave it, until «Дальше» brings the next deal's table
                score = seat.views[-1]["score"]
                assert score is not None and score["deal"] == seat.views[-1]["deal"] - 1
                rows = await seat.page.locator(".score-seat").all_inner_texts()
                assert len(rows) == len(score["seats"]) == 3
                for row, item in zip(rows, score["seats"], strict=True):
                    net = item["net"]
                    signed = f"+{net}" if net > 0 else f"\u2212{-net}" if net < 0 else "0"
                    assert row.startswith(item["name"]) and signed in row, (row, item)
                await seat.page.click("#score-next")
                assert await seat.page.locator("#table").is_visible()
        await _check_the_views_leak_nothing(table, seats, game_id)
        assert not bot.handler_errors


async def test_a_page_says_why_it_shows_no_table(tmp_path: Path, browser: Any) -> None:
    """Someone who follows the group's link to a table he has no seat at, and a player with
    no table open, are told so in the table's place (not «no connection», not a bare cloth)."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 41)
        game = await table.db.games.active_game(table.group.id)
        webapp = webapp_of(table.bot.app)
        assert game is not None and webapp is not None
        address = webapp.address
        outsider = fake.add_user("Зритель", language_code="ru")
        refused: list[int] = []
        page = await _bare_page(
            browser, address, fake.token, outsider, f"?t=g{game.game_id}", refused
        )
        await page.wait_for_function(
            "text => document.getElementById('notice').textContent === text",
            arg=WORDS.t("ru", "web.not_yours"),
            timeout=WAIT_MS,
        )
        # the live stream is refused too (its ticket); the page keeps saying why, and does not
        # ask again every few seconds

        async def stream_answered() -> bool:
            return bool(refused)

        await eventually(stream_answered, WAIT_MS / 1000, "the live stream's answer")
        await page.evaluate("new Promise(done => setTimeout(done, 4000))")
        assert await page.locator("#notice").text_content() == WORDS.t("ru", "web.not_yours")
        assert refused == [403]
        page = await _bare_page(browser, address, fake.token, outsider, "")
        await page.wait_for_function(
            "text => document.getElementById('notice').textContent === text",
            arg=WORDS.t("ru", "web.no_table"),
            timeout=WAIT_MS,
        )
        assert not bot.handler_errors


async def _bare_page(
    browser: Any, address: str, token: str, user: User, query: str, streams: list[int] | None = None
) -> Any:
    """A page of the Mini App for ``user``, signed for him; the statuses of the answers to its
    live streams (and to the tickets that open them) go to ``streams``."""
    context = await browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    stub = telegram_stub(sign(token, user.id))

    async def route(request_route: Any) -> None:
        await request_route.fulfill(status=200, content_type="application/javascript", body=stub)

    await context.route(TELEGRAM_SCRIPT, route)
    page = await context.new_page()
    if streams is not None:
        answers = streams

        def record(response: Any) -> None:
            if "/api/events" in response.url or "/api/ticket" in response.url:
                answers.append(response.status)

        page.on("response", record)
    await page.goto(f"{address}{query}")
    return page
