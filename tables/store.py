"""The table service's storage side: reading a game and committing a change of it.

``TableStore`` owns the per-chat locks, the decoded read cache (``snapshot``) and the one way a
change is written: ``spec`` describes a commit of the table as it is now (state, action, ledger
transfers, deal record, the game's own /stats figures counted from them, seats, status and the
next turn's deadline), ``write`` commits one or more of them in one transaction under the
version check, and ``commit``, ``commit_meta`` and ``close`` are the common cases. A game that
closes without a winner gives its own pot back in the same commit (``game_pot_returned``).

The stored state of a game is ``{"engine": <the rules' state or null in the lobby>,
"table": <TableMeta>}``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from game.core import GAME_POT, Action
from game.registry import JsonObject
from storage.database_games import Games
from storage.database_money import Ledger
from storage.errors import GameClosed, GameNotFound, StaleVersion
from storage.records import DealRecord, Game, GameStatus, LedgerEntry
from storage.records import Transfer as LedgerTransfer
from tables.autoplay import computer_plays
from tables.bounded import Locks
from tables.chat_settings import ChatSettings
from tables.figures import counted
from tables.records import Loaded, Notice, Refused, Reply, TableMeta


@dataclass(frozen=True, slots=True)
class Commit:
    """One version of a game as ``TableStore.write`` commits it (``Database.games.commit_action``):
    the new stored state, the action that made it (None: a change of the table's own) and who
    made it, the ledger transfers, the finished deal's record, the new status and seats (None:
    unchanged), the next turn's deadline (None: no timer), the game's own /stats figures
    counted from this commit, and the moment it was made on the service's clock (storage
    stamps its rows with it: a deal's end extends the chat's evening from then)."""

    state: JsonObject
    action: list[object] | None
    seat: int | None
    user_id: int | None
    transfers: tuple[LedgerTransfer, ...]
    deal: DealRecord | None
    status: GameStatus | None
    seats: tuple[int, ...] | None
    turn_deadline: float | None
    figures: Mapping[int, Mapping[str, int]]
    at: float

    def arguments(self) -> dict[str, object]:
        """The commit as one of ``Database.games.commit_actions``' list."""
        return {
            "new_state": self.state,
            "action": self.action,
            "seat": self.seat,
            "user_id": self.user_id,
            "transfers": list(self.transfers),
            "deal": self.deal,
            "status": self.status,
            "seats": None if self.seats is None else list(self.seats),
            "turn_deadline": self.turn_deadline,
            "figures": self.figures,
            "now": self.at,
        }


class TableStore:
    """Games read and committed for the table service, under each chat's lock."""

    def __init__(
        self,
        games: Games,
        ledger: Ledger,
        settings: ChatSettings,
        *,
        clock: Callable[[], float] = time.time,
        computer_pause: float = 1.5,
    ) -> None:
        self.games = games
        self.ledger = ledger
        self.settings = settings
        #: told of every commit, with the game as committed (the runner's timers): called on
        #: the event loop right after the commit, under the chat's lock; must not block or raise
        self.committed: list[Callable[[Game], None]] = []
        self.clock = clock
        #: seconds a computer waits before its move, so the people can follow the table
        self.computer_pause = computer_pause
        self._locks: Locks[int] = Locks()
        #: the last decoded state of each open game (``snapshot``), by game id
        self._snapshots: dict[int, Loaded] = {}

    def lock(self, chat_id: int) -> asyncio.Lock:
        return self._locks(chat_id)

    # ------------------------------------------------------------------ reading

    async def load(self, game: Game) -> Loaded:
        """The game with its state decoded: objects of the caller's own, to change."""
        plugin = self.settings.catalogue.of(game.kind)
        data = game.state.get("engine")
        table = None if data is None else plugin.rules.load(data)
        return Loaded(game, plugin, table, TableMeta.from_json(game.state.get("table")))

    async def snapshot(self, game: Game) -> Loaded:
        """The game with its state decoded, to read and never change: every refresh of a
        table or hand renders from one, and the state of a version is decoded only once."""
        kept = self._snapshots.get(game.game_id)
        if kept is not None and kept.game.version == game.version:
            return Loaded(game, kept.plugin, kept.table, kept.meta)
        loaded = await self.load(game)
        if game.is_open:
            self._snapshots[game.game_id] = loaded
        else:
            self._snapshots.pop(game.game_id, None)
        return loaded

    async def active(self, chat_id: int, thread: int | None = None) -> Loaded | None:
        """The open table of the chat's forum topic ``thread`` (None: a chat without topics,
        or its General topic), if any."""
        game = await self.games.active_game(chat_id, thread)
        return None if game is None else await self.load(game)

    async def require_active(self, chat_id: int, thread: int | None) -> Loaded:
        loaded = await self.active(chat_id, thread)
        if loaded is None:
            raise Refused("no_game")
        return loaded

    async def game(self, game_id: int) -> Game:
        """The game as last committed (with what the chat shows of it); refuses a game that
        does not exist."""
        try:
            return await self.games.game(game_id)
        except GameNotFound:
            raise Refused("unknown_game") from None

    async def open_games(self, chat_id: int | None = None) -> list[Game]:
        """The open games (lobbies and games in play), oldest first: the chat's, over all its
        forum topics, or with no ``chat_id`` every chat's (a restart shows them all again)."""
        if chat_id is None:
            return await self.games.open_games()
        return await self.games.chat_open_games(chat_id)

    async def current(self, user_id: int) -> Game | None:
        """The table ``user_id`` is at now: the newest open game he sits at, a game in play
        before a lobby; None if he sits at none."""
        mine = await self.games.user_open_games(user_id)
        return max(mine, key=lambda game: (game.status == "active", game.game_id), default=None)

    async def chat_of(self, game_id: int) -> int:
        """The chat of a game (whose lock guards it); refuses a game that does not exist."""
        return (await self.game(game_id)).chat_id

    async def game_or_refuse(self, game_id: int) -> Loaded:
        return await self.load(await self.game(game_id))

    async def free_pot(self, loaded: Loaded, chat_pot: int) -> int:
        """What a new deal of ``loaded`` may play for out of the chat's pot ``chat_pot``: the
        pot is the group's, shared by the tables of its forum topics, and a deal in progress
        at another table holds the chips it plays for (its P, docs/rules.md §1.1) until it ends.
        So two tables never pay out the same chips, and the pot never goes below zero."""
        held = 0
        for game in await self.games.chat_open_games(loaded.game.chat_id):
            if game.game_id == loaded.game.game_id or game.status != "active":
                continue
            other = await self.snapshot(game)
            if other.table is not None:
                held += other.table.pot_in_play()
        return max(0, chat_pot - held)

    # ------------------------------------------------------------------ writing

    def deadline(
        self,
        loaded: Loaded,
        status: GameStatus | None,
        timeout: float,
        seats: list[int],
        *,
        fresh: bool,
    ) -> float | None:
        """When the decision now due times out; None in the lobby and once the table ends
        (``status`` is the one being committed, so the first deal's first turn has a timer).

        The deadline belongs to the turn: a commit that makes no move (``fresh`` False: a
        look, someone joining or leaving) keeps it while the same player is to act, so nobody
        can hold an idle player's clock back by pressing or typing."""
        meta = loaded.meta
        if loaded.table is None or (status or loaded.game.status) != "active":
            meta.clock_user = None
            return None
        seat = loaded.table.to_act
        if seat is None:
            meta.clock_user = None
            return None
        user = seats[seat]
        kept = loaded.game.turn_deadline
        if not fresh and user == meta.clock_user and kept is not None:
            return kept
        meta.clock_user = user
        if computer_plays(loaded, user):
            return self.clock() + self.computer_pause
        return self.clock() + timeout

    def spec(
        self,
        loaded: Loaded,
        action: Action | None,
        user_id: int | None,
        transfers: list[LedgerTransfer],
        deal: DealRecord | None,
        timeout: float,
        *,
        seats: list[int] | None = None,
        status: GameStatus | None = None,
        fresh: bool = False,
    ) -> Commit:
        """One commit of the table as it is now."""
        deadline = self.deadline(
            loaded, status, timeout, loaded.seats if seats is None else seats, fresh=fresh
        )
        engine = None if loaded.table is None else loaded.table.to_json()
        return Commit(
            state={"engine": engine, "table": loaded.meta.to_json()},
            action=None if action is None else action.to_json(),
            seat=None if action is None else action.seat,
            user_id=user_id,
            transfers=tuple(transfers),
            deal=deal,
            status=status,
            seats=None if seats is None else tuple(seats),
            turn_deadline=deadline,
            figures=counted(loaded.plugin.stat_fields, transfers, deal),
            at=self.clock(),
        )

    async def write(self, loaded: Loaded, commits: Sequence[Commit]) -> Game:
        """Commit ``commits`` (one version each) in one transaction; ``loaded.game`` follows."""
        game_id = loaded.game.game_id
        try:
            if len(commits) == 1:
                one = commits[0]
                await self.games.commit_action(
                    game_id,
                    loaded.game.version,
                    one.state,
                    one.action,
                    seat=one.seat,
                    user_id=one.user_id,
                    transfers=one.transfers,
                    deal=one.deal,
                    status=one.status,
                    seats=one.seats,
                    turn_deadline=one.turn_deadline,
                    figures=one.figures,
                    now=one.at,
                )
            else:
                arguments = [commit.arguments() for commit in commits]
                await self.games.commit_actions(game_id, loaded.game.version, arguments)
        except StaleVersion:
            raise Refused("outdated") from None
        except GameClosed:
            raise Refused("game_over") from None
        game = await self.games.game(game_id)
        loaded.game = game
        self.changed(game)
        return game

    def changed(self, game: Game) -> None:
        """``game`` was committed (a new table, or a new version): tell ``committed``."""
        for hook in self.committed:
            hook(game)

    async def commit(
        self,
        loaded: Loaded,
        action: Action | None,
        user_id: int | None,
        transfers: list[LedgerTransfer],
        deal: DealRecord | None,
        *,
        seats: list[int] | None = None,
        status: GameStatus | None = None,
        fresh: bool = False,
    ) -> Game:
        """One commit of the table as it is now; a close gives the game's own pot back."""
        timeout = await self.settings.turn_timeout_of(loaded.game.chat_id)
        if status in ("finished", "stopped"):
            transfers = transfers + await self.game_pot_returned(loaded, transfers)
        spec = self.spec(
            loaded,
            action,
            user_id,
            transfers,
            deal,
            timeout,
            seats=seats,
            status=status,
            fresh=fresh,
        )
        return await self.write(loaded, [spec])

    async def commit_meta(self, loaded: Loaded, seats: list[int], *notices: Notice) -> Reply:
        """Commit a change of the table's own that moves no card (seats, votes, marks)."""
        game = await self.commit(loaded, None, None, [], None, seats=seats)
        return Reply(
            game=game,
            lobby_changed=game.status == "lobby",
            table_changed=True,
            notices=list(notices),
        )

    async def close(self, loaded: Loaded, status: GameStatus, *notices: Notice) -> Reply:
        """Close the table as it stands (a lobby cancelled, a table stopped)."""
        game = await self.commit(loaded, None, None, [], None, status=status)
        return Reply(
            game=game, lobby_changed=True, table_changed=True, closed=True, notices=list(notices)
        )

    async def game_pot_returned(
        self, loaded: Loaded, pending: list[LedgerTransfer], deal: int | None = None
    ) -> list[LedgerTransfer]:
        """A game that ends without a winner gives its own pot back (docs/rules.md §5 "Stopping"):
        each player gets the stakes he paid into it since it was last empty, so no chip stays
        in a closed game's pot and none is paid twice (a game may pay its pot out in the middle
        of the game and fill it again: what went in before that is paid out already).
        ``pending`` are the transfers committed with the close; ``deal`` the deal the return is
        booked with (the deal whose end closes the table, so that its record, the evening's
        summary among them, counts it; by default the deal in progress)."""
        paid: dict[int, int] = {}
        held = 0
        stored = await self.ledger.transfers(loaded.game.chat_id, game_id=loaded.game.game_id)
        moves: list[LedgerTransfer | LedgerEntry] = [*stored, *pending]
        for entry in moves:
            if entry.dst == GAME_POT and isinstance(entry.src, int):
                paid[entry.src] = paid.get(entry.src, 0) + entry.amount
                held += entry.amount
            elif entry.src == GAME_POT and isinstance(entry.dst, int):
                paid[entry.dst] = paid.get(entry.dst, 0) - entry.amount
                held -= entry.amount
            if held == 0:
                paid.clear()  # taken whole: what went in so far has gone out
        if sum(paid.values()) <= 0:
            return []  # the pot is empty (a winner took it, or the game never had one)
        deal = loaded.meta.deals if deal is None else deal
        return [
            LedgerTransfer(GAME_POT, user, amount, "game_pot_return", deal)
            for user, amount in paid.items()
            if amount > 0
        ]
