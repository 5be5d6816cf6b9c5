"""Migration 10 on a chat with real play: what the front-ends show is the same after it.

A group played two Стуколка deals (a pot taken without play, a remiz left in the chat's pot) and
a Старшина game to its winner, and has a second Старшина game in play with chips in its own pot.
The file is written at version 9 as that version kept it: the games won and the deals played in
player_stats' own columns, each game's own figures as named rows. ``SHOWN`` holds what /stats (in
the group and in private, in both languages), /top, /balance and its settle-up, the page's chips,
the evening's summary so far and the page's evening showed of that file at version 9 (``_shown``
run by the code of version 9, before the migration was written); after the migration they show
the same, and the file keeps every figure.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from bot.render.chat import balance_text, settle_up_text
from bot.render.evening import evening_text
from bot.render.stats import stats_text, top_text
from storage import Database
from storage.migrations import migrate
from storage.sql import dumps
from tables.figures import deal_figures
from tables.money import Money
from tests import library
from tests.storage.storage_support import CHAT, USERS, raw, user_version
from web.evening import evening_view

A, B, C = USERS
NAMES = {A: "Аня", B: "Боря", C: "Вика"}
NOW = 1_700_000_000.0  # 14 November 2023, UTC
MONTH = "2023-11"
#: what the front-ends showed of the seeded file at version 9, screen by screen
SHOWN = "figures_before_migration.json"

#: each game: (kind, status, seats)
GAMES = {1: ("stukolka", "finished"), 2: ("starshina", "finished"), 3: ("starshina", "active")}
Row = tuple[object, object, int, str, int]


def _antes(pot: str, amount: int, deal: int) -> list[Row]:
    """Everyone's ante of ``amount`` into ``pot``."""
    return [(user, pot, amount, "ante", deal) for user in USERS]


#: each commit's ledger rows, by (game, version): (from, to, amount, reason, deal); a party is a
#: user, "pot" (the chat's) or "game_pot" (the game's own)
MONEY: dict[tuple[int, int], list[Row]] = {
    # Стуколка, deal 1: everyone antes 3, Вика alone knocks and takes the pot without play
    (1, 1): [*_antes("pot", 3, 0), ("pot", C, 9, "pot_taken", 0)],
    # deal 2: Аня takes all three tricks, Боря knocked and took none: his remiz stays in the pot
    (1, 2): [*_antes("pot", 3, 1), ("pot", A, 9, "trick", 1), (B, "pot", 9, "remiz", 1)],
    # Старшина: an ante of 1 each into the game's pot, Боря and Вика short of their targets
    (2, 1): [*_antes("game_pot", 1, 0), (B, A, 1, "diff", 0), (C, A, 1, "diff", 0)],
    # …and Аня wins the game: its pot and a stake from Боря, who missed his target again
    (2, 2): [
        *_antes("game_pot", 1, 1),
        ("game_pot", A, 6, "game_pot", 1),
        (B, A, 1, "missed_target", 1),
    ],
    # the second game: one deal played, the antes of the next one in its pot
    (3, 1): [*_antes("game_pot", 1, 0), (C, B, 2, "diff", 0)],
    (3, 2): _antes("game_pot", 1, 1),
}
#: the deals that ended, by (game, version): (deal, [(user, tricks, played)], winner)
DEALS: dict[tuple[int, int], tuple[int, list[tuple[int, int, bool]], int | None]] = {
    (1, 1): (0, [(A, 0, False), (B, 0, False), (C, 0, True)], None),
    (1, 2): (1, [(A, 3, True), (B, 0, True), (C, 0, False)], None),
    (2, 1): (0, [(A, 8, True), (B, 4, True), (C, 4, True)], None),
    (2, 2): (1, [(A, 9, True), (B, 4, True), (C, 3, True)], A),
    (3, 1): (0, [(A, 6, True), (B, 6, True), (C, 4, True)], None),
}
#: the figures of a game's own version 9 kept as named rows (counted by the game's fields)
OWN = {
    ("stukolka", B): {"remizes": 1, "remiz_paid": 9},
    ("stukolka", C): {"pots_taken": 1, "pot_chips": 9},
    ("starshina", A): {"pots_taken": 1, "pot_chips": 6},
}


def _party(party: object, game: int) -> tuple[str, int | None, int]:
    """(the ledger's kind, its user column, the balances' party) of a party."""
    if isinstance(party, int):
        return "user", party, party
    return str(party), None, game if party == "game_pot" else 0


def _seed_version_9(conn: sqlite3.Connection) -> None:
    """The chat, its players and games, their action logs, ledger and deal records, and the
    figures version 9 kept beside them, as it kept them."""
    conn.execute("INSERT INTO chats VALUES (?, 'friends', 'ru', ?, ?, NULL)", (CHAT, NOW, NOW))
    for user in USERS:
        conn.execute(
            "INSERT INTO players VALUES (?, ?, NULL, 1, ?, ?)", (user, NAMES[user], NOW, NOW)
        )
    balances: dict[tuple[str, int], int] = {}
    # (user, kind) → net, games, games won, deals, deals played, tricks, best, worst
    stats: dict[tuple[int, str], list[int | None]] = {}
    ended = NOW
    for game, (kind, status) in GAMES.items():
        conn.execute(
            "INSERT INTO games (game_id, chat_id, kind, status, version, state, options, seats,"
            " created_by, created_at, updated_at) VALUES (?, ?, ?, ?, 2, '{}', '{}', ?, ?, ?, ?)",
            (game, CHAT, kind, status, dumps(list(USERS)), A, NOW, NOW),
        )
        conn.execute(
            "INSERT INTO actions (game_id, version, kind, state, created_at)"
            " VALUES (?, 0, 'init', '{}', ?)",
            (game, NOW),
        )
        for version in (1, 2):
            conn.execute(
                "INSERT INTO actions (game_id, version, kind, seat, user_id, action, created_at)"
                " VALUES (?, ?, 'action', 0, ?, '[\"move\"]', ?)",
                (game, version, A, NOW),
            )
            nets: dict[int, int] = {}
            for src, dst, amount, reason, deal in MONEY[(game, version)]:
                (src_kind, src_user, src_party), (dst_kind, dst_user, dst_party) = (
                    _party(src, game),
                    _party(dst, game),
                )
                conn.execute(
                    "INSERT INTO ledger (chat_id, game_id, version, deal, src_kind, src_user,"
                    " dst_kind, dst_user, amount, reason, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        CHAT,
                        game,
                        version,
                        deal,
                        src_kind,
                        src_user,
                        dst_kind,
                        dst_user,
                        amount,
                        reason,
                        NOW,
                    ),
                )
                for key, sign in (((src_kind, src_party), -1), ((dst_kind, dst_party), 1)):
                    balances[key] = balances.get(key, 0) + sign * amount
                    if key[0] == "user":
                        nets[key[1]] = nets.get(key[1], 0) + sign * amount
            for user, net in nets.items():
                row = stats.setdefault((user, kind), [0, 0, 0, 0, 0, 0, None, None])
                row[0] = int(row[0] or 0) + net
            if (game, version) not in DEALS:
                continue
            deal, players, winner = DEALS[(game, version)]
            ended += 600
            conn.execute(
                "INSERT INTO deals (game_id, version, chat_id, deal, summary, ended_at, winner)"
                " VALUES (?, ?, ?, ?, '{}', ?, ?)",
                (game, version, CHAT, deal, ended, winner),
            )
            deal_id = conn.execute("SELECT last_insert_rowid()").fetchone()[0]
            for seat, (user, tricks, played) in enumerate(players):
                conn.execute(
                    "INSERT INTO deal_players VALUES (?, ?, ?, ?, ?)",
                    (deal_id, user, seat, tricks, int(played)),
                )
                row = stats[(user, kind)]
                net = nets.get(user, 0)
                counts = (int(deal == 0), int(user == winner), 1, int(played), tricks)
                row[1:6] = [
                    int(value or 0) + add for value, add in zip(row[1:6], counts, strict=True)
                ]
                row[6] = net if row[6] is None else max(int(row[6]), net)
                row[7] = net if row[7] is None else min(int(row[7]), net)
    for (party_kind, party), amount in balances.items():
        conn.execute("INSERT INTO balances VALUES (?, ?, ?, ?)", (CHAT, party_kind, party, amount))
    for (user, kind), row in stats.items():
        conn.execute(
            "INSERT INTO player_stats (chat_id, user_id, kind, month, net, games, games_won,"
            " deals, deals_active, tricks, best_deal, worst_deal)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (CHAT, user, kind, MONTH, *row),
        )
    for (kind, user), fields in OWN.items():
        for name, value in fields.items():
            conn.execute(
                "INSERT INTO player_stat_fields VALUES (?, ?, ?, ?, ?, ?)",
                (CHAT, user, kind, MONTH, name, value),
            )
    conn.execute(
        "INSERT INTO evenings (chat_id, started_at, last_at, deals) VALUES (?, ?, ?, ?)",
        (CHAT, NOW + 600, ended, len(DEALS)),
    )


async def _names(users: Sequence[int]) -> list[str]:
    return [NAMES[user] for user in users]


async def _shown(db: Database) -> dict[str, str]:
    """What the front-ends show of the chat: each screen's text (the page's as JSON)."""
    shown: dict[str, str] = {}
    for lang in ("ru", "en"):
        for user in USERS:
            stats = await db.stats.player_stats(user, MONTH, CHAT)
            shown[f"stats {lang} {user}"] = stats_text(
                library.CHAT, lang, NAMES[user], stats, private=False
            )
            private = await db.stats.player_stats(user, MONTH, apart=user)
            shown[f"private {lang} {user}"] = stats_text(
                library.CHAT, lang, NAMES[user], private, private=True
            )
    boards = [
        (
            kind,
            await db.stats.leaderboard(CHAT, kind=kind),
            await db.stats.leaderboard(CHAT, MONTH, kind),
        )
        for kind in await db.stats.kinds_played(CHAT)
    ]
    shown["top"] = top_text(
        library.CHAT,
        "ru",
        await db.stats.leaderboard(CHAT),
        await db.stats.leaderboard(CHAT, MONTH),
        boards,
        NAMES,
    )
    money = await Money(db.ledger, db.games, db.history, db.stats, db.chats, library.GAMES).group(
        CHAT
    )
    shown["balance"] = balance_text(
        "ru", money.balances, NAMES, money.pot, money.game_pot, has_pot=money.has_pot
    )
    shown["settle"] = settle_up_text("ru", money.balances, NAMES, money.pot)
    chips = await Money(db.ledger, db.games, db.history, db.stats, db.chats, library.GAMES).chips(
        CHAT, USERS
    )
    shown["page chips"] = json.dumps(chips)
    evening = await db.evenings.open_evening(CHAT)
    assert evening is not None
    summary = await db.evenings.evening_summary(evening, partial(deal_figures, library.GAMES))
    shown["evening"] = evening_text(library.CHAT, "ru", summary, NAMES, so_far=True)
    shown["page evening"] = json.dumps(await evening_view(summary, _names), ensure_ascii=False)
    return shown


def _columns(path: Path) -> dict[tuple[int, str, str], int]:
    """The games won and deals played version 9 kept in player_stats' columns (non-zero)."""
    conn = raw(path)
    try:
        found: dict[tuple[int, str, str], int] = {}
        for user, kind, won, played in conn.execute(
            "SELECT user_id, kind, games_won, deals_active FROM player_stats WHERE chat_id = ?",
            (CHAT,),
        ):
            for name, value in (("games_won", won), ("deals_active", played)):
                if value:
                    found[(user, kind, name)] = value
        return found
    finally:
        conn.close()


async def test_migration_10_keeps_every_figure_and_every_screen_the_same(tmp_path: Path) -> None:
    path = tmp_path / "v9.sqlite3"
    conn = raw(path)
    migrate(conn, target=9)
    _seed_version_9(conn)
    conn.close()
    played = _columns(path)
    assert {name for _, _, name in played} == {"games_won", "deals_active"}

    async with await Database.open(path) as db:
        assert user_version(path) == 10
        assert await db.check_integrity() == []
        before = json.loads((Path(__file__).parent / SHOWN).read_text(encoding="utf-8"))
        after = await _shown(db)
        for screen, text in before.items():
            assert after[screen] == text, screen
        assert set(after) == set(before)

    conn = raw(path)
    try:
        rows = conn.execute(
            "SELECT user_id, kind, field, value FROM player_stat_fields WHERE chat_id = ?"
            " AND month = ?",
            (CHAT, MONTH),
        ).fetchall()
        kept = {(user, kind, name): value for user, kind, name, value in rows}
        own = {(user, kind, name): v for (kind, user), f in OWN.items() for name, v in f.items()}
        # the columns' values as rows of their names, beside the game's own figures, untouched
        assert kept == {**played, **own}
        assert len(rows) == len(played) + len(own)
    finally:
        conn.close()
