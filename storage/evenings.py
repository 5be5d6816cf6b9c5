"""Evenings: a chat's run of play with no pause longer than its gap, and its summary.

The commit that ends a deal calls ``note_deal``: it extends the chat's open evening, or, when
the pause since that evening's last deal was longer than the gap, ends it there and opens the
next. The bot ends an evening when the gap passes (``end_evening`` with ``idle_since``), at
/stop or at /evening, posts its summary and marks it posted. An evening's deals are the chat's
deals that ended from its ``started_at`` to its ``last_at`` (index ``deals_by_chat_time``); its
money is the ledger rows of those deals, as the ``deal`` column tags them.

The summary's figures of a game's own (a Стуколка evening's remizes) are counted by the
caller's ``Count`` from each deal's transfers and record: storage knows no game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from storage.ledger import decode_party
from storage.records import DealPlayer, DealRecord, Transfer
from storage.sql import loads, write_transaction

Count = Callable[[str, Sequence[Transfer], DealRecord], Mapping[int, Mapping[str, int]]]
"""A game's own figures of one finished deal of a game ``kind``, from its transfers and its
record: user → figure → value (the table service's ``tables.figures.deal_figures``)."""

DEFAULT_EVENING_GAP: Final = 3 * 3600.0
"""The pause, in seconds, that ends an evening in a chat that did not choose one."""


@dataclass(frozen=True, slots=True)
class Evening:
    evening_id: int
    chat_id: int
    started_at: float
    last_at: float
    deals: int
    ended_at: float | None
    posted: bool
    gap: float

    @property
    def due(self) -> float:
        """When the gap after its last deal passes."""
        return self.last_at + self.gap


_COLUMNS = (
    "e.evening_id, e.chat_id, e.started_at, e.last_at, e.deals, e.ended_at, e.posted,"
    f" COALESCE(c.evening_gap, {DEFAULT_EVENING_GAP})"
)


def _evening(row: sqlite3.Row | tuple[object, ...] | None) -> Evening | None:
    if row is None:
        return None
    values = tuple(row)
    return Evening(
        evening_id=int(values[0]),
        chat_id=int(values[1]),
        started_at=float(values[2]),
        last_at=float(values[3]),
        deals=int(values[4]),
        ended_at=None if values[5] is None else float(values[5]),
        posted=bool(values[6]),
        gap=float(values[7]),
    )


def evening_gap(conn: sqlite3.Connection, chat_id: int) -> float:
    """The chat's gap in seconds (the default if it chose none)."""
    row = conn.execute("SELECT evening_gap FROM chats WHERE chat_id = ?", (chat_id,)).fetchone()
    return DEFAULT_EVENING_GAP if row is None or row[0] is None else float(row[0])


def set_evening_gap(conn: sqlite3.Connection, chat_id: int, seconds: float | None) -> None:
    """Set the chat's gap (None: the default)."""
    with write_transaction(conn):
        conn.execute("UPDATE chats SET evening_gap = ? WHERE chat_id = ?", (seconds, chat_id))


def open_evening(conn: sqlite3.Connection, chat_id: int) -> Evening | None:
    """The chat's evening that goes on, if any."""
    return _evening(
        conn.execute(
            f"SELECT {_COLUMNS} FROM evenings AS e JOIN chats AS c USING (chat_id)"
            " WHERE e.chat_id = ? AND e.ended_at IS NULL",
            (chat_id,),
        ).fetchone()
    )


def last_evening(conn: sqlite3.Connection, chat_id: int) -> Evening | None:
    """The chat's newest evening, going on or ended, if any."""
    return _evening(
        conn.execute(
            f"SELECT {_COLUMNS} FROM evenings AS e JOIN chats AS c USING (chat_id)"
            " WHERE e.chat_id = ? ORDER BY e.evening_id DESC LIMIT 1",
            (chat_id,),
        ).fetchone()
    )


def unposted_evenings(conn: sqlite3.Connection, chat_id: int | None = None) -> list[Evening]:
    """Ended evenings whose summary has not been posted, oldest first in each chat (one
    chat's, or every chat's)."""
    # spelt as the partial index evenings_unposted, so the planner can use it
    where = "e.posted = 0 AND e.ended_at IS NOT NULL"
    if chat_id is not None:
        where = "e.chat_id = :chat AND " + where
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM evenings AS e JOIN chats AS c USING (chat_id) WHERE {where}"
        " ORDER BY e.chat_id, e.evening_id",
        {"chat": chat_id},
    ).fetchall()
    return [e for e in map(_evening, rows) if e is not None]


def open_evenings(conn: sqlite3.Connection) -> list[Evening]:
    """Every evening that goes on (to arm their timers after a restart)."""
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM evenings AS e JOIN chats AS c USING (chat_id)"
        " WHERE e.ended_at IS NULL ORDER BY e.chat_id"
    ).fetchall()
    return [e for e in map(_evening, rows) if e is not None]


def note_deal(conn: sqlite3.Connection, chat_id: int, ended_at: float) -> None:
    """A deal of the chat ended at ``ended_at``: extend its evening or start the next one.
    Runs inside the commit that writes the deal record."""
    current = open_evening(conn, chat_id)
    if current is not None and ended_at - current.last_at <= current.gap:
        conn.execute(
            "UPDATE evenings SET last_at = MAX(last_at, ?), deals = deals + 1 WHERE evening_id = ?",
            (ended_at, current.evening_id),
        )
        return
    if current is not None:
        conn.execute(
            "UPDATE evenings SET ended_at = ? WHERE evening_id = ?",
            (current.due, current.evening_id),
        )
    conn.execute(
        "INSERT INTO evenings (chat_id, started_at, last_at, deals) VALUES (?, ?, ?, 1)",
        (chat_id, ended_at, ended_at),
    )


def end_evening(
    conn: sqlite3.Connection, evening_id: int, at: float, idle_since: float | None = None
) -> Evening | None:
    """End the evening at ``at`` if it still goes on — and, with ``idle_since``, only if its
    last deal ended no later than that (a deal since keeps it going). The evening as it was
    ended, or None."""
    with write_transaction(conn):
        done = conn.execute(
            "UPDATE evenings SET ended_at = MAX(?, last_at) WHERE evening_id = ?"
            " AND ended_at IS NULL AND (? IS NULL OR last_at <= ?) RETURNING evening_id",
            (at, evening_id, idle_since, idle_since),
        ).fetchall()
        if not done:
            return None
        return get_evening(conn, evening_id)


def get_evening(conn: sqlite3.Connection, evening_id: int) -> Evening | None:
    return _evening(
        conn.execute(
            f"SELECT {_COLUMNS} FROM evenings AS e JOIN chats AS c USING (chat_id)"
            " WHERE e.evening_id = ?",
            (evening_id,),
        ).fetchone()
    )


def mark_posted(conn: sqlite3.Connection, evening_id: int, posted: bool = True) -> None:
    """Mark an ended evening's summary posted — the bot does it just before sending it, so it
    is posted at most once — or, with ``posted`` False, not posted after all (its send
    surely failed: it is tried again)."""
    with write_transaction(conn):
        conn.execute(
            "UPDATE evenings SET posted = ? WHERE evening_id = ? AND ended_at IS NOT NULL",
            (int(posted), evening_id),
        )


def move_chat(conn: sqlite3.Connection, old_chat_id: int, new_chat_id: int) -> None:
    """Inside ``migrate_chat``: the old chat's evenings go to the new id; if both have one
    going on, the old one ends at its last deal (its summary is posted in the new chat)."""
    if open_evening(conn, new_chat_id) is not None:
        conn.execute(
            "UPDATE evenings SET ended_at = last_at WHERE chat_id = ? AND ended_at IS NULL",
            (old_chat_id,),
        )
    conn.execute("UPDATE evenings SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))


# ------------------------------------------------------------------------------ the summary


@dataclass(frozen=True, slots=True)
class BiggestWin:
    """The most one player won in one deal of the evening: his net for that deal (what he
    took less what he paid in it), never a take that left him down."""

    user_id: int
    amount: int
    deal_index: int  # which deal of the evening, from 1


@dataclass(frozen=True, slots=True)
class EveningSummary:
    """An evening's figures, from its deals and their ledger rows.

    ``nets``: each player's net for the evening (everyone who sat a deal, zero included);
    ``running``: each player's running net after each deal (a list as long as ``deals``);
    ``figures``: each game's own figures over its deals of the evening, by game kind, figure
    and player (players in the order each first had the figure), as the caller's ``Count``
    counts them (none without one); ``biggest_win``: the largest net one
    player won in one deal (None when nobody came out of a deal ahead).
    ``pot_change``: how much the chat's pot and game pots grew over the evening's deals (so
    ``sum(nets) == -pot_change``); ``game_pot_change`` the part of it that went into games'
    own pots (a game still going holds it, not the chat's pot). ``thread_id``: the forum
    topic of the table whose deal ended last (None: a chat without topics, or General), where
    the evening was played.
    ``in_play``: each player's chips in deals still being played in the chat when the summary
    was made (their antes): in the ledger, and so in /balance, but in no evening until their
    deal ends — then in the evening that deal ends in.
    """

    evening: Evening
    deals: int
    kinds: dict[str, int]
    nets: dict[int, int]
    running: dict[int, list[int]]
    figures: dict[str, dict[str, dict[int, int]]]
    biggest_win: BiggestWin | None
    pot_change: int
    thread_id: int | None = None
    in_play: dict[int, int] = field(default_factory=dict)
    game_pot_change: int = 0


def evening_summary(
    conn: sqlite3.Connection, evening: Evening, count: Count | None = None
) -> EveningSummary:
    """The summary of ``evening`` (its deals up to now if it goes on); ``count`` counts each
    deal's figures of its game's own."""
    deals = conn.execute(
        "SELECT d.deal_id, d.game_id, d.deal, d.winner, g.kind, g.thread_id, d.summary"
        " FROM deals AS d"
        " JOIN games AS g USING (game_id)"
        " WHERE d.chat_id = ? AND d.ended_at BETWEEN ? AND ? ORDER BY d.ended_at, d.deal_id",
        (evening.chat_id, evening.started_at, evening.last_at),
    ).fetchall()
    nets: dict[int, int] = {}
    running: dict[int, list[int]] = {}
    figures: dict[str, dict[str, dict[int, int]]] = {}
    kinds: dict[str, int] = {}
    biggest: BiggestWin | None = None
    pot_change = game_pot_change = 0
    # the topic of the table whose deal ended last: where the evening was played
    thread_id: int | None = deals[-1][5] if deals else None
    for index, (deal_id, game_id, number, winner, kind, _, summary) in enumerate(deals, start=1):
        kinds[kind] = kinds.get(kind, 0) + 1
        players = [
            DealPlayer(user, seat, tricks, bool(active))
            for user, seat, tricks, active in conn.execute(
                "SELECT user_id, seat, tricks, active FROM deal_players WHERE deal_id = ?",
                (deal_id,),
            )
        ]
        for player in players:
            user = player.user_id
            if user not in nets:
                nets[user] = 0
                running[user] = [0] * (index - 1)
        deal_nets: dict[int, int] = {}
        transfers: list[Transfer] = []
        for src_kind, src, dst_kind, dst, amount, reason in conn.execute(
            "SELECT src_kind, src_user, dst_kind, dst_user, amount, reason FROM ledger"
            " WHERE game_id = ? AND deal = ?",
            (game_id, number),
        ):
            if count is not None:
                transfers.append(
                    Transfer(
                        decode_party(src_kind, src),
                        decode_party(dst_kind, dst),
                        amount,
                        reason,
                        number,
                    )
                )
            if src_kind == "user":
                nets[src] = nets.get(src, 0) - amount
                deal_nets[src] = deal_nets.get(src, 0) - amount
            else:
                pot_change -= amount
                game_pot_change -= amount if src_kind == "game_pot" else 0
            if dst_kind == "user":
                nets[dst] = nets.get(dst, 0) + amount
                deal_nets[dst] = deal_nets.get(dst, 0) + amount
            else:
                pot_change += amount
                game_pot_change += amount if dst_kind == "game_pot" else 0
        if count is not None:
            record = DealRecord(number, tuple(players), loads(summary), winner)
            of_kind = figures.setdefault(kind, {})
            for user, values in count(kind, transfers, record).items():
                for name, value in values.items():
                    by_user = of_kind.setdefault(name, {})
                    by_user[user] = by_user.get(user, 0) + value
        for user, amount in deal_nets.items():
            if amount > 0 and (biggest is None or amount > biggest.amount):
                biggest = BiggestWin(user, amount, index)
        for user in nets:
            running.setdefault(user, [0] * (index - 1)).append(nets[user])
    return EveningSummary(
        evening=evening,
        deals=len(deals),
        kinds=kinds,
        nets=nets,
        running=running,
        figures=figures,
        biggest_win=biggest,
        pot_change=pot_change,
        thread_id=thread_id,
        in_play=in_play_nets(conn, evening.chat_id),
        game_pot_change=game_pot_change,
    )


def in_play_nets(conn: sqlite3.Connection, chat_id: int) -> dict[int, int]:
    """Each player's net in the chat's deals that have not ended: the ledger rows of its
    playing games tagged with a deal after the last one recorded (deals end in order)."""
    nets: dict[int, int] = {}
    for src_kind, src, dst_kind, dst, amount in conn.execute(
        "SELECT l.src_kind, l.src_user, l.dst_kind, l.dst_user, l.amount"
        " FROM games AS g JOIN ledger AS l ON l.game_id = g.game_id"
        " WHERE g.chat_id = ? AND g.status = 'active' AND l.deal >"
        " COALESCE((SELECT MAX(d.deal) FROM deals AS d WHERE d.game_id = g.game_id), -1)",
        (chat_id,),
    ):
        if src_kind == "user":
            nets[src] = nets.get(src, 0) - amount
        if dst_kind == "user":
            nets[dst] = nets.get(dst, 0) + amount
    return {user: net for user, net in nets.items() if net}
