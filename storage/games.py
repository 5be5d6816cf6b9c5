"""Games and their action log: creating a game, committing to it, loading it back.

A game's ``version`` counts its commits. Creating a game writes version 0 and logs the
initial state; each commit checks the caller's expected version under the write lock
(compare-and-set), writes the new state as ``version + 1`` and logs what produced it, and
appends its transfers and deal record, all in one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import astuple
from types import MappingProxyType
from typing import Any, NoReturn

from storage.chats import get_chat, unknown_players
from storage.errors import (
    ActiveGameExists,
    GameClosed,
    GameNotFound,
    StaleVersion,
    UnknownChat,
    UnknownPlayer,
)
from storage.history import insert_deal
from storage.ledger import insert_transfers, users_in
from storage.records import (
    GAME_STATUSES,
    OPEN_STATUSES,
    ActionJSON,
    DealRecord,
    Game,
    GameStatus,
    HandMessage,
    JSONObject,
    LogEntry,
    Transfer,
)
from storage.sql import OPEN_GAME, dumps, loads, write_transaction
from storage.stats import apply_fields

DEAL = "ifnull(json_extract(games.state, '$.table.deals'), 0)"
"""The deal in play, from 0: the deals its table has finished, counted in the state's table
part (the bot's ``TableMeta``). A hand message of an earlier deal is old (``Display``)."""

_GAME_COLUMNS = (
    "game_id, chat_id, thread_id, kind, status, version, state, options, seats, created_by,"
    " table_message_id, table_deal, table_unknown, lobby_message_id,"
    f" turn_deadline, created_at, updated_at, {DEAL} AS deal,"
    " (SELECT json_group_array(json_array(user_id, deal, message_id)) FROM game_messages AS m"
    " WHERE m.game_id = games.game_id) AS hand_messages"
)
"""A game's columns, the deal in play and its hand messages of every deal (a JSON array of
[user, deal, message]), read by one statement: a single SELECT sees one snapshot, so it needs
no read transaction around it."""

_IN_TABLE = "chat_id = ? AND thread_id IS ?"
"""The games of one table: a chat and its topic (None: no topic)."""


def create_game(
    conn: sqlite3.Connection,
    chat_id: int,
    kind: str,
    state: JSONObject,
    *,
    created_by: int | None,
    seats: Sequence[int],
    options: JSONObject,
    status: GameStatus,
    turn_deadline: float | None,
    thread_id: int | None = None,
    now: float,
) -> Game:
    """Insert a game at version 0 in the chat's topic ``thread_id`` (None: no topic) and log
    its initial state, both stamped ``now``.

    Raises ``ActiveGameExists`` if that topic already has an open game, ``UnknownChat`` and
    ``UnknownPlayer`` for ids the bot has not recorded yet.
    """
    if status not in OPEN_STATUSES:
        raise ValueError(f"a new game must be open, not {status!r}")
    state_text, options_text, seats_text = dumps(state), dumps(options), dumps(list(seats))
    users = set(seats) | ({created_by} if created_by is not None else set())
    with write_transaction(conn):
        if get_chat(conn, chat_id) is None:
            raise UnknownChat(chat_id)
        missing = unknown_players(conn, users)
        if missing:
            raise UnknownPlayer(missing)
        row = conn.execute(
            f"SELECT game_id FROM games WHERE {_IN_TABLE} AND {OPEN_GAME}", (chat_id, thread_id)
        ).fetchone()
        if row is not None:
            raise ActiveGameExists(chat_id, row["game_id"])
        cursor = conn.execute(
            "INSERT INTO games (chat_id, thread_id, kind, status, version, state, options, seats,"
            " created_by, turn_deadline, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)",
            (
                chat_id,
                thread_id,
                kind,
                status,
                state_text,
                options_text,
                seats_text,
                created_by,
                turn_deadline,
                now,
                now,
            ),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        conn.execute(
            "INSERT INTO actions (game_id, version, kind, user_id, state, created_at)"
            " VALUES (?, 0, 'init', ?, ?, ?)",
            (game_id, created_by, state_text, now),
        )
        return load_game(conn, game_id)


_BEGINS = "status = 'lobby' AND :status = 'active'"
_BEGIN_DISPLAY = (
    f"lobby_message_id = IIF({_BEGINS}, table_message_id, lobby_message_id),"
    f" table_message_id = IIF({_BEGINS}, NULL, table_message_id),"
    f" table_deal = IIF({_BEGINS}, NULL, table_deal),"
    f" table_unknown = IIF({_BEGINS}, 0, table_unknown)"
)
"""The display part of the commit that begins a game (from the lobby to play): the lobby's
message, which showed the table so far, becomes the lobby message whose buttons are still to be
taken off, and the first deal's table will be a message of its own. (An UPDATE reads the row as
it was: ``status`` here is the status before the commit.)"""


def commit_action(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    new_state: JSONObject,
    action: ActionJSON | None,
    *,
    seat: int | None,
    user_id: int | None,
    transfers: Sequence[Transfer],
    deal: DealRecord | None,
    status: GameStatus | None,
    seats: Sequence[int] | None,
    turn_deadline: float | None,
    figures: Mapping[int, Mapping[str, int]] | None = None,
    now: float,
) -> int:
    """Commit one state change; return the new version. See ``Database.games.commit_action``."""
    if status is not None and status not in GAME_STATUSES:
        raise ValueError(f"unknown game status {status!r}")
    if seat is not None and (isinstance(seat, bool) or seat < 0):
        raise ValueError(f"seat must be a non-negative int, not {seat!r}")
    for transfer in transfers:
        if not isinstance(transfer, Transfer):
            raise TypeError(f"not a storage Transfer: {transfer!r}")
    state_text = dumps(new_state)
    action_text = None if action is None else dumps(action)
    seats_text = None if seats is None else dumps(list(seats))
    version = expected_version + 1
    with write_transaction(conn):
        # The compare-and-set itself; the write lock is held, so nothing can slip in between.
        # A commit that takes the game out of the lobby also retires the lobby message, in
        # the same statement (``_BEGIN_DISPLAY``).
        updated = conn.execute(
            "UPDATE games SET state = :state, version = :version,"
            " status = COALESCE(:status, status), seats = COALESCE(:seats, seats),"
            f" turn_deadline = :deadline, updated_at = :now, {_BEGIN_DISPLAY}"
            f" WHERE game_id = :game AND version = :expected AND {OPEN_GAME} RETURNING chat_id",
            {
                "state": state_text,
                "version": version,
                "status": status,
                "seats": seats_text,
                "deadline": turn_deadline,
                "now": now,
                "game": game_id,
                "expected": expected_version,
            },
        ).fetchall()
        if not updated:
            _explain_refused_commit(conn, game_id, expected_version)
        chat_id: int = updated[0]["chat_id"]
        if seats is not None:
            missing = unknown_players(conn, seats)
            if missing:
                raise UnknownPlayer(missing)
        try:
            conn.execute(
                "INSERT INTO actions (game_id, version, kind, seat, user_id, action, state,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    version,
                    "system" if action is None else "action",
                    seat,
                    user_id,
                    action_text,
                    state_text if action is None else None,
                    now,
                ),
            )
            insert_transfers(
                conn,
                chat_id=chat_id,
                game_id=game_id,
                version=version,
                transfers=transfers,
                now=now,
            )
            if deal is not None:
                insert_deal(
                    conn, chat_id=chat_id, game_id=game_id, version=version, record=deal, now=now
                )
            if figures:
                apply_fields(conn, chat_id=chat_id, game_id=game_id, figures=figures, now=now)
        except sqlite3.IntegrityError as error:
            # Foreign keys on players catch unknown user ids; name them (off the fast path).
            users = users_in(transfers)
            if user_id is not None:
                users.add(user_id)
            if deal is not None:
                users.update(player.user_id for player in deal.players)
            users.update(figures or {})
            missing = unknown_players(conn, users)
            if missing:
                raise UnknownPlayer(missing) from error
            raise
    return version


def _explain_refused_commit(conn: sqlite3.Connection, game_id: int, expected: int) -> NoReturn:
    row = conn.execute("SELECT version, status FROM games WHERE game_id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    if row["status"] not in OPEN_STATUSES:
        raise GameClosed(game_id, row["status"])
    raise StaleVersion(game_id, expected, row["version"])


def load_game(conn: sqlite3.Connection, game_id: int) -> Game:
    """The game with ``game_id``; raises ``GameNotFound``."""
    return game_from_row(load_game_row(conn, game_id))


def load_game_row(conn: sqlite3.Connection, game_id: int) -> sqlite3.Row:
    """The stored row of ``game_id`` (``game_from_row`` makes it a ``Game``); raises
    ``GameNotFound``."""
    rows = game_rows(conn, "game_id = ?", (game_id,))
    if not rows:
        raise GameNotFound(game_id)
    return rows[0]


def active_game_rows(
    conn: sqlite3.Connection, chat_id: int, thread_id: int | None = None
) -> list[sqlite3.Row]:
    """The row of the open (lobby or active) game in the chat's topic ``thread_id`` (None: the
    chat without topics, or its General topic), if any."""
    return game_rows(conn, f"{_IN_TABLE} AND {OPEN_GAME}", (chat_id, thread_id))


def chat_open_game_rows(conn: sqlite3.Connection, chat_id: int) -> list[sqlite3.Row]:
    """The rows of the chat's open games, one per topic, oldest first."""
    return game_rows(conn, f"chat_id = ? AND {OPEN_GAME}", (chat_id,))


def open_game_rows(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """The rows of every open game, oldest first."""
    return game_rows(conn, OPEN_GAME, ())


def user_open_game_rows(conn: sqlite3.Connection, user_id: int) -> list[sqlite3.Row]:
    """The rows of the open games ``user_id`` sits at, oldest first (by the open_seats index,
    not a read of every open game)."""
    return game_rows(
        conn,
        f"game_id IN (SELECT game_id FROM open_seats WHERE user_id = ?) AND {OPEN_GAME}",
        (user_id,),
    )


def deadline_rows_before(conn: sqlite3.Connection, moment: float) -> list[sqlite3.Row]:
    """The rows of open games whose turn deadline is earlier than ``moment``, soonest first."""
    return game_rows(
        conn,
        f"turn_deadline IS NOT NULL AND turn_deadline < ? AND {OPEN_GAME}",
        (moment,),
        order="turn_deadline, game_id",
    )


def set_turn_deadline(
    conn: sqlite3.Connection, game_id: int, deadline: float | None, *, now: float
) -> None:
    """Record (or clear, with None) when the current turn times out, in unix seconds."""
    update_game(conn, game_id, "turn_deadline = ?", (deadline,), now=now)


def action_log(conn: sqlite3.Connection, game_id: int) -> list[LogEntry]:
    """The game's whole log, version 0 first; raises ``GameNotFound``."""
    rows = conn.execute(
        "SELECT game_id, version, kind, seat, user_id, action, state, created_at FROM actions"
        " WHERE game_id = ? ORDER BY version",
        (game_id,),
    ).fetchall()
    if not rows:
        load_game(conn, game_id)
    return [
        LogEntry(
            game_id=row["game_id"],
            version=row["version"],
            kind=row["kind"],
            seat=row["seat"],
            user_id=row["user_id"],
            action=None if row["action"] is None else loads(row["action"]),
            state=None if row["state"] is None else loads(row["state"]),
            created_at=row["created_at"],
        )
        for row in rows
    ]


def update_game(
    conn: sqlite3.Connection,
    game_id: int,
    assignment: str,
    params: tuple[Any, ...],
    *,
    now: float,
) -> None:
    """Set ``assignment`` (with ``params``) on the game's row, stamped ``now``; raises
    ``GameNotFound``."""
    with write_transaction(conn):
        cursor = conn.execute(
            f"UPDATE games SET {assignment}, updated_at = ? WHERE game_id = ?",
            (*params, now, game_id),
        )
        if cursor.rowcount == 0:
            raise GameNotFound(game_id)


def game_rows(
    conn: sqlite3.Connection,
    where: str,
    params: tuple[Any, ...],
    order: str = "game_id",
) -> list[sqlite3.Row]:
    """Stored game rows matching ``where``, in ``order``."""
    return conn.execute(
        f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY {order}", params
    ).fetchall()


def game_from_row(row: sqlite3.Row) -> Game:
    """A ``Game`` from a stored row, with read-only mappings (see ``Game``)."""
    deal: int = row["deal"]
    messages = [HandMessage(*entry) for entry in loads(row["hand_messages"] or "[]")]
    hand_messages = {m.user_id: m.message_id for m in messages if m.deal == deal}
    old_hands = tuple(sorted((m for m in messages if m.deal < deal), key=astuple))
    return Game(
        game_id=row["game_id"],
        chat_id=row["chat_id"],
        kind=row["kind"],
        status=row["status"],
        version=row["version"],
        state_text=row["state"],
        options=MappingProxyType(loads(row["options"])),
        seats=tuple(loads(row["seats"])),
        created_by=row["created_by"],
        table_message_id=row["table_message_id"],
        hand_messages=MappingProxyType(hand_messages),
        table_deal=row["table_deal"],
        table_unknown=bool(row["table_unknown"]),
        lobby_message_id=row["lobby_message_id"],
        deal=deal,
        old_hands=old_hands,
        turn_deadline=row["turn_deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        thread_id=row["thread_id"],
    )


def commit_actions(
    conn: sqlite3.Connection,
    game_id: int,
    expected_version: int,
    commits: Sequence[dict[str, Any]],
) -> int:
    """Several commits in one transaction, each a version of its own (so the log replays
    commit by commit), all or none; ``commits`` hold ``commit_action``'s keyword arguments
    (``new_state`` and ``action`` included). Returns the last version."""
    version = expected_version
    with write_transaction(conn):
        for commit in commits:
            version = commit_action(conn, game_id, version, **commit)
    return version


def set_results_due(
    conn: sqlite3.Connection,
    game_id: int,
    due: Sequence[Any],
    forget_table_message: bool = False,
    *,
    now: float,
) -> None:
    """Replace the deal results a game still has to post (kept in its state's table part,
    written without a new version: posting a result changes nothing of the game). The table
    message no longer shows a known deal, nor is one unknown, and with
    ``forget_table_message`` it is forgotten (it shows a result now), in the same statement."""
    assignment = "state = json_set(state, '$.table.due', json(?)), table_deal = NULL"
    assignment += ", table_unknown = 0"
    if forget_table_message:
        assignment += ", table_message_id = NULL"
    update_game(conn, game_id, assignment, (dumps(list(due)),), now=now)


def mark_results_sending(
    conn: sqlite3.Connection, game_id: int, due: Sequence[Any], *, now: float
) -> None:
    """Replace the deal results a game still has to post, and nothing else (no new version):
    to mark those about to go out as a new message (see ``DealSteps.results_sending``)."""
    assignment = "state = json_set(state, '$.table.due', json(?))"
    update_game(conn, game_id, assignment, (dumps(list(due)),), now=now)


def results_due_rows(conn: sqlite3.Connection, since: float) -> list[sqlite3.Row]:
    """The rows of games changed since ``since`` that still have deal results to post."""
    return game_rows(
        conn, "updated_at >= ? AND json_array_length(state, '$.table.due') > 0", (since,)
    )
