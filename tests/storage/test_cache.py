"""``Database.open(cache_reads=True)``: games and players read from memory stay exactly what the
file holds for the one writer, readers share one read-only game per version, and a read that
was under way when a write began never puts the older row back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database, GameStatus, StaleVersion
from storage.cache import ReadCache
from storage.chat_display import ChatDisplay
from storage.records import Game, Player
from tests.storage.storage_support import CHAT, CLOCK, USERS

A, B, C = USERS
SUPERGROUP = -1009999


@pytest.fixture
async def cached(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path, cache_reads=True)
    await database.chats.upsert_chat(CHAT, "friends", now=CLOCK())
    for user in USERS:
        await database.chats.upsert_player(user, f"player {user}", now=CLOCK())
    yield database
    await database.close()


async def fresh_look(path: Path) -> Database:
    return await Database.open(path)


async def test_reads_follow_every_write_of_the_game(cached: Database, db_path: Path) -> None:
    game = await cached.games.create_game(
        CHAT, "stukolka", {"n": 0}, seats=USERS, status="active", now=CLOCK()
    )
    assert (await cached.games.game(game.game_id)).state == {"n": 0}
    await cached.games.commit_action(
        game.game_id, 0, {"n": 1}, ["knock"], turn_deadline=50.0, now=CLOCK()
    )
    await ChatDisplay(cached).set_table_message(game.game_id, 42, now=CLOCK())
    await ChatDisplay(cached).set_hand_message(game.game_id, A, 43)
    await ChatDisplay(cached).set_hand_message(game.game_id, B, 44)
    await ChatDisplay(cached).forget_hand_message(game.game_id, B, 44)
    await cached.games.set_turn_deadline(game.game_id, 60.0, now=CLOCK())
    seen = await cached.games.game(game.game_id)
    assert (seen.version, seen.state, seen.table_message_id) == (1, {"n": 1}, 42)
    assert (seen.hand_messages, seen.turn_deadline) == ({A: 43}, 60.0)
    async with await fresh_look(db_path) as other:
        assert await other.games.game(game.game_id) == seen
    assert await cached.games.active_game(CHAT) == seen
    assert await cached.games.open_games() == [seen]
    assert await cached.games.games_with_deadline_before(61.0) == [seen]


async def test_readers_share_one_read_only_game_until_it_changes(cached: Database) -> None:
    game = await cached.games.create_game(
        CHAT, "stukolka", {"hands": [["AS"]]}, seats=USERS, options={"stake": 1}, now=CLOCK()
    )
    first = await cached.games.game(game.game_id)
    assert await cached.games.game(game.game_id) is first
    assert first.state is first.state  # decoded once
    with pytest.raises(TypeError):
        first.hand_messages[A] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        first.options["stake"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        first.state["hands"] = []  # type: ignore[index]
    await ChatDisplay(cached).set_hand_message(game.game_id, A, 5)
    second = await cached.games.game(game.game_id)
    assert second is not first and second.hand_messages == {A: 5}
    assert first.hand_messages == {}  # what was read stays what it was


async def test_a_refused_commit_leaves_the_stored_game(cached: Database) -> None:
    game = await cached.games.create_game(CHAT, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
    await cached.games.commit_action(game.game_id, 0, {"n": 1}, ["a"], now=CLOCK())
    with pytest.raises(StaleVersion):
        await cached.games.commit_action(game.game_id, 0, {"n": 99}, ["b"], now=CLOCK())
    assert (await cached.games.game(game.game_id)).state == {"n": 1}


async def test_a_read_under_way_does_not_put_back_the_older_row(cached: Database) -> None:
    game = await cached.games.create_game(CHAT, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
    for version in range(20):
        cached._cache.clear()  # white box: make the read go to the file
        # the read is queued before the write, so it returns the older row after the write began
        read, _ = await asyncio.gather(
            cached.games.game(game.game_id),
            cached.games.commit_action(
                game.game_id, version, {"n": version + 1}, ["a"], now=CLOCK()
            ),
        )
        assert read.version == version
        assert (await cached.games.game(game.game_id)).version == version + 1


async def test_players_follow_upserts(cached: Database) -> None:
    assert (await cached.chats.players([A, B]))[A].name == f"player {A}"
    await cached.chats.upsert_player(A, "Alice", language="en", started=True, now=CLOCK())
    players = await cached.chats.players([A, B, 999])
    assert set(players) == {A, B}
    assert (players[A].name, players[A].language, players[A].started) == ("Alice", "en", True)
    await cached.chats.upsert_player(A, "Alice B.", now=CLOCK())
    assert (await cached.chats.players([A]))[A].language == "en"
    assert (await cached.chats.players([A]))[A].name == "Alice B."


async def test_a_chat_migration_moves_the_remembered_games(cached: Database) -> None:
    game = await cached.games.create_game(
        CHAT, "stukolka", {"n": 0}, seats=USERS, status="active", now=CLOCK()
    )
    assert (await cached.games.game(game.game_id)).chat_id == CHAT
    assert await cached.chats.migrate_chat(CHAT, SUPERGROUP, now=CLOCK()) is True
    assert (await cached.games.game(game.game_id)).chat_id == SUPERGROUP
    assert await cached.games.active_game(CHAT) is None


async def test_another_connection_is_seen_from_the_next_trip_on(
    cached: Database, db_path: Path
) -> None:
    game = await cached.games.create_game(CHAT, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
    assert (await cached.games.game(game.game_id)).version == 0
    async with await fresh_look(db_path) as other:
        await other.games.commit_action(game.game_id, 0, {"n": 1}, ["other"], now=CLOCK())
        await other.chats.upsert_player(B, "renamed elsewhere", now=CLOCK())
    await cached.chats.chat(CHAT)  # any trip to the file notices the other connection's commits
    assert (await cached.games.game(game.game_id)).state == {"n": 1}
    assert (await cached.chats.players([B]))[B].name == "renamed elsewhere"


async def test_without_cache_reads_every_read_sees_other_connections(db_path: Path) -> None:
    async with await Database.open(db_path) as first, await Database.open(db_path) as second:
        await first.chats.upsert_chat(CHAT, "race", now=CLOCK())
        game = await first.games.create_game(CHAT, "stukolka", {"n": 0}, now=CLOCK())
        assert (await first.games.game(game.game_id)).version == 0
        await second.games.commit_action(game.game_id, 0, {"n": 1}, ["second"], now=CLOCK())
        assert (await first.games.game(game.game_id)).state == {"n": 1}


def _game(game_id: int, status: GameStatus = "lobby") -> Game:
    return Game(game_id, CHAT, "stukolka", status, 0, "{}", {}, (), None, None, {}, None, 0, 0)


async def test_a_closed_game_is_read_from_the_file_not_kept(cached: Database) -> None:
    """The cache holds open games only: one closed by a write goes, and reading it again
    does not bring it back (a bot that has played many games keeps none of the old ones)."""
    game = await cached.games.create_game(
        CHAT, "stukolka", {"n": 0}, seats=USERS, status="active", now=CLOCK()
    )
    first = await cached.games.game(game.game_id)
    assert await cached.games.game(game.game_id) is first
    await cached.games.commit_action(
        game.game_id, 0, {"n": 1}, ["last"], status="finished", now=CLOCK()
    )
    closed = await cached.games.game(game.game_id)
    again = await cached.games.game(game.game_id)
    assert (closed.status, closed.state) == ("finished", {"n": 1})
    assert again == closed and again is not closed
    cache = ReadCache()
    cache.keep_game(_game(7))
    cache.keep_game(_game(7, "stopped"))  # read again after another connection closed it
    assert cache.game(7) is None


def test_the_cache_refuses_games_read_while_a_write_is_in_flight() -> None:
    cache = ReadCache(max_games=2, max_players=2)
    game = _game(1)
    with cache.writing_game(1):
        cache.keep_game(game)
        assert cache.game(1) is None
    cache.keep_game(game)
    assert cache.game(1) is game
    for game_id in (2, 3):
        cache.keep_game(_game(game_id))
    assert cache.game(1) is None  # the least recently used went first
    player = Player(A, "a", None, True, 0.0, 0.0)
    with cache.writing_everything():
        cache.keep_player(player)
    assert cache.players([A]) == ({}, [A])
    cache.keep_player(player)
    cache.saw_data_version(1)
    assert cache.players([A]) == ({A: player}, [])
    cache.saw_data_version(2)  # another connection committed
    assert cache.players([A]) == ({}, [A]) and cache.game(2) is None
