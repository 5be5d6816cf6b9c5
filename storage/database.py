"""``Database``: the one object the bot opens at start-up and closes at shutdown.

It owns one SQLite connection, aiosqlite's, on aiosqlite's thread, and gives its repositories
(``db.games``, ``db.chats``…), all on that connection. Each of their methods hands that thread
one plain function that does the whole job — a complete transaction, or a read snapshot — so
a transaction is never split across awaits: no other coroutine's statement can land inside
it, no lock is needed, and one commit costs one thread hop instead of one per statement
(thread hops dominate here: a prototype went from about 960 to 3,800 commits a second).
``storage.connection`` says how a whole function makes one hop through aiosqlite's public API.

Durability. The file is in WAL mode with foreign keys on. ``synchronous`` defaults to
``FULL``: each commit is fsynced to the WAL, so an acknowledged commit survives a power cut or
a host crash as well as a crash of the bot. ``NORMAL`` is enough against the bot's own crash
(the SIGKILL test in ``tests/storage/test_crash.py`` shows it), but on power loss it may lose
the last commits — and a player may already have seen a message about them.

Group commit. Writes (``_write``) do not each take a transaction and an fsync of their own:
the writes asked for while the previous batch was on the database thread go together, each in
a savepoint of its own inside one ``BEGIN IMMEDIATE`` … ``COMMIT``, and every caller hears of
its own write only after that commit, so what is acknowledged is durable as before. A write
that fails (a stale version, a closed game) is rolled back to its savepoint and raises for its
caller alone; the others commit. Nothing waits to fill a batch: a write that finds the thread
idle goes at once, alone. Under bench/load.py, where a hundred groups commit at once, batches
cut the fsyncs (and the queue behind them) several times over; with one commit at a time it
changes nothing.

Reads of games and players from memory. Opened with ``cache_reads=True`` (the bot does), a
``Database`` serves them from ``storage.cache`` when it can: the bot reads a game about nine
times per button press and writes it once, and every read that goes to the file is a thread hop
that waits behind the others. That mode is for the only writer of the file (the bot is one
process with one ``Database``): another connection's commits are seen from this object's next
trip to the file on (``PRAGMA data_version``), not at once. Without it (the default), every
read goes to the file and sees every commit made before it.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path
from types import TracebackType
from typing import Final, Literal

import aiosqlite

from storage import connection, ledger
from storage.database_chats import Chats
from storage.database_core import DatabaseCore, snapshot
from storage.database_games import Games
from storage.database_money import Evenings, History, Ledger, Statistics
from storage.errors import DatabaseDamaged, StorageError
from storage.migrations import migrate
from storage.records import Balances

DEFAULT_PATH: Final = Path("data") / "bot.sqlite3"
"""Where the bot keeps its database unless settings say otherwise."""

Synchronous = Literal["NORMAL", "FULL"]
"""SQLite ``PRAGMA synchronous`` levels that are safe with WAL."""


def _prepare(
    conn: sqlite3.Connection, path: Path, synchronous: Synchronous, busy_timeout: float
) -> None:
    """Set the durable settings on a new connection and bring the schema up to date."""
    conn.row_factory = sqlite3.Row
    _quick_check(conn, path)
    _use_wal(conn, path, busy_timeout)
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged file (``PRAGMA quick_check``: SQLite's structure, without the slow
    index-to-table cross-check), with a message that says what to do."""
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as error:
        rows = [str(error)]
    if rows != ["ok"]:
        found = "; ".join(rows[:3])
        raise DatabaseDamaged(
            f"{path}: the database file is damaged ({found}). Restore it from a backup"
            " (see storage/backup.py) or move it away; the bot does not start on it."
        )


def check_file(path: str | os.PathLike[str]) -> None:
    """Raise ``DatabaseDamaged`` if the file at ``path`` exists and fails the quick check."""
    file = Path(path)
    if not file.exists():
        return
    conn = sqlite3.connect(file, isolation_level=None)
    try:
        _quick_check(conn, file)
    finally:
        conn.close()


def _use_wal(conn: sqlite3.Connection, path: Path, busy_timeout: float) -> None:
    """Switch the file to WAL (a no-op once it is).

    Two processes opening a fresh file at once can get SQLITE_BUSY here without SQLite's busy
    handler being called, so the busy timeout is applied by hand.
    """
    deadline = time.monotonic() + busy_timeout
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            break
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.005)
    if str(mode).lower() != "wal":
        raise StorageError(f"{path}: cannot switch to WAL (journal mode {mode})")


class Database(DatabaseCore):
    """The open file and its repositories, one per concern, all on this one connection (its
    group commit, its read cache): ``chats`` (chats and players), ``games`` (games and their
    action log), ``ledger`` (balances and transfers), ``history`` (finished deals and the
    export), ``evenings`` and ``stats`` (the players' figures). The table service composes the
    ones it needs; a front-end's own display storage (``storage.chat_display``) is built on the
    same connection.

    Open with ``await Database.open(path)`` and close with ``await db.close()``, or use
    ``async with await Database.open(path) as db``. Methods may be awaited concurrently; they
    run one at a time, each as a whole.
    """

    def __init__(self, link: aiosqlite.Connection, path: Path, cache_reads: bool = False) -> None:
        """Internal: use ``Database.open``."""
        super().__init__(link, path, cache_reads)
        self.chats = Chats(self)
        self.games = Games(self)
        self.ledger = Ledger(self)
        self.history = History(self)
        self.evenings = Evenings(self)
        self.stats = Statistics(self)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout: float = 5.0,
        cache_reads: bool = False,
    ) -> Database:
        """Open (creating the file and its folder if needed) and migrate the database.

        ``busy_timeout`` is how long, in seconds, a write waits for another connection's.
        ``cache_reads``: serve games and players from memory when possible; only for the one
        ``Database`` that writes the file (see the module's docstring).
        Raises ``SchemaTooNew`` for a file written by a newer version of the code.
        """
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        link = await connection.connect(str(file), busy_timeout=busy_timeout)
        database = cls(link, file, cache_reads)
        try:
            await database._run(_prepare, file, synchronous, busy_timeout)
        except BaseException:
            # the connection and its thread are gone before the caller moves on
            database._closed = True
            await link.close()
            raise
        return database

    async def close(self) -> None:
        """Close the connection (a second call does nothing)."""
        if self._closed:
            return
        while self._shipper is not None:
            await asyncio.shield(self._shipper)
        try:
            await self._run(_optimize)
        except sqlite3.OperationalError:
            pass  # a full disk or a read-only file: the statistics wait for the next time
        finally:
            self._closed = True
            await self._link.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def probe_write(self) -> bool:
        """Try one harmless write (while writes fail, to see whether they work again); True
        if it was committed."""
        try:
            await self._write(_probe)
        except sqlite3.Error:
            return False
        return self.write_problem is None

    async def check_integrity(self) -> list[str]:
        """Problems found in the whole file (empty when sound); reads every page, so it is slow
        on a big file. Checks SQLite's own structure, foreign keys and that every chat's
        balances and pots sum to zero."""
        return await self._run(snapshot(_integrity_problems))


def _probe(conn: sqlite3.Connection) -> None:
    """A write that changes nothing: the first chat's title set to itself."""
    conn.execute("UPDATE chats SET title = title WHERE rowid = (SELECT MIN(rowid) FROM chats)")


def _optimize(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA optimize")


def _integrity_problems(conn: sqlite3.Connection) -> list[str]:
    problems: list[str] = [
        f"integrity: {row[0]}" for row in conn.execute("PRAGMA integrity_check") if row[0] != "ok"
    ]
    problems += [f"foreign key: {tuple(row)}" for row in conn.execute("PRAGMA foreign_key_check")]
    chats_with_money = conn.execute(
        "SELECT chat_id FROM ledger UNION SELECT chat_id FROM balances"
    ).fetchall()
    for (chat_id,) in chats_with_money:
        summed = ledger.balances_from_ledger(conn, chat_id)
        if summed.total != 0:
            problems.append(f"chat {chat_id}: balances and pots sum to {summed.total}")
        kept = ledger.balances(conn, chat_id)
        if _nonzero(kept) != _nonzero(summed):
            problems.append(f"chat {chat_id}: kept balances differ from the ledger's sums")
        nets = dict(
            conn.execute(
                "SELECT user_id, SUM(net) FROM player_stats WHERE chat_id = ? GROUP BY user_id",
                (chat_id,),
            ).fetchall()
        )
        if {u: n for u, n in nets.items() if n} != _nonzero(summed)[0]:
            problems.append(f"chat {chat_id}: the players' monthly nets differ from the ledger")
    return problems


def _nonzero(balances: Balances) -> tuple[dict[int, int], int, dict[int, int]]:
    players = {user: amount for user, amount in balances.players.items() if amount}
    pots = {game: amount for game, amount in balances.game_pots.items() if amount}
    return players, balances.pot, pots
