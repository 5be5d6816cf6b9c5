"""The games repository (``Database.games``): a new table, each committed action, the game rows
read, the results still to post and the turn deadlines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage import games
from storage.database_core import Repository, snapshot
from storage.records import (
    ActionJSON,
    DealRecord,
    Game,
    GameStatus,
    JSONObject,
    LogEntry,
    Transfer,
)


class Games(Repository):
    """Games and their action log, on the shared core (games are kept in its read cache)."""

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
        now: float,
    ) -> Game:
        """Create a game at version 0 in ``chat_id`` (in its forum topic ``thread_id``, if
        given), logging ``state`` as its initial state, stamped ``now`` (the table service's
        clock).

        Raises ``ActiveGameExists`` (that topic has an open game), ``UnknownChat``,
        ``UnknownPlayer``.
        """
        game, _ = await self._db._write(
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
            now=now,
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
        figures: Mapping[int, Mapping[str, int]] | None = None,
        now: float,
    ) -> int:
        """Commit one state change in one transaction and return the new version.

        Compare-and-set: raises ``StaleVersion`` unless the game is still at
        ``expected_version``. Then writes ``new_state`` as ``expected_version + 1``, logs
        ``action`` (by ``seat``/``user_id``; None for a timeout) — or, when ``action`` is None, a
        ``system`` row holding ``new_state`` so the log still replays — appends ``transfers``
        and the ``deal`` record, sets ``status``/``seats`` if given and ``turn_deadline``
        always (None: no timer), and adds ``figures`` (user → the game's own /stats figures
        counted from this commit, by name) to the kept ones. Everything it writes is stamped
        ``now``: the table service's clock, which its evenings (a deal's end extends the
        chat's evening) and deadlines run on (storage reads no clock of its own). Raises
        ``GameNotFound``, ``GameClosed`` (finished or stopped) and ``UnknownPlayer``; on any
        error nothing is written.
        """
        return await self._db._write_game(
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
            figures=figures,
            now=now,
        )

    async def commit_actions(
        self, game_id: int, expected_version: int, commits: Sequence[dict[str, object]]
    ) -> int:
        """Several ``commit_action``s (their keyword arguments, ``new_state`` and ``action``
        included) in one transaction: each is a version of its own, and either all are
        committed or none. Returns the last version."""
        return await self._db._write_game(
            game_id, games.commit_actions, game_id, expected_version, commits
        )

    async def set_results_due(
        self,
        game_id: int,
        due: Sequence[object],
        *,
        forget_table_message: bool = False,
        now: float,
    ) -> None:
        """Replace the deal results the game still has to post (no new version); with
        ``forget_table_message``, forget its table message in the same write. Stamped
        ``now``."""
        await self._db._write_game(
            game_id, games.set_results_due, game_id, due, forget_table_message, now=now
        )

    async def mark_results_sending(
        self, game_id: int, due: Sequence[object], *, now: float
    ) -> None:
        """Replace the deal results the game still has to post, and nothing else (no new
        version): some are marked as going out as a new message. Stamped ``now``."""
        await self._db._write_game(game_id, games.mark_results_sending, game_id, due, now=now)

    async def game(self, game_id: int) -> Game:
        """The game with ``game_id``. Raises ``GameNotFound``."""
        cached = self._db._cache.game(game_id)
        if cached is not None:
            return cached
        row, fresh = await self._db._trip(games.load_game_row, game_id)
        game = games.game_from_row(row)
        if fresh:
            self._db._cache.keep_game(game)
        return game

    async def active_game(self, chat_id: int, thread_id: int | None = None) -> Game | None:
        """The game in the lobby or in play in the chat's topic ``thread_id`` (None: a chat
        without topics, or its General topic), if any."""
        found = self._db._games_from(
            *await self._db._trip(games.active_game_rows, chat_id, thread_id)
        )
        return found[0] if found else None

    async def chat_open_games(self, chat_id: int) -> list[Game]:
        """The chat's games in a lobby or in play, one per topic, oldest first."""
        return self._db._games_from(*await self._db._trip(games.chat_open_game_rows, chat_id))

    async def open_games(self) -> list[Game]:
        """Every game in a lobby or in play (to resume them after a restart)."""
        return self._db._games_from(*await self._db._trip(games.open_game_rows))

    async def user_open_games(self, user_id: int) -> list[Game]:
        """The open games ``user_id`` sits at, oldest first (read by an index)."""
        return self._db._games_from(*await self._db._trip(games.user_open_game_rows, user_id))

    async def games_with_results_due(self, since: float = 0.0) -> list[Game]:
        """Games changed since ``since`` (unix seconds) with deal results still to post."""
        return self._db._games_from(*await self._db._trip(games.results_due_rows, since))

    async def games_with_deadline_before(self, moment: float) -> list[Game]:
        """Open games whose turn deadline (unix seconds) is before ``moment``, soonest first."""
        return self._db._games_from(*await self._db._trip(games.deadline_rows_before, moment))

    async def set_turn_deadline(self, game_id: int, deadline: float | None, *, now: float) -> None:
        """Set when the current turn times out, in unix seconds (None: no timer), stamped
        ``now``."""
        await self._db._write_game(game_id, games.set_turn_deadline, game_id, deadline, now=now)

    async def action_log(self, game_id: int) -> list[LogEntry]:
        """The game's action log from version 0; ``storage.replay`` rebuilds the state."""
        return await self._db._run(snapshot(games.action_log), game_id)
