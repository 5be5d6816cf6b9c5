"""Fixtures for the storage tests: real SQLite files in a temporary folder, never mocks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from tests.storage.storage_support import CHAT, CLOCK, USERS


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    yield database
    await database.close()


@pytest.fixture
async def table(db: Database) -> Database:
    """The database with chat ``CHAT`` and players ``USERS`` recorded."""
    await db.chats.upsert_chat(CHAT, "friends", now=CLOCK())
    for user in USERS:
        await db.chats.upsert_player(user, f"player {user}", now=CLOCK())
    return db
