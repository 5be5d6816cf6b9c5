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


def stamps(path: Path) -> dict[str, set[float]]:
    """Every moment stamped in the file: the values of each ``…_at`` column of every table
    (NULLs left out), by ``table.column``."""
    conn = raw(path)
    try:
        found: dict[str, set[float]] = {}
        tables = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        for table_name in tables:
            for column in conn.execute(f"PRAGMA table_info({table_name})"):
                name = column[1]
                if name.endswith("_at"):
                    values = conn.execute(
                        f"SELECT DISTINCT {name} FROM {table_name} WHERE {name} IS NOT NULL"
                    )
                    found[f"{table_name}.{name}"] = {value for (value,) in values}
        return found
    finally:
        conn.close()
