"""End to end in a browser: the whole table on the page, against the real bot and the fake Bot
API with Debian's Chromium — the lobby's buttons (sit down, a computer seated and taken off,
begin), and a mixed table where two players play on their pages and the third in the chat,
each seeing the others' moves."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot import callback as cb
from server.program import webapp_of
from storage import POT, Transfer
from tables.computers import EASY_IDS, is_computer
from tables.settle_up import settle
from tests.library import CODEC, WORDS

from .fake_telegram import FakeTelegram
from .players import Table, start_bot_for
from .resilience import eventually
from .test_computers import PAUSE
from .test_games import open_table
from .test_practice import open_practice, press_hint
from .test_webapp_browser import (
    HIDE,
    WAIT_MS,
    Seat,
    _all_pages_show,
    _caught_up,
    _loaded,
    _moved,
    _press_chat,
    _tap,
    open_page,
)
from .test_webapp_browser import browser as browser  # the fixtures
from .test_webapp_browser import chromium as chromium
from .webapp_pages import PAGE

# the tests of a module share one event loop, the loop of their one Chromium
pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


def signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else f"\u2212{-amount}" if amount < 0 else "0"


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


async def _button(table: Table, game_id: int, seat: Seat, label: str) -> None:
    """Tap the control the chat's button of ``label`` is on the page, once the page shows the
    table as it is now (its live updates bring it there)."""
    await _all_pages_show([seat], await _shown(table, game_id))
    button = seat.page.locator("#controls button.action", has_text=label)
    await button.wait_for(timeout=WAIT_MS)
    await button.click()


async def _a_lobby(fake: FakeTelegram, bot: Any, players: int, seed: int) -> tuple[Table, int, str]:
    """A group of ``players`` who started the bot, the first of whom opened a Стуколка со
    шлейфом lobby in the chat (/new): the table, its game and the page's address."""
    users = [fake.add_user(f"Игрок{i}", language_code="ru") for i in range(players)]
    table = Table(fake, bot, fake.add_group("Картёжники", users), users, random.Random(seed))
    for user in users:
        fake.user_starts_bot(user)
    await table.settle()
    await table.say(users[0], "/new shleif")
    game = await table.db.games.active_game(table.group.id)
    webapp = webapp_of(table.bot.app)
    assert game is not None and webapp is not None
    return table, game.game_id, webapp.address


async def _shown(table: Table, game_id: int) -> int:
    """The version a page of the table shows now: a lobby's, the stored game's (no rules step
    moves it); a game's, its turn."""
    game, _, turn = await _loaded(table, game_id)
    return game.version if game.status == "lobby" else turn


async def _seated(table: Table, game_id: int, count: int) -> list[int]:
    for _ in range(400):
        game = await table.db.games.game(game_id)
        if len(game.seats) == count:
            return list(game.seats)
        await asyncio.sleep(0.025)
    raise AssertionError(f"never {count} seated")


async def test_a_lobby_gathered_on_the_page_and_a_deal_played_by_two_pages_and_the_chat(
    tmp_path: Path, browser: Any
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table, game_id, address = await _a_lobby(fake, bot, 3, 7)
        users, group, token = table.users, table.group, fake.token
        first = await open_page(browser, address, token, users[0], game_id)
        # one who follows the table's link sees the lobby and sits down from the page
        second = await open_page(browser, address, token, users[1], game_id)
        assert await second.page.locator("#cards .card").count() == 0
        await _button(table, game_id, second, WORDS.t("ru", "btn.join"))
        assert await _seated(table, game_id, 2) == [users[0].id, users[1].id]
        await table.settle()
        # the chat's lobby follows the page
        lobby = next(m for m in table.group_messages() if "Игрок1" in (m.text or ""))
        # a computer seated from the page, and taken off again
        await _button(table, game_id, first, WORDS.t("ru", "btn.add_computer"))
        seats = await _seated(table, game_id, 3)
        assert is_computer(seats[2])
        await _button(table, game_id, first, WORDS.t("ru", "btn.remove_computer"))
        await _seated(table, game_id, 2)
        # the third joins in the chat, by the lobby's own button
        await table.settle()
        lobby = table.fake.message(group, lobby.message_id)
        join = next(
            d for d in lobby.callback_data if getattr(CODEC.decode(d), "action", None) == "join"
        )
        await table.press(users[2], lobby, join)
        await _seated(table, game_id, 3)
        await _button(table, game_id, first, WORDS.t("ru", "btn.begin"))
        for _ in range(400):
            game = await table.db.games.game(game_id)
            if game.status == "active":
                break
            await asyncio.sleep(0.025)
        assert game.status == "active"
        await table.settle()
        pages = {users[0].id: first, users[1].id: second}
        await _play_the_deal(table, game_id, pages, random.Random(7))
        await _the_evening_and_the_glossary(table, group.id, first)
        assert not bot.handler_errors


async def _the_evening_and_the_glossary(table: Table, chat_id: int, seat: Seat) -> None:
    """The evening so far, a tap away: each player's money as /evening counts it, and who
    would pay whom; the game's glossary, as the chat explains its words."""
    summary = await table.services.tables.evenings.so_far(chat_id)
    assert summary is not None and summary.deals == 1
    page = seat.page
    await page.locator("#evening-button").click()
    dialog = page.locator("dialog#evening")
    await dialog.wait_for(timeout=WAIT_MS)
    assert await dialog.locator("h2").inner_text() == WORDS.tn("ru", "web.evening.title", 1)
    cells = await dialog.locator(".money > span").all_inner_texts()
    shown = dict(zip(cells[0::2], cells[1::2], strict=True))
    names = {user.id: user.first_name for user in table.users}
    expected = {names[user]: signed(net) for user, net in summary.nets.items()}
    assert shown == expected
    # who pays whom, as the chat's closing summary would say it now
    settled = settle(dict(sorted(summary.nets.items(), key=lambda item: names[item[0]])))
    payments = await dialog.locator(".payments li").all_inner_texts()
    assert payments == [
        WORDS.t("ru", "evening.pay", payer=names[payer], payee=names[payee], amount=amount)
        for payer, payee, amount in settled.payments
    ]
    if not payments:
        square = "evening.square" if settled.square else "evening.no_payments"
        assert await dialog.get_by_text(WORDS.t("ru", square)).count() == 1
    # Telegram's Back closes it, as it closes the last trick
    assert await page.evaluate("window.__tg.back.isVisible")
    await page.evaluate("window.__tg.back.press()")
    await dialog.wait_for(state="hidden", timeout=WAIT_MS)
    # (the dialog's close event, which redraws the page and so Back, comes a moment later)
    await page.wait_for_function("!window.__tg.back.isVisible", timeout=WAIT_MS)
    await page.locator("#glossary-button").click()
    entries = await page.locator("dialog#glossary .gloss-entry").all_inner_texts()
    assert entries == [
        _plain(WORDS.t("ru", f"gloss.{word}")) for word in ("shleif", "razrez", "remiz")
    ]


async def _play_the_deal(
    table: Table, game_id: int, pages: dict[int, Seat], rng: random.Random
) -> None:
    """One deal: the players with a page tap it, the other presses the chat's buttons; every
    page follows every move, the chat's ones too."""
    moves = {"page": 0, "chat": 0}
    for _ in range(300):
        game, loaded, turn = await _loaded(table, game_id)
        if loaded.meta.deals >= 1 or game.status != "active":
            break
        await _all_pages_show(list(pages.values()), turn)
        seat_no = loaded.table.to_act
        assert seat_no is not None
        user = table.fake.world.users[loaded.seats[seat_no]]
        if user.id in pages:
            seat = pages[user.id]
            await asyncio.gather(*seat.reads)
            view = seat.views[-1]
            assert view["version"] == turn and view["to_act"] == view["you"] == seat_no
            await _tap(seat, view, rng)
            await _moved(table, game_id, game.version)
            moves["page"] += 1
        else:
            await _press_chat(table, user, rng)
            moves["chat"] += 1
        await table.settle()
    else:
        raise AssertionError("the deal did not end")
    assert moves["page"] >= 2 and moves["chat"] >= 1, moves


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_hint_on_the_page_says_what_the_chats_hint_says(
    tmp_path: Path, browser: Any, lang: str
) -> None:
    """💡 at the practice table: on the page at the player's turn only, the strong computer's
    advice in the chat's words; asked in the chat at the same turn, the very same line."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake,
            tmp_path / "bot.sqlite3",
            webapp_url=PAGE,
            webapp_port=0,
            computer_pause_seconds=PAUSE,
        ) as bot,
    ):
        alice = fake.add_user("Алиса" if lang == "ru" else "Alice", language_code=lang)
        fake.user_starts_bot(alice)
        table = await open_practice(fake, bot, alice, seed=31)
        game = await table.db.games.active_game(alice.id)
        webapp = webapp_of(table.bot.app)
        assert game is not None and webapp is not None
        page = await open_page(browser, webapp.address, fake.token, alice, game.game_id)
        for _ in range(400):
            _, loaded, turn = await _loaded(table, game.game_id)
            seat = loaded.seat_of(alice.id)
            if loaded.table.to_act == seat:
                break
            assert not await page.page.locator("#hint button").is_visible()
            await table.step()
        await _all_pages_show([page], turn)
        # a practice table has no evening to show; its glossary it has
        assert await page.page.locator("#evening-button").count() == 0
        assert await page.page.locator("#glossary-button").count() == 1
        button = page.page.locator("#hint button", has_text=WORDS.t(lang, "btn.hint"))
        await button.click()
        said = page.page.locator("#hint .hint-text")
        await said.wait_for(timeout=WAIT_MS)
        on_the_page = await said.inner_text()
        assert on_the_page.startswith("💡") and len(on_the_page) <= 200, on_the_page
        # the chat's 💡 at the same turn, once the page has gone and the hand caught up
        await page.page.evaluate(HIDE)
        await _caught_up(table, alice, turn)
        hand = table.hand_message(alice)
        assert hand is not None
        text, _ = await press_hint(table, alice, hand)
        assert text == on_the_page
        assert not bot.handler_errors


async def test_a_stop_on_the_page_the_vote_to_void_and_playing_on(
    tmp_path: Path, browser: Any
) -> None:
    """/stop in the group while a large pot waits: both pages say what the chat says, the
    creator's page offers to play on, every person's the vote to void; playing on takes the
    stop back, and a second /stop voided by everyone — two on the page, one in the chat —
    closes the table with every chip of the deal returned."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 11)
        db = table.db
        creator, second, third = table.users
        game = await db.games.active_game(table.group.id)
        webapp = webapp_of(table.bot.app)
        assert game is not None and webapp is not None
        game_id = game.game_id
        # a pot of four stakes waits in the group (a game of another of its topics left it)
        earlier = await db.games.create_game(
            table.group.id,
            "stukolka",
            {},
            seats=[creator.id],
            thread_id=1,
            now=table.services.tables.clock(),
        )
        transfers = [Transfer(creator.id, POT, 4 * 3, "remiz", 0)]
        await db.games.commit_action(
            earlier.game_id,
            0,
            {},
            None,
            transfers=transfers,
            status="finished",
            now=table.services.tables.store.clock(),
        )
        pages = [
            await open_page(browser, webapp.address, fake.token, user, game_id)
            for user in (creator, second)
        ]
        await table.say(creator, "/stop")
        # a stop moves no turn: each page shows it once its live update has come
        for page in pages:
            line = page.page.locator("#stopping p").first
            await line.wait_for(timeout=WAIT_MS)
            assert (await line.inner_text()).startswith("⏹")
        verbs = [await _verbs(page) for page in pages]
        assert verbs == [["void", "play_on"], ["void"]]
        # the second agrees to void it on his page: both pages count the vote
        await _stop_button(table, game_id, pages[1], "void")
        _, loaded, _ = await _loaded(table, game_id)
        assert loaded.meta.void_votes == [second.id]
        votes = WORDS.t("ru", "web.void_votes", votes=1, players=3)
        for page in pages:
            await page.page.locator("#stopping .votes", has_text=votes).wait_for(timeout=WAIT_MS)
        assert await _verbs(pages[1]) == []
        # the creator plays on: the table stops no more
        await _stop_button(table, game_id, pages[0], "play_on")
        _, loaded, _ = await _loaded(table, game_id)
        assert not loaded.meta.stop
        for page in pages:
            await page.page.locator("#stopping").wait_for(state="hidden", timeout=WAIT_MS)
        # stopped again, and voided by all three
        await table.say(creator, "/stop")
        await _stop_button(table, game_id, pages[0], "void")
        await _stop_button(table, game_id, pages[1], "void")
        await table.settle()
        message = next(
            m
            for m in reversed(table.group_messages())
            if any(isinstance(CODEC.decode(d), cb.Void) for d in m.callback_data)
        )
        void = next(d for d in message.callback_data if isinstance(CODEC.decode(d), cb.Void))
        await table.press(third, message, void)
        game = await db.games.game(game_id)
        assert game.status == "stopped"
        assert not bot.handler_errors


async def _verbs(seat: Seat) -> list[str]:
    found: list[str] = await seat.page.eval_on_selector_all(
        "#stopping button", "nodes => nodes.map(n => n.dataset.verb)"
    )
    return found


async def _stop_button(table: Table, game_id: int, seat: Seat, verb: str) -> None:
    """Tap a stopping table's button on the page, once it shows it (a stop, a vote moves no
    turn: the page shows them once its live update has come)."""
    game, _, _ = await _loaded(table, game_id)
    await seat.page.locator(f"#stopping button[data-verb='{verb}']").click(timeout=WAIT_MS)
    await _moved(table, game_id, game.version)
    await table.settle()


async def test_a_rookie_seated_a_player_standing_up_and_the_lobby_cancelled_on_the_page(
    tmp_path: Path, browser: Any
) -> None:
    """The rest of the lobby's buttons: «🤖 Добавить новичка» seats an easy computer, «Встать»
    takes a player off (his page then offers to sit down again), and its creator's «✖️
    Отменить» closes the lobby — which the chat's lobby message says too."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table, game_id, address = await _a_lobby(fake, bot, 2, 3)
        users = table.users
        first = await open_page(browser, address, fake.token, users[0], game_id)
        second = await open_page(browser, address, fake.token, users[1], game_id)
        await _button(table, game_id, first, WORDS.t("ru", "btn.add_novice"))
        seats = await _seated(table, game_id, 2)
        assert seats[1] in EASY_IDS
        # the page of one who has not sat down yet follows the lobby live
        await _all_pages_show([second], await _shown(table, game_id))
        assert await second.page.locator(".seat .name .who").count() == 2
        await _button(table, game_id, second, WORDS.t("ru", "btn.join"))
        seats = await _seated(table, game_id, 3)
        await _all_pages_show([second], await _shown(table, game_id))
        # only its creator may cancel it
        labels = await second.page.locator("#controls button.action").all_inner_texts()
        assert WORDS.t("ru", "btn.cancel") not in labels and WORDS.t("ru", "btn.leave") in labels
        await _button(table, game_id, second, WORDS.t("ru", "btn.leave"))
        assert await _seated(table, game_id, 2) == [users[0].id, seats[1]]
        await second.page.locator(
            "#controls button.action", has_text=WORDS.t("ru", "btn.join")
        ).wait_for(timeout=WAIT_MS)
        await _button(table, game_id, first, WORDS.t("ru", "btn.cancel"))
        for _ in range(400):
            game = await table.db.games.game(game_id)
            if game.status != "lobby":
                break
            await asyncio.sleep(0.025)
        assert game.status == "stopped"
        cancelled = WORDS.t("ru", "announce.table_cancelled")

        async def said() -> bool:
            await table.settle()
            return any(cancelled in (m.text or "") for m in table.group_messages())

        await eventually(said, WAIT_MS / 1000, "the chat's lobby saying it was cancelled")
        assert not bot.handler_errors
