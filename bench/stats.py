"""Benchmark: scorekeeping on a chat with a long history.

Fills one chat with ``--deals`` finished deals (100,000 by default) played by the real
engines with random legal moves — Стуколка at tables of four of the chat's six players, and
one evening in five a Старшина game among three — in evenings of about 60 deals a few minutes
apart, one evening a day, so the history spans years. Each deal is committed through
``storage.games.commit_action`` (its transfers, its deal record, the game's own figures counted
from them as the table service counts them, and so the kept balances, monthly figures and
evenings), many deals to a transaction and with the deals' times set by
the bench, which is what makes the fill take a minute rather than hours. Then it times, on
that file through ``storage.Database`` as the bot reads it:

- /stats (a player in the chat, and across his chats), /top, /history (the first page and a
  deep one), a deal's details, the last evening's summary and its chart, /export;
- the balances a deal's end reads (the kept rows) beside the old sum over the whole ledger;

and prints the database's size. Each figure is the median of ``--repeat`` runs, the text
rendering included; the chart's first drawing (matplotlib's start-up) is printed apart.

    .venv/bin/python bench/stats.py [--deals N] [--repeat R] [--keep FILE] [--chart PNG]
    .venv/bin/python bench/stats.py --reuse FILE   # measure a file kept by --keep again

``--chart`` also writes the last evening's chart (docs/evening-chart.png is
``--deals 2000 --chart docs/evening-chart.png``: the deals follow from ``--seed``).

Not a test: it prints figures. Targets: each read under 200 ms, the chart under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import storage.games
from bot.render import evening as evening_render
from bot.render import stats as screens
from game.cards import FULL_DECK
from game.core import GAME_POT as ENGINE_GAME_POT
from game.core import POT as ENGINE_POT
from game.randomplay import random_action
from game.registry import GameRules
from game.tools import tools_for
from server.games import LIBRARY
from storage import GAME_POT, POT, Database, DealPlayer, DealRecord, Transfer
from storage.ledger import balances_from_ledger
from storage.migrations import migrate
from storage.sql import write_transaction
from storage.stats import month_of
from tables.figures import counted, deal_figures
from tables.ledger_csv import ledger_csv

CHAT = -1001234567890
PLAYERS = {
    101: "Аня",
    102: "Борис",
    103: "Вика",
    104: "Гоша",
    105: "Дима",
    106: "Женя",
}
DEALS_PER_EVENING = 60
DEALS_PER_TRANSACTION = 500


class Clock:
    """The time the bench's commits are stamped with (each passes ``now``), moved on deal by
    deal and evening by evening so the file holds months of play."""

    def __init__(self, start: float) -> None:
        self.now = start


def _party(value: Any, seats: list[int]) -> Any:
    if value == ENGINE_POT:
        return POT
    if value == ENGINE_GAME_POT:
        return GAME_POT
    return seats[value]


def _play_deal(rules: GameRules, state: Any, rng: random.Random) -> Any:
    """Play the deal to its end with random legal moves; the last step."""
    while True:
        seat = state.to_act
        assert seat is not None
        step = state.apply(random_action(seat, state.legal(), state.hands[seat], rng))
        if step.deal_over:
            return step


def fill(path: Path, deals: int, seed: int) -> None:
    """Write ``deals`` finished deals of the chat into a fresh file at ``path``."""
    rng = random.Random(seed)
    clock = Clock(time.time() - (deals / DEALS_PER_EVENING + 1) * 86400)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)
    now = clock.now
    conn.execute(
        "INSERT INTO chats (chat_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
        (CHAT, "Картёжники", now, now),
    )
    for user, name in PLAYERS.items():
        conn.execute(
            "INSERT INTO players (user_id, name, started, created_at, updated_at)"
            " VALUES (?, ?, 1, ?, ?)",
            (user, name, now, now),
        )
    done = evening = 0
    while done < deals:
        evening += 1
        clock.now = _evening_start(clock.now)
        starshina = evening % 5 == 0
        kind = "starshina" if starshina else "stukolka"
        seats = rng.sample(sorted(PLAYERS), 3 if starshina else 4)
        rules = tools_for(LIBRARY.tools, kind).rules
        game = storage.games.create_game(
            conn,
            CHAT,
            kind,
            {},
            created_by=seats[0],
            seats=seats,
            options={},
            status="active",
            turn_deadline=None,
            now=clock.now,
        )
        version, deal_no, state, pot = 0, 0, None, _pot(conn)
        evening_deals = min(deals - done, rng.randint(40, 2 * DEALS_PER_EVENING - 40))
        conn.execute("BEGIN IMMEDIATE")
        while deal_no < evening_deals:
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            if state is None:
                state, start = rules.start({}, len(seats), deck, dealer=0, pot=pot)
            else:
                dealer = (state.dealer + 1) % len(seats)
                state, start = state.next_deal(deck, pot=pot, players=len(seats), dealer=dealer)
            step = _play_deal(rules, state, rng)
            clock.now += rng.uniform(90, 300)
            transfers = [
                Transfer(_party(t.src, seats), _party(t.dst, seats), t.amount, t.reason, deal_no)
                for t in [*start.transfers, *step.transfers]
            ]
            winner = step.summary.get("winner") if step.game_over else None
            record = DealRecord(
                deal_no,
                tuple(DealPlayer(seats[r.seat], r.seat, r.tricks, r.active) for r in step.results),
                step.summary,
                winner=seats[winner] if isinstance(winner, int) else None,
            )
            version = storage.games.commit_action(
                conn,
                game.game_id,
                version,
                {"deal": deal_no},
                None,
                seat=None,
                user_id=None,
                transfers=transfers,
                deal=record,
                status=None,
                seats=None,
                turn_deadline=None,
                figures=counted(LIBRARY.games.of(kind).stat_fields, transfers, record),
                now=clock.now,
            )
            deal_no += 1
            done += 1
            pot = (
                sum(
                    t.amount if t.dst == POT else -t.amount if t.src == POT else 0
                    for t in transfers
                )
                + pot
            )
            if done % DEALS_PER_TRANSACTION == 0:
                conn.execute("COMMIT")
                conn.execute("BEGIN IMMEDIATE")
            if step.game_over:
                state = None
                if deal_no < evening_deals:  # the next Старшина game, same table
                    conn.execute("COMMIT")
                    storage.games.commit_action(
                        conn,
                        game.game_id,
                        version,
                        {},
                        None,
                        seat=None,
                        user_id=None,
                        transfers=[],
                        deal=None,
                        status="finished",
                        seats=None,
                        turn_deadline=None,
                        now=clock.now,
                    )
                    game = storage.games.create_game(
                        conn,
                        CHAT,
                        kind,
                        {},
                        created_by=seats[0],
                        seats=seats,
                        options={},
                        status="active",
                        turn_deadline=None,
                        now=clock.now,
                    )
                    conn.execute("BEGIN IMMEDIATE")
                    version, deal_no, evening_deals = 0, 0, evening_deals - deal_no
        conn.execute("COMMIT")
        storage.games.commit_action(
            conn,
            game.game_id,
            version,
            {},
            None,
            seat=None,
            user_id=None,
            transfers=[],
            deal=None,
            status="finished",
            seats=None,
            turn_deadline=None,
            now=clock.now,
        )
    with write_transaction(conn):
        conn.execute("UPDATE evenings SET posted = 1 WHERE ended_at IS NOT NULL")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("ANALYZE")
    conn.close()


def _evening_start(moment: float) -> float:
    """19:00 UTC on the day after ``moment``."""
    day = int(moment // 86400) + 1
    return day * 86400 + 19 * 3600.0


def _pot(conn: sqlite3.Connection) -> int:
    row = conn.execute(
        "SELECT amount FROM balances WHERE chat_id = ? AND kind = 'pot'", (CHAT,)
    ).fetchone()
    return 0 if row is None else int(row[0])


async def _timed(repeat: int, job: Callable[[], Awaitable[object]]) -> tuple[float, object]:
    times = []
    result: object = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = await job()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, result


async def measure(path: Path, repeat: int, chart: Path | None) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    names = dict(PLAYERS)
    user = next(iter(PLAYERS))
    async with await Database.open(path, cache_reads=True) as db:
        month = month_of(time.time())

        async def stats_in_chat() -> str:
            figures = await db.stats.player_stats(user, month, CHAT)
            return screens.stats_text(LIBRARY.chat, "ru", names[user], figures, private=False)

        async def stats_private() -> str:
            figures = await db.stats.player_stats(user, month)
            return screens.stats_text(LIBRARY.chat, "ru", names[user], figures, private=True)

        async def top() -> str:
            all_time = await db.stats.leaderboard(CHAT)
            this_month = await db.stats.leaderboard(CHAT, month)
            by_kind = [
                (
                    kind,
                    await db.stats.leaderboard(CHAT, kind=kind),
                    await db.stats.leaderboard(CHAT, month, kind),
                )
                for kind in await db.stats.kinds_played(CHAT)
            ]
            return screens.top_text(LIBRARY.chat, "ru", all_time, this_month, by_kind, names)

        async def history(before: int | None) -> str:
            deals = await db.history.last_deals(CHAT, screens.HISTORY_PAGE + 1, before)
            await db.history.deal_count(CHAT)
            if before:
                await db.history.deal_count(CHAT, before)
                await db.history.deal_after(CHAT, before, screens.HISTORY_PAGE)
            return screens.history_page_text(
                LIBRARY.chat, "ru", deals[: screens.HISTORY_PAGE], names, 1, 1
            )

        evening = (await db.evenings.unposted_evenings()) or []
        last = await db.evenings.open_evening(CHAT)
        assert last is not None or evening

        async def summary() -> str:
            assert last is not None
            figures = await db.evenings.evening_summary(
                last, functools.partial(deal_figures, LIBRARY.games)
            )
            return evening_render.evening_text(LIBRARY.chat, "ru", figures, names)

        deal_count = await db.history.deal_count(CHAT)
        middle = (await db.history.last_deals(CHAT, 1))[0].deal_id - deal_count // 2

        async def deal_details() -> str:
            deal = await db.history.deal(CHAT, middle)
            assert deal is not None
            return screens.deal_text(LIBRARY.chat, "ru", deal, names)

        figures = [
            ("/stats in the chat", stats_in_chat),
            ("/stats in private (across chats)", stats_private),
            ("/top (all time, this month, per game)", top),
            ("/history, first page", lambda: history(None)),
            ("/history, a page half-way back", lambda: history(middle)),
            ("a deal's details", deal_details),
            ("the evening's summary (text)", summary),
            ("balances at a deal's end (kept rows)", lambda: db.ledger.balances(CHAT)),
        ]
        for label, job in figures:
            milliseconds, _ = await _timed(repeat, job)
            rows.append((label, f"{milliseconds:.1f} ms"))

        assert last is not None
        evening_figures = await db.evenings.evening_summary(
            last, functools.partial(deal_figures, LIBRARY.games)
        )
        started = time.perf_counter()
        png = await asyncio.to_thread(evening_render.evening_chart, "ru", evening_figures, names)
        cold = (time.perf_counter() - started) * 1000
        if chart is not None:
            chart.write_bytes(png)
        warm, _ = await _timed(
            repeat,
            lambda: asyncio.to_thread(evening_render.evening_chart, "ru", evening_figures, names),
        )
        rows.append(
            (
                f"the evening's chart ({evening_figures.deals} deals, PNG {len(png) // 1024} KB)",
                f"{warm:.0f} ms (first drawing {cold:.0f} ms)",
            )
        )

        async def export() -> bytes:
            return ledger_csv(await db.history.export_rows(CHAT), "ru")

        milliseconds, data = await _timed(1, export)
        assert isinstance(data, bytes)
        rows.append((f"/export ({len(data) / 1e6:.1f} MB of CSV)", f"{milliseconds:.0f} ms"))

    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    started = time.perf_counter()
    summed = balances_from_ledger(conn, CHAT)
    before = (time.perf_counter() - started) * 1000
    counts = {
        table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("deals", "ledger", "evenings", "player_stats")
    }
    conn.close()
    assert summed.total == 0
    rows.append(("balances summed over the whole ledger (before)", f"{before:.0f} ms"))
    size = path.stat().st_size
    rows.append(
        (
            "database size",
            f"{size / 1e6:.1f} MB ({size / counts['deals']:.0f} bytes a deal; "
            f"{counts['deals']:,} deals, {counts['ledger']:,} ledger rows, "
            f"{counts['evenings']:,} evenings, {counts['player_stats']:,} monthly figure rows)",
        )
    )
    return rows


def report(rows: list[tuple[str, str]]) -> None:
    width = max(len(label) for label, _ in rows)
    for label, figure in rows:
        print(f"{label:<{width}}  {figure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--keep", type=Path, help="keep the filled database in this file")
    parser.add_argument("--chart", type=Path, help="write the last evening's chart here")
    parser.add_argument(
        "--reuse", type=Path, help="measure a file an earlier run kept (--keep), no fill"
    )
    args = parser.parse_args()
    if args.reuse is not None:
        report(asyncio.run(measure(args.reuse, args.repeat, args.chart)))
        return
    with tempfile.TemporaryDirectory() as folder:
        path = args.keep or Path(folder) / "stats.sqlite3"
        if path.exists():
            path.unlink()
        started = time.perf_counter()
        fill(path, args.deals, args.seed)
        print(f"filled {args.deals:,} deals in {time.perf_counter() - started:.0f} s")
        report(asyncio.run(measure(path, args.repeat, args.chart)))


if __name__ == "__main__":
    main()
