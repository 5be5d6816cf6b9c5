"""A group that becomes a supergroup keeps its games, money, history and settings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from storage import (
    GAME_POT,
    POT,
    ChatMigrationConflict,
    Database,
    DealPlayer,
    DealRecord,
    Transfer,
)
from storage.chat_display import ChatDisplay
from tests.storage.storage_support import CHAT, CLOCK, USERS, count, raw

A, B, C = USERS
SUPERGROUP = -1009999


async def _played_chat(db: Database) -> int:
    """A finished game with a deal and money, a game in play, settings: return the open id."""
    await db.chats.set_chat_language(CHAT, "en", now=CLOCK())
    await db.chats.set_chat_options(CHAT, "stukolka", {"stake": 6}, now=CLOCK())
    old = await db.games.create_game(CHAT, "starshina", {}, seats=USERS, now=CLOCK())
    await db.games.commit_action(
        old.game_id,
        0,
        {"over": True},
        ["end"],
        status="finished",
        transfers=[
            Transfer(A, GAME_POT, 1, "game_ante", 1),
            Transfer(GAME_POT, B, 1, "game_win", 1),
        ],
        deal=DealRecord(1, (DealPlayer(A, 0, 3), DealPlayer(B, 1, 13))),
        now=CLOCK(),
    )
    game = await db.games.create_game(
        CHAT, "stukolka", {"n": 0}, seats=USERS, status="active", now=CLOCK()
    )
    await db.games.commit_action(
        game.game_id,
        0,
        {"n": 1},
        ["knock"],
        transfers=[Transfer(C, POT, 3, "ante", 1)],
        now=CLOCK(),
    )
    await ChatDisplay(db).set_table_message(game.game_id, 42, now=CLOCK())
    await ChatDisplay(db).set_hand_message(game.game_id, A, 43)
    return game.game_id


async def test_everything_moves_to_the_new_id(table: Database, db_path: Path) -> None:
    game_id = await _played_chat(table)
    before = await table.ledger.balances(CHAT)
    deals_before = await table.history.last_deals(CHAT, 10)
    totals_before = await table.stats.player_totals(CHAT, B)

    assert await table.chats.migrate_chat(CHAT, SUPERGROUP, now=CLOCK()) is True

    assert await table.chats.chat(CHAT) is None
    chat = await table.chats.chat(SUPERGROUP)
    assert chat is not None and (chat.title, chat.language) == ("friends", "en")
    assert await table.chats.chat_options(SUPERGROUP, "stukolka") == {"stake": 6}
    assert await table.ledger.balances(SUPERGROUP) == before
    assert await table.ledger.balances(CHAT) == (await table.ledger.balances(-5))
    moved_deals = await table.history.last_deals(SUPERGROUP, 10)
    assert [(d.game_id, d.deal, d.players) for d in moved_deals] == [
        (d.game_id, d.deal, d.players) for d in deals_before
    ]
    assert all(t.chat_id == SUPERGROUP for d in moved_deals for t in d.transfers)
    assert await table.stats.player_totals(SUPERGROUP, B) == replace(
        totals_before, chat_id=SUPERGROUP
    )
    game = await table.games.active_game(SUPERGROUP)
    assert game is not None and game.game_id == game_id
    assert (game.table_message_id, dict(game.hand_messages)) == (42, {A: 43})
    assert await table.games.active_game(CHAT) is None
    assert await table.games.commit_action(game_id, 1, {"n": 2}, ["play"], now=CLOCK()) == 2
    conn = raw(db_path)
    for name in ("games", "ledger", "deals", "chat_options"):
        left = conn.execute(f"SELECT COUNT(*) FROM {name} WHERE chat_id = ?", (CHAT,))
        assert left.fetchone()[0] == 0, name
    conn.close()
    assert await table.check_integrity() == []


async def test_the_new_chat_seen_first_keeps_its_own_settings(table: Database) -> None:
    await _played_chat(table)
    await table.chats.upsert_chat(SUPERGROUP, "friends (super)", now=CLOCK())
    await table.chats.set_chat_options(SUPERGROUP, "starshina", {"targets": "9-5-2"}, now=CLOCK())
    await table.chats.set_chat_options(SUPERGROUP, "stukolka", {"stake": 9}, now=CLOCK())
    await table.chats.set_chat_language(SUPERGROUP, "ru", now=CLOCK())

    assert await table.chats.migrate_chat(CHAT, SUPERGROUP, now=CLOCK())

    chat = await table.chats.chat(SUPERGROUP)
    assert chat is not None and (chat.title, chat.language) == ("friends (super)", "ru")
    assert await table.chats.chat_options(SUPERGROUP, "stukolka") == {"stake": 9}
    assert await table.chats.chat_options(SUPERGROUP, "starshina") == {"targets": "9-5-2"}
    assert (await table.ledger.balances(SUPERGROUP)).pot == 3


async def test_the_old_chat_fills_gaps_in_the_new_one(table: Database) -> None:
    await _played_chat(table)
    await table.chats.upsert_chat(SUPERGROUP, None, now=CLOCK())
    assert await table.chats.migrate_chat(CHAT, SUPERGROUP, now=CLOCK())
    chat = await table.chats.chat(SUPERGROUP)
    assert chat is not None and (chat.title, chat.language) == ("friends", "en")
    assert await table.chats.chat_options(SUPERGROUP, "stukolka") == {"stake": 6}


async def test_two_open_games_refuse_to_merge(table: Database, db_path: Path) -> None:
    await _played_chat(table)
    await table.chats.upsert_chat(SUPERGROUP, None, now=CLOCK())
    await table.games.create_game(SUPERGROUP, "stukolka", {}, now=CLOCK())
    ledger_rows = count(db_path, "ledger")
    with pytest.raises(ChatMigrationConflict):
        await table.chats.migrate_chat(CHAT, SUPERGROUP, now=CLOCK())
    assert await table.chats.chat(CHAT) is not None
    assert (await table.ledger.balances(CHAT)).pot == 3
    assert await table.games.active_game(CHAT) is not None
    assert count(db_path, "ledger") == ledger_rows


async def test_unknown_or_same_chat(table: Database) -> None:
    assert await table.chats.migrate_chat(-5, SUPERGROUP, now=CLOCK()) is False
    assert await table.chats.chat(SUPERGROUP) is None
    with pytest.raises(ValueError):
        await table.chats.migrate_chat(CHAT, CHAT, now=CLOCK())
