"""The bot's read cache hands one ``Game`` object to every reader, so a
table decoded from it must own its lists. A change made before a commit that is then refused
must not be seen by anyone who reads the game afterwards."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.database import Database
from storage.errors import StaleVersion
from tables import Refused, TableService
from tests.library import GAMES
from tests.service.conftest import group_database

USERS = [101, 102, 103, 104]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await group_database(tmp_path / "bot.sqlite3", cache_reads=True)
    yield database
    await database.close()


@pytest.fixture
def service(db: Database) -> TableService:
    seeds = iter(range(10**6))
    return TableService(db, games=GAMES, turn_timeout=30, seed=lambda: f"seed-{next(seeds)}")


async def running(service: TableService) -> int:
    await service.lobby.new_table(-1, USERS[0], "stukolka")
    await service.lobby.join(-1, USERS[1])
    await service.lobby.begin(-1, USERS[0], lambda user: True)
    loaded = await service.store.active(-1)
    assert loaded is not None
    return loaded.game.game_id


def refuse_next_commit(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next commit of the game loses a race (another process moved it on)."""
    real = db.games.commit_action

    async def stale(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(db.games, "commit_action", real)
        raise StaleVersion(args[0], args[1], args[1] + 1)

    monkeypatch.setattr(db.games, "commit_action", stale)


async def test_a_refused_leave_is_seen_by_nobody(
    service: TableService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await running(service)
    refuse_next_commit(db, monkeypatch)
    with pytest.raises(Refused):
        await service.lobby.leave(-1, USERS[1])
    after = await service.store.load(await db.games.game(game_id))
    assert after.meta.leaving == [], "an uncommitted leave is visible to readers"
    snapshot = await service.store.snapshot(await db.games.game(game_id))
    assert snapshot.meta.leaving == []


async def test_a_refused_join_between_deals_is_seen_by_nobody(
    service: TableService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await running(service)
    refuse_next_commit(db, monkeypatch)
    with pytest.raises(Refused):
        await service.lobby.join(-1, USERS[2])
    after = await service.store.load(await db.games.game(game_id))
    assert after.meta.joining == [], "an uncommitted join is visible to readers"
    # and the join works once the race is over
    await service.lobby.join(-1, USERS[2])
    again = await service.store.active(-1)
    assert again is not None and again.meta.joining == [USERS[2]]


async def test_a_loaded_table_owns_every_list_of_its_meta(
    service: TableService, db: Database
) -> None:
    game_id = await running(service)
    first = await service.store.load(await db.games.game(game_id))
    first.meta.away.append(USERS[0])
    first.meta.timeouts[str(USERS[0])] = 2
    first.meta.due.append({"deal": 9})
    second = await service.store.load(await db.games.game(game_id))
    assert second.meta.away == [] and second.meta.timeouts == {} and second.meta.due == []
