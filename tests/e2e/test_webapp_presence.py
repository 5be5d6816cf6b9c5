"""End to end: a player who looks at his table on the page costs no Telegram message. While
his page is on the screen (it says so every few seconds), his private hand message is neither
edited nor sent again, whatever the others do in the chat and he does on the page; when the
page hides, or its beat lapses (a closed page, a phone asleep), one edit brings the message up
to date. The players who stay in the chat see what they always saw."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import aiohttp

from .fake_telegram import FakeTelegram, User
from .players import Table, start_bot_for
from .test_games import open_table
from .webapp_pages import PAGE, Page, engine_of, game_id_of, held, http, page_of, unbudgeted

__all__ = ["http"]  # the fixture, for pytest


async def _play(table: Table, watcher: User, page: Page, moves: int, rng: random.Random) -> int:
    """``moves`` moves: the watcher's on his page, the others' in the chat; his page beats
    all along. The moves he made."""
    game_id = await game_id_of(table)
    unbudgeted(table)
    everyone = table.users
    mine = 0
    for _ in range(moves):
        assert await page.present(True) == 200
        state, game = await engine_of(table, game_id)
        if state.to_act is None:
            break
        if game.seats[state.to_act] == watcher.id:
            _, view, _ = await page.state()
            hand = [item["card"] for item in view["hand"]["cards"]]
            options: list[tuple[str, Any]] = [(a["verb"], a["arg"]) for a in view["actions"]]
            if view["pick"]:
                options = [(view["pick"]["verb"], rng.sample(hand, view["pick"]["min"]))]
            options += [(i["verb"], i["card"]) for i in view["hand"]["cards"] if i["verb"]]
            verb, arg = rng.choice(options)
            key = f"w{rng.getrandbits(48)}"
            move = {"version": view["version"], "verb": verb, "arg": arg, "key": key}
            status, answer = await page.act(move)
            assert status == 200, answer
            mine += 1
        else:
            table.users = [user for user in everyone if user != watcher]
            try:
                assert await table.step(look_chance=0)
            finally:
                table.users = everyone
        await table.settle()
    return mine


async def _his_turn(table: Table, user: User) -> bool:
    state, game = await engine_of(table, await game_id_of(table))
    return state.to_act is not None and game.seats[state.to_act] == user.id


async def test_a_player_on_the_page_costs_no_telegram_message_until_he_looks_away(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 67)
        game_id = await game_id_of(table)
        watcher = table.users[0]
        page = page_of(table, http, watcher, game_id)
        chat = fake.private_chat(watcher)
        others = [fake.private_chat(user) for user in table.users[1:]]
        await table.settle()
        since = fake.now()
        rng = random.Random(67)
        mine = await _play(table, watcher, page, 24, rng)
        assert mine >= 3, "the seed should give the watcher moves of his own"
        while await _his_turn(table, watcher):  # (he hides the page once he has moved)
            mine += await _play(table, watcher, page, 1, rng)
        assert fake.requests(chat=chat, since=since) == []
        assert all(fake.requests(chat=other, since=since) for other in others)
        # the page hides: one edit, and his hand message shows the table as it is
        assert await page.present(False) == 200
        await table.settle()
        caught_up = fake.requests(chat=chat, since=since)
        assert len(caught_up) == 1, [r.method for r in caught_up]
        state, game = await engine_of(table, game_id)
        message = fake.messages(chat, from_bot=True)[-1]
        assert held(message) == set(state.hands[list(game.seats).index(watcher.id)])
        assert not bot.handler_errors


async def test_a_page_that_stops_beating_falls_back_to_the_chat_within_seconds(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 71)
        game_id = await game_id_of(table)
        table.services.tables.presence.lapse = 0.5
        watcher = table.users[1]
        page = page_of(table, http, watcher, game_id)
        chat = fake.private_chat(watcher)
        await table.settle()
        since = fake.now()
        await _play(table, watcher, page, 4, random.Random(71))
        assert fake.requests(chat=chat, since=since) == []
        # the phone goes to sleep: no beat, no word; the lapse brings the chat back
        await asyncio.sleep(1.0)
        await table.settle()
        assert fake.requests(chat=chat, since=since)
        state, game = await engine_of(table, game_id)
        message = fake.messages(chat, from_bot=True)[-1]
        seat = list(game.seats).index(watcher.id)
        assert not state.looked[seat] or held(message) == set(state.hands[seat])
        assert not bot.handler_errors
