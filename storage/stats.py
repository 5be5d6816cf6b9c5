"""Kept figures: each chat's balances and each player's monthly figures.

Both are updated by the commit that appends the ledger rows and the deal record they come from
(``insert_transfers`` and ``insert_deal`` call in here), so they can never be ahead of or
behind the ledger; ``Database.check_integrity`` compares them with sums over the ledger. They
turn a deal's end, /stats and /top into reads of a few rows, however long a chat has played.

A month is the UTC calendar month, ``'YYYY-MM'``. The net follows the month of the ledger row;
play columns (deals, tricks, best and worst deal) the month the deal ended. A deal's net for a
player is the sum of the ledger rows of that deal, as the ``deal`` column tags them.

Besides the figures every game has (``player_stats``), a game keeps figures of its own
(``player_stat_fields``: a name and a number per player, kind and month). Storage does not know
what they mean: the commit that appends the ledger rows and the deal record they come from adds
what its caller counted (``apply_fields``), and /stats reads them back by name.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from storage.records import GAME_POT, POT, Balances, DealRecord, Transfer


def month_of(moment: float) -> str:
    """The UTC month of a unix time, as stored: ``'2026-12'``."""
    return time.strftime("%Y-%m", time.gmtime(moment))


def _party_key(party: object, game_id: int) -> tuple[str, int]:
    if party == POT:
        return "pot", 0
    if party == GAME_POT:
        return "game_pot", game_id
    assert isinstance(party, int)
    return "user", party


def _game_kind(conn: sqlite3.Connection, game_id: int) -> str:
    kind: str = conn.execute("SELECT kind FROM games WHERE game_id = ?", (game_id,)).fetchone()[0]
    return kind


def apply_transfers(
    conn: sqlite3.Connection,
    *,
    chat_id: int,
    game_id: int,
    transfers: Sequence[Transfer],
    now: float,
) -> None:
    """Add ``transfers`` (just appended to the ledger) to the kept balances and nets."""
    if not transfers:
        return
    balance: dict[tuple[str, int], int] = {}
    nets: dict[int, int] = {}
    for transfer in transfers:
        for party, sign in ((transfer.src, -1), (transfer.dst, 1)):
            key = _party_key(party, game_id)
            balance[key] = balance.get(key, 0) + sign * transfer.amount
            if key[0] == "user":
                nets[key[1]] = nets.get(key[1], 0) + sign * transfer.amount
    conn.executemany(
        "INSERT INTO balances (chat_id, kind, party, amount) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (chat_id, kind, party) DO UPDATE SET amount = amount + excluded.amount",
        [(chat_id, kind, party, amount) for (kind, party), amount in balance.items()],
    )
    kind, month = _game_kind(conn, game_id), month_of(now)
    conn.executemany(
        "INSERT INTO player_stats (chat_id, user_id, kind, month, net) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (chat_id, user_id, kind, month) DO UPDATE SET net = net + excluded.net",
        [(chat_id, user, kind, month, net) for user, net in nets.items()],
    )


def apply_fields(
    conn: sqlite3.Connection,
    *,
    chat_id: int,
    game_id: int,
    figures: Mapping[int, Mapping[str, int]],
    now: float,
) -> None:
    """Add a commit's own figures of its game (``figures[user][name]``, counted by the
    caller from the same commit's transfers and deal record) to the players' kept ones."""
    rows = [
        (chat_id, user, name, value)
        for user, values in figures.items()
        for name, value in values.items()
        if value
    ]
    if not rows:
        return
    kind, month = _game_kind(conn, game_id), month_of(now)
    conn.executemany(
        "INSERT INTO player_stat_fields (chat_id, user_id, kind, month, field, value)"
        " VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (chat_id, user_id, kind, month, field)"
        " DO UPDATE SET value = value + excluded.value",
        [(chat, user, kind, month, name, value) for chat, user, name, value in rows],
    )


_DEAL_NETS = """
SELECT user_id, SUM(amount) FROM (
    SELECT dst_user AS user_id, amount FROM ledger
    WHERE game_id = :game AND deal = :deal AND dst_kind = 'user'
    UNION ALL
    SELECT src_user, -amount FROM ledger
    WHERE game_id = :game AND deal = :deal AND src_kind = 'user'
) GROUP BY user_id
"""


def deal_nets(conn: sqlite3.Connection, game_id: int, deal: int) -> dict[int, int]:
    """Each player's net of one deal of a game, from its ledger rows."""
    return dict(conn.execute(_DEAL_NETS, {"game": game_id, "deal": deal}).fetchall())


def apply_deal(
    conn: sqlite3.Connection, *, chat_id: int, game_id: int, record: DealRecord, now: float
) -> None:
    """Add a finished deal (just inserted, after its transfers) to the players' figures."""
    kind, month = _game_kind(conn, game_id), month_of(now)
    nets = deal_nets(conn, game_id, record.deal)
    rows = []
    for player in record.players:
        seen = conn.execute(
            "SELECT COUNT(*) FROM deals AS d JOIN deal_players AS p USING (deal_id)"
            " WHERE d.game_id = ? AND p.user_id = ?",
            (game_id, player.user_id),
        ).fetchone()[0]
        net = nets.get(player.user_id, 0)
        rows.append((chat_id, player.user_id, kind, month, int(seen == 1), player.tricks, net, net))
    conn.executemany(
        "INSERT INTO player_stats (chat_id, user_id, kind, month, games, deals, tricks,"
        " best_deal, worst_deal) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)"
        " ON CONFLICT (chat_id, user_id, kind, month) DO UPDATE SET"
        " games = games + excluded.games, deals = deals + 1,"
        " tricks = tricks + excluded.tricks,"
        " best_deal = MAX(COALESCE(best_deal, excluded.best_deal), excluded.best_deal),"
        " worst_deal = MIN(COALESCE(worst_deal, excluded.worst_deal), excluded.worst_deal)",
        rows,
    )


def kept_balances(conn: sqlite3.Connection, chat_id: int) -> Balances:
    """The chat's kept balances (what ``ledger.balances_from_ledger`` sums, read directly)."""
    players: dict[int, int] = {}
    game_pots: dict[int, int] = {}
    pot = 0
    for kind, party, amount in conn.execute(
        "SELECT kind, party, amount FROM balances WHERE chat_id = ?", (chat_id,)
    ):
        if kind == "user":
            players[party] = amount
        elif kind == "pot":
            pot = amount
        elif amount:
            game_pots[party] = amount
    return Balances(players=players, pot=pot, game_pots=game_pots)


def move_chat(conn: sqlite3.Connection, old_chat_id: int, new_chat_id: int) -> None:
    """Carry the kept figures of a chat that changed its id over to the new one (added to any
    the new id already has), inside ``migrate_chat``'s transaction."""
    conn.execute(
        "INSERT INTO balances (chat_id, kind, party, amount)"
        " SELECT ?, kind, party, amount FROM balances WHERE chat_id = ? AND true"
        " ON CONFLICT (chat_id, kind, party) DO UPDATE SET amount = amount + excluded.amount",
        (new_chat_id, old_chat_id),
    )
    conn.execute("DELETE FROM balances WHERE chat_id = ?", (old_chat_id,))
    columns = ("net", "games", "deals", "tricks")
    sums = ", ".join(f"{c} = {c} + excluded.{c}" for c in columns)
    conn.execute(
        f"INSERT INTO player_stats (chat_id, user_id, kind, month, {', '.join(columns)},"
        " best_deal, worst_deal)"
        f" SELECT ?, user_id, kind, month, {', '.join(columns)}, best_deal, worst_deal"
        " FROM player_stats WHERE chat_id = ? AND true"
        f" ON CONFLICT (chat_id, user_id, kind, month) DO UPDATE SET {sums},"
        " best_deal = MAX(COALESCE(best_deal, excluded.best_deal),"
        " COALESCE(excluded.best_deal, best_deal)),"
        " worst_deal = MIN(COALESCE(worst_deal, excluded.worst_deal),"
        " COALESCE(excluded.worst_deal, worst_deal))",
        (new_chat_id, old_chat_id),
    )
    conn.execute("DELETE FROM player_stats WHERE chat_id = ?", (old_chat_id,))
    conn.execute(
        "INSERT INTO player_stat_fields (chat_id, user_id, kind, month, field, value)"
        " SELECT ?, user_id, kind, month, field, value FROM player_stat_fields"
        " WHERE chat_id = ? AND true"
        " ON CONFLICT (chat_id, user_id, kind, month, field)"
        " DO UPDATE SET value = value + excluded.value",
        (new_chat_id, old_chat_id),
    )
    conn.execute("DELETE FROM player_stat_fields WHERE chat_id = ?", (old_chat_id,))


# ------------------------------------------------------------------------------ queries


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's figures over some rows of ``player_stats`` (one kind, or all), and his
    game's own figures by name (``player_stat_fields``; a figure at zero is left out)."""

    net: int = 0
    games: int = 0
    deals: int = 0
    tricks: int = 0
    best_deal: int | None = None
    worst_deal: int | None = None
    fields: Mapping[str, int] = field(default_factory=dict)

    def __add__(self, other: Figures) -> Figures:
        def pick(a: int | None, b: int | None, best: bool) -> int | None:
            if a is None or b is None:
                return a if b is None else b
            return max(a, b) if best else min(a, b)

        return Figures(
            net=self.net + other.net,
            games=self.games + other.games,
            deals=self.deals + other.deals,
            tricks=self.tricks + other.tricks,
            best_deal=pick(self.best_deal, other.best_deal, True),
            worst_deal=pick(self.worst_deal, other.worst_deal, False),
            fields=_added(self.fields, other.fields),
        )


def _added(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    """Two sets of a game's own figures added up, name by name (a zero left out)."""
    summed = dict(a)
    for name, value in b.items():
        summed[name] = summed.get(name, 0) + value
    return {name: value for name, value in summed.items() if value}


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures by game kind, all time and in one month, and the chats they come
    from (one chat for /stats in a group; every chat he played in for /stats in private)."""

    user_id: int
    month: str
    all_time: dict[str, Figures]
    this_month: dict[str, Figures]
    chats: int

    @staticmethod
    def total(by_kind: dict[str, Figures]) -> Figures:
        result = Figures()
        for figures in by_kind.values():
            result = result + figures
        return result


_FIGURE_SUMS = "SUM(net), SUM(games), SUM(deals), SUM(tricks), MAX(best_deal), MIN(worst_deal)"


def player_stats(
    conn: sqlite3.Connection,
    user_id: int,
    month: str,
    chat_id: int | None = None,
    apart: int | None = None,
) -> PlayerStats:
    """``user_id``'s figures in ``chat_id`` (None: in every chat but ``apart``, a chat whose
    figures are kept apart), all time and in ``month``."""
    where = "user_id = :user" + ("" if chat_id is None else " AND chat_id = :chat")
    if chat_id is None and apart is not None:
        where += " AND chat_id != :apart"
    params = {"user": user_id, "chat": chat_id, "month": month, "apart": apart}
    # (kind, in the month) → the game's own figures by name
    fields: dict[tuple[str, int], dict[str, int]] = {}
    for kind, in_month, name, value in conn.execute(
        f"SELECT kind, month = :month, field, SUM(value) FROM player_stat_fields WHERE {where}"
        " GROUP BY kind, month = :month, field",
        params,
    ):
        if value:
            fields.setdefault((kind, in_month), {})[name] = value
    all_time: dict[str, Figures] = {}
    this_month: dict[str, Figures] = {}
    for kind, in_month, *sums in conn.execute(
        f"SELECT kind, month = :month, {_FIGURE_SUMS} FROM player_stats WHERE {where}"
        " GROUP BY kind, month = :month",
        params,
    ):
        net, games, deals, tricks, best, worst = sums
        figures = Figures(net, games, deals, tricks, best, worst, fields.get((kind, in_month), {}))
        all_time[kind] = all_time.get(kind, Figures()) + figures
        if in_month:
            this_month[kind] = figures
    chats = conn.execute(
        f"SELECT COUNT(DISTINCT chat_id) FROM player_stats WHERE {where}", params
    ).fetchone()[0]
    return PlayerStats(user_id, month, all_time, this_month, chats)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard."""

    user_id: int
    net: int
    deals: int


def leaderboard(
    conn: sqlite3.Connection, chat_id: int, month: str | None = None, kind: str | None = None
) -> list[Standing]:
    """The chat's players by net chips, best first (ties: more deals, then the id), all time
    or in ``month``, every game or one ``kind``; players who never sat a deal left out."""
    where = "chat_id = :chat"
    if month is not None:
        where += " AND month = :month"
    if kind is not None:
        where += " AND kind = :kind"
    rows = conn.execute(
        f"SELECT user_id, SUM(net) AS n, SUM(deals) AS d FROM player_stats WHERE {where}"
        " GROUP BY user_id HAVING d > 0 ORDER BY n DESC, d DESC, user_id",
        {"chat": chat_id, "month": month, "kind": kind},
    )
    return [Standing(user, net, deals) for user, net, deals in rows]


def kinds_played(conn: sqlite3.Connection, chat_id: int) -> list[str]:
    """The game kinds the chat has finished deals of."""
    return [
        row[0]
        for row in conn.execute(
            "SELECT DISTINCT kind FROM player_stats WHERE chat_id = ? AND deals > 0 ORDER BY kind",
            (chat_id,),
        )
    ]
