"""Every query /stats, /top, /history, a deal's details, /export and the evenings run is
indexed: each statement they execute (caught with a trace callback) is explained, and no step
of its plan reads a whole table."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from storage import (
    GAME_POT,
    POT,
    Database,
    DealPlayer,
    DealRecord,
    Transfer,
    evenings,
    history,
    ledger,
    stats,
)
from tests.storage.storage_support import CHAT, CLOCK, USERS

A, B, C = USERS
#: a plan step that reads a whole table: "SCAN games" (a scan of an index, of a subquery's
#: rows or of a partial index named in the step is fine)
FULL_SCAN = re.compile(r"^SCAN (\w+)(?: AS \w+)?$")


async def _filled(path: Path) -> None:
    async with await Database.open(path) as db:
        await db.chats.upsert_chat(CHAT, "friends", now=CLOCK())
        for user in USERS:
            await db.chats.upsert_player(user, f"p{user}", now=CLOCK())
        for kind in ("stukolka", "starshina"):
            game = await db.games.create_game(CHAT, kind, {}, seats=USERS, now=CLOCK())
            version = 0
            for deal in range(4):
                version = await db.games.commit_action(
                    game.game_id,
                    version,
                    {"deal": deal},
                    None,
                    transfers=[
                        Transfer(A, POT, 3, "ante", deal),
                        Transfer(B, GAME_POT, 1, "ante", deal),
                        Transfer(POT, C, 3, "trick", deal),
                        Transfer(GAME_POT, A, 1, "game_pot", deal),
                    ],
                    deal=DealRecord(
                        deal, tuple(DealPlayer(u, s, s) for s, u in enumerate(USERS)), winner=A
                    ),
                    now=CLOCK(),
                )
            await db.games.commit_action(
                game.game_id, version, {}, None, status="finished", now=CLOCK()
            )


def _plans(path: Path, run: object) -> dict[str, list[str]]:
    """Each statement ``run(conn)`` executes, with the details of its query plan."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        run(conn)  # type: ignore[operator]
        conn.set_trace_callback(None)
        plans = {}
        for statement in seen:
            head = statement.lstrip().split(None, 1)[0].upper()
            if head in ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA"):
                continue
            rows = conn.execute(f"EXPLAIN QUERY PLAN {statement}").fetchall()
            plans[statement] = [row["detail"] for row in rows]
        return plans
    finally:
        conn.close()


def test_every_scorekeeping_query_uses_an_index(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "plans.sqlite3"
    asyncio.run(_filled(path))

    def run(conn: sqlite3.Connection) -> None:
        month = stats.month_of(0)
        stats.player_stats(conn, A, month, CHAT)
        stats.player_stats(conn, A, month, None)
        stats.leaderboard(conn, CHAT)
        stats.leaderboard(conn, CHAT, month, "stukolka")
        stats.kinds_played(conn, CHAT)
        ledger.balances(conn, CHAT)
        ledger.user_net(conn, CHAT, A)
        deals = history.last_deals(conn, CHAT, 6)
        history.last_deals(conn, CHAT, 6, deals[-1].deal_id)
        history.one_deal(conn, CHAT, deals[0].deal_id)
        history.deal_count(conn, CHAT)
        history.deals_newer(conn, CHAT, deals[-1].deal_id)
        history.deal_after(conn, CHAT, deals[-1].deal_id, 3)
        history.export_rows(conn, CHAT, 0, history.last_entry(conn, CHAT), 100)
        stats.deal_nets(conn, deals[0].game_id, deals[0].deal)
        evening = evenings.open_evening(conn, CHAT)
        assert evening is not None
        evenings.evening_summary(conn, evening)
        evenings.open_evenings(conn)
        evenings.unposted_evenings(conn, CHAT)
        evenings.unposted_evenings(conn)
        evenings.evening_gap(conn, CHAT)
        ended = evenings.end_evening(conn, evening.evening_id, evening.last_at, evening.last_at)
        assert ended is not None
        evenings.mark_posted(conn, evening.evening_id)

    plans = _plans(path, run)
    assert len(plans) > 20
    scans = {
        statement: [step for step in steps if FULL_SCAN.match(step)]
        for statement, steps in plans.items()
    }
    assert {s: steps for s, steps in scans.items() if steps} == {}


def test_the_commit_that_ends_a_deal_updates_the_kept_figures_by_index(tmp_path: Path) -> None:
    import asyncio

    path = tmp_path / "commit.sqlite3"
    asyncio.run(_filled(path))

    def run(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        game_id = conn.execute("SELECT MAX(game_id) FROM games").fetchone()[0]
        ledger.insert_transfers(
            conn,
            chat_id=CHAT,
            game_id=game_id,
            version=1,
            transfers=[Transfer(A, POT, 3, "remiz", 9)],
            now=1e9,
        )
        record = DealRecord(9, (DealPlayer(A, 0, 0), DealPlayer(B, 1, 3)))
        history.insert_deal(conn, chat_id=CHAT, game_id=game_id, version=1, record=record, now=1e9)
        conn.execute("ROLLBACK")

    plans = _plans(path, run)
    scans = {s: [p for p in steps if FULL_SCAN.match(p)] for s, steps in plans.items()}
    assert {s: steps for s, steps in scans.items() if steps} == {}


async def test_an_export_reads_the_ledger_in_pages_every_row_once_and_only_rows_up_to_its_start(
    tmp_path: Path,
) -> None:
    path = tmp_path / "pages.sqlite3"
    await _filled(path)
    async with await Database.open(path) as db:
        whole = await db.history.export_rows(CHAT)
        assert len(whole) == 2 * 4 * 4  # two games, four deals, four transfers each
        for page in (1, 3, 7, len(whole), len(whole) + 1):
            assert await db.history.export_rows(CHAT, page) == whole
        ids = [int(row[0]) for row in whole]  # type: ignore[call-overload]
        assert ids == sorted(set(ids))
        # a row written while an export runs (between two of its trips) is not in it
        original = history.export_rows
        written: list[bool] = []

        def page_then_a_new_row(conn: sqlite3.Connection, *args: int) -> list[tuple[object, ...]]:
            rows = original(conn, *args)
            if not written:
                game = conn.execute("SELECT MAX(game_id) FROM games").fetchone()[0]
                conn.execute(
                    "INSERT INTO ledger (chat_id, game_id, version, deal, src_kind, src_user,"
                    " dst_kind, dst_user, amount, reason, created_at) SELECT chat_id, game_id,"
                    " version, deal, src_kind, src_user, dst_kind, dst_user, amount, reason,"
                    " created_at FROM ledger"
                    " WHERE game_id = ? ORDER BY entry_id DESC LIMIT 1",
                    (game,),
                )
                written.append(True)
            return rows

        history.export_rows = page_then_a_new_row  # type: ignore[assignment]
        try:
            assert await db.history.export_rows(CHAT, 5) == whole
        finally:
            history.export_rows = original
        assert written and len(await db.history.export_rows(CHAT)) == len(whole) + 1
