"""«Копилка» (``tests/plugin/kopilka.py``), the third toy game, played on the Mini App's pages
alone against the real bot, its table service and its web server: every seat reads its state
after every change as an open page does, the seat to act lays two cards with one move of the
view's ``pick`` (💡 names it, on the page as in the chat), a move of one card or of three is
refused, no answer to a seat holds a card kept face down by another, each finished deal's
score card breaks the nets down by the game's own reasons, its replay is served, and the
closed table shows its last result. Nothing of the game is in ``web/``, ``tables/`` or
``bot/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import callback as cb
from server.games import Library
from tests.library import library_with
from tests.plugin import kopilka

from .fake_telegram import FakeTelegram
from .players import start_bot_for
from .test_games import open_table
from .test_practice import press_hint
from .webapp_pages import CARD, PAGE, game_id_of, http, page_of, strings, unbudgeted

__all__ = ["http"]  # the fixture, for pytest


def kept(hands: list[list[str]], laid: list[list[str]], seat: int) -> set[str]:
    """The cards the other seats than ``seat`` kept face down in a deal of ``hands``."""
    shown = {card for cards in laid for card in cards}
    return {
        card
        for other, hand in enumerate(hands)
        if other != seat
        for card in hand
        if card not in shown
    }


@pytest.fixture
def library() -> Iterator[Library]:
    games = library_with(kopilka.OFFERED)
    yield games


async def test_kopilka_is_played_on_the_pages_to_its_end(
    tmp_path: Path, http: aiohttp.ClientSession, library: Library
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", library=library, webapp_url=PAGE, webapp_port=0
        ) as bot,
    ):
        table = await open_table(fake, bot, 3, "копилка", 7)
        unbudgeted(table)
        # the creator allows 💡: the game has a computer to think out a hint
        await table.say(table.users[0], "/settings")
        menu = table.group_messages()[-1]
        allow = next(d for d in menu.callback_data if table.codec.decode(d) == cb.Hints(True))
        await table.press(table.users[0], menu, allow)
        hinted = ""
        game_id = await game_id_of(table)
        db = table.db
        seats = list((await db.games.game(game_id)).seats)
        pages = {user.id: page_of(table, http, user, game_id) for user in table.users}
        #: every answer each user's page got, and each deal's hands as dealt
        answers: dict[int, list[Any]] = {user_id: [] for user_id in pages}
        dealt: dict[int, list[list[str]]] = {}
        refused = False
        scores: dict[int, Any] = {}
        for number in range(20):
            engine = (await db.games.game(game_id)).state["engine"]
            if engine["to_act"] is not None and not any(engine["laid"]):
                dealt.setdefault(engine["deal_no"], [list(hand) for hand in engine["hands"]])
            views = {}
            for user_id, page in pages.items():
                status, view, _ = await page.state()
                assert status == 200
                answers[user_id].append(view)
                views[user_id] = view
                if view.get("score"):
                    scores[view["score"]["deal"]] = view["score"]
            acting = [user for user, view in views.items() if view["to_act"] == view["you"]]
            if not acting:
                break
            assert len(acting) == 1
            view = views[acting[0]]
            assert view["pick"]["verb"] == "lay" and (view["pick"]["min"], view["pick"]["max"]) == (
                2,
                2,
            )
            assert view["pot"]["key"] == "kopilka.pot" and view["actions"] == []
            cards = [item["card"] for item in view["hand"]["cards"]]
            assert len(cards) == kopilka.CARDS
            page = pages[acting[0]]
            if not hinted:
                # 💡 names the two-card move by the button that confirms it, with its cards
                async with http.post(
                    f"{page.base}api/hint",
                    params={"t": page.game},
                    headers=page.headers(),
                    json={"version": view["version"]},
                ) as response:
                    assert response.status == 200, await response.text()
                    hinted = (await response.json())["hint"]
                assert hinted.startswith("💡") and "«Выложить две» (" in hinted, hinted
                user = next(user for user in table.users if user.id == acting[0])
                hand = table.hand_message(user)
                assert hand is not None
                said, _ = await press_hint(table, user, hand)
                assert said == hinted  # the chat's 💡 at the same turn says the same
            if not refused:
                for wrong in (cards[:1], cards):  # one card, three cards: not a move of two
                    move = {"version": view["version"], "verb": "lay", "arg": wrong}
                    status, answer = await page.act({**move, "key": f"w{len(wrong)}"})
                    assert status == 409 and answer["refused"]["key"] == "web.illegal", answer
                refused = True
            move = {
                "version": view["version"],
                "verb": "lay",
                "arg": cards[1:],
                "key": f"m{number}",
            }
            status, answer = await page.act(move)
            assert status == 200, answer
            answers[acting[0]].append(answer["view"])
        game = await db.games.game(game_id)
        assert game.status == "finished"
        deals = sorted(await db.history.last_deals(table.group.id, 10), key=lambda d: d.deal)
        assert len(deals) == 3 == len(dealt)

        # no answer to a seat shows a card another seat kept face down
        for user_id, seen in answers.items():
            seat = seats.index(user_id)
            for answered in seen:
                deal = answered["deal"]
                secret = kept(dealt[deal], deals[deal].summary["laid"], seat)
                answered.pop("score", None)
                shown = {s for s in strings(answered) if CARD.match(s)}
                assert not shown & secret, (deal, shown & secret)

        # the finished deals' score cards: the nets by the game's own reasons
        assert {0, 1} <= set(scores)
        for score in scores.values():
            for seat in score["seats"]:
                keys = {part["key"] for part in seat["parts"]}
                assert "money.kopilka_ante" in keys and keys <= {
                    "money.kopilka_ante",
                    "money.kopilka_stake",
                    "money.kopilka",
                }, keys
                amounts = [int(p["params"]["amount"].replace("−", "-")) for p in seat["parts"]]
                assert sum(amounts) == seat["net"]

        # a finished deal's replay, for a player of it
        first = pages[table.users[0].id]
        status, replay = await first.replay(0)
        assert status == 200, replay
        shown = {s for s in strings(replay) if CARD.match(s)}
        secret = kept(dealt[0], deals[0].summary["laid"], seats.index(table.users[0].id))
        assert replay["steps"] and not shown & secret, shown & secret

        # the closed table's page: closed, with nothing to do
        status, view, _ = await first.state()
        assert status == 200 and view["closed"] is not None and view["pick"] is None
        balances = await db.ledger.balances(table.group.id)
        assert balances.total == 0 and not balances.game_pots
        assert not bot.handler_errors
