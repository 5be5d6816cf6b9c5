"""Deal history: the record written when a deal ends, and the queries the bot shows.

Play facts (who sat, who played, tricks) come from the ``deals`` and ``deal_players`` rows;
money facts (the net, what was paid and why) always come from the ledger, so the two cannot
disagree.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace

from storage.evenings import note_deal
from storage.ledger import entries, user_net
from storage.records import DealHistory, DealPlayer, DealRecord, PlayerTotals
from storage.sql import dumps, loads
from storage.stats import apply_deal


def insert_deal(
    conn: sqlite3.Connection,
    *,
    chat_id: int,
    game_id: int,
    version: int,
    record: DealRecord,
    now: float,
) -> int:
    """Append a finished deal written by the commit that produced ``version``."""
    cursor = conn.execute(
        "INSERT INTO deals (game_id, version, chat_id, deal, summary, ended_at, winner)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, version, chat_id, record.deal, dumps(record.summary), now, record.winner),
    )
    deal_id = cursor.lastrowid
    assert deal_id is not None
    conn.executemany(
        "INSERT INTO deal_players (deal_id, user_id, seat, tricks, active) VALUES (?, ?, ?, ?, ?)",
        [
            (deal_id, player.user_id, player.seat, player.tricks, int(player.active))
            for player in record.players
        ],
    )
    apply_deal(conn, chat_id=chat_id, game_id=game_id, record=record, now=now)
    note_deal(conn, chat_id, now)
    return deal_id


def last_deals(
    conn: sqlite3.Connection, chat_id: int, limit: int, before: int | None = None
) -> list[DealHistory]:
    """The chat's ``limit`` most recently finished deals, newest first, with their transfers;
    with ``before``, those finished before the deal with that ``deal_id`` (the next page)."""
    rows = conn.execute(
        "SELECT d.deal_id, d.game_id, d.chat_id, g.kind, d.deal, d.version, d.ended_at,"
        " d.summary FROM deals AS d JOIN games AS g USING (game_id)"
        " WHERE d.chat_id = :chat AND d.deal_id < :before ORDER BY d.deal_id DESC LIMIT :limit",
        {"chat": chat_id, "limit": limit, "before": (1 << 63) - 1 if before is None else before},
    ).fetchall()
    return _histories(conn, rows)


def one_deal(conn: sqlite3.Connection, chat_id: int, deal_id: int) -> DealHistory | None:
    """The finished deal ``deal_id`` of ``chat_id`` (None if the chat has no such deal)."""
    rows = conn.execute(
        "SELECT d.deal_id, d.game_id, d.chat_id, g.kind, d.deal, d.version, d.ended_at,"
        " d.summary, d.winner FROM deals AS d JOIN games AS g USING (game_id)"
        " WHERE d.deal_id = ? AND d.chat_id = ?",
        (deal_id, chat_id),
    ).fetchall()
    found = _histories(conn, rows)
    if not found:
        return None
    if rows[0]["winner"] is None:
        return found[0]
    # the deal that won its game: its table showed the game's money, every deal's up to it
    game = entries(
        conn,
        "game_id = :game AND deal <= :deal",
        {"game": rows[0]["game_id"], "deal": found[0].deal},
    )
    return replace(found[0], game_transfers=tuple(game))


def last_dealt_game(conn: sqlite3.Connection, user_id: int, since: float) -> int | None:
    """The game of the newest deal ``user_id`` played that ended at ``since`` or later (by the
    deal players' index), or None."""
    row = conn.execute(
        "SELECT d.game_id FROM deal_players AS p JOIN deals AS d USING (deal_id)"
        " WHERE p.user_id = ? AND d.ended_at >= ? ORDER BY d.deal_id DESC LIMIT 1",
        (user_id, since),
    ).fetchone()
    return None if row is None else int(row[0])


def deal_seats(conn: sqlite3.Connection, game_id: int, deal: int) -> list[int] | None:
    """The users at the seats of game ``game_id``'s finished deal ``deal``, in seat order
    (None: no such deal is over)."""
    rows = conn.execute(
        "SELECT p.user_id, p.seat FROM deals AS d JOIN deal_players AS p USING (deal_id)"
        " WHERE d.game_id = ? AND d.deal = ? ORDER BY p.seat",
        (game_id, deal),
    ).fetchall()
    return [int(row[0]) for row in rows] or None


def deals_newer(conn: sqlite3.Connection, chat_id: int, deal_id: int) -> int:
    """How many of the chat's deals finished from ``deal_id`` on, that one included: the
    deals on the history pages above the page of the deals before it."""
    count: int = conn.execute(
        "SELECT COUNT(*) FROM deals WHERE chat_id = ? AND deal_id >= ?", (chat_id, deal_id)
    ).fetchone()[0]
    return count


def deal_after(conn: sqlite3.Connection, chat_id: int, deal_id: int, places: int) -> int | None:
    """The ``deal_id`` of the chat's deal ``places`` deals newer than ``deal_id``, or None."""
    row = conn.execute(
        "SELECT deal_id FROM deals WHERE chat_id = ? AND deal_id >= ? ORDER BY deal_id"
        " LIMIT 1 OFFSET ?",
        (chat_id, deal_id, places),
    ).fetchone()
    return None if row is None else int(row[0])


def deal_count(conn: sqlite3.Connection, chat_id: int) -> int:
    count: int = conn.execute(
        "SELECT COUNT(*) FROM deals WHERE chat_id = ?", (chat_id,)
    ).fetchone()[0]
    return count


_EXPORT = """
SELECT l.entry_id, l.created_at, l.game_id, g.kind, l.deal, l.src_kind, l.src_user,
       s.name, l.dst_kind, l.dst_user, t.name, l.amount, l.reason
FROM ledger AS l JOIN games AS g ON g.game_id = l.game_id
LEFT JOIN players AS s ON s.user_id = l.src_user
LEFT JOIN players AS t ON t.user_id = l.dst_user
WHERE l.chat_id = ? AND l.entry_id > ? AND l.entry_id <= ? ORDER BY l.entry_id LIMIT ?
"""


def last_entry(conn: sqlite3.Connection, chat_id: int) -> int:
    """The chat's newest ledger entry id (0 if it has none): where an export stops."""
    row = conn.execute("SELECT MAX(entry_id) FROM ledger WHERE chat_id = ?", (chat_id,)).fetchone()
    return 0 if row is None or row[0] is None else int(row[0])


def export_rows(
    conn: sqlite3.Connection, chat_id: int, after: int, upto: int, limit: int
) -> list[tuple[object, ...]]:
    """At most ``limit`` ledger rows of the chat with ids in (``after``, ``upto``], oldest
    first: entry id, time, game id, game kind, deal (from 0), payer kind, payer id, payer
    name, payee kind, payee id, payee name, amount, reason."""
    return [tuple(row) for row in conn.execute(_EXPORT, (chat_id, after, upto, limit))]


def _histories(conn: sqlite3.Connection, rows: list[sqlite3.Row]) -> list[DealHistory]:
    history = []
    for row in rows:
        players = tuple(
            DealPlayer(user_id=user_id, seat=seat, tricks=tricks, active=bool(active))
            for user_id, seat, tricks, active in conn.execute(
                "SELECT user_id, seat, tricks, active FROM deal_players WHERE deal_id = ?"
                " ORDER BY seat, user_id",
                (row["deal_id"],),
            )
        )
        transfers = entries(
            conn, "game_id = :game AND deal = :deal", {"game": row["game_id"], "deal": row["deal"]}
        )
        history.append(
            DealHistory(
                deal_id=row["deal_id"],
                game_id=row["game_id"],
                chat_id=row["chat_id"],
                kind=row["kind"],
                deal=row["deal"],
                version=row["version"],
                ended_at=row["ended_at"],
                summary=loads(row["summary"]),
                players=players,
                transfers=tuple(transfers),
            )
        )
    return history


def player_totals(conn: sqlite3.Connection, chat_id: int, user_id: int) -> PlayerTotals:
    """``user_id``'s record in ``chat_id`` (all zeros for someone who never played there)."""
    deals, deals_active, tricks = conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(p.active), 0), COALESCE(SUM(p.tricks), 0)"
        " FROM deal_players AS p JOIN deals AS d USING (deal_id)"
        " WHERE d.chat_id = ? AND p.user_id = ?",
        (chat_id, user_id),
    ).fetchone()
    return PlayerTotals(
        chat_id=chat_id,
        user_id=user_id,
        deals=deals,
        deals_active=deals_active,
        tricks=tricks,
        net=user_net(conn, chat_id, user_id),
    )
