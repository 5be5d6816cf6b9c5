"""The table service on a real SQLite file: lobbies, turns, timeouts, away players, leaving,
stopping, and the money that goes through the ledger."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.randomplay import random_action
from storage.database import Database
from tables import AWAY_AFTER_TIMEOUTS, Loaded, Refused, TableService
from tables.commands import Card, Decide, Look
from tables.events import EveningEnded
from tests.library import GAMES
from tests.moves import press
from tests.service.life import Recorder

USERS = [101, 102, 103, 104]


@pytest.fixture
def service(db: Database) -> TableService:
    seeds = iter(range(10**6))
    return TableService(db, games=GAMES, turn_timeout=30, seed=lambda: f"seed-{next(seeds)}")


def test_the_service_keeps_no_database_to_hand_out(service: TableService) -> None:
    """Its units hold the storage repositories they use; the service itself keeps no
    ``Database`` through which a front-end could reach storage."""
    assert not [name for name, value in vars(service).items() if isinstance(value, Database)]


async def seated(service: TableService, users: list[int], choice: str = "stukolka") -> Loaded:
    await service.lobby.new_table(-1, users[0], choice)
    for user in users[1:]:
        await service.lobby.join(-1, user)
    await service.lobby.begin(-1, users[0], lambda user: True)
    loaded = await service.store.active(-1)
    assert loaded is not None
    return loaded


def rules_state(loaded: Loaded) -> Any:
    """The rules' state of a table in play (either game's)."""
    assert loaded.table is not None
    return loaded.table


async def play_random(
    service: TableService, rng: random.Random, presses: int, *, post_results: bool = False
) -> Loaded | None:
    """Press random legal actions as the seat to act; returns the table after. With
    ``post_results`` the results of the deals that end are posted, as the presenter does
    (until then the game keeps them due, and every load copies them all: a long game slows
    down with every deal)."""
    for _ in range(presses):
        loaded = await service.store.active(-1)
        if loaded is None or loaded.table is None:
            break
        seat = loaded.table.to_act
        if seat is None:
            break
        legal = loaded.table.legal()
        action = random_action(seat, legal, rules_state(loaded).hands[seat], rng)
        reply = await press(
            service, loaded.game.game_id, loaded.seats[seat], loaded.meta.turn, action, loaded.table
        )
        if post_results and reply.results:
            deals = [result.deal for result in reply.results]
            await service.steps.results_posted(loaded.game.game_id, deals)
    return await service.store.active(-1)


async def test_one_table_per_chat_and_lobby_rules(service: TableService) -> None:
    await service.lobby.new_table(-1, 101, "stukolka")
    with pytest.raises(Refused) as refused:
        await service.lobby.new_table(-1, 102, "shleif")
    assert refused.value.reason == "table_exists"
    with pytest.raises(Refused) as refused:
        await service.lobby.begin(-1, 101, lambda user: True)
    assert refused.value.reason == "not_enough_players"
    await service.lobby.join(-1, 102)
    with pytest.raises(Refused) as refused:
        await service.lobby.join(-1, 102)
    assert refused.value.reason == "already_seated"
    with pytest.raises(Refused) as refused:
        await service.lobby.begin(-1, 101, lambda user: user != 102)
    assert refused.value.reason == "start_bot_first"
    with pytest.raises(Refused) as refused:
        await service.lobby.begin(-1, 103, lambda user: True)
    assert refused.value.reason == "not_at_table"
    reply = await service.lobby.begin(-1, 102, lambda user: True)
    assert reply.new_deal and reply.game is not None and reply.game.status == "active"


async def test_starshina_needs_exactly_three(service: TableService) -> None:
    await service.lobby.new_table(-1, 101, "starshina")
    for user in (102, 103, 104):
        await service.lobby.join(-1, user) if user != 104 else None
    with pytest.raises(Refused):
        await service.lobby.join(-1, 104)
    await service.lobby.begin(-1, 101, lambda user: True)


async def test_only_the_seat_to_act_and_the_current_turn_count(service: TableService) -> None:
    loaded = await seated(service, [101, 102, 103])
    assert loaded.table is not None
    seat = loaded.table.to_act
    assert seat is not None
    actor = loaded.seats[seat]
    other = next(user for user in loaded.seats if user != actor)
    game_id, turn = loaded.game.game_id, loaded.meta.turn
    with pytest.raises(Refused) as refused:
        await service.turns.act(game_id, other, turn, Decide("pass"))
    assert refused.value.reason == "not_your_turn"
    with pytest.raises(Refused) as refused:
        await service.turns.act(game_id, 104, turn, Decide("pass"))
    assert refused.value.reason == "not_at_table"
    with pytest.raises(Refused) as refused:
        await service.turns.act(game_id, actor, turn + 1, Decide("pass"))
    assert refused.value.reason == "outdated"
    with pytest.raises(Refused):
        await service.turns.act(game_id, actor, turn, Card("play", "AS"))
    after = await service.store.active(-1)
    assert after is not None and after.game.version == loaded.game.version
    # looking is not a turn: it keeps the others' buttons valid
    await service.turns.act(game_id, other, turn, Look())
    after = await service.store.active(-1)
    assert after is not None and after.meta.turn == turn
    await service.turns.act(game_id, actor, turn, Decide("pass"))
    after = await service.store.active(-1)
    assert after is not None and after.meta.turn == turn + 1
    with pytest.raises(Refused) as refused:
        await service.turns.act(game_id, actor, turn, Decide("pass"))
    assert refused.value.reason in ("outdated", "not_your_turn")


async def test_money_balances_after_every_deal_and_the_pot_carries(
    service: TableService, db: Database
) -> None:
    rng = random.Random(5)
    loaded = await seated(service, [101, 102, 103, 104], "shleif")
    for _ in range(12):
        current = await play_random(service, rng, 25)
        assert current is not None
        loaded = current
        balances = await db.ledger.balances(-1)
        assert balances.total == 0
        if loaded.table is not None and rules_state(loaded).phase.value == "choose":
            state = rules_state(loaded)
            assert state.pot_in == balances.pot - state.options.stake
    assert loaded.meta.deals >= 3
    deals = await db.history.last_deals(-1, 100)
    assert len(deals) == loaded.meta.deals


async def test_timeouts_make_the_default_move_then_mark_away(service: TableService) -> None:
    first = await seated(service, [101, 102, 103])
    assert first.table is not None
    game_id = first.game.game_id
    notices: list[str] = []
    seen: dict[int, int] = {}
    for _ in range(40):
        loaded = await service.store.active(-1)
        assert loaded is not None and loaded.table is not None
        seat = loaded.table.to_act
        assert seat is not None
        reply = await service.turns.timeout(game_id, loaded.meta.turn)
        assert reply is not None
        notices += [notice.key for notice in reply.notices]
        user = loaded.seats[seat]
        seen[user] = seen.get(user, 0) + 1
        if "now_away" in notices:
            break
    assert "timeout_move" in notices and "now_away" in notices
    loaded = await service.store.active(-1)
    assert loaded is not None and loaded.meta.away
    away = loaded.meta.away[0]
    assert seen[away] >= AWAY_AFTER_TIMEOUTS
    # a stale timer does nothing
    assert await service.turns.timeout(game_id, loaded.meta.turn - 1) is None
    reply = await service.turns.back(game_id, away)
    assert reply.notices[0].key == "is_back"


async def test_everybody_away_plays_itself_to_the_end_of_the_deal(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, [101, 102])
    game_id = loaded.game.game_id
    await service.lobby.leave(-1, 101)
    # 101 leaves: auto-played until the deal ends, then removed, and two are no longer enough
    # unless the other player still has to act; play 102 randomly until the table closes
    rng = random.Random(1)
    for _ in range(50):
        current = await service.store.active(-1)
        if current is None:
            break
        await play_random(service, rng, 1)
    game = await db.games.game(game_id)
    assert game.status == "finished"
    assert (await db.ledger.balances(-1)).total == 0


async def test_stop_now_plays_the_deal_out(service: TableService, db: Database) -> None:
    """docs/rules.md §5 "Stopping": the deal is settled, not voided (the vote that
    voids it is in tests/service/test_robust.py)."""
    loaded = await seated(service, [101, 102, 103])
    with pytest.raises(Refused) as refused:
        await service.stopping.stop(-1, 102, is_admin=False)
    assert refused.value.reason == "creator_or_admin_only"
    reply = await service.stopping.stop(-1, 102, is_admin=True, now=True)
    assert reply.closed and len(reply.results) == 1
    after = await db.ledger.balances(-1)
    assert after.total == 0
    game = await db.games.game(loaded.game.game_id)
    assert game.status == "finished"


async def test_stop_after_deal_finishes_the_table(service: TableService, db: Database) -> None:
    loaded = await seated(service, [101, 102, 103])
    await service.stopping.stop(-1, 101, is_admin=False)
    rng = random.Random(3)
    game_id = loaded.game.game_id
    for _ in range(60):
        if (await db.games.game(game_id)).status != "active":
            break
        await play_random(service, rng, 1)
    assert (await db.games.game(game_id)).status == "finished"


async def test_a_full_starshina_game_through_the_service(
    service: TableService, db: Database
) -> None:
    await service.lobby.new_table(-1, 101, "starshina")
    await service.lobby.join(-1, 102)
    await service.lobby.join(-1, 103)
    await service.lobby.begin(-1, 101, lambda user: True)
    rng = random.Random(11)
    game = await db.games.active_game(-1)
    assert game is not None
    for _ in range(5000):
        current = await db.games.game(game.game_id)
        if current.status != "active":
            break
        await play_random(service, rng, 1, post_results=True)
    final = await db.games.game(game.game_id)
    assert final.status == "finished"
    balances = await db.ledger.balances(-1)
    assert balances.total == 0 and not balances.game_pots


async def test_the_next_starshina_game_is_dealt_by_the_previous_loser(
    service: TableService, db: Database
) -> None:
    from game.starshina import next_game_dealer

    await test_a_full_starshina_game_through_the_service(service, db)
    finished = (await db.history.last_deals(-1, 1))[0]
    previous = await service.store.load(await db.games.game(finished.game_id))
    expected_user = previous.seats[next_game_dealer(rules_state(previous))]
    await service.lobby.new_table(-1, 103, "starshina")
    await service.lobby.join(-1, 101)
    await service.lobby.join(-1, 102)
    await service.lobby.begin(-1, 101, lambda user: True)
    loaded = await service.store.active(-1)
    assert loaded is not None and loaded.table is not None
    assert loaded.seats[loaded.table.dealer] == expected_user


async def test_a_deal_result_shows_the_balances_before_the_next_antes(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, [101, 102, 103])
    rng = random.Random(2)
    for _ in range(200):
        current = await service.store.active(-1)
        assert current is not None and current.table is not None
        seat = current.table.to_act
        assert seat is not None
        legal = current.table.legal()
        action = random_action(seat, legal, rules_state(current).hands[seat], rng)
        reply = await press(
            service,
            current.game.game_id,
            current.seats[seat],
            current.meta.turn,
            action,
            current.table,
        )
        if reply.results:
            result = reply.results[-1]
            after = await service.store.active(-1)
            assert after is not None and after.table is not None
            dealer = after.seats[rules_state(after).dealer]
            now = (await db.ledger.balances(-1)).players
            assert now[dealer] == result.balances.get(dealer, 0) - rules_state(after).options.stake
            return
    raise AssertionError(f"no deal ended at table {loaded.game.game_id}")


async def test_every_commit_is_told_to_the_listeners(service: TableService, db: Database) -> None:
    """A second front-end learns of a table's every change however it was made: the new
    lobby, each seat taken, the first deal, each move, the close; and of each evening ended."""
    listener = Recorder(service)
    loaded = await seated(service, USERS[:3])
    game_id = loaded.game.game_id
    statuses = [game.status for game in listener.commits]
    assert statuses[:3] == ["lobby", "lobby", "lobby"] and statuses[-1] == "active"
    versions = [game.version for game in listener.commits]
    assert versions == sorted(versions) and versions[-1] == loaded.game.version
    await play_random(service, random.Random(3), 3)
    after = await service.store.active(-1)
    assert after is not None and listener.commits[-1] == after.game
    for _ in range(100):  # to the first deal's end: an evening has begun
        if await db.history.last_deals(-1, 1):
            break
        await play_random(service, random.Random(3), 5)
    assert not listener.evenings
    assert await service.evenings.end_now(-1, after_game=game_id)
    assert listener.evenings == [EveningEnded(-1, game_id)]
    await service.stopping.stop(-1, USERS[0], True, now=True)
    game = await db.games.game(game_id)
    assert not game.is_open and listener.commits[-1] == game


async def test_the_evening_ends_with_the_groups_last_stopped_table_and_is_claimed_once(
    service: TableService, db: Database
) -> None:
    """Whichever front-end shows the replies: a deal's end goes on the evening, a /stop of
    the group's last open table ends it, and its summary is handed out once (and again only
    when the post surely failed)."""
    listener = Recorder(service)
    loaded = await seated(service, USERS[:3])
    game_id = loaded.game.game_id
    for _ in range(100):  # to the first deal's end: an evening has begun
        if await db.history.last_deals(-1, 1):
            break
        await play_random(service, random.Random(5), 5)
    assert await db.evenings.open_evening(-1) is not None
    reply = await service.stopping.stop(-1, USERS[0], True, now=True)
    assert reply.closed
    assert listener.evenings == [EveningEnded(-1, game_id)]
    assert await db.evenings.open_evening(-1) is None
    (evening,) = await service.evenings.unposted(-1)
    summary = await service.evenings.claim(evening)
    assert summary is not None and summary.deals
    assert await service.evenings.unposted(-1) == []
    await service.evenings.unclaim(evening)
    assert [again.evening_id for again in await service.evenings.unposted(-1)] == [
        evening.evening_id
    ]


async def test_a_chat_is_in_play_from_its_first_deal_to_its_tables_end(
    service: TableService,
) -> None:
    """A lobby is not play (its options may still change); a game begun is, until it ends."""
    assert not await service.settings.in_play(-1)
    await service.lobby.new_table(-1, USERS[0], "stukolka")
    assert not await service.settings.in_play(-1)
    await service.lobby.join(-1, USERS[1])
    await service.lobby.begin(-1, USERS[0], lambda user: True)
    assert await service.settings.in_play(-1)
    await service.stopping.stop(-1, USERS[0], True, now=True)
    assert not await service.settings.in_play(-1)


async def test_the_storage_health_sees_writes_work_again(
    service: TableService, db: Database
) -> None:
    """Writes failed a while ago, and work now: the health check's probe write sees it, and
    there is no problem to report any more (one that lasts is tests/e2e/test_robust.py's)."""
    assert await service.health.problem() is None
    db.write_problem = "OperationalError: database or disk is full"
    assert await service.health.problem() is None
    assert db.write_problem is None
