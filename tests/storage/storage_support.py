"""Constants and helpers shared by the storage tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.clock import ManualClock

CHAT = -1001
USERS = (11, 12, 13)
#: the clock the storage tests' commits are stamped with (``commit_action``'s ``now``); no
#: test moves it: one that needs time to pass between commits has a clock of its own
CLOCK = ManualClock()


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection to look at the file behind the API's back."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def count(path: Path, table_name: str) -> int:
    """Rows in ``table_name``."""
    conn = raw(path)
    try:
        rows: int = conn.execute(f"SELECT COUNT(*) FROM {table_name}").fetchone()[0]
        return rows
    finally:
        conn.close()


def user_version(path: Path) -> int:
    """The schema version recorded in the file."""
    conn = raw(path)
    try:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
        return version
    finally:
        conn.close()
