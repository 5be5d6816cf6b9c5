"""Migrations: the schema built from nothing and upgraded, with data, from every version.

Adding a migration means adding a seed for the version before it to ``SEEDS``: a function
that fills a file at that version, in that version's own SQL, with the rows of ``_seed_game``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import (
    LATEST_VERSION,
    POT,
    Database,
    SchemaTooNew,
    StorageError,
    replay,
)
from storage.chat_display import ChatDisplay
from storage.migrations import MIGRATIONS, Migration, migrate
from storage.sql import dumps
from tests.storage import toy_counter_game as toy
from tests.storage.storage_support import CHAT, CLOCK, USERS, raw, user_version

A, B, C = USERS
NOW = 1_700_000_000.0
FIRST_ACTION = {"seat": 0, "add": 1}
#: the columns of a game row that version 1 had (the seeds name them: later versions add some)
GAME_COLUMNS = (
    "game_id, chat_id, kind, status, version, state, options, seats, created_by,"
    " table_message_id, turn_deadline, created_at, updated_at"
)


def _hand_message(
    conn: sqlite3.Connection, game: int, user: int, message: int, *, deal: int
) -> None:
    """A kept hand message; from version 7 on with the ``deal`` it shows (what migration 7
    works out for these seeds)."""
    columns = [row[1] for row in conn.execute("PRAGMA table_info(game_messages)")]
    if "deal" in columns:
        conn.execute("INSERT INTO game_messages VALUES (?, ?, ?, ?)", (game, user, deal, message))
    else:
        conn.execute("INSERT INTO game_messages VALUES (?, ?, ?)", (game, user, message))


def _seed_version_1(conn: sqlite3.Connection) -> None:
    """A chat with settings, three players and a game one action in, as version 1 stored it."""
    state0 = toy.new_state(list(USERS))
    state1 = toy.apply(state0, FIRST_ACTION)
    conn.execute(
        "INSERT INTO chats (chat_id, title, language, created_at, updated_at)"
        " VALUES (?, 'friends', 'ru', ?, ?)",
        (CHAT, NOW, NOW),
    )
    conn.execute(
        "INSERT INTO chat_options VALUES (?, 'stukolka', '{\"stake\": 6}', ?)", (CHAT, NOW)
    )
    for user in USERS:
        conn.execute(
            "INSERT INTO players VALUES (?, ?, NULL, 1, ?, ?)", (user, str(user), NOW, NOW)
        )
    conn.execute(
        f"INSERT INTO games ({GAME_COLUMNS})"
        " VALUES (1, ?, 'toy', 'active', 1, ?, '{}', ?, ?, 7, 99.0, ?, ?)",
        (CHAT, dumps(state1), dumps(list(USERS)), A, NOW, NOW),
    )
    _hand_message(conn, 1, B, 8, deal=0)
    conn.execute(
        "INSERT INTO actions VALUES (1, 1, 0, 'init', NULL, ?, NULL, ?, ?)",
        (A, dumps(state0), NOW),
    )
    conn.execute(
        "INSERT INTO actions VALUES (2, 1, 1, 'action', 0, ?, ?, NULL, ?)",
        (A, dumps(FIRST_ACTION), NOW),
    )
    conn.execute(
        "INSERT INTO ledger VALUES (1, ?, 1, 1, 1, 'user', ?, 'pot', NULL, 1, 'ante', ?)",
        (CHAT, A, NOW),
    )


def _seed_version_2(conn: sqlite3.Connection) -> None:
    """Version 1's rows, and a finished game with one deal as version 2 stored it: B paid a
    remiz of 2 into the pot and C took a trick of 1 from it (in November 2023, UTC)."""
    _seed_version_1(conn)
    state = toy.new_state(list(USERS))
    conn.execute(
        f"INSERT INTO games ({GAME_COLUMNS})"
        " VALUES (2, ?, 'toy', 'finished', 1, ?, '{}', ?, ?, NULL, NULL, ?, ?)",
        (CHAT, dumps(state), dumps(list(USERS)), A, NOW, NOW),
    )
    conn.execute(
        "INSERT INTO actions VALUES (3, 2, 0, 'init', NULL, ?, NULL, ?, ?)",
        (A, dumps(state), NOW),
    )
    conn.execute(
        "INSERT INTO actions VALUES (4, 2, 1, 'action', 1, ?, ?, NULL, ?)",
        (B, dumps({"seat": 1, "add": 6}), NOW),
    )
    conn.execute(
        "INSERT INTO ledger VALUES (2, ?, 2, 1, 0, 'user', ?, 'pot', NULL, 2, 'remiz', ?)",
        (CHAT, B, NOW),
    )
    conn.execute(
        "INSERT INTO ledger VALUES (3, ?, 2, 1, 0, 'pot', NULL, 'user', ?, 1, 'trick', ?)",
        (CHAT, C, NOW),
    )
    conn.execute(
        "INSERT INTO deals (deal_id, game_id, version, chat_id, deal, summary, ended_at)"
        " VALUES (1, 2, 1, ?, 0, '{}', ?)",
        (CHAT, NOW),
    )
    for seat, user in enumerate(USERS):
        conn.execute(
            "INSERT INTO deal_players VALUES (1, ?, ?, ?, 1)", (user, seat, int(user == C))
        )


def _seed_version_3(conn: sqlite3.Connection) -> None:
    """Version 3 changed stored options only: the rows are version 2's."""
    _seed_version_2(conn)


def _seed_version_4(conn: sqlite3.Connection) -> None:
    """Version 3's rows, and the figures version 4 keeps beside the ledger: each party's
    balance and each player's monthly net (November 2023)."""
    _seed_version_3(conn)
    for kind, party, amount in (("user", A, -1), ("user", B, -2), ("user", C, 1), ("pot", 0, 2)):
        conn.execute("INSERT INTO balances VALUES (?, ?, ?, ?)", (CHAT, kind, party, amount))
    for user, net in ((A, -1), (B, -2), (C, 1)):
        conn.execute(
            "INSERT INTO player_stats (chat_id, user_id, kind, month, net)"
            " VALUES (?, ?, 'toy', '2023-11', ?)",
            (CHAT, user, net),
        )


def _seed_version_5(conn: sqlite3.Connection) -> None:
    """Version 5 gave games a forum topic, NULL for all of these: the rows are version 4's."""
    _seed_version_4(conn)


def _seed_version_6(conn: sqlite3.Connection) -> None:
    """Version 5's rows, and what version 6 kept on screen: the finished game's table had
    played 3 deals, and A's hand message of the last one was never retired; a game in a topic
    that an older version left frozen after its second deal (active, no turn deadline) still
    has C's hand message of that deal."""
    _seed_version_5(conn)
    conn.execute(
        "UPDATE games SET state = json_set(state, '$.table', json('{\"deals\": 3}'))"
        " WHERE game_id = 2"
    )
    _hand_message(conn, 2, A, 9, deal=3)
    conn.execute(
        f"INSERT INTO games ({GAME_COLUMNS}, thread_id)"
        " VALUES (3, ?, 'toy', 'active', 0, '{\"table\": {\"deals\": 2}}', '{}', ?, ?, NULL,"
        " NULL, ?, ?, 5)",
        (CHAT, dumps(list(USERS)), A, NOW, NOW),
    )
    _hand_message(conn, 3, C, 10, deal=1)


#: what version 7 kept of each player's figures in November 2023 in the columns version 8 turns
#: into named rows: B's remiz of 2 from the ledger, and pots taken that no ledger row backs
#: (a column is moved as it stands, whatever it holds)
SEEDED_FIELDS = {
    B: {"remizes": 1, "remiz_paid": 2},
    C: {"pots_taken": 2, "pot_chips": 9, "remizes": -1},
}


def _seed_version_7(conn: sqlite3.Connection) -> None:
    """Version 6's rows (their hand messages with the deal each shows), and the figures of
    ``SEEDED_FIELDS`` in player_stats' own columns."""
    _seed_version_6(conn)
    for user, fields in SEEDED_FIELDS.items():
        sets = ", ".join(f"{name} = {value}" for name, value in fields.items())
        conn.execute(f"UPDATE player_stats SET {sets} WHERE user_id = ?", (user,))


def _seed_version_8(conn: sqlite3.Connection) -> None:
    """Version 6's rows (version 8 keeps a game's own figures as named rows, none here)."""
    _seed_version_6(conn)


#: what version 9 kept in November 2023 in player_stats' columns of figures only one game had
#: (games won, deals played), which version 10 turns into named rows beside C's own figure
SEEDED_PLAY = {A: {"games_won": 1}, B: {"deals_active": 1}, C: {"games_won": 2, "deals_active": 3}}


def _seed_version_9(conn: sqlite3.Connection) -> None:
    """Version 6's rows, the games won and deals played of ``SEEDED_PLAY`` in player_stats'
    own columns, and a figure of C's own as a named row."""
    _seed_version_6(conn)
    for user, fields in SEEDED_PLAY.items():
        sets = ", ".join(f"{name} = {value}" for name, value in fields.items())
        conn.execute(f"UPDATE player_stats SET {sets} WHERE user_id = ?", (user,))
    conn.execute(
        "INSERT INTO player_stat_fields VALUES (?, ?, 'toy', '2023-11', 'remizes', 1)", (CHAT, C)
    )


SEEDS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _seed_version_1,
    2: _seed_version_2,
    3: _seed_version_3,
    4: _seed_version_4,
    5: _seed_version_5,
    6: _seed_version_6,
    7: _seed_version_7,
    8: _seed_version_8,
    9: _seed_version_9,
}
#: the balances and pot of each seed
SEEDED_MONEY = {
    1: ({A: -1}, 1),
    2: ({A: -1, B: -2, C: 1}, 2),
    3: ({A: -1, B: -2, C: 1}, 2),
    4: ({A: -1, B: -2, C: 1}, 2),
    5: ({A: -1, B: -2, C: 1}, 2),
    6: ({A: -1, B: -2, C: 1}, 2),
    7: ({A: -1, B: -2, C: 1}, 2),
    8: ({A: -1, B: -2, C: 1}, 2),
    9: ({A: -1, B: -2, C: 1}, 2),
}


def _schema(path: Path) -> list[tuple[str, str, str]]:
    conn = raw(path)
    try:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            " ORDER BY type, name"
        ).fetchall()
        return [tuple(row) for row in rows]
    finally:
        conn.close()


def _build(path: Path, version: int) -> None:
    conn = raw(path)
    try:
        migrate(conn, target=version)
    finally:
        conn.close()
    assert user_version(path) == version


def test_migrations_are_numbered_in_order_and_each_version_has_a_seed() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, LATEST_VERSION + 1))
    assert set(SEEDS) == set(range(1, LATEST_VERSION))


async def test_from_nothing(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
    assert user_version(path) == LATEST_VERSION
    tables = {name for kind, name, _ in _schema(path) if kind == "table"}
    assert {"chats", "players", "games", "actions", "ledger", "deals"} <= tables


@pytest.mark.parametrize("version", range(1, LATEST_VERSION))
async def test_from_every_earlier_version_with_data(tmp_path: Path, version: int) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    async with await Database.open(fresh):
        pass
    path = tmp_path / f"v{version}.sqlite3"
    _build(path, version)
    conn = raw(path)
    SEEDS[version](conn)
    conn.close()

    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
        chat = await db.chats.chat(CHAT)
        assert chat is not None and chat.language == "ru"
        assert await db.chats.chat_options(CHAT, "stukolka") == {"stake": 6}
        game = await db.games.active_game(CHAT)
        assert game is not None
        assert game.thread_id is None  # played where there were no topics
        assert (game.version, game.table_message_id, dict(game.hand_messages)) == (1, 7, {B: 8})
        # what was on screen stays known; the table message is taken for the current deal's
        assert game.display.table_deal is None and not game.display.table_unknown
        assert replay(await db.games.action_log(game.game_id), toy.apply) == game.state
        balances = await db.ledger.balances(CHAT)
        assert (dict(balances.players), balances.pot) == SEEDED_MONEY[version]
        assert await db.games.games_with_deadline_before(100.0) == [game]

        # The upgraded file takes new commits, deal records included.
        state = toy.apply(game.state, {"seat": 1, "add": 4})
        await db.games.commit_action(
            game.game_id,
            1,
            state,
            {"seat": 1, "add": 4},
            transfers=toy.action_transfers(game.state, {"seat": 1, "add": 4}),
            deal=toy.deal_record(state),
            now=CLOCK(),
        )
        deal = (await db.history.last_deals(CHAT, 5))[0]
        assert [(t.src, t.dst) for t in deal.transfers] == [(A, POT), (POT, B)]
        assert await db.check_integrity() == []

    assert _schema(path) == _schema(fresh)


async def test_stored_old_defaults_give_way_to_the_corrected_ones(tmp_path: Path) -> None:
    """Migration 3: a stored first_lead or updown (every save stored every option) is dropped,
    so the chat plays docs/rules.md's corrected default; any other value, and updown with the
    dealer naming trumps (the old British preset), stays as chosen."""
    path = tmp_path / "v2.sqlite3"
    _build(path, 2)
    conn = raw(path)
    rows = {
        (1, "stukolka"): {"stake": 6, "compulsory_lead": "first_lead", "variant": "shleif"},
        (2, "stukolka"): {"stake": 9, "compulsory_lead": "every_lead"},
        (1, "starshina"): {"exchange": "updown", "trumps": "none", "stake": 2},
        (2, "starshina"): {"exchange": "updown", "trumps": "dealer_names"},
        (3, "starshina"): {"exchange": "ring"},
    }
    with conn:
        for chat in (1, 2, 3):
            conn.execute("INSERT INTO chats VALUES (?, NULL, 'ru', ?, ?)", (chat, NOW, NOW))
        for (chat, kind), options in rows.items():
            conn.execute(
                "INSERT INTO chat_options VALUES (?, ?, ?, ?)", (chat, kind, dumps(options), NOW)
            )
    conn.close()
    async with await Database.open(path) as db:
        assert await db.chats.chat_options(1, "stukolka") == {"stake": 6, "variant": "shleif"}
        assert await db.chats.chat_options(2, "stukolka") == rows[2, "stukolka"]
        assert await db.chats.chat_options(1, "starshina") == {"trumps": "none", "stake": 2}
        assert await db.chats.chat_options(2, "starshina") == rows[2, "starshina"]
        assert await db.chats.chat_options(3, "starshina") == rows[3, "starshina"]


def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "broken.sqlite3"
    _build(path, LATEST_VERSION)
    broken = Migration(
        LATEST_VERSION + 1,
        "broken",
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n",
    )
    conn = raw(path)
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, target=LATEST_VERSION + 1, migrations=[*MIGRATIONS, broken])
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchall() == []
    conn.close()


def test_a_migration_leaving_a_dangling_key_is_rolled_back(tmp_path: Path) -> None:
    path = tmp_path / "dangling.sqlite3"
    _build(path, LATEST_VERSION)
    dangling = Migration(
        LATEST_VERSION + 1,
        "dangling",
        "INSERT INTO games (chat_id, kind, status, version, state, options, seats, created_at,"
        " updated_at) VALUES (404, 'toy', 'finished', 0, '{}', '{}', '[]', 0, 0);\n",
    )
    conn = raw(path)
    conn.execute("PRAGMA foreign_keys = OFF")
    with pytest.raises(StorageError):
        migrate(conn, target=LATEST_VERSION + 1, migrations=[*MIGRATIONS, dangling])
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    conn.close()


async def test_a_file_from_newer_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    conn = raw(path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaTooNew):
        await Database.open(path)


async def test_several_processes_starting_at_once_on_a_fresh_file(tmp_path: Path) -> None:
    for attempt in range(15):
        path = tmp_path / f"together-{attempt}.sqlite3"
        openers = await asyncio.gather(*(Database.open(path) for _ in range(3)))
        try:
            await openers[0].chats.upsert_chat(CHAT, None, now=CLOCK())
            assert all([await db.chats.chat(CHAT) is not None for db in openers])
        finally:
            for db in openers:
                await db.close()
        assert user_version(path) == LATEST_VERSION


async def test_version_4_fills_the_kept_balances_and_figures_from_the_history(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v3.sqlite3"
    _build(path, 3)
    conn = raw(path)
    _seed_version_3(conn)
    conn.close()
    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
        month = "2023-11"  # NOW, 1_700_000_000, is 14 November 2023
        b = await db.stats.player_stats(B, month, CHAT)
        c = await db.stats.player_stats(C, month, CHAT)
        toy_b, toy_c = b.all_time["toy"], c.all_time["toy"]
        assert (toy_b.net, toy_b.deals, toy_b.games) == (-2, 1, 1)
        # the deal he played and his remiz, as the figures of the game's own they became
        assert toy_b.fields == {"deals_active": 1, "remizes": 1, "remiz_paid": 2}
        assert (toy_b.best_deal, toy_b.worst_deal) == (-2, -2)
        assert (toy_c.net, toy_c.tricks, toy_c.best_deal) == (1, 1, 1)
        assert b.this_month == b.all_time


async def test_version_7_takes_every_kept_hand_message_for_its_games_deal_in_play(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v6.sqlite3"
    _build(path, 6)
    conn = raw(path)
    _seed_version_6(conn)
    conn.close()
    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
        playing, finished, frozen = (
            await db.games.game(1),
            await db.games.game(2),
            await db.games.game(3),
        )
        # a state without a table part is at its first deal
        assert (playing.deal, dict(playing.hand_messages), playing.old_hands) == (0, {B: 8}, ())
        assert (finished.deal, dict(finished.hand_messages)) == (3, {A: 9})
        assert finished.display.old_hands == ()
        # the frozen game's message shows the deal that ended: it is to be retired
        assert (frozen.deal, dict(frozen.hand_messages)) == (2, {})
        assert [(m.user_id, m.deal, m.message_id) for m in frozen.old_hands] == [(C, 1, 10)]
        assert await ChatDisplay(db).games_with_old_hands() == [frozen]


async def test_version_8_moves_every_games_own_figure_from_its_column_to_a_named_row(
    tmp_path: Path,
) -> None:
    """The four columns of a Стуколка player's figures become rows of the same names, value
    for value (a negative one too), and the columns go: a game's own figures are its own."""
    path = tmp_path / "v7.sqlite3"
    _build(path, 7)
    conn = raw(path)
    _seed_version_7(conn)
    conn.close()
    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
        for user in USERS:
            stats = await db.stats.player_stats(user, "2023-11", CHAT)
            assert stats.all_time["toy"].fields == SEEDED_FIELDS.get(user, {})
            assert stats.this_month == stats.all_time
    conn = raw(path)
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(player_stats)")}
        assert not columns & {"remizes", "remiz_paid", "pots_taken", "pot_chips"}
        moved = conn.execute(
            "SELECT user_id, field, value FROM player_stat_fields WHERE kind = 'toy'"
            " AND month = '2023-11' AND chat_id = ? ORDER BY user_id, field",
            (CHAT,),
        ).fetchall()
        assert moved == sorted(
            (user, name, value)
            for user, fields in SEEDED_FIELDS.items()
            for name, value in fields.items()
        )
    finally:
        conn.close()


async def test_version_9_indexes_who_sits_at_which_open_game_and_keeps_it_right(
    tmp_path: Path,
) -> None:
    """The open games a user sits at are read through an index that migration 9 fills from the
    games there are, and that follows every change of a game's seats or status."""
    path = tmp_path / "v8.sqlite3"
    _build(path, 8)
    conn = raw(path)
    _seed_version_8(conn)
    conn.close()
    async with await Database.open(path) as db:
        everything = {game.game_id: game for game in await db.games.open_games()}
        assert len(everything) >= 2
        for user in USERS:
            mine = [g.game_id for g in everything.values() if user in g.seats]
            assert [g.game_id for g in await db.games.user_open_games(user)] == mine
        stranger = 4_000_000_001
        assert await db.games.user_open_games(stranger) == []
        game = await db.games.active_game(CHAT)
        assert game is not None and A in game.seats
    conn = raw(path)
    try:
        plan = " ".join(
            str(row[-1])
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT game_id FROM open_seats WHERE user_id = ?", (A,)
            )
        )
        assert "SCAN" not in plan, plan
        # a seat taken, a seat left: the index follows the seats column
        conn.execute(
            "UPDATE games SET seats = ?, status = 'lobby' WHERE game_id = ?",
            (dumps([B, stranger]), game.game_id),
        )
        seated = conn.execute(
            "SELECT user_id FROM open_seats WHERE game_id = ? ORDER BY user_id", (game.game_id,)
        ).fetchall()
        assert [row[0] for row in seated] == sorted([B, stranger])
        conn.execute("UPDATE games SET status = 'finished' WHERE game_id = ?", (game.game_id,))
        conn.commit()
    finally:
        conn.close()
    async with await Database.open(path) as db:
        assert game.game_id not in [g.game_id for g in await db.games.user_open_games(B)]
        assert await db.games.user_open_games(stranger) == []
        assert await db.check_integrity() == []


async def test_version_10_moves_the_games_won_and_deals_played_columns_to_named_rows(
    tmp_path: Path,
) -> None:
    """The games won (Старшина's) and the deals played (Стуколка's) become rows of their
    columns' names, value for value, beside the figures of a game's own already there; the
    columns go, so player_stats holds only what every game has."""
    path = tmp_path / "v9.sqlite3"
    _build(path, 9)
    conn = raw(path)
    _seed_version_9(conn)
    conn.close()
    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
        for user in USERS:
            stats = await db.stats.player_stats(user, "2023-11", CHAT)
            expected = dict(SEEDED_PLAY.get(user, {}), **({"remizes": 1} if user == C else {}))
            assert stats.all_time["toy"].fields == expected
            assert stats.this_month == stats.all_time
    conn = raw(path)
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(player_stats)")}
        assert columns == {
            *("chat_id", "user_id", "kind", "month", "net", "games", "deals", "tricks"),
            *("best_deal", "worst_deal"),
        }
    finally:
        conn.close()
