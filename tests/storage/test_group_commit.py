"""Group commit: writes asked for together commit in one transaction, each in a savepoint of
its own; one that fails is undone alone and raises for its caller alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import storage.database_core as database_module
from storage import POT, Database, StaleVersion, Transfer, UnknownPlayer
from storage.chat_display import ChatDisplay
from tests.storage.storage_support import CHAT, CLOCK, USERS, count

A, B, C = USERS
GAMES = 12


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every batch that reaches the database thread."""
    sizes: list[int] = []
    real = database_module._write_batch

    def counting(conn: Any, jobs: list[Any]) -> Any:
        sizes.append(len(jobs))
        return real(conn, jobs)

    monkeypatch.setattr(database_module, "_write_batch", counting)
    return sizes


async def _games(db: Database, chats: int) -> list[int]:
    ids = []
    for n in range(chats):
        chat = CHAT - n
        await db.chats.upsert_chat(chat, f"chat {n}", now=CLOCK())
        game = await db.games.create_game(chat, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
        ids.append(game.game_id)
    return ids


async def test_concurrent_commits_share_transactions_and_all_land(
    table: Database, db_path: Path, batches: list[int]
) -> None:
    ids = await _games(table, GAMES)
    batches.clear()
    versions = await asyncio.gather(
        *(
            table.games.commit_action(
                game_id,
                0,
                {"n": 1},
                ["move"],
                transfers=[Transfer(A, POT, 1, "ante", 0)],
                now=CLOCK(),
            )
            for game_id in ids
        )
    )
    assert versions == [1] * GAMES
    # the first went alone (the thread was idle); the others waited for it and went together
    assert sum(batches) == GAMES and len(batches) < GAMES and max(batches) > 1
    for game_id in ids:
        game = await table.games.game(game_id)
        assert (game.version, game.state) == (1, {"n": 1})
    assert count(db_path, "ledger") == GAMES


async def test_a_failing_write_is_undone_alone(
    table: Database, db_path: Path, batches: list[int]
) -> None:
    ids = await _games(table, 3)
    ledger_before = count(db_path, "ledger")
    actions_before = count(db_path, "actions")
    batches.clear()
    results = await asyncio.gather(
        table.games.commit_action(
            ids[0], 0, {"n": 1}, ["ok"], transfers=[Transfer(A, POT, 1, "a", 0)], now=CLOCK()
        ),
        # a stale version: compare-and-set refuses it
        table.games.commit_action(
            ids[1], 5, {"n": 9}, ["stale"], transfers=[Transfer(B, POT, 1, "a", 5)], now=CLOCK()
        ),
        # money for somebody unknown: refused after the state was already written in its
        # transaction, so its savepoint must undo that state too
        table.games.commit_action(
            ids[2], 0, {"n": 9}, ["bad"], transfers=[Transfer(999, POT, 1, "a", 0)], now=CLOCK()
        ),
        table.games.commit_action(
            ids[2], 0, {"n": 2}, ["ok"], transfers=[Transfer(C, POT, 2, "a", 0)], now=CLOCK()
        ),
        return_exceptions=True,
    )
    assert max(batches) >= 3  # they really shared a transaction
    assert results[0] == 1 and results[3] == 1
    assert isinstance(results[1], StaleVersion) and isinstance(results[2], UnknownPlayer)
    assert [(await table.games.game(i)).state for i in ids] == [{"n": 1}, {"n": 0}, {"n": 2}]
    assert count(db_path, "ledger") == ledger_before + 2
    assert count(db_path, "actions") == actions_before + 2
    assert await table.check_integrity() == []


async def test_the_repositories_share_one_connection_and_its_batches(
    table: Database, db_path: Path, batches: list[int]
) -> None:
    """Writes asked for at once through different repositories (and the chat's display
    storage) go to the one thread together, in one transaction, and each is read back."""
    (game_id,) = await _games(table, 1)
    display = ChatDisplay(table)
    batches.clear()
    await asyncio.gather(
        table.games.commit_action(game_id, 0, {"n": 1}, ["move"], now=CLOCK()),
        table.chats.upsert_player(A, "renamed", now=CLOCK()),
        table.chats.set_chat_options(CHAT, "stukolka", {"stake": 2}, now=CLOCK()),
        table.evenings.set_evening_gap(CHAT, 7200.0),
        display.set_table_message(game_id, 77, now=CLOCK()),
    )
    assert sum(batches) == 5 and len(batches) < 5
    game = await table.games.game(game_id)
    assert (game.version, game.table_message_id) == (1, 77)
    assert (await table.chats.players([A]))[A].name == "renamed"
    assert await table.chats.chat_options(CHAT, "stukolka") == {"stake": 2}
    assert await table.evenings.evening_gap(CHAT) == 7200.0


async def test_acknowledged_writes_are_in_the_file(db_path: Path) -> None:
    """What a caller was told is committed is there for a connection opened afterwards."""
    db = await Database.open(db_path)
    await db.chats.upsert_chat(CHAT, "friends", now=CLOCK())
    await asyncio.gather(*(db.chats.upsert_player(u, f"player {u}", now=CLOCK()) for u in USERS))
    ids = await _games(db, 4)
    await asyncio.gather(
        *(ChatDisplay(db).set_table_message(game_id, 100 + game_id, now=CLOCK()) for game_id in ids)
    )
    await db.close()
    reopened = await Database.open(db_path)
    try:
        for game_id in ids:
            assert (await reopened.games.game(game_id)).table_message_id == 100 + game_id
        assert set(await reopened.chats.players(USERS)) == set(USERS)
    finally:
        await reopened.close()


async def test_close_waits_for_writes_in_flight(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.chats.upsert_chat(CHAT, "friends", now=CLOCK())
    writes = [
        asyncio.create_task(db.chats.upsert_player(u, f"p{u}", now=CLOCK())) for u in range(1, 40)
    ]
    await asyncio.sleep(0)  # they are queued
    await db.close()
    assert all(task.done() and task.exception() is None for task in writes)
    assert count(db_path, "players") == 39
