"""The kept balances and monthly figures (a game's own among them) always equal what the
ledger and the deal records say: after random play, after a chat moves to a supergroup id (onto
a chat that has money of its own), and (tests/storage/test_crash.py, through
``check_integrity``) after SIGKILLs."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import GAME_POT, POT, Database, DealPlayer, DealRecord, Party, Transfer
from storage.ledger import balances, balances_from_ledger, entry_from_row
from storage.stats import month_of
from tables.figures import counted
from tests.library import GAMES
from tests.storage.storage_support import CHAT, CLOCK, USERS, raw

SUPERGROUP = -1009999
PARTIES: list[Party] = [*USERS, POT, GAME_POT]


def _nonzero(conn: sqlite3.Connection, chat: int, *, kept: bool) -> tuple[object, ...]:
    found = balances(conn, chat) if kept else balances_from_ledger(conn, chat)
    return (
        {u: n for u, n in found.players.items() if n},
        found.pot,
        {g: n for g, n in found.game_pots.items() if n},
    )


def _check(path: Path, chats: list[int]) -> None:
    conn = raw(path)
    conn.row_factory = sqlite3.Row
    try:
        for chat in chats:
            assert _nonzero(conn, chat, kept=True) == _nonzero(conn, chat, kept=False)
            nets = dict(
                conn.execute(
                    "SELECT user_id, SUM(net) FROM player_stats WHERE chat_id = ? GROUP BY user_id",
                    (chat,),
                ).fetchall()
            )
            players = _nonzero(conn, chat, kept=False)[0]
            assert {u: n for u, n in nets.items() if n} == players
            # deals and tricks: the deal records' own counts
            played: Counter[tuple[int, str]] = Counter()
            for user, tricks in conn.execute(
                "SELECT p.user_id, p.tricks FROM deal_players AS p JOIN deals AS d"
                " USING (deal_id) WHERE d.chat_id = ?",
                (chat,),
            ):
                played[(user, "deals")] += 1
                played[(user, "tricks")] += tricks
            kept: Counter[tuple[int, str]] = Counter()
            for user, deals, tricks in conn.execute(
                "SELECT user_id, SUM(deals), SUM(tricks) FROM player_stats WHERE chat_id = ?"
                " GROUP BY user_id",
                (chat,),
            ):
                kept[(user, "deals")] += deals
                kept[(user, "tricks")] += tricks
            assert +kept == +played
            # each game's own figures: what its fields count over the ledger rows of its games
            by_kind: dict[str, list[Transfer]] = {}
            for row in conn.execute(
                "SELECT g.kind, l.* FROM ledger AS l JOIN games AS g USING (game_id)"
                " WHERE l.chat_id = ?",
                (chat,),
            ):
                entry = entry_from_row(row)
                by_kind.setdefault(row["kind"], []).append(
                    Transfer(entry.src, entry.dst, entry.amount, entry.reason, entry.deal)
                )
            counts: Counter[tuple[str, int, str]] = Counter()
            for kind, transfers in by_kind.items():
                for user, values in counted(GAMES.of(kind).stat_fields, transfers, None).items():
                    for name, value in values.items():
                        counts[(kind, user, name)] += value
            # …and what they count over its deal records (the deals played, the games won)
            for kind, record in _deal_records(conn, chat):
                for user, values in counted(GAMES.of(kind).stat_fields, [], record).items():
                    for name, value in values.items():
                        counts[(kind, user, name)] += value
            fields: Counter[tuple[str, int, str]] = Counter()
            for kind, user, name, value in conn.execute(
                "SELECT kind, user_id, field, SUM(value) FROM player_stat_fields"
                " WHERE chat_id = ? GROUP BY kind, user_id, field",
                (chat,),
            ):
                fields[(kind, user, name)] += value
            assert +fields == +counts
    finally:
        conn.close()


def _deal_records(conn: sqlite3.Connection, chat: int) -> list[tuple[str, DealRecord]]:
    """The chat's finished deals as their commits recorded them, each with its game's kind."""
    records = []
    for deal_id, kind, number, winner in conn.execute(
        "SELECT d.deal_id, g.kind, d.deal, d.winner FROM deals AS d JOIN games AS g"
        " USING (game_id) WHERE d.chat_id = ?",
        (chat,),
    ).fetchall():
        players = tuple(
            DealPlayer(user, seat, tricks, bool(active))
            for user, seat, tricks, active in conn.execute(
                "SELECT user_id, seat, tricks, active FROM deal_players WHERE deal_id = ?",
                (deal_id,),
            )
        )
        records.append((kind, DealRecord(number, players, winner=winner)))
    return records


async def _play(db: Database, chat: int, rng: random.Random, commits: int) -> None:
    kind = rng.choice(["stukolka", "starshina"])
    game = await db.games.create_game(chat, kind, {}, seats=USERS, now=CLOCK())
    version, deal = 0, 0
    for _ in range(commits):
        transfers = []
        for _ in range(rng.randint(0, 3)):
            src, dst = rng.sample(PARTIES, 2)
            reason = rng.choice(["ante", "trick", "remiz", "pot_taken", "game_pot"])
            transfers.append(Transfer(src, dst, rng.randint(1, 9), reason, deal))
        record = None
        if rng.random() < 0.4:
            record = DealRecord(
                deal,
                tuple(
                    DealPlayer(u, s, rng.randint(0, 3), rng.random() < 0.7)
                    for s, u in enumerate(USERS)
                ),
                winner=rng.choice([None, *USERS]),
            )
            deal += 1
        figures = counted(GAMES.of(kind).stat_fields, transfers, record)
        version = await db.games.commit_action(
            game.game_id,
            version,
            {"v": version + 1},
            None,
            transfers=transfers,
            deal=record,
            figures=figures,
            now=CLOCK(),
        )
    await db.games.commit_action(game.game_id, version, {}, None, status="finished", now=CLOCK())


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**6), commits=st.integers(1, 25))
async def test_kept_figures_equal_the_ledger_after_play_and_a_supergroup_move(
    tmp_path: Path, seed: int, commits: int
) -> None:
    path = tmp_path / f"kept-{seed}-{commits}.sqlite3"
    rng = random.Random(seed)
    async with await Database.open(path) as db:
        for chat in (CHAT, SUPERGROUP):
            await db.chats.upsert_chat(chat, None, now=CLOCK())
        for user in USERS:
            await db.chats.upsert_player(user, f"p{user}", now=CLOCK())
        await _play(db, CHAT, rng, commits)
        await _play(db, CHAT, rng, commits)
        # the supergroup saw a game of its own before the move (the bot met it first)
        await _play(db, SUPERGROUP, rng, rng.randint(1, 5))
        _check(path, [CHAT, SUPERGROUP])
        before = await db.ledger.balances(CHAT)
        also = await db.ledger.balances(SUPERGROUP)
        assert await db.chats.migrate_chat(CHAT, SUPERGROUP, now=CLOCK())
        _check(path, [CHAT, SUPERGROUP])
        after = await db.ledger.balances(SUPERGROUP)
        assert after.pot == before.pot + also.pot
        for user in USERS:
            assert after.players.get(user, 0) == before.players.get(user, 0) + also.players.get(
                user, 0
            )
        assert (await db.ledger.balances(CHAT)).players == {}
        assert await db.check_integrity() == []
        month = month_of(1e10)  # no figures that far ahead
        stats = await db.stats.player_stats(USERS[0], month, SUPERGROUP)
        assert stats.this_month == {}
        total = stats.total(stats.all_time)
        assert total.net == after.players.get(USERS[0], 0)


async def test_integrity_check_finds_kept_balances_that_drifted(
    table: Database, db_path: Path
) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {}, seats=USERS, now=CLOCK())
    await table.games.commit_action(
        game.game_id, 0, {}, None, transfers=[Transfer(USERS[0], POT, 3, "ante", 0)], now=CLOCK()
    )
    assert await table.check_integrity() == []
    conn = raw(db_path)
    conn.execute("UPDATE balances SET amount = amount + 1 WHERE kind = 'pot'")
    conn.close()
    problems = await table.check_integrity()
    assert any("kept balances differ" in problem for problem in problems)
