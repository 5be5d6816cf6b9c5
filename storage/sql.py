"""Low-level helpers shared by the storage modules: transactions and JSON columns.

Connections run in autocommit mode (``isolation_level=None``), so every transaction here is
explicit. Writes take the write lock up front (``BEGIN IMMEDIATE``): a read-check-write
sequence inside one cannot be overtaken by another connection, and a busy database is
waited for at ``BEGIN`` (busy timeout), never failed half-way.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

OPEN_GAME = "status IN ('lobby', 'active')"
"""SQL condition for an open game, spelt as in the partial index so the planner can use it."""


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls everything back and propagates.

    Inside a transaction already (a batch of writes, see ``storage.database``) it is a
    savepoint instead: an exception undoes this write alone, and the batch commits it."""
    if conn.in_transaction:
        conn.execute("SAVEPOINT write_transaction")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK TO write_transaction")
            conn.execute("RELEASE write_transaction")
            raise
        conn.execute("RELEASE write_transaction")
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def read_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """A read snapshot: several SELECTs that see the same committed state."""
    conn.execute("BEGIN")
    try:
        yield
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def dumps(value: Any) -> str:
    """Compact JSON text for a column; NaN and infinities are refused (not JSON)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str) -> Any:
    """Parse a JSON column."""
    return json.loads(text)
