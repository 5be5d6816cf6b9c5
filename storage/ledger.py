"""The ledger: appending transfers and computing balances from them.

A party is stored as a kind (``user``, ``pot``, ``game_pot``) and, for a user, his id; a game
pot is identified by the row's ``game_id``. A user's balance is what he received minus what he
paid, and the same for the pots. The commit that appends rows also adds them to the kept
balances (``storage.stats``), which is what ``balances`` reads; ``balances_from_ledger`` sums
the rows themselves, to check the kept figures against.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from storage.records import GAME_POT, POT, Balances, LedgerEntry, Party, Transfer
from storage.stats import apply_transfers, kept_balances


def encode_party(party: Party) -> tuple[str, int | None]:
    """``(kind, user_id)`` columns for a party."""
    if party == POT:
        return "pot", None
    if party == GAME_POT:
        return "game_pot", None
    assert isinstance(party, int)
    return "user", party


def decode_party(kind: str, user_id: int | None) -> Party:
    """The party stored as ``(kind, user_id)``."""
    if kind == "user":
        assert user_id is not None
        return user_id
    if kind == "pot":
        return POT
    if kind == "game_pot":
        return GAME_POT
    raise ValueError(f"unknown party kind {kind!r}")


def users_in(transfers: Iterable[Transfer]) -> set[int]:
    """Every user id that pays or receives in ``transfers``."""
    users: set[int] = set()
    for transfer in transfers:
        for party in (transfer.src, transfer.dst):
            if isinstance(party, int):
                users.add(party)
    return users


def insert_transfers(
    conn: sqlite3.Connection,
    *,
    chat_id: int,
    game_id: int,
    version: int,
    transfers: Sequence[Transfer],
    now: float,
) -> None:
    """Append ``transfers`` as written by the commit that produced ``version``."""
    rows = []
    for transfer in transfers:
        src_kind, src_user = encode_party(transfer.src)
        dst_kind, dst_user = encode_party(transfer.dst)
        rows.append(
            (
                chat_id,
                game_id,
                version,
                transfer.deal,
                src_kind,
                src_user,
                dst_kind,
                dst_user,
                transfer.amount,
                transfer.reason,
                now,
            )
        )
    conn.executemany(
        "INSERT INTO ledger (chat_id, game_id, version, deal, src_kind, src_user, dst_kind,"
        " dst_user, amount, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    apply_transfers(conn, chat_id=chat_id, game_id=game_id, transfers=transfers, now=now)


_BALANCES = """
SELECT kind, party, SUM(amount) AS net FROM (
    SELECT dst_kind AS kind,
           CASE dst_kind WHEN 'user' THEN dst_user WHEN 'game_pot' THEN game_id END AS party,
           amount
    FROM ledger WHERE chat_id = :chat
    UNION ALL
    SELECT src_kind,
           CASE src_kind WHEN 'user' THEN src_user WHEN 'game_pot' THEN game_id END,
           -amount
    FROM ledger WHERE chat_id = :chat
)
GROUP BY kind, party
"""


def balances(conn: sqlite3.Connection, chat_id: int) -> Balances:
    """Every player's balance, the chat pot and the non-empty game pots of ``chat_id``."""
    return kept_balances(conn, chat_id)


def balances_from_ledger(conn: sqlite3.Connection, chat_id: int) -> Balances:
    """``balances`` summed over the chat's whole ledger (slow on a long ledger: for checks)."""
    players: dict[int, int] = {}
    game_pots: dict[int, int] = {}
    pot = 0
    for kind, party, net in conn.execute(_BALANCES, {"chat": chat_id}):
        if kind == "user":
            players[party] = net
        elif kind == "pot":
            pot = net
        elif net:
            game_pots[party] = net
    return Balances(players=players, pot=pot, game_pots=game_pots)


def user_balances(conn: sqlite3.Connection, user_id: int) -> dict[int, int]:
    """``user_id``'s balance in every chat where he ever paid or received (zero included)."""
    rows = conn.execute(
        "SELECT chat_id,"
        " SUM(CASE WHEN dst_kind = 'user' AND dst_user = :user THEN amount ELSE 0 END)"
        " - SUM(CASE WHEN src_kind = 'user' AND src_user = :user THEN amount ELSE 0 END)"
        " FROM ledger"
        " WHERE (src_kind = 'user' AND src_user = :user)"
        " OR (dst_kind = 'user' AND dst_user = :user)"
        " GROUP BY chat_id",
        {"user": user_id},
    )
    return {int(chat): int(net) for chat, net in rows}


def user_net(conn: sqlite3.Connection, chat_id: int, user_id: int) -> int:
    """What ``user_id`` received minus what he paid in ``chat_id`` (his kept balance)."""
    row = conn.execute(
        "SELECT amount FROM balances WHERE chat_id = ? AND kind = 'user' AND party = ?",
        (chat_id, user_id),
    ).fetchone()
    return 0 if row is None else int(row[0])


_ENTRY_COLUMNS = (
    "entry_id, chat_id, game_id, version, deal, src_kind, src_user, dst_kind, dst_user,"
    " amount, reason, created_at"
)


def entries(conn: sqlite3.Connection, where: str, params: dict[str, Any]) -> list[LedgerEntry]:
    """Ledger rows matching ``where`` (an SQL condition written in this package, with named
    parameters from ``params``), oldest first."""
    rows = conn.execute(
        f"SELECT {_ENTRY_COLUMNS} FROM ledger WHERE {where} ORDER BY entry_id", params
    )
    return [entry_from_row(row) for row in rows]


def entry_from_row(row: sqlite3.Row) -> LedgerEntry:
    """A ``LedgerEntry`` from a row selected with the ledger's columns."""
    return LedgerEntry(
        entry_id=row["entry_id"],
        chat_id=row["chat_id"],
        game_id=row["game_id"],
        version=row["version"],
        deal=row["deal"],
        src=decode_party(row["src_kind"], row["src_user"]),
        dst=decode_party(row["dst_kind"], row["dst_user"]),
        amount=row["amount"],
        reason=row["reason"],
        created_at=row["created_at"],
    )
