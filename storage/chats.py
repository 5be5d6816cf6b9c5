"""Chats and players: upserts on every sighting, settings, and moving a chat to a new id.

A Telegram group that becomes a supergroup gets a new chat id; ``migrate_chat`` carries its
settings, games, ledger, deal history and kept figures over in one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from storage import evenings, stats
from storage.errors import ChatMigrationConflict, UnknownChat
from storage.records import Chat, JSONObject, Player
from storage.sql import OPEN_GAME, dumps, loads, write_transaction


def upsert_chat(conn: sqlite3.Connection, chat_id: int, title: str | None, *, now: float) -> Chat:
    """Create the chat or refresh it, stamped ``now``; a ``title`` of None keeps the stored
    one."""
    with write_transaction(conn):
        conn.execute(
            "INSERT INTO chats (chat_id, title, language, created_at, updated_at)"
            " VALUES (?, ?, NULL, ?, ?)"
            " ON CONFLICT (chat_id) DO UPDATE SET"
            " title = COALESCE(excluded.title, title), updated_at = excluded.updated_at",
            (chat_id, title, now, now),
        )
        chat = get_chat(conn, chat_id)
    assert chat is not None
    return chat


def get_chat(conn: sqlite3.Connection, chat_id: int) -> Chat | None:
    """The chat, or None if the bot never saw it."""
    row = conn.execute(
        "SELECT chat_id, title, language, created_at, updated_at FROM chats WHERE chat_id = ?",
        (chat_id,),
    ).fetchone()
    if row is None:
        return None
    return Chat(
        chat_id=row["chat_id"],
        title=row["title"],
        language=row["language"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def set_chat_language(
    conn: sqlite3.Connection, chat_id: int, language: str | None, *, now: float
) -> None:
    """Set the chat's language (None returns it to the bot's default), stamped ``now``."""
    with write_transaction(conn):
        cursor = conn.execute(
            "UPDATE chats SET language = ?, updated_at = ? WHERE chat_id = ?",
            (language, now, chat_id),
        )
        if cursor.rowcount == 0:
            raise UnknownChat(chat_id)


def get_chat_options(conn: sqlite3.Connection, chat_id: int, kind: str) -> JSONObject | None:
    """The chat's table options for game ``kind``, or None if never set."""
    row = conn.execute(
        "SELECT options FROM chat_options WHERE chat_id = ? AND kind = ?", (chat_id, kind)
    ).fetchone()
    if row is None:
        return None
    options: JSONObject = loads(row["options"])
    return options


def set_chat_options(
    conn: sqlite3.Connection, chat_id: int, kind: str, options: JSONObject, *, now: float
) -> None:
    """Replace the chat's table options for game ``kind``, stamped ``now``."""
    text = dumps(options)
    with write_transaction(conn):
        if get_chat(conn, chat_id) is None:
            raise UnknownChat(chat_id)
        conn.execute(
            "INSERT INTO chat_options (chat_id, kind, options, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat_id, kind) DO UPDATE SET"
            " options = excluded.options, updated_at = excluded.updated_at",
            (chat_id, kind, text, now),
        )


def upsert_player(
    conn: sqlite3.Connection,
    user_id: int,
    name: str,
    language: str | None,
    started: bool | None,
    *,
    now: float,
) -> Player:
    """Create the player or refresh his name, stamped ``now``; ``language``/``started`` None
    keep stored values."""
    with write_transaction(conn):
        conn.execute(
            "INSERT INTO players (user_id, name, language, started, created_at, updated_at)"
            " VALUES (?, ?, ?, COALESCE(?, 0), ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " language = COALESCE(?, language), started = COALESCE(?, started),"
            " updated_at = excluded.updated_at",
            (user_id, name, language, started, now, now, language, started),
        )
        player = get_players(conn, [user_id]).get(user_id)
    assert player is not None
    return player


def get_players(conn: sqlite3.Connection, user_ids: Iterable[int]) -> dict[int, Player]:
    """The known players among ``user_ids``, by id."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    rows = conn.execute(
        "SELECT user_id, name, language, started, created_at, updated_at FROM players"
        " WHERE user_id IN (SELECT value FROM json_each(?))",
        (dumps(ids),),
    )
    return {
        row["user_id"]: Player(
            user_id=row["user_id"],
            name=row["name"],
            language=row["language"],
            started=bool(row["started"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )
        for row in rows
    }


def unknown_players(conn: sqlite3.Connection, user_ids: Iterable[int]) -> list[int]:
    """The ids among ``user_ids`` that have no player row."""
    ids = set(user_ids)
    if not ids:
        return []
    known = {
        row[0]
        for row in conn.execute(
            "SELECT user_id FROM players WHERE user_id IN (SELECT value FROM json_each(?))",
            (dumps(sorted(ids)),),
        )
    }
    return sorted(ids - known)


def migrate_chat(
    conn: sqlite3.Connection, old_chat_id: int, new_chat_id: int, *, now: float
) -> bool:
    """Move everything of ``old_chat_id`` to ``new_chat_id`` in one transaction (the new chat's
    row stamped ``now``).

    Returns False (and changes nothing) when the old chat is unknown. If the new chat already
    has a row (the bot saw a message there first), settings it already has win — they can
    only have been set after the move — and the old chat's fill the gaps. Raises
    ``ChatMigrationConflict`` if both chats have an open game.
    """
    if old_chat_id == new_chat_id:
        raise ValueError("a chat cannot migrate to itself")
    with write_transaction(conn):
        old = get_chat(conn, old_chat_id)
        if old is None:
            return False
        new = get_chat(conn, new_chat_id)
        if new is None:
            conn.execute(
                "INSERT INTO chats (chat_id, title, language, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (new_chat_id, old.title, old.language, old.created_at, now),
            )
        else:
            if _has_open_game(conn, old_chat_id) and _has_open_game(conn, new_chat_id):
                raise ChatMigrationConflict(old_chat_id, new_chat_id)
            conn.execute(
                "UPDATE chats SET title = COALESCE(title, ?), language = COALESCE(language, ?),"
                " created_at = MIN(created_at, ?), updated_at = ? WHERE chat_id = ?",
                (old.title, old.language, old.created_at, now, new_chat_id),
            )
        conn.execute(
            "INSERT INTO chat_options (chat_id, kind, options, updated_at)"
            " SELECT ?, kind, options, updated_at FROM chat_options WHERE chat_id = ?"
            " ON CONFLICT (chat_id, kind) DO NOTHING",
            (new_chat_id, old_chat_id),
        )
        conn.execute("DELETE FROM chat_options WHERE chat_id = ?", (old_chat_id,))
        # Games first: the ledger and deal triggers check each row's chat against its game's.
        for table in ("games", "ledger", "deals"):
            conn.execute(
                f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )
        stats.move_chat(conn, old_chat_id, new_chat_id)
        # the old group's messages cannot be edited in the supergroup
        conn.execute("DELETE FROM history_messages WHERE chat_id = ?", (old_chat_id,))
        evenings.move_chat(conn, old_chat_id, new_chat_id)
        conn.execute("DELETE FROM chats WHERE chat_id = ?", (old_chat_id,))
    return True


def _has_open_game(conn: sqlite3.Connection, chat_id: int) -> bool:
    """Whether the chat has an open game outside any forum topic (a group that moves has no
    topics, so only such a game could clash with its own)."""
    row = conn.execute(
        f"SELECT 1 FROM games WHERE chat_id = ? AND thread_id IS NULL AND {OPEN_GAME}",
        (chat_id,),
    )
    return row.fetchone() is not None
