"""End to end: the ends of deals and tables on the Mini App's pages, against the real bot and
the fake Bot API.

- a finished deal's replay: every hand as the action log has it, each card face up only if
  the player asking saw it at the table (no answer names another), for the table's players
  only, and never the deal in play (refused for every seat, its number or any later one);
- a closed table: a page opened without naming it (the menu button) shows its last result,
  why it closed and the evening it closed in, not «you are not at a table», and «▶️ Новая
  партия» made on the page opens the same game again through the table service.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp

from tests.web.fixtures import seen_cards

from .fake_telegram import FakeTelegram
from .players import replay_states, sign, start_bot_for
from .test_games import open_table
from .webapp_pages import (
    CARD,
    PAGE,
    Page,
    base_of,
    game_id_of,
    http,
    page_of,
    snapshot_of,
    strings,
)

__all__ = ["http"]  # the fixture, for pytest


async def test_a_replay_is_of_a_finished_deal_only_and_for_its_players_only(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "shleif", 31)
        game_id = await game_id_of(table)
        pages = [page_of(table, http, user, game_id) for user in table.users]
        # the first deal in play: nothing to replay yet, for any seat
        for page in pages:
            assert (await page.replay(0))[0] == 404
        for _ in range(300):
            _, loaded = await snapshot_of(table, game_id)
            if loaded.meta.deals >= 1:
                break
            assert await table.step()
        assert await table.step()  # a move of the next deal: it is in play
        _, loaded = await snapshot_of(table, game_id)
        running = loaded.meta.deals
        assert running == 1 and loaded.table is not None and not loaded.table.deal_over
        for page in pages:
            for deal in (running, running + 1, 10**5):
                status, answer = await page.replay(deal)
                assert status == 404 and "steps" not in answer, (deal, answer)
            for deal in ("-1", "x", "", "1e3"):
                assert (await page.replay(deal))[0] == 404, deal
        # someone who never sat at the table: not his
        outsider = fake.add_user("Чужой")
        fake.user_starts_bot(outsider)
        stranger = Page(http, base_of(table), sign(fake.token, outsider.id), f"g{game_id}")
        assert (await stranger.replay(0))[0] == 403
        # the finished deal, for each of its players: every hand as the log has it, each card
        # face up only where he saw it at the table (the rest counted: as dealt, all of the
        # others'), a passer's dead cards (§1.3: never shown) not even counted, but to the
        # passer himself
        seats = (await table.services.tables.store.game(game_id)).seats
        deal = [
            state for _, state, _ in await replay_states(table.db, game_id) if state.deal_no == 0
        ]
        dealt = next(state for state in deal if all(state.hands))
        hidden = 0
        for user, page in zip(table.users, pages, strict=True):
            status, answer = await page.replay(0)
            assert status == 200 and answer["deal"] == 0
            you = seats.index(user.id)
            seen = set().union(*(seen_cards(state, you) for state in deal))
            named = {text for text in strings(answer) if CARD.match(text)}
            assert named <= seen, (you, named - seen)
            steps = answer["steps"]
            assert steps[0]["label"]["key"] == "web.replay.dealt"
            for number, (shown, held) in enumerate(
                zip(steps[0]["seats"], dealt.hands, strict=True)
            ):
                if shown["dead"] and number != you:
                    assert all(not step["seats"][number]["hand"] for step in steps)
                    assert all(not step["seats"][number]["hidden"] for step in steps)
                else:
                    mine = [card for card in held if card in seen] if number == you else []
                    assert sorted(shown["hand"]) == sorted(mine)
                    assert len(shown["hand"]) + shown["hidden"] == len(held)
                hidden += shown["hidden"]
            tricks = [step for step in steps if step["label"]["key"] == "web.replay.trick"]
            for number, step in enumerate(tricks, 1):
                assert step["label"]["n"] == number and step["winner"] is not None
                for played in step["trick"]:
                    # each card of the trick in its player's hand as it was before the trick
                    assert played["card"] in step["seats"][played["seat"]]["hand"]
        assert hidden  # cards the players did not all see
        assert not bot.handler_errors


async def test_a_closed_table_shows_its_last_result_and_plays_again_from_the_page(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", 8)
        game_id = await game_id_of(table)
        for _ in range(4):
            assert await table.step()
        await table.say(table.users[0], "/stop now")
        game, loaded = await snapshot_of(table, game_id)
        assert game.status in ("finished", "stopped") and loaded.meta.deals == 1
        for user in table.users:
            # the menu button's page names no table: his last one, closed, with its result
            page = Page(http, base_of(table), sign(fake.token, user.id), "")
            status, view, _ = await page.state()
            assert status == 200, view
            assert view["closed"]["key"] == "web.closed.stopped"
            assert view["score"]["deal"] == 0 and view["to_act"] is None
            assert [a["verb"] for a in view["actions"]] == ["again"]
            assert (await page.replay(0))[0] == 200
            # the evening it closed in (its closing ended it: the summary is in the group)
            status, evening = await page.evening()
            assert status == 200 and evening["deals"] == 1, evening
            assert {item["net"] for item in evening["nets"]} != {0}
        page = page_of(table, http, table.users[1], game_id)
        status, view, _ = await page.state()
        status, answer = await page.act(
            {"version": view["version"], "verb": "again", "arg": None, "key": "again-1"}
        )
        assert status == 200, answer
        new_id = await game_id_of(table)
        assert new_id != game_id and answer["table"] == f"g{new_id}"
        assert answer["view"]["closed"] is None and answer["view"]["score"] is None
        new = await table.db.games.game(new_id)
        assert new.status == "active" and list(new.seats) == list(game.seats)
        # a second press of the same button is the same move: one new table
        again = await page.act(
            {"version": view["version"], "verb": "again", "arg": None, "key": "again-1"}
        )
        assert again[0] == 200 and await game_id_of(table) == new_id
        assert not bot.handler_errors


async def test_a_won_game_shows_the_games_money_over_all_its_deals(
    tmp_path: Path, http: aiohttp.ClientSession
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", webapp_url=PAGE, webapp_port=0) as bot,
    ):
        table = await open_table(fake, bot, 3, "starshina", 5, options={"max_deals": 2})
        game_id = await game_id_of(table)
        for _ in range(400):
            game, _ = await snapshot_of(table, game_id)
            if not game.is_open:
                break
            assert await table.step()
        game, loaded = await snapshot_of(table, game_id)
        assert game.status == "finished" and loaded.meta.deals == 2
        money = {user: 0 for user in game.seats}
        for entry in await table.db.ledger.transfers(table.group.id, game_id=game_id):
            for party, sign_of in ((entry.src, -1), (entry.dst, 1)):
                if isinstance(party, int):
                    money[party] += sign_of * entry.amount
        status, view, _ = await page_of(table, http, table.users[0], game_id).state()
        assert status == 200
        score = view["score"]
        assert score["game_over"] and view["closed"]["key"] == "web.closed.game_over"
        assert score["title"] == {"key": "web.score.game", "params": {"deal": 2}}
        assert [seat["net"] for seat in score["seats"]] == [money[user] for user in game.seats]
        assert not bot.handler_errors
