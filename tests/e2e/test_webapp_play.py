"""End to end: deals played on the Mini App's pages against the real bot and the fake Bot API
(the server's own checks are in test_webapp.py):

- over several deals of each game, every kind of decision made on the page (knock, pass,
  шлейф, dark, a blind and a seen purchase, razrez, Старшина's exchange and kitty, playing a
  card), no state or move answer to a seat holds a card it could not know;
- while a deal is played, the page shows the last deal's nets, as the hands' outcome said them;
- an away player's page offers only «I'm back», as his hand does.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from server.program import webapp_of
from tests.clock import ManualClock
from web.limits import RateLimit

from .fake_telegram import FakeTelegram
from .players import known_cards, replay_states, start_bot_for
from .test_games import open_table
from .webapp_pages import (
    CARD,
    PAGE,
    game_id_of,
    http,
    page_of,
    snapshot_of,
    strings,
)

__all__ = ["http"]  # the fixture, for pytest


EXERCISED = {
    "stukolka": {("knock", "NoneType"), ("pass", "NoneType"), ("discard", "list"), ("play", "str")},
    "shleif": {
        ("shleif", "NoneType"),
        ("dark", "NoneType"),
        ("look", "NoneType"),
        ("discard", "int"),  # a blind purchase: how many, never which
        ("discard", "list"),
        ("drop", "str"),
        ("razrez", "NoneType"),
        ("play", "str"),
    },
    "starshina": {("give", "str"), ("return", "str"), ("kitty", "list"), ("play", "str")},
}


@pytest.mark.parametrize(
    ("choice", "seed", "decisions"),
    [("stukolka", 19, 120), ("shleif", 23, 120), ("starshina", 29, 160)],
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
        game_id = await game_id_of(table)
        pages = {user.id: page_of(table, http, user, game_id) for user in table.users}
        answers: dict[int, list[Any]] = {user_id: [] for user_id in pages}
        played: set[tuple[str, str]] = set()
        # a user reading flat out meets his budget (a burst of 40); the others do not. The
        # server's own budget, on the suite's manual clock, never moved: a slow machine
        # refills nothing meanwhile
        webapp = webapp_of(table.bot.app)
        assert webapp is not None
        shipped = webapp.server.rate
        webapp.server.rate = RateLimit(burst=shipped.burst, rate=shipped.rate, clock=ManualClock())
        first = pages[table.users[0].id]
        statuses = [(await first.state())[0] for _ in range(45)]
        assert statuses[:40] == [200] * 40 and 429 in statuses[40:]
        assert (await pages[table.users[1].id].state())[0] == 200
        # the test plays faster than any person: the budget is lifted
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
            played.add((verb, type(arg).__name__))
            move = {"version": view["version"], "verb": verb, "arg": arg, "key": f"m{number}"}
            status, answer = await pages[acting[0]].act(move)
            assert status == 200, answer
            answers[acting[0]].append(answer["view"])
        db = table.db
        game = await db.games.game(game_id)
        by_deal: dict[int, list[Any]] = {}
        for _deal, state, _seats in await replay_states(db, game_id):
            by_deal.setdefault(state.deal_no, []).append(state)
        # the seeds make the random play reach these decisions, every argument shape
        assert EXERCISED[choice] <= played, EXERCISED[choice] - played
        assert len(by_deal) >= 2, "the test should span deals"
        for user_id, seen in answers.items():
            seat = list(game.seats).index(user_id)
            for answered in seen:
                # the last deal's score card: the cards that deal showed him, nothing more
                score = answered.pop("score", None)
                shown = {s for s in strings(answered) if CARD.match(s)}
                allowed = known_cards(game.kind, by_deal[answered["deal"]], seat)
                assert shown <= allowed, (answered["deal"], shown - allowed)
                if score is not None:
                    shown = {s for s in strings(score) if CARD.match(s)}
                    allowed = known_cards(game.kind, by_deal[score["deal"]], seat)
                    assert score["deal"] == answered["deal"] - 1
                    assert shown <= allowed, (score["deal"], shown - allowed)
        assert not bot.handler_errors


NET = re.compile(r"Ваш итог: (?:\d+ взят\w* · )?([+−]?\d+)")


async def test_the_score_card_gives_the_last_deals_nets_as_the_hands_outcome_said_them(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    """The next deal is dealt in the commit that ends a deal, so a page never sees a deal's
    end by itself: while the next deal is played, its state carries the last deal's score
    card, with the very figures each player's hand message gave as his outcome, each broken
    down by reason from the deal's ledger."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 31)
        game_id = await game_id_of(table)
        status, view, _ = await page_of(table, http, table.users[0], game_id).state()
        assert status == 200 and view["score"] is None
        for _ in range(300):
            _, loaded = await snapshot_of(table, game_id)
            if loaded.meta.deals >= 1:
                break
            assert await table.step()
        _, loaded = await snapshot_of(table, game_id)
        assert loaded.meta.deals == 1
        said = {}
        for user in table.users:
            texts = [m.text or "" for m in fake.messages(fake.private_chat(user), from_bot=True)]
            nets = [NET.search(text) for text in texts]
            said[user.id] = int(next(n for n in nets if n).group(1).replace("−", "-"))
        for user in table.users:
            status, view, _ = await page_of(table, http, user, game_id).state()
            assert status == 200 and view["result"] is None and view["closed"] is None
            score = view["score"]
            assert score["deal"] == 0 and view["deal"] == 1
            assert [seat["you"] for seat in score["seats"]] == [u == user.id for u in loaded.seats]
            shown = {u: seat["net"] for u, seat in zip(loaded.seats, score["seats"], strict=True)}
            assert shown == said
            # each net broken down by reason as the chat's outcome does («ставка −3 · ...»)
            for seat in score["seats"]:
                amounts = [int(p["params"]["amount"].replace("−", "-")) for p in seat["parts"]]
                assert all(p["key"].startswith("money.") for p in seat["parts"])
                assert sum(amounts) == seat["net"]
        assert not bot.handler_errors


async def test_an_away_players_page_offers_only_im_back_as_his_hand_does(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 37)
        game_id = await game_id_of(table)
        user = table.users[1]
        reply = await table.services.tables.turns.mark_unreachable(game_id, user.id)
        assert reply is not None
        await table.settle()
        page = page_of(table, http, user, game_id)
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
        _, loaded = await snapshot_of(table, game_id)
        assert user.id not in loaded.meta.away
        assert not bot.handler_errors
