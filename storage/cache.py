"""What a ``Database`` remembers of games and players between trips to the file.

The bot reads a game many times per button press (the service checks it, each table and hand
refresh renders from it) and a player's name for every message it renders, while it writes each
game once per press. Every read that goes to SQLite is a hop to the database thread and back,
and under load those hops queue behind one another: bench/load.py measured nine game reads and
five player reads per press, the database thread busy nearly all the time and each read waiting
about 70 ms for its turn. Served from here, a read is a dictionary lookup. The game is kept
decoded, and every reader gets the same read-only ``Game`` (see its docstring) until its row
changes: decoding its JSON columns on every read was, after the hops, the next cost (8% of
the bot's CPU under bench/load.py).

Coherence. Every write of a game or a player through the owning ``Database`` drops that entry
before it starts, and reads that were already under way when a write began do not put their
(older) row back: a read is remembered only if no write of the same key is in flight when the
read returns. Both facts rest on the database thread running jobs one at a time in the order
they were queued, and handing back results in that order. Writes by *another* connection to the
same file are noticed through ``PRAGMA data_version``, which every trip to the file reads: when
it moves, everything is forgotten. So the one assumption is the bot's own shape: one process,
one ``Database`` writing its file; another writer's changes are seen from this object's next
trip to the file on, not before.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from storage.records import Game, Player

MAX_GAMES: Final = 4096
"""Open games remembered (the least recently used go first; closed games are not kept)."""
MAX_PLAYERS: Final = 65536
"""Players remembered (the least recently used go first)."""


class ReadCache:
    """``Game`` and ``Player`` records by id, with the bookkeeping of writes in flight."""

    enabled = True

    def __init__(self, max_games: int = MAX_GAMES, max_players: int = MAX_PLAYERS) -> None:
        self._games: OrderedDict[int, Game] = OrderedDict()
        self._players: OrderedDict[int, Player] = OrderedDict()
        self._max_games = max_games
        self._max_players = max_players
        self._writing_games: Counter[int] = Counter()
        self._writing_players: Counter[int] = Counter()
        self._writing_everything = 0
        self._data_version: int | None = None

    # --- games ---------------------------------------------------------------------------

    def game(self, game_id: int) -> Game | None:
        """The remembered ``game_id``, or None."""
        game = self._games.get(game_id)
        if game is not None:
            self._games.move_to_end(game_id)
        return game

    def keep_game(self, game: Game) -> None:
        """Remember a game just read, unless a write of it is in flight or it is closed: a
        finished or stopped game is read a few more times (its result, its hands' last edits)
        and then never, so it is not kept, and the cache holds the open games only, however
        many games the bot has played (bench/soak.py)."""
        game_id = game.game_id
        if not game.is_open:
            self._games.pop(game_id, None)
            return
        if self._writing_everything or self._writing_games[game_id]:
            return
        self._games[game_id] = game
        self._games.move_to_end(game_id)
        while len(self._games) > self._max_games:
            self._games.popitem(last=False)

    @contextmanager
    def writing_game(self, game_id: int) -> Iterator[None]:
        """Around a write of ``game_id``: it is forgotten and not taken back until the write
        (and every other write of it) has returned."""
        self._games.pop(game_id, None)
        self._writing_games[game_id] += 1
        try:
            yield
        finally:
            self._games.pop(game_id, None)
            self._writing_games[game_id] -= 1
            if not self._writing_games[game_id]:
                del self._writing_games[game_id]

    # --- players -------------------------------------------------------------------------

    def players(self, user_ids: list[int]) -> tuple[dict[int, Player], list[int]]:
        """The remembered players among ``user_ids``, and the ids not remembered."""
        found: dict[int, Player] = {}
        missing: list[int] = []
        for user_id in user_ids:
            player = self._players.get(user_id)
            if player is None:
                missing.append(user_id)
            else:
                found[user_id] = player
                self._players.move_to_end(user_id)
        return found, missing

    def keep_player(self, player: Player) -> None:
        """Remember a player just read, unless a write of him is in flight."""
        if self._writing_everything or self._writing_players[player.user_id]:
            return
        self._players[player.user_id] = player
        self._players.move_to_end(player.user_id)
        while len(self._players) > self._max_players:
            self._players.popitem(last=False)

    @contextmanager
    def writing_player(self, user_id: int) -> Iterator[None]:
        """Around a write of ``user_id``, as ``writing_game``."""
        self._players.pop(user_id, None)
        self._writing_players[user_id] += 1
        try:
            yield
        finally:
            self._players.pop(user_id, None)
            self._writing_players[user_id] -= 1
            if not self._writing_players[user_id]:
                del self._writing_players[user_id]

    # --- everything ----------------------------------------------------------------------

    @contextmanager
    def writing_everything(self) -> Iterator[None]:
        """Around a write that may change any game or player (moving a chat to a new id)."""
        self.clear()
        self._writing_everything += 1
        try:
            yield
        finally:
            self.clear()
            self._writing_everything -= 1

    def saw_data_version(self, value: int) -> None:
        """``PRAGMA data_version`` as a trip to the file found it: when another connection has
        committed since the last trip, forget everything."""
        if self._data_version is not None and value != self._data_version:
            self.clear()
        self._data_version = value

    def clear(self) -> None:
        self._games.clear()
        self._players.clear()


class NoCache(ReadCache):
    """Remembers nothing: every read goes to the file (a ``Database`` opened without
    ``cache_reads``)."""

    enabled = False

    def __init__(self) -> None:
        super().__init__(max_games=0, max_players=0)

    def keep_game(self, game: Game) -> None:
        return None

    def keep_player(self, player: Player) -> None:
        return None
