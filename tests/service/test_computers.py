"""Computer seats and the away player played by the computer, in the table service:
a computer is seated from the lobby, moves when its (short) turn timer fires, pays and takes
chips like anyone, leaves between deals when removed, and needs a person at the table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.randomplay import random_action
from storage.database import Database
from tables import AWAY_AFTER_TIMEOUTS, Loaded, Refused, TableService
from tables.computers import EASY_IDS, STRONG_IDS, Thinker, is_computer
from tests.clock import ManualClock
from tests.library import GAMES
from tests.moves import press

USERS = [101, 102, 103]


@pytest.fixture
def service(db: Database) -> TableService:
    seeds = iter(range(10**6))
    # no worker process here: the strong level falls back to the easy rules (the e2e tests
    # and tests/bot/test_computers.py run the process pool)
    return TableService(
        db,
        games=GAMES,
        turn_timeout=30,
        seed=lambda: f"seed-{next(seeds)}",
        clock=ManualClock(),
        computer_pause=1.0,
        thinker=Thinker(workers=0, seed=7),
    )


async def active(service: TableService) -> Loaded:
    loaded = await service.store.active(-1)
    assert loaded is not None
    return loaded


async def to_act(service: TableService) -> tuple[Loaded, int | None]:
    loaded = await active(service)
    if loaded.game.status != "active" or loaded.table is None:
        return loaded, None
    seat = loaded.table.to_act
    return loaded, None if seat is None else loaded.seats[seat]


async def press_random(service: TableService, loaded: Loaded, rng: random.Random) -> None:
    assert loaded.table is not None
    seat = loaded.table.to_act
    assert seat is not None
    legal = loaded.table.legal()
    state: Any = loaded.table
    action = random_action(seat, legal, state.hands[seat], rng)
    await press(
        service, loaded.game.game_id, loaded.seats[seat], loaded.meta.turn, action, loaded.table
    )


async def test_lobby_seats_computers_and_needs_a_person(
    service: TableService, db: Database
) -> None:
    await service.lobby.new_table(-1, 101, "stukolka")
    with pytest.raises(Refused) as refused:
        await service.lobby.add_computer(-1, 102, "strong")  # not at the table
    assert refused.value.reason == "not_at_table"
    await service.lobby.add_computer(-1, 101, "strong")
    await service.lobby.add_computer(-1, 101, "easy")
    await service.lobby.add_computer(-1, 101, "strong")
    loaded = await active(service)
    assert loaded.seats == [101, STRONG_IDS[0], EASY_IDS[0], STRONG_IDS[1]]
    names = await db.chats.players(loaded.seats)
    assert names[STRONG_IDS[0]].name == "🤖 Компьютер 1"
    assert names[EASY_IDS[0]].name == "🤖 Новичок 1"
    # a person joining a full lobby takes the last computer's seat (Стуколка: at most 4 here)
    await service.lobby.add_computer(-1, 101, "easy")
    full = (await active(service)).seats
    if len(full) < 6:
        for _ in range(6 - len(full)):
            await service.lobby.add_computer(-1, 101, "easy")
    full = (await active(service)).seats
    assert len(full) == 6
    reply = await service.lobby.join(-1, 102)
    assert [n.key for n in reply.notices] == ["takes_computer_seat"]
    assert reply.notices[0].params == {"user": 102, "computer": full[-1]}
    assert (await active(service)).seats == [*full[:-1], 102]
    await service.lobby.join(-1, 103)  # the next one takes the next computer's seat
    assert (await active(service)).seats == [*full[:-2], 103, 102]
    await service.lobby.leave(-1, 102)
    await service.lobby.leave(-1, 103)
    # /kick takes a computer out of the lobby at once
    await service.lobby.remove_player(-1, 101, False, STRONG_IDS[1])
    assert (await active(service)).seats == [101, STRONG_IDS[0], EASY_IDS[0]]
    # the last person leaving cancels the table: computers never play among themselves
    reply = await service.lobby.leave(-1, 101)
    assert reply.closed
    assert await service.store.active(-1) is None


async def test_starshina_two_people_and_a_computer_to_the_end(
    service: TableService, db: Database
) -> None:
    rng = random.Random(3)
    # three deals end the game (twenty by default): the computer's part is the same
    await db.chats.upsert_chat(-1, "Group", now=service.clock())
    await db.chats.set_chat_options(-1, "starshina", {"max_deals": 3}, now=service.clock())
    await service.lobby.new_table(-1, 101, "starshina")
    await service.lobby.join(-1, 102)
    await service.lobby.add_computer(-1, 101, "strong")
    computer = STRONG_IDS[0]
    # the computer needs no private chat: only the people must have started the bot
    await service.lobby.begin(-1, 101, lambda user: user in (101, 102))
    computer_moves = 0
    for _ in range(5000):
        if await service.store.active(-1) is None:
            break
        loaded, user = await to_act(service)
        assert user is not None
        if is_computer(user):
            # its turn waits for the short pause, not the player's turn time
            assert loaded.game.turn_deadline == service.clock() + service.computer_pause
            reply = await service.turns.timeout(loaded.game.game_id, loaded.meta.turn)
            assert reply is not None
            assert not [n for n in reply.notices if n.key in ("timeout_move", "auto_move")]
            computer_moves += 1
        else:
            await press_random(service, loaded, rng)
    assert await service.store.active(-1) is None, "the game should have ended"
    finished = await db.history.last_deals(-1, 1)
    assert finished and finished[0].kind == "starshina"
    assert computer_moves > 20
    balances = await db.ledger.balances(-1)
    assert balances.total == 0
    assert computer in balances.players  # a ledger party like anyone
    assert not balances.game_pots


async def test_away_player_is_played_by_the_computer_until_back(service: TableService) -> None:
    rng = random.Random(5)
    await service.lobby.new_table(-1, 101, "stukolka")
    await service.lobby.join(-1, 102)
    await service.lobby.join(-1, 103)
    await service.lobby.begin(-1, 101, lambda user: True)
    # 103 lets his turns run out until he is away
    notices: list[str] = []
    for _ in range(400):
        loaded, user = await to_act(service)
        assert user is not None
        if user == 103:
            reply = await service.turns.timeout(loaded.game.game_id, loaded.meta.turn)
            assert reply is not None
            notices += [n.key for n in reply.notices]
            if 103 in (await active(service)).meta.away:
                break
        else:
            await press_random(service, loaded, rng)
    assert notices.count("timeout_move") == AWAY_AFTER_TIMEOUTS
    assert reply is not None
    away = [n for n in reply.notices if n.key == "now_away"]
    assert away and away[0].params["computer"] is True  # announced once, with who plays now
    # from now on his turns are the computer's: a short pause, no timeout counted, no notice
    played = 0
    for _ in range(400):
        loaded, user = await to_act(service)
        assert user is not None
        if user == 103:
            assert loaded.game.turn_deadline == service.clock() + service.computer_pause
            reply = await service.turns.timeout(loaded.game.game_id, loaded.meta.turn)
            assert reply is not None
            assert not [n for n in reply.notices if n.key in ("timeout_move", "now_away")]
            played += 1
            if played == 6:
                break
        else:
            await press_random(service, loaded, rng)
    assert (await active(service)).meta.timeouts.get("103", 0) == AWAY_AFTER_TIMEOUTS
    # he is back: his turn has his own time again
    loaded = await active(service)
    await service.turns.back(loaded.game.game_id, 103)
    for _ in range(400):
        loaded, user = await to_act(service)
        assert user is not None
        if user == 103:
            assert loaded.game.turn_deadline == service.clock() + service.turn_timeout
            break
        await press_random(service, loaded, rng)


async def test_away_player_keeps_default_moves_when_the_chat_says_so(
    service: TableService,
) -> None:
    await service.settings.set_away_play(-1, "default")
    await service.lobby.new_table(-1, 101, "stukolka")
    await service.lobby.join(-1, 102)
    await service.lobby.begin(-1, 101, lambda user: True)
    loaded = await active(service)
    assert loaded.meta.away_play == "default"
    game_id = loaded.game.game_id
    await service.turns.mark_unreachable(game_id, 102)
    # 102's turns are the plain default moves, made at once within each change
    rng = random.Random(1)
    for _ in range(50):
        loaded, user = await to_act(service)
        assert user != 102
        if user is None:
            break
        await press_random(service, loaded, rng)


async def test_a_removed_computer_plays_its_deal_out_then_goes(service: TableService) -> None:
    rng = random.Random(2)
    await service.lobby.new_table(-1, 101, "stukolka")
    await service.lobby.join(-1, 102)
    await service.lobby.add_computer(-1, 101, "easy")
    computer = EASY_IDS[0]
    await service.lobby.begin(-1, 101, lambda user: True)
    with pytest.raises(Refused):
        await service.lobby.remove_player(-1, 102, False, computer)  # not the creator
    await service.lobby.remove_player(-1, 101, False, computer)
    deals = (await active(service)).meta.deals
    for _ in range(500):
        loaded, user = await to_act(service)
        if loaded.meta.deals > deals:
            break
        assert user is not None
        if is_computer(user):
            await service.turns.timeout(loaded.game.game_id, loaded.meta.turn)
        else:
            await press_random(service, loaded, rng)
    assert (await active(service)).seats == [101, 102]


async def test_the_people_present_decide_a_void_for_the_away_and_the_computers(
    service: TableService, db: Database
) -> None:
    """Neither a computer nor a player the autopilot plays for (away) votes on voiding a
    stopped table's deal: they agree with the people present, whose votes alone void it."""
    rng = random.Random(8)
    await service.lobby.new_table(-1, 101, "stukolka")
    await service.lobby.join(-1, 102)
    await service.lobby.join(-1, 103)
    await service.lobby.add_computer(-1, 101, "strong")
    await service.lobby.begin(-1, 101, lambda user: True)
    for _ in range(400):  # 103 lets his turns run out until he is away
        loaded, user = await to_act(service)
        assert user is not None
        if 103 in loaded.meta.away:
            break
        if user == 103 or is_computer(user):
            await service.turns.timeout(loaded.game.game_id, loaded.meta.turn)
        else:
            await press_random(service, loaded, rng)
    loaded = await active(service)
    assert 103 in loaded.meta.away
    game_id, deal = loaded.game.game_id, loaded.meta.deals
    await service.stopping.stop(-1, 101, is_admin=False)
    reply = await service.stopping.vote_void(game_id, 101, deal)
    assert not reply.closed
    reply = await service.stopping.vote_void(game_id, 102, deal)
    assert reply.closed and (await db.games.game(game_id)).status == "stopped"
    assert (await db.ledger.balances(-1)).total == 0
