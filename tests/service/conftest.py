"""The service tests' database: a real SQLite file in the test's folder, with the group (chat
-1) and four players who have started the bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage.database import Database

#: the players every service test's database knows
PLAYERS = (101, 102, 103, 104)
#: when the group and the players were recorded: before any test's clock begins
SEEN = 0.0


async def group_database(path: Path, **options: Any) -> Database:
    """A database at ``path`` (``Database.open``'s ``options``) with the group and players."""
    database = await Database.open(path, **options)
    await database.chats.upsert_chat(-1, "group", now=SEEN)
    for user in PLAYERS:
        await database.chats.upsert_player(user, f"user{user}", started=True, now=SEEN)
    return database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await group_database(tmp_path / "bot.sqlite3")
    yield database
    await database.close()
