"""The database schema as numbered migrations, applied in order at start-up.

``PRAGMA user_version`` records the last migration applied; a fresh file is version 0.
Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with the
``user_version`` bump, so a crash or an error leaves the file at the previous version and
two processes starting at once cannot both apply it. Migrations are never edited once
released: a change to the schema is a new migration at the end of the list (and a seed for
the previous version in ``tests/storage/test_migrations.py``).

Append-only rules live in the schema itself: triggers refuse to update or delete action
log and ledger rows (a ledger or deal row may only change its ``chat_id``, which
``migrate_chat`` needs), and a ledger row's chat must be its game's chat.

A migration that rebuilds a table must switch ``PRAGMA foreign_keys`` off around it; that
pragma has no effect inside a transaction, so such a migration needs its own runner code.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from storage.errors import SchemaTooNew, StorageError


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: ``script`` takes the file from ``version - 1`` to ``version``."""

    version: int
    description: str
    script: str


_BASE_SCHEMA = """
CREATE TABLE chats (
    chat_id    INTEGER PRIMARY KEY,
    title      TEXT,
    language   TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE chat_options (
    chat_id    INTEGER NOT NULL REFERENCES chats (chat_id),
    kind       TEXT NOT NULL,
    options    TEXT NOT NULL CHECK (json_valid(options) AND json_type(options) = 'object'),
    updated_at REAL NOT NULL,
    PRIMARY KEY (chat_id, kind)
) WITHOUT ROWID;

CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    language   TEXT,
    started    INTEGER NOT NULL DEFAULT 0 CHECK (started IN (0, 1)),
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE games (
    game_id          INTEGER PRIMARY KEY,
    chat_id          INTEGER NOT NULL REFERENCES chats (chat_id),
    kind             TEXT NOT NULL CHECK (kind <> ''),
    status           TEXT NOT NULL
                     CHECK (status IN ('lobby', 'active', 'finished', 'stopped')),
    version          INTEGER NOT NULL CHECK (version >= 0),
    state            TEXT NOT NULL CHECK (json_valid(state)),
    options          TEXT NOT NULL CHECK (json_valid(options)),
    seats            TEXT NOT NULL CHECK (json_valid(seats) AND json_type(seats) = 'array'),
    created_by       INTEGER REFERENCES players (user_id),
    table_message_id INTEGER,
    turn_deadline    REAL,
    created_at       REAL NOT NULL,
    updated_at       REAL NOT NULL
);
CREATE INDEX games_by_chat ON games (chat_id);
-- One game in the lobby or in play per chat. Also what finds the open games and their
-- deadlines after a restart: they are few, and an index on the deadline would cost every
-- commit a page write.
CREATE UNIQUE INDEX games_one_open_per_chat ON games (chat_id)
    WHERE status IN ('lobby', 'active');

CREATE TABLE game_messages (
    game_id    INTEGER NOT NULL REFERENCES games (game_id),
    user_id    INTEGER NOT NULL REFERENCES players (user_id),
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- The action log: version 0 holds the initial state, every commit adds the next version.
CREATE TABLE actions (
    action_id  INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (game_id),
    version    INTEGER NOT NULL CHECK (version >= 0),
    kind       TEXT NOT NULL CHECK (kind IN ('init', 'action', 'system')),
    seat       INTEGER,
    user_id    INTEGER REFERENCES players (user_id),
    action     TEXT CHECK (action IS NULL OR json_valid(action)),
    state      TEXT CHECK (state IS NULL OR json_valid(state)),
    created_at REAL NOT NULL,
    UNIQUE (game_id, version),
    CHECK ((kind = 'action') = (action IS NOT NULL)),
    CHECK ((kind = 'action') = (state IS NULL)),
    CHECK ((kind = 'init') = (version = 0))
);
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

-- The ledger: every chip that ever moved. A party is a user, the chat pot or the game pot.
CREATE TABLE ledger (
    entry_id   INTEGER PRIMARY KEY,
    chat_id    INTEGER NOT NULL REFERENCES chats (chat_id),
    game_id    INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    deal       INTEGER NOT NULL CHECK (deal >= 0),
    src_kind   TEXT NOT NULL CHECK (src_kind IN ('user', 'pot', 'game_pot')),
    src_user   INTEGER REFERENCES players (user_id),
    dst_kind   TEXT NOT NULL CHECK (dst_kind IN ('user', 'pot', 'game_pot')),
    dst_user   INTEGER REFERENCES players (user_id),
    amount     INTEGER NOT NULL CHECK (typeof(amount) = 'integer' AND amount > 0),
    reason     TEXT NOT NULL CHECK (reason <> ''),
    created_at REAL NOT NULL,
    FOREIGN KEY (game_id, version) REFERENCES actions (game_id, version),
    CHECK ((src_kind = 'user') = (src_user IS NOT NULL)),
    CHECK ((dst_kind = 'user') = (dst_user IS NOT NULL)),
    CHECK (src_kind <> dst_kind OR src_user IS NOT dst_user)
);
CREATE INDEX ledger_by_chat ON ledger (chat_id);
CREATE INDEX ledger_by_game ON ledger (game_id, deal);
CREATE TRIGGER ledger_no_update BEFORE UPDATE OF
    entry_id, game_id, version, deal, src_kind, src_user, dst_kind, dst_user, amount, reason,
    created_at
ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_chat_is_game_chat BEFORE INSERT ON ledger
WHEN NEW.chat_id IS NOT (SELECT chat_id FROM games WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'ledger chat differs from the game chat');
END;
CREATE TRIGGER ledger_chat_follows_game BEFORE UPDATE OF chat_id ON ledger
WHEN NEW.chat_id IS NOT (SELECT chat_id FROM games WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'ledger chat differs from the game chat');
END;
"""

_DEAL_HISTORY = """
-- One row per finished deal, written by the commit that ended it.
CREATE TABLE deals (
    deal_id  INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL,
    version  INTEGER NOT NULL,
    chat_id  INTEGER NOT NULL REFERENCES chats (chat_id),
    deal     INTEGER NOT NULL CHECK (deal >= 0),
    summary  TEXT NOT NULL CHECK (json_valid(summary) AND json_type(summary) = 'object'),
    ended_at REAL NOT NULL,
    UNIQUE (game_id, deal),
    FOREIGN KEY (game_id, version) REFERENCES actions (game_id, version)
);
CREATE INDEX deals_by_chat ON deals (chat_id, deal_id);
CREATE TRIGGER deals_no_update BEFORE UPDATE OF
    deal_id, game_id, version, deal, summary, ended_at
ON deals
BEGIN
    SELECT RAISE(ABORT, 'deals are append-only');
END;
CREATE TRIGGER deals_no_delete BEFORE DELETE ON deals
BEGIN
    SELECT RAISE(ABORT, 'deals are append-only');
END;
CREATE TRIGGER deals_chat_is_game_chat BEFORE INSERT ON deals
WHEN NEW.chat_id IS NOT (SELECT chat_id FROM games WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'deal chat differs from the game chat');
END;
CREATE TRIGGER deals_chat_follows_game BEFORE UPDATE OF chat_id ON deals
WHEN NEW.chat_id IS NOT (SELECT chat_id FROM games WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'deal chat differs from the game chat');
END;

CREATE TABLE deal_players (
    deal_id INTEGER NOT NULL REFERENCES deals (deal_id),
    user_id INTEGER NOT NULL REFERENCES players (user_id),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    tricks  INTEGER NOT NULL CHECK (tricks >= 0),
    active  INTEGER NOT NULL CHECK (active IN (0, 1)),
    PRIMARY KEY (deal_id, user_id)
) WITHOUT ROWID;
CREATE INDEX deal_players_by_user ON deal_players (user_id);
CREATE TRIGGER deal_players_no_update BEFORE UPDATE ON deal_players
BEGIN
    SELECT RAISE(ABORT, 'deal players are append-only');
END;
CREATE TRIGGER deal_players_no_delete BEFORE DELETE ON deal_players
BEGIN
    SELECT RAISE(ABORT, 'deal players are append-only');
END;
"""

# docs/rules.md corrected two defaults: compulsory_lead is every_lead (it was first_lead) and
# Старшина's exchange is the ring (it was updown). Until now every save of a chat's settings
# stored every option, so a stored old default cannot be told from one never chosen: it goes,
# and the chat plays the corrected default. A value other than the old default was chosen and
# stays; so does updown beside trumps named by the dealer (the old British preset).
_CORRECTED_DEFAULTS = """
UPDATE chat_options SET options = json_remove(options, '$.compulsory_lead')
WHERE kind = 'stukolka' AND json_extract(options, '$.compulsory_lead') = 'first_lead';
UPDATE chat_options SET options = json_remove(options, '$.exchange')
WHERE kind = 'starshina' AND json_extract(options, '$.exchange') = 'updown'
    AND coalesce(json_extract(options, '$.trumps'), 'none') = 'none';
"""

_PARTY = """CASE {side}_kind WHEN 'user' THEN {side}_user WHEN 'game_pot' THEN game_id ELSE 0 END"""

_BALANCES_AND_STATS = f"""
-- Every party's balance per chat, kept by the commit that appends the ledger rows (so a deal's
-- end reads a few rows instead of summing the chat's whole ledger). A party is a user (his id),
-- the chat pot (0) or a game pot (the game's id); the ledger stays the source of truth and
-- ``Database.check_integrity`` compares the two.
CREATE TABLE balances (
    chat_id INTEGER NOT NULL REFERENCES chats (chat_id),
    kind    TEXT NOT NULL CHECK (kind IN ('user', 'pot', 'game_pot')),
    party   INTEGER NOT NULL,
    amount  INTEGER NOT NULL,
    PRIMARY KEY (chat_id, kind, party)
) WITHOUT ROWID;
INSERT INTO balances (chat_id, kind, party, amount)
SELECT chat_id, kind, party, SUM(amount) FROM (
    SELECT chat_id, dst_kind AS kind, {_PARTY.format(side="dst")} AS party, amount FROM ledger
    UNION ALL
    SELECT chat_id, src_kind, {_PARTY.format(side="src")}, -amount FROM ledger
) WHERE true GROUP BY chat_id, kind, party;

-- Each player's figures per chat, game kind and month (UTC, 'YYYY-MM'), kept by the same
-- commits: /stats and /top read a few rows per player, however long the chat has played.
-- Money columns follow the ledger rows' months, play columns the deals' ends.
CREATE TABLE player_stats (
    chat_id      INTEGER NOT NULL REFERENCES chats (chat_id),
    user_id      INTEGER NOT NULL REFERENCES players (user_id),
    kind         TEXT NOT NULL,
    month        TEXT NOT NULL,
    net          INTEGER NOT NULL DEFAULT 0,
    games        INTEGER NOT NULL DEFAULT 0,
    games_won    INTEGER NOT NULL DEFAULT 0,
    deals        INTEGER NOT NULL DEFAULT 0,
    deals_active INTEGER NOT NULL DEFAULT 0,
    tricks       INTEGER NOT NULL DEFAULT 0,
    remizes      INTEGER NOT NULL DEFAULT 0,
    remiz_paid   INTEGER NOT NULL DEFAULT 0,
    pots_taken   INTEGER NOT NULL DEFAULT 0,
    pot_chips    INTEGER NOT NULL DEFAULT 0,
    best_deal    INTEGER,
    worst_deal   INTEGER,
    PRIMARY KEY (chat_id, user_id, kind, month)
) WITHOUT ROWID;
CREATE INDEX player_stats_by_user ON player_stats (user_id);

INSERT INTO player_stats (chat_id, user_id, kind, month, net, remizes, remiz_paid, pots_taken,
                          pot_chips)
SELECT l.chat_id, l.user_id, g.kind, l.month, SUM(l.amount), SUM(l.remiz), SUM(l.remiz_paid),
       SUM(l.pot), SUM(l.pot_chips)
FROM (
    SELECT chat_id, game_id, dst_user AS user_id, strftime('%Y-%m', created_at, 'unixepoch')
               AS month, amount, 0 AS remiz, 0 AS remiz_paid,
           reason IN ('pot_taken', 'game_pot') AS pot,
           CASE WHEN reason IN ('pot_taken', 'game_pot') THEN amount ELSE 0 END AS pot_chips
    FROM ledger WHERE dst_kind = 'user'
    UNION ALL
    SELECT chat_id, game_id, src_user, strftime('%Y-%m', created_at, 'unixepoch'), -amount,
           reason = 'remiz', CASE WHEN reason = 'remiz' THEN amount ELSE 0 END, 0, 0
    FROM ledger WHERE src_kind = 'user'
) AS l JOIN games AS g USING (game_id)
WHERE true GROUP BY l.chat_id, l.user_id, g.kind, l.month;

INSERT INTO player_stats (chat_id, user_id, kind, month, games, games_won, deals, deals_active,
                          tricks, best_deal, worst_deal)
SELECT d.chat_id, p.user_id, g.kind, strftime('%Y-%m', d.ended_at, 'unixepoch') AS month,
       COUNT(DISTINCT d.game_id), SUM(json_extract(d.summary, '$.winner') IS p.seat), COUNT(*),
       SUM(p.active), SUM(p.tricks),
       MAX(COALESCE(n.net, 0)), MIN(COALESCE(n.net, 0))
FROM deals AS d
JOIN deal_players AS p USING (deal_id)
JOIN games AS g ON g.game_id = d.game_id
LEFT JOIN (
    SELECT game_id, deal, user_id, SUM(amount) AS net FROM (
        SELECT game_id, deal, dst_user AS user_id, amount FROM ledger WHERE dst_kind = 'user'
        UNION ALL
        SELECT game_id, deal, src_user, -amount FROM ledger WHERE src_kind = 'user'
    ) GROUP BY game_id, deal, user_id
) AS n ON n.game_id = d.game_id AND n.deal = d.deal AND n.user_id = p.user_id
WHERE true GROUP BY d.chat_id, p.user_id, g.kind, month
ON CONFLICT (chat_id, user_id, kind, month) DO UPDATE SET
    games = excluded.games, deals = excluded.deals, deals_active = excluded.deals_active,
    games_won = excluded.games_won, tricks = excluded.tricks, best_deal = excluded.best_deal,
    worst_deal = excluded.worst_deal;

-- An evening's deals are read by the time they ended.
CREATE INDEX deals_by_chat_time ON deals (chat_id, ended_at);

-- The user who won the game a deal ended (Старшина), for the games won of /stats and evenings.
ALTER TABLE deals ADD COLUMN winner INTEGER REFERENCES players (user_id);
UPDATE deals SET winner = (
    SELECT p.user_id FROM deal_players AS p
    WHERE p.deal_id = deals.deal_id AND p.seat = json_extract(deals.summary, '$.winner')
);
DROP TRIGGER deals_no_update;
CREATE TRIGGER deals_no_update BEFORE UPDATE OF
    deal_id, game_id, version, deal, summary, ended_at, winner
ON deals
BEGIN
    SELECT RAISE(ABORT, 'deals are append-only');
END;

-- Evenings: a chat's runs of play with no pause longer than the chat's gap (seconds; NULL:
-- the default). The commit that ends a deal extends the open evening, or ends it and opens
-- the next one when the pause was longer; the bot ends one when the gap passes, at /stop or
-- /evening, and marks it posted once its summary is sent. Its deals are the chat's deals
-- that ended from started_at to last_at.
ALTER TABLE chats ADD COLUMN evening_gap REAL CHECK (evening_gap IS NULL OR evening_gap > 0);
CREATE TABLE evenings (
    evening_id INTEGER PRIMARY KEY,
    chat_id    INTEGER NOT NULL REFERENCES chats (chat_id),
    started_at REAL NOT NULL,
    last_at    REAL NOT NULL CHECK (last_at >= started_at),
    deals      INTEGER NOT NULL CHECK (deals > 0),
    ended_at   REAL,
    posted     INTEGER NOT NULL DEFAULT 0 CHECK (posted IN (0, 1)),
    CHECK (posted = 0 OR ended_at IS NOT NULL)
);
CREATE UNIQUE INDEX evenings_open ON evenings (chat_id) WHERE ended_at IS NULL;
CREATE INDEX evenings_unposted ON evenings (chat_id, evening_id)
    WHERE posted = 0 AND ended_at IS NOT NULL;

-- The /history messages the bot sent: only these are edited by the paging and 🔎 buttons
-- (button data can be forged, and pressed on any message).
CREATE TABLE history_messages (
    chat_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (chat_id, message_id)
) WITHOUT ROWID;
"""

# Forum topics: in a supergroup with topics each topic holds a table of its own. A game
# remembers its topic (``thread_id``, Telegram's ``message_thread_id``; NULL: a chat without
# topics, or the General topic of one), and "one open game per chat" becomes one per chat and
# topic. Every game written so far was played where there were no topics: NULL is right for it.
_FORUM_TOPICS = """
ALTER TABLE games ADD COLUMN thread_id INTEGER CHECK (thread_id IS NULL OR thread_id > 0);
DROP INDEX games_one_open_per_chat;
CREATE UNIQUE INDEX games_one_open_per_table ON games (chat_id, ifnull(thread_id, 0))
    WHERE status IN ('lobby', 'active');
"""

_DISPLAY_STATE = """
-- What the group has on screen for a game, beside table_message_id (and each player's hand
-- message in game_messages, and the results still to post in the state's table part, which
-- the move that ends a deal writes): the deal the table message shows (NULL: the current
-- one), whether a table message may have been delivered though its send failed (none other is
-- sent until the next deal, so the group never sees the table twice), and the lobby message
-- of a started game whose buttons are still to be taken off.
ALTER TABLE games ADD COLUMN table_deal INTEGER CHECK (table_deal IS NULL OR table_deal >= 0);
ALTER TABLE games ADD COLUMN table_unknown INTEGER NOT NULL DEFAULT 0
    CHECK (table_unknown IN (0, 1));
ALTER TABLE games ADD COLUMN lobby_message_id INTEGER;
"""

# A hand message remembers the deal it shows, so the very commit that starts the next deal (it
# counts the deals in the state's table part, ``$.table.deals``) makes the old ones old, with no
# write of its own: a crash right after that commit cannot leave the new deal's hand to be
# edited into the last deal's message, and the old messages are still known, to lose their
# buttons. A player has one message per deal (the key). The ones kept so far show the deal in
# play, but in a game an older version left frozen between a deal's end and the next deal
# (active with no turn deadline: the bot deals its next deal on start-up), where they show the
# deal that ended. game_messages is rebuilt (a key cannot be altered); no table refers to it,
# so the foreign keys may stay on.
_HAND_MESSAGE_DEALS = """
CREATE TABLE game_messages_by_deal (
    game_id    INTEGER NOT NULL REFERENCES games (game_id),
    user_id    INTEGER NOT NULL REFERENCES players (user_id),
    deal       INTEGER NOT NULL CHECK (deal >= 0),
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id, deal)
) WITHOUT ROWID;
INSERT INTO game_messages_by_deal (game_id, user_id, deal, message_id)
    SELECT m.game_id, m.user_id, max(ifnull(json_extract(g.state, '$.table.deals'), 0)
        - (g.status = 'active' AND g.turn_deadline IS NULL), 0), m.message_id
    FROM game_messages AS m JOIN games AS g USING (game_id);
DROP TABLE game_messages;
ALTER TABLE game_messages_by_deal RENAME TO game_messages;
"""

# A game's own figures (a Стуколка player's remizes and the pots he took) were columns of
# player_stats, so a game with figures of its own needed a migration. They become rows by name,
# which the game declares and the table service counts; storage keeps them without knowing what
# they mean. Every non-zero value moves over under its column's name, whatever the game.
_GAME_FIELDS = """
CREATE TABLE player_stat_fields (
    chat_id INTEGER NOT NULL REFERENCES chats (chat_id),
    user_id INTEGER NOT NULL REFERENCES players (user_id),
    kind    TEXT NOT NULL,
    month   TEXT NOT NULL,
    field   TEXT NOT NULL,
    value   INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id, kind, month, field)
) WITHOUT ROWID;
CREATE INDEX player_stat_fields_by_user ON player_stat_fields (user_id);
INSERT INTO player_stat_fields (chat_id, user_id, kind, month, field, value)
SELECT chat_id, user_id, kind, month, 'remizes', remizes FROM player_stats WHERE remizes != 0
UNION ALL
SELECT chat_id, user_id, kind, month, 'remiz_paid', remiz_paid FROM player_stats
    WHERE remiz_paid != 0
UNION ALL
SELECT chat_id, user_id, kind, month, 'pots_taken', pots_taken FROM player_stats
    WHERE pots_taken != 0
UNION ALL
SELECT chat_id, user_id, kind, month, 'pot_chips', pot_chips FROM player_stats
    WHERE pot_chips != 0;
ALTER TABLE player_stats DROP COLUMN remizes;
ALTER TABLE player_stats DROP COLUMN remiz_paid;
ALTER TABLE player_stats DROP COLUMN pots_taken;
ALTER TABLE player_stats DROP COLUMN pot_chips;
"""

# Who sits at which open game, kept by triggers in the very statement that writes a game's seats
# or status, so it cannot drift: the Mini App's menu button finds a user's table by this index
# instead of reading every open game. A commit that changes neither (a move) writes nothing here.
_OPEN_SEATS = """
CREATE TABLE open_seats (
    user_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games (game_id),
    PRIMARY KEY (user_id, game_id)
) WITHOUT ROWID;
INSERT INTO open_seats (user_id, game_id)
    SELECT DISTINCT s.value, g.game_id FROM games AS g, json_each(g.seats) AS s
    WHERE g.status IN ('lobby', 'active');
CREATE TRIGGER open_seats_of_a_new_game AFTER INSERT ON games
    WHEN NEW.status IN ('lobby', 'active')
BEGIN
    INSERT OR IGNORE INTO open_seats (user_id, game_id)
        SELECT value, NEW.game_id FROM json_each(NEW.seats);
END;
CREATE TRIGGER open_seats_of_a_changed_game AFTER UPDATE OF seats, status ON games
    WHEN OLD.seats IS NOT NEW.seats OR OLD.status IS NOT NEW.status
BEGIN
    DELETE FROM open_seats WHERE game_id = NEW.game_id;
    INSERT OR IGNORE INTO open_seats (user_id, game_id)
        SELECT value, NEW.game_id FROM json_each(NEW.seats)
        WHERE NEW.status IN ('lobby', 'active');
END;
CREATE TRIGGER open_seats_of_a_deleted_game AFTER DELETE ON games
BEGIN
    DELETE FROM open_seats WHERE game_id = OLD.game_id;
END;
"""

# Two figures only one game had were still columns of player_stats: the games a player won
# (Старшина: a game of several deals ends with one winner) and the deals he played rather than
# sat out (Стуколка). They become named rows like every game's own figure, declared by the game
# that has them and counted by the table service. Every non-zero value moves over under its
# column's name, whatever the game (a Старшина row's deals played equal its deals: kept, never
# shown), added to a row of that name if one is there already.
_PLAY_FIELDS = """
INSERT INTO player_stat_fields (chat_id, user_id, kind, month, field, value)
SELECT * FROM (
    SELECT chat_id, user_id, kind, month, 'games_won', games_won FROM player_stats
        WHERE games_won != 0
    UNION ALL
    SELECT chat_id, user_id, kind, month, 'deals_active', deals_active FROM player_stats
        WHERE deals_active != 0
) WHERE true
ON CONFLICT (chat_id, user_id, kind, month, field) DO UPDATE SET value = value + excluded.value;
ALTER TABLE player_stats DROP COLUMN games_won;
ALTER TABLE player_stats DROP COLUMN deals_active;
"""

MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "chats, players, games, action log, ledger", _BASE_SCHEMA),
    Migration(2, "deal history: deals and deal_players", _DEAL_HISTORY),
    Migration(3, "chat settings: the corrected defaults of docs/rules.md", _CORRECTED_DEFAULTS),
    Migration(4, "kept balances and per-player monthly figures", _BALANCES_AND_STATS),
    Migration(5, "forum topics: a game's topic, one open game per chat and topic", _FORUM_TOPICS),
    Migration(
        6, "display state: the table message's deal, an unknown send, the old lobby", _DISPLAY_STATE
    ),
    Migration(7, "display state: the deal each hand message shows", _HAND_MESSAGE_DEALS),
    Migration(8, "a game's own figures as named rows, not columns", _GAME_FIELDS),
    Migration(9, "who sits at which open game, indexed by user", _OPEN_SEATS),
    Migration(10, "games won and deals played as a game's own named figures", _PLAY_FIELDS),
)
"""Every migration, in order; versions are 1, 2, … with no gaps."""

LATEST_VERSION: Final[int] = MIGRATIONS[-1].version
"""The schema version this code reads and writes."""


def schema_version(conn: sqlite3.Connection) -> int:
    """The version recorded in the file (0 for a fresh file)."""
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


def migrate(
    conn: sqlite3.Connection,
    target: int = LATEST_VERSION,
    migrations: Sequence[Migration] = MIGRATIONS,
) -> tuple[int, int]:
    """Apply the migrations the file lacks, up to ``target``; return (before, after).

    Raises ``SchemaTooNew`` for a file newer than ``migrations`` know, and ``StorageError``
    if a migration leaves a foreign key dangling (that migration is rolled back).
    """
    known = migrations[-1].version if migrations else 0
    for index, migration in enumerate(migrations, start=1):
        if migration.version != index:
            raise ValueError(f"migration {migration.version} out of order")
    if target > known:
        raise ValueError(f"no migration {target}")
    before = schema_version(conn)
    if before > known:
        raise SchemaTooNew(before, known)
    for migration in migrations[:target]:
        _apply(conn, migration)
    return before, schema_version(conn)


def _apply(conn: sqlite3.Connection, migration: Migration) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Read under the write lock: another process may have migrated while we waited.
        if schema_version(conn) >= migration.version:
            conn.execute("COMMIT")
            return
        for statement in _statements(migration.script):
            conn.execute(statement)
        dangling = conn.execute("PRAGMA foreign_key_check").fetchall()
        if dangling:
            raise StorageError(
                f"migration {migration.version} leaves dangling foreign keys: {dangling[:5]}"
            )
        conn.execute(f"PRAGMA user_version = {int(migration.version)}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> Iterator[str]:
    """Split a script into statements (``executescript`` would commit our transaction)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            yield pending.strip()
            pending = ""
    if pending.strip() and not _only_comments(pending):
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:60]!r}")


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())
