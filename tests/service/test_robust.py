"""The defects that changed money or froze a table, on a real SQLite file: each test
reproduced its defect before the fix (the deal end and the next deal in two commits, the
deadline recomputed on every commit, the Старшина game pot kept, the running game following
/settings, /stop now voiding a deal)."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.chat_display import ChatDisplay
from storage.database import Database
from tables import Loaded, Refused, TableService
from tables.commands import Look
from tests.clock import ManualClock
from tests.library import GAMES
from tests.service.conftest import group_database
from tests.service.life import freeze

from .test_table_service import USERS, play_random, seated


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await group_database(tmp_path / "bot.sqlite3", busy_timeout=0.2)
    yield database
    await database.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(now=1_000_000.0)


@pytest.fixture
def service(db: Database, clock: ManualClock) -> TableService:
    seeds = iter(range(10**6))
    return TableService(
        db, games=GAMES, turn_timeout=30, seed=lambda: f"seed-{next(seeds)}", clock=clock
    )


async def current(service: TableService) -> Loaded:
    loaded = await service.store.active(-1)
    assert loaded is not None
    return loaded


def to_act(loaded: Loaded) -> int | None:
    assert loaded.table is not None
    return loaded.table.to_act


# ------------------------------------------------ a deal's end and the next deal, one commit


@pytest.mark.parametrize("choice", ["stukolka", "shleif", "starshina"])
async def test_a_write_lock_after_the_deal_end_never_freezes_the_table(
    service: TableService, db: Database, tmp_path: Path, choice: str
) -> None:
    """Another process takes SQLite's write lock right after the commit that ends a deal:
    the table is then either before that move or in the next deal, with a turn and a timer."""
    users = USERS[:3]
    await seated(service, users, choice)
    holder: list[sqlite3.Connection] = []
    commit_action = db.games.commit_action
    commit_actions = getattr(db.games, "commit_actions", None)  # (the code before the fix had none)

    def lock_after_deal(deal: Any) -> None:
        if deal is not None and not holder:
            other = sqlite3.connect(tmp_path / "bot.sqlite3", isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            holder.append(other)

    async def one(*args: Any, **kwargs: Any) -> int:
        version = await commit_action(*args, **kwargs)
        lock_after_deal(kwargs.get("deal"))
        return version

    async def many(game_id: int, version: int, commits: Any) -> int:
        assert commit_actions is not None
        last: int = await commit_actions(game_id, version, commits)
        for commit in commits:
            lock_after_deal(commit.get("deal"))
        return last

    db.games.commit_action = one  # type: ignore[method-assign]
    if commit_actions is not None:
        db.games.commit_actions = many  # type: ignore[method-assign,assignment]
    rng = random.Random(7)
    for _ in range(400):
        # a press fails while the lock is held (the player is told to try again)
        with contextlib.suppress(sqlite3.OperationalError):
            await play_random(service, rng, 1)
        if holder:
            break
    assert holder, "no deal ended"
    holder[0].rollback()
    holder[0].close()
    loaded = await current(service)
    assert loaded.game.status == "active"
    assert to_act(loaded) is not None, "nobody to act: the table is frozen"
    assert loaded.game.turn_deadline is not None, "no timer: the table is frozen"
    assert (await db.ledger.balances(-1)).total == 0


async def test_the_result_to_post_is_stored_with_the_move_that_ends_the_deal(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, USERS[:3])
    game_id = loaded.game.game_id
    rng = random.Random(2)
    while (await current(service)).meta.deals == 0:
        await play_random(service, rng, 1)
    game = await db.games.game(game_id)
    due = game.state["table"]["due"]
    assert [d["deal"] for d in due] == [0]
    assert [g.game_id for g in await db.games.games_with_results_due()] == [game_id]
    await ChatDisplay(db).set_table_message(game_id, 77, now=service.clock())
    await service.steps.results_posted(game_id, [0], table_message_used=True)
    game = await db.games.game(game_id)
    assert game.state["table"]["due"] == []
    assert game.table_message_id is None, "the result's message is no longer the table's"
    assert await db.games.games_with_results_due() == []


# ------------------------------------------------------------ the deadline belongs to the turn


async def test_the_deadline_belongs_to_the_turn(
    service: TableService, db: Database, clock: ManualClock
) -> None:
    loaded = await seated(service, USERS[:3])
    game_id = loaded.game.game_id
    deadline = loaded.game.turn_deadline
    assert deadline == clock.now + 30
    seat = to_act(loaded)
    assert seat is not None
    others = [u for u in loaded.seats if u != loaded.seats[seat]]
    clock.now += 10
    await service.turns.act(game_id, others[0], loaded.meta.turn, Look())
    assert (await db.games.game(game_id)).turn_deadline == deadline
    version = (await db.games.game(game_id)).version
    # a repeated look, and one from an old message, change nothing and write nothing
    await service.turns.act(game_id, others[0], loaded.meta.turn, Look())
    await service.turns.act(game_id, others[0], loaded.meta.turn - 1, Look())
    assert (await db.games.game(game_id)).version == version
    # a bystander joining for the next deal and leaving again
    clock.now += 10
    await service.lobby.join(-1, 104)
    await service.lobby.leave(-1, 104)
    assert (await db.games.game(game_id)).turn_deadline == deadline
    # the move itself starts the next player's clock
    await play_random(service, random.Random(1), 1)
    assert (await db.games.game(game_id)).turn_deadline == clock.now + 30


# -------------------------------------------------------- a Старшина game's own pot goes back


async def finish(service: TableService, seed: int, presses: int = 3000) -> None:
    rng = random.Random(seed)
    for _ in range(presses):
        if await service.store.active(-1) is None:
            return
        await play_random(service, rng, 1)
    raise AssertionError("the table did not end")


async def test_a_starshina_game_stopped_without_a_winner_returns_its_pot(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, USERS[:3], "starshina")
    game_id = loaded.game.game_id
    assert (await db.ledger.balances(-1)).game_pots.get(game_id, 0) > 0
    await service.stopping.stop(-1, USERS[0], is_admin=False)
    await finish(service, 4)
    game = await db.games.game(game_id)
    assert game.status == "finished"
    balances = await db.ledger.balances(-1)
    assert game_id not in balances.game_pots
    assert balances.total == 0
    returned = [e for e in await db.ledger.transfers(-1, game_id=game_id) if e.src == "game_pot"]
    assert sorted(e.dst for e in returned) == sorted(USERS[:3])


async def test_a_frozen_starshina_table_stopped_books_its_returned_pot_with_the_deal_that_ended(
    service: TableService, db: Database
) -> None:
    """A table an older version left frozen after a deal, with a stop asked for, ends when
    the bot starts again: its own pot goes back with the deal that ended, which the deal's
    record and the evening read, not with a next deal that never comes."""
    loaded = await seated(service, USERS[:3], "starshina")
    game_id = loaded.game.game_id
    await service.stopping.stop(-1, USERS[0], is_admin=False)
    await freeze(service, -1, random.Random(9))
    frozen = await current(service)
    assert frozen.table is not None and not frozen.table.game_over, "a seed whose deal ends no game"
    reply = await service.stopping.unfreeze(game_id)
    assert reply is not None and reply.closed and [r.deal for r in reply.results] == [0]
    returned = [e for e in await db.ledger.transfers(-1, game_id=game_id) if e.src == "game_pot"]
    assert sorted(e.dst for e in returned) == sorted(USERS[:3])
    assert {e.deal for e in returned} == {0}
    assert (await db.ledger.balances(-1)).total == 0


async def test_a_starshina_game_everyone_leaves_returns_its_pot(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, USERS[:3], "starshina")
    game_id = loaded.game.game_id
    for user in USERS[:3]:
        await service.lobby.leave(-1, user)
    await finish(service, 5)
    assert game_id not in (await db.ledger.balances(-1)).game_pots


# ------------------------------------------------- /settings during a game wait for the next


async def test_settings_during_a_game_wait_for_the_next_game(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, USERS[:3], "stukolka")
    options = dict(loaded.game.options)
    changed = dict(options, variant="shleif", stake=150)
    await db.chats.set_chat_options(-1, "stukolka", changed, now=service.clock())
    rng = random.Random(6)
    while (await current(service)).meta.deals == 0:
        await play_random(service, rng, 1)
    loaded = await current(service)
    assert loaded.table.options.to_json() == loaded.plugin.rules.check_options(options)  # type: ignore[union-attr]


# ------------------------------------------------------ /stop now plays the deal out, settled


async def test_stop_now_plays_the_deal_out_and_settles_it(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, USERS[:3])
    game_id = loaded.game.game_id
    reply = await service.stopping.stop(-1, USERS[0], is_admin=False, now=True)
    assert reply.closed and reply.results and reply.results[0].deal == 0
    game = await db.games.game(game_id)
    assert game.status == "finished"
    deals = await db.history.last_deals(-1)
    assert [d.deal for d in deals] == [0]
    assert not [e for e in await db.ledger.transfers(-1, game_id=game_id) if e.reason == "void"]
    assert (await db.ledger.balances(-1)).total == 0


async def test_a_deal_is_voided_only_when_every_player_agrees(
    service: TableService, db: Database
) -> None:
    loaded = await seated(service, USERS[:3])
    game_id = loaded.game.game_id
    with pytest.raises(Refused) as refused:
        await service.stopping.vote_void(game_id, USERS[1], 0)
    assert refused.value.reason == "outdated"  # no stop asked for: nothing to vote on
    await service.stopping.stop(-1, USERS[0], is_admin=False)
    await service.stopping.vote_void(game_id, USERS[0], 0)
    with pytest.raises(Refused):
        await service.stopping.vote_void(game_id, USERS[0], 0)
    with pytest.raises(Refused):
        await service.stopping.vote_void(game_id, 104, 0)
    reply = await service.stopping.vote_void(game_id, USERS[1], 0)
    assert not reply.closed and (await db.games.game(game_id)).status == "active"
    reply = await service.stopping.vote_void(game_id, USERS[2], 0)
    assert reply.closed
    balances = await db.ledger.balances(-1)
    assert {u: balances.players.get(u, 0) for u in USERS} == {u: 0 for u in USERS}
    assert balances.pot == 0 and balances.total == 0
    assert (await db.games.game(game_id)).status == "stopped"


async def test_a_table_frozen_by_an_older_version_is_dealt_on_at_restart(
    service: TableService, db: Database
) -> None:
    """What the code before the fix left behind (a deal's end committed, the next deal not)
    is completed when the bot starts again."""
    await seated(service, USERS[:3])
    game_id = await freeze(service, -1, random.Random(9))
    reply = await service.stopping.unfreeze(game_id)
    assert reply is not None and reply.new_deal and [r.deal for r in reply.results] == [0]
    after = await current(service)
    assert to_act(after) is not None and after.game.turn_deadline is not None
    assert [d["deal"] for d in after.meta.due] == [0]
    assert (await db.ledger.balances(-1)).total == 0
    assert await service.stopping.unfreeze(game_id) is None, "not frozen: nothing to do"
