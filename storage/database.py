"""``Database``: the one object the bot opens at start-up and closes at shutdown.

It owns one SQLite connection, aiosqlite's, on aiosqlite's thread. Each public method hands
that thread one plain function that does the whole job — a complete transaction, or a read
snapshot — so a transaction is never split across awaits: no other coroutine's statement can
land inside it, no lock is needed, and one commit costs one thread hop instead of one per
statement (thread hops dominate here: a prototype went from about 960 to 3,800 commits a
second). ``storage.connection`` says how a whole function makes one hop through aiosqlite's
public API.

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Concatenate, Final, Literal, ParamSpec, TypeVar

import aiosqlite

from storage import chats, connection, evenings, games, history, ledger, stats
from storage.cache import NoCache, ReadCache
from storage.errors import DatabaseDamaged, GameNotFound, StorageError
from storage.evenings import Evening, EveningSummary
from storage.migrations import migrate
from storage.records import (
    ActionJSON,
    Balances,
    Chat,
    DealHistory,
    DealRecord,
    Game,
    GameStatus,
    JSONObject,
    LedgerEntry,
    LogEntry,
    Player,
    PlayerTotals,
    Transfer,
)
from storage.sql import read_transaction
from storage.stats import PlayerStats, Standing

DEFAULT_PATH: Final = Path("data") / "bot.sqlite3"
EXPORT_PAGE: Final = 5000  # ledger rows an export reads per trip (about 50 ms on 2 cores)
"""Where the bot keeps its database unless settings say otherwise."""

Synchronous = Literal["NORMAL", "FULL"]
"""SQLite ``PRAGMA synchronous`` levels that are safe with WAL."""

_P = ParamSpec("_P")
_T = TypeVar("_T")


def _snapshot(
    function: Callable[Concatenate[sqlite3.Connection, _P], _T],
) -> Callable[Concatenate[sqlite3.Connection, _P], _T]:
    """``function`` run inside a read transaction, so its SELECTs agree with each other."""

    def wrapper(conn: sqlite3.Connection, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        with read_transaction(conn):
            return function(conn, *args, **kwargs)

    return wrapper


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


class Database:
    """The storage layer's API: chats, players, games, the action log, the ledger, history.

    Open with ``await Database.open(path)`` and close with ``await db.close()``, or use
    ``async with await Database.open(path) as db``. Methods may be awaited concurrently; they
    run one at a time, each as a whole.
    """

    def __init__(
        self,
        link: aiosqlite.Connection,
        path: Path,
        cache_reads: bool = False,
    ) -> None:
        """Internal: use ``Database.open``."""
        self._link = link
        self._path = path
        self._closed = False
        self._cache = ReadCache() if cache_reads else NoCache()
        #: writes waiting for the next batch, and the task that ships batches while any wait
        self._pending: list[_Write] = []
        self._shipper: asyncio.Task[None] | None = None
        #: why the last batch of writes failed (a full disk, a read-only file, a lock held
        #: too long), or None since one succeeded: the health check reports it
        self.write_problem: str | None = None

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

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

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

    async def _run(
        self,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> _T:
        """Run ``function(connection, …)`` on the connection's thread and wait for it."""
        if self._closed:
            raise StorageError("the database is closed")
        result, _ = await self._trip(function, *args, **kwargs)
        return result

    async def _trip(
        self,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> tuple[_T, bool]:
        """``_run``, and whether what ``function`` read may be remembered: no other connection
        committed while it ran (``PRAGMA data_version`` read before and after it)."""
        if self._closed:
            raise StorageError("the database is closed")
        if not self._cache.enabled:
            return await connection.run(self._link, function, *args, **kwargs), False
        result, before, after = await connection.run(
            self._link, _with_data_version, function, args, kwargs
        )
        self._cache.saw_data_version(before)
        self._cache.saw_data_version(after)
        return result, before == after

    async def _write(
        self,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> tuple[_T, bool]:
        """``_trip`` for a write: it commits in the next batch (see "Group commit" above)."""
        if self._closed:
            raise StorageError("the database is closed")
        done: asyncio.Future[tuple[object, bool]] = asyncio.get_running_loop().create_future()
        self._pending.append(_Write(function, args, kwargs, done))
        if self._shipper is None:
            self._shipper = asyncio.create_task(self._ship())
        result, fresh = await done
        return result, fresh  # type: ignore[return-value]

    async def _ship(self) -> None:
        """Ship the waiting writes, one batch per trip, until none wait."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                jobs = [(w.function, w.args, w.kwargs) for w in batch]
                try:
                    outcomes, before, after = await connection.run(self._link, _write_batch, jobs)
                except asyncio.CancelledError:
                    for write in [*batch, *self._pending]:
                        write.done.cancel()
                    self._pending = []
                    raise
                except Exception as error:
                    self.write_problem = f"{type(error).__name__}: {error}"
                    for write in batch:
                        if not write.done.done():
                            write.done.set_exception(error)
                    continue
                failed = [v for ok, v in outcomes if not ok and _is_failure(v)]
                self.write_problem = f"{type(failed[0]).__name__}: {failed[0]}" if failed else None
                self._cache.saw_data_version(before)
                self._cache.saw_data_version(after)
                for write, (ok, value) in zip(batch, outcomes, strict=True):
                    if write.done.done():
                        continue  # its caller was cancelled; the write stands all the same
                    if ok:
                        write.done.set_result((value, before == after))
                    else:
                        assert isinstance(value, BaseException)
                        write.done.set_exception(value)
        finally:
            self._shipper = None

    async def _write_game(
        self,
        game_id: int,
        function: Callable[Concatenate[sqlite3.Connection, _P], _T],
        *args: _P.args,
        **kwargs: _P.kwargs,
    ) -> _T:
        """Run a write of ``game_id`` and remember the game as the write left it."""
        with self._cache.writing_game(game_id):
            (result, row), fresh = await self._write(
                _then_game_row, game_id, function, args, kwargs
            )
        if fresh and row is not None and self._cache.enabled:
            self._cache.keep_game(games.game_from_row(row))
        return result

    def _games_from(self, rows: list[sqlite3.Row], fresh: bool) -> list[Game]:
        found = [games.game_from_row(row) for row in rows]
        if fresh:
            for game in found:
                self._cache.keep_game(game)
        return found

    # Chats and players.

    async def upsert_chat(self, chat_id: int, title: str | None = None) -> Chat:
        """Record a sighting of a chat (call on every update); None keeps the stored title."""
        return (await self._write(chats.upsert_chat, chat_id, title))[0]

    async def chat(self, chat_id: int) -> Chat | None:
        """The chat, or None if the bot has never seen it."""
        return await self._run(chats.get_chat, chat_id)

    async def set_chat_language(self, chat_id: int, language: str | None) -> None:
        """Set the chat's language (None: the bot's default). Raises ``UnknownChat``."""
        await self._write(chats.set_chat_language, chat_id, language)

    async def chat_options(self, chat_id: int, kind: str) -> JSONObject | None:
        """The chat's saved table options for game ``kind``, or None."""
        return await self._run(chats.get_chat_options, chat_id, kind)

    async def set_chat_options(self, chat_id: int, kind: str, options: JSONObject) -> None:
        """Save the chat's table options for game ``kind``. Raises ``UnknownChat``."""
        await self._write(chats.set_chat_options, chat_id, kind, options)

    async def upsert_player(
        self,
        user_id: int,
        name: str,
        *,
        language: str | None = None,
        started: bool | None = None,
    ) -> Player:
        """Record a sighting of a user; ``language``/``started`` None keep what is stored.

        ``started``: True when he presses /start in private, False when he blocks the bot.
        """
        with self._cache.writing_player(user_id):
            player, fresh = await self._write(chats.upsert_player, user_id, name, language, started)
        if fresh:
            self._cache.keep_player(player)
        return player

    async def players(self, user_ids: Iterable[int]) -> dict[int, Player]:
        """The known players among ``user_ids``, by id."""
        found, missing = self._cache.players(list(user_ids))
        if missing:
            read, fresh = await self._trip(chats.get_players, missing)
            for player in read.values() if fresh else ():
                self._cache.keep_player(player)
            found.update(read)
        return found

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Move a chat that became a supergroup to its new id, everything in one transaction.

        Returns False if the old chat is unknown. Settings the new chat already has win.
        Raises ``ChatMigrationConflict`` (moving nothing) if both chats have an open game.
        """
        with self._cache.writing_everything():
            return await self._run(chats.migrate_chat, old_chat_id, new_chat_id)

    # Games.

    async def create_game(
        self,
        chat_id: int,
        kind: str,
        state: JSONObject,
        *,
        created_by: int | None = None,
        seats: Sequence[int] = (),
        options: JSONObject | None = None,
        status: GameStatus = "lobby",
        turn_deadline: float | None = None,
        thread_id: int | None = None,
    ) -> Game:
        """Create a game at version 0 in ``chat_id`` (in its forum topic ``thread_id``, if
        given), logging ``state`` as its initial state.

        Raises ``ActiveGameExists`` (that topic has an open game), ``UnknownChat``,
        ``UnknownPlayer``.
        """
        game, _ = await self._write(
            games.create_game,
            chat_id,
            kind,
            state,
            created_by=created_by,
            seats=seats,
            options={} if options is None else options,
            status=status,
            turn_deadline=turn_deadline,
            thread_id=thread_id,
        )
        return game

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        new_state: JSONObject,
        action: ActionJSON | None,
        *,
        seat: int | None = None,
        user_id: int | None = None,
        transfers: Sequence[Transfer] = (),
        deal: DealRecord | None = None,
        status: GameStatus | None = None,
        seats: Sequence[int] | None = None,
        turn_deadline: float | None = None,
    ) -> int:
        """Commit one state change in one transaction and return the new version.

        Compare-and-set: raises ``StaleVersion`` unless the game is still at
        ``expected_version``. Then writes ``new_state`` as ``expected_version + 1``, logs
        ``action`` (by ``seat``/``user_id``; None for a timeout) — or, when ``action`` is None, a
        ``system`` row holding ``new_state`` so the log still replays — appends ``transfers``
        and the ``deal`` record, sets ``status``/``seats`` if given and ``turn_deadline``
        always (None: no timer). Raises ``GameNotFound``, ``GameClosed`` (finished or stopped)
        and ``UnknownPlayer``; on any error nothing is written.
        """
        return await self._write_game(
            game_id,
            games.commit_action,
            game_id,
            expected_version,
            new_state,
            action,
            seat=seat,
            user_id=user_id,
            transfers=transfers,
            deal=deal,
            status=status,
            seats=seats,
            turn_deadline=turn_deadline,
        )

    async def commit_actions(
        self, game_id: int, expected_version: int, commits: Sequence[dict[str, object]]
    ) -> int:
        """Several ``commit_action``s (their keyword arguments, ``new_state`` and ``action``
        included) in one transaction: each is a version of its own, and either all are
        committed or none. Returns the last version."""
        return await self._write_game(
            game_id, games.commit_actions, game_id, expected_version, commits
        )

    async def set_results_due(
        self, game_id: int, due: Sequence[object], *, forget_table_message: bool = False
    ) -> None:
        """Replace the deal results the game still has to post (no new version); with
        ``forget_table_message``, forget its table message in the same write."""
        await self._write_game(game_id, games.set_results_due, game_id, due, forget_table_message)

    async def mark_results_sending(self, game_id: int, due: Sequence[object]) -> None:
        """Replace the deal results the game still has to post, and nothing else (no new
        version): some are marked as going out as a new message."""
        await self._write_game(game_id, games.mark_results_sending, game_id, due)

    async def game(self, game_id: int) -> Game:
        """The game with ``game_id``. Raises ``GameNotFound``."""
        cached = self._cache.game(game_id)
        if cached is not None:
            return cached
        row, fresh = await self._trip(games.load_game_row, game_id)
        game = games.game_from_row(row)
        if fresh:
            self._cache.keep_game(game)
        return game

    async def active_game(self, chat_id: int, thread_id: int | None = None) -> Game | None:
        """The game in the lobby or in play in the chat's topic ``thread_id`` (None: a chat
        without topics, or its General topic), if any."""
        found = self._games_from(*await self._trip(games.active_game_rows, chat_id, thread_id))
        return found[0] if found else None

    async def chat_open_games(self, chat_id: int) -> list[Game]:
        """The chat's games in a lobby or in play, one per topic, oldest first."""
        return self._games_from(*await self._trip(games.chat_open_game_rows, chat_id))

    async def open_games(self) -> list[Game]:
        """Every game in a lobby or in play (to resume them after a restart)."""
        return self._games_from(*await self._trip(games.open_game_rows))

    async def games_with_results_due(self, since: float = 0.0) -> list[Game]:
        """Games changed since ``since`` (unix seconds) with deal results still to post."""
        return self._games_from(*await self._trip(games.results_due_rows, since))

    async def games_with_old_hands(self) -> list[Game]:
        """Games (open or not) with hand messages of ended deals still to retire (a restart
        retires them: see ``Display.old_hands``)."""
        return self._games_from(*await self._trip(games.old_hands_rows))

    async def games_with_deadline_before(self, moment: float) -> list[Game]:
        """Open games whose turn deadline (unix seconds) is before ``moment``, soonest first."""
        return self._games_from(*await self._trip(games.deadline_rows_before, moment))

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, deal: int | None = None
    ) -> None:
        """Remember the group message that shows the table of ``deal`` (None forgets it)."""
        await self._write_game(game_id, games.set_table_message, game_id, message_id, deal)

    async def set_table_unknown(self, game_id: int) -> None:
        """A table message may have been delivered though its send failed (see ``Display``)."""
        await self._write_game(game_id, games.set_table_unknown, game_id)

    async def set_lobby_message(self, game_id: int, message_id: int | None) -> None:
        """Remember (None: forget) a started game's lobby message whose buttons are still on."""
        await self._write_game(game_id, games.set_lobby_message, game_id, message_id)

    async def set_hand_message(
        self, game_id: int, user_id: int, message_id: int, *, deal: int | None = None
    ) -> None:
        """Remember the private message that shows ``user_id`` his hand of ``deal`` (None: the
        deal in play; a message rendered from an earlier deal is recorded as that deal's, so
        it is old at once: see ``Display.old_hands``)."""
        await self._write_game(game_id, games.set_hand_message, game_id, user_id, message_id, deal)

    async def forget_hand_message(self, game_id: int, user_id: int, message_id: int) -> None:
        """Forget a hand message (retired, or closed with its table), whichever deal it shows."""
        await self._write_game(game_id, games.forget_hand_message, game_id, user_id, message_id)

    async def set_turn_deadline(self, game_id: int, deadline: float | None) -> None:
        """Set when the current turn times out, in unix seconds (None: no timer)."""
        await self._write_game(game_id, games.set_turn_deadline, game_id, deadline)

    async def action_log(self, game_id: int) -> list[LogEntry]:
        """The game's action log from version 0; ``storage.replay`` rebuilds the state."""
        return await self._run(_snapshot(games.action_log), game_id)

    # Money and history.

    async def balances(self, chat_id: int) -> Balances:
        """Every player's balance and the pots of ``chat_id``, summed from the ledger."""
        return await self._run(_snapshot(ledger.balances), chat_id)

    async def user_balances(self, user_id: int) -> dict[int, int]:
        """``user_id``'s balance in each chat where he has paid or received, by chat id."""
        return await self._run(_snapshot(ledger.user_balances), user_id)

    async def transfers(
        self, chat_id: int, *, game_id: int | None = None, deal: int | None = None
    ) -> list[LedgerEntry]:
        """The transfers of ``chat_id``, oldest first; only one game's, or one deal's of it,
        when ``game_id`` (and ``deal``) are given."""
        where = "chat_id = :chat"
        if game_id is not None:
            where += " AND game_id = :game"
        if deal is not None:
            if game_id is None:
                raise ValueError("a deal number needs its game_id")
            where += " AND deal = :deal"
        params = {"chat": chat_id, "game": game_id, "deal": deal}
        return await self._run(_snapshot(ledger.entries), where, params)

    async def last_deals(
        self, chat_id: int, limit: int = 10, before: int | None = None
    ) -> list[DealHistory]:
        """The chat's last ``limit`` finished deals, newest first, with their transfers; with
        ``before`` (a ``deal_id``), the ones that finished before that deal."""
        return await self._run(_snapshot(history.last_deals), chat_id, limit, before)

    async def deal(self, chat_id: int, deal_id: int) -> DealHistory | None:
        """One finished deal of the chat with its transfers, or None."""
        return await self._run(_snapshot(history.one_deal), chat_id, deal_id)

    async def deal_count(self, chat_id: int, newer_than: int | None = None) -> int:
        """How many deals the chat finished (only from deal ``newer_than`` on, if given)."""
        if newer_than is None:
            return await self._run(history.deal_count, chat_id)
        return await self._run(history.deals_newer, chat_id, newer_than)

    async def remember_history_message(self, chat_id: int, message_id: int) -> None:
        """Record a /history message the bot sent (its buttons may edit it)."""
        await self._write(history.remember_history_message, chat_id, message_id, time.time())

    async def is_history_message(self, chat_id: int, message_id: int) -> bool:
        """Whether ``message_id`` of ``chat_id`` is a /history message of the bot."""
        return await self._run(history.is_history_message, chat_id, message_id)

    async def deal_after(self, chat_id: int, deal_id: int, places: int) -> int | None:
        """The ``deal_id`` of the chat's deal ``places`` deals newer than ``deal_id``."""
        return await self._run(history.deal_after, chat_id, deal_id, places)

    async def export_rows(self, chat_id: int, page: int = EXPORT_PAGE) -> list[tuple[object, ...]]:
        """Every ledger row of the chat up to now, for a CSV export (see
        ``history.export_rows``). Read ``page`` rows per trip to the storage thread, so the
        other chats' moves go through between the trips of a long export; rows written
        meanwhile come after the last one counted at the start and are left out."""
        upto = await self._run(history.last_entry, chat_id)
        rows: list[tuple[object, ...]] = []
        while True:
            after = int(rows[-1][0]) if rows else 0  # type: ignore[call-overload]
            batch = await self._run(history.export_rows, chat_id, after, upto, page)
            rows.extend(batch)
            if len(batch) < page:
                return rows

    # Evenings.

    async def evening_gap(self, chat_id: int) -> float:
        """The pause in seconds that ends an evening in the chat."""
        return await self._run(evenings.evening_gap, chat_id)

    async def set_evening_gap(self, chat_id: int, seconds: float | None) -> None:
        """Set the chat's evening gap (None: the default)."""
        await self._write(evenings.set_evening_gap, chat_id, seconds)

    async def open_evening(self, chat_id: int) -> Evening | None:
        """The chat's evening that goes on, if any."""
        return await self._run(evenings.open_evening, chat_id)

    async def open_evenings(self) -> list[Evening]:
        """Every evening that goes on."""
        return await self._run(evenings.open_evenings)

    async def unposted_evenings(self, chat_id: int | None = None) -> list[Evening]:
        """Ended evenings whose summary is not posted yet, oldest first."""
        return await self._run(evenings.unposted_evenings, chat_id)

    async def end_evening(
        self, evening_id: int, at: float, idle_since: float | None = None
    ) -> Evening | None:
        """End an evening that goes on (see ``evenings.end_evening``); None if it had ended
        or, with ``idle_since``, a deal ended after that moment."""
        return (await self._write(evenings.end_evening, evening_id, at, idle_since))[0]

    async def mark_evening_posted(self, evening_id: int, posted: bool = True) -> None:
        """Mark an evening's summary posted (or, with ``posted`` False, not posted after all:
        see ``evenings.mark_posted``)."""
        await self._write(evenings.mark_posted, evening_id, posted)

    async def evening_summary(self, evening: Evening) -> EveningSummary:
        """The figures of ``evening`` from its deals and their ledger rows."""
        return await self._run(_snapshot(evenings.evening_summary), evening)

    async def player_totals(self, chat_id: int, user_id: int) -> PlayerTotals:
        """Deals played, tricks, remizes paid and net balance of ``user_id`` in ``chat_id``."""
        return await self._run(_snapshot(history.player_totals), chat_id, user_id)

    async def probe_write(self) -> bool:
        """Try one harmless write (while writes fail, to see whether they work again); True
        if it was committed."""
        try:
            await self._write(_probe)
        except sqlite3.Error:
            return False
        return self.write_problem is None

    async def player_stats(
        self, user_id: int, month: str, chat_id: int | None = None, *, apart: int | None = None
    ) -> PlayerStats:
        """``user_id``'s figures by game kind in ``chat_id`` (None: every chat but ``apart``),
        all time and in ``month`` (``'YYYY-MM'``, UTC; ``storage.stats.month_of`` gives it)."""
        return await self._run(_snapshot(stats.player_stats), user_id, month, chat_id, apart)

    async def leaderboard(
        self, chat_id: int, month: str | None = None, kind: str | None = None
    ) -> list[Standing]:
        """The chat's players by net chips, best first: all time or in ``month``, every game
        or one ``kind``."""
        return await self._run(stats.leaderboard, chat_id, month, kind)

    async def kinds_played(self, chat_id: int) -> list[str]:
        """The game kinds the chat has finished deals of."""
        return await self._run(stats.kinds_played, chat_id)

    async def check_integrity(self) -> list[str]:
        """Problems found in the whole file (empty when sound); reads every page, so it is slow
        on a big file. Checks SQLite's own structure, foreign keys and that every chat's
        balances and pots sum to zero."""
        return await self._run(_snapshot(_integrity_problems))


@dataclass(slots=True)
class _Write:
    """A write waiting for its batch."""

    function: Callable[..., object]
    args: tuple[object, ...]
    kwargs: dict[str, object]
    done: asyncio.Future[tuple[object, bool]]


_Outcome = tuple[bool, object]  # (True, result) or (False, the exception it raised)


def _write_batch(
    conn: sqlite3.Connection,
    jobs: list[tuple[Callable[..., object], tuple[object, ...], dict[str, object]]],
) -> tuple[list[_Outcome], int, int]:
    """Run writes in one transaction, each in a savepoint of its own (a write's own
    ``write_transaction`` nests as another), and commit them together. A write that raises
    is undone alone and its exception returned in its place. ``PRAGMA data_version`` before
    and after, as ``_with_data_version``."""
    before: int = conn.execute("PRAGMA data_version").fetchone()[0]
    outcomes: list[_Outcome] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for function, args, kwargs in jobs:
            conn.execute("SAVEPOINT batched_write")
            try:
                outcomes.append((True, function(conn, *args, **kwargs)))
            except Exception as error:
                conn.execute("ROLLBACK TO batched_write")
                outcomes.append((False, error))
            conn.execute("RELEASE batched_write")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    after: int = conn.execute("PRAGMA data_version").fetchone()[0]
    return outcomes, before, after


def _with_data_version(
    conn: sqlite3.Connection,
    function: Callable[..., _T],
    args: tuple[object, ...],
    kwargs: dict[str, object],
) -> tuple[_T, int, int]:
    """``function``'s result between two readings of ``PRAGMA data_version``, which moves when
    another connection commits to the file."""
    before: int = conn.execute("PRAGMA data_version").fetchone()[0]
    result = function(conn, *args, **kwargs)
    after: int = conn.execute("PRAGMA data_version").fetchone()[0]
    return result, before, after


def _then_game_row(
    conn: sqlite3.Connection,
    game_id: int,
    function: Callable[..., _T],
    args: tuple[object, ...],
    kwargs: dict[str, object],
) -> tuple[_T, sqlite3.Row | None]:
    """``function``'s result and the row of ``game_id`` as it left it (None if there is none)."""
    result = function(conn, *args, **kwargs)
    try:
        return result, games.load_game_row(conn, game_id)
    except GameNotFound:
        return result, None


def _is_failure(error: object) -> bool:
    """A write's error that is the file failing (not a refused compare-and-set or a
    constraint): sqlite3's operational errors (full, read-only, locked, I/O)."""
    return isinstance(error, sqlite3.OperationalError)


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
