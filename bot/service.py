"""The table service: everything a group's table does, between the handlers and the rules.

It knows ``game/`` and ``storage/`` and nothing of Telegram. Every change of a game runs under
the chat's lock, reloads the game, checks the turn number the button was made for, applies the
rules and commits the new state, the action and the money in one transaction. It returns a
``Reply`` that says what the handlers must show; it never sends anything itself.

The stored state of a game is ``{"engine": <the rules' state or null in the lobby>,
"table": <TableMeta>}``: the engine state plus what only the table knows (turn number,
timeouts in a row, away players, who leaves or joins after the deal, a requested stop).
"""

from __future__ import annotations

import asyncio
import copy
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.bounded import CHATS_KEPT, Locks, Recent
from bot.computers import EASY_IDS, STRONG_IDS, Thinker, computer_level, computer_name, is_computer
from bot.games import Plugin, Table, choice, game_for
from game.cards import shuffled_deck
from game.core import GAME_POT, POT, Action, IllegalAction, Transfer
from game.registry import JsonObject, SeatResult, Step
from storage.database import Database
from storage.errors import ActiveGameExists, GameClosed, GameNotFound, StaleVersion
from storage.records import DealPlayer, DealRecord, Game, LedgerEntry
from storage.records import Transfer as LedgerTransfer

AWAY_AFTER_TIMEOUTS = 3
#: the chat's own table settings, stored beside the games' options (not a game kind)
TABLE_OPTIONS = "table"
TURN_TIMEOUT_RANGE = (10, 3600)  # seconds a chat may give a decision with /timeout
MAX_DUE_RESULTS = 8  # results kept to post while a group cannot be shown them
MAX_AUTO_STEPS = 500  # a safety bound on auto-play within one change (then the timer goes on)
#: how an away player is played (a chat setting, in TABLE_OPTIONS, taken when a table opens):
#: by the strong computer in his own interest, or by the plain default moves of RULES.md §5
AWAY_PLAY = ("computer", "default")


class Refused(Exception):
    """A request the table turns down; ``reason`` is a locale key suffix (``refuse.<reason>``);
    ``users`` the players the reason is about (``start_bot_first``: who has not started the
    bot)."""

    def __init__(self, reason: str, users: Sequence[int] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.users = tuple(users)


@dataclass
class TableMeta:
    """What the table remembers besides the rules' state."""

    turn: int = 0  # bumps on every change that moves the game on (the buttons carry it)
    timeouts: dict[str, int] = field(default_factory=dict)  # user id → timeouts in a row
    away: list[int] = field(default_factory=list)
    leaving: list[int] = field(default_factory=list)  # removed when the deal ends
    joining: list[int] = field(default_factory=list)  # seated at the next deal (Стуколка)
    stop: bool = False  # the table ends when the deal ends
    deals: int = 0  # deals finished at this table
    #: the user whose decision the stored turn deadline is for: it is kept while he is still
    #: the one to act and no move is made (a look, a join, a leave of someone else)
    clock_user: int | None = None
    autoplay: bool = False  # /stop now: the bot plays every seat to the end of the deal
    void_votes: list[int] = field(default_factory=list)  # players who agree to void the deal
    #: results of finished deals not yet posted to the group, written with the move that ended
    #: the deal, removed once posted (``TableService.results_posted``); see ``due_result``
    due: list[dict[str, Any]] = field(default_factory=list)
    #: who plays for an away player: the strong ``computer`` or the ``default`` moves
    away_play: str = "computer"

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> TableMeta:
        """The table's own state from a stored game: a deep copy, so the caller may change
        it freely. (The stored state may be the read cache's, seen by every reader until the
        game's row changes: a change made before a commit that is then refused must stay
        invisible to them.)"""
        return TableMeta(**copy.deepcopy(dict(data or {})))


@dataclass
class Notice:
    """An announcement to the group: a locale key and its parameters (user ids as ``user``)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class DealResult:
    """A finished deal, for the result message."""

    kind: str
    table: Table  # the finished deal
    seats: list[int]
    game_over: bool
    summary: dict[str, Any]
    balances: dict[int, int] = field(default_factory=dict)  # user → balance when it ended
    deal: int = 0  # its number at the table, from 0
    #: user → reason → chips the deal moved for him (the ledger of the deal, its ante included):
    #: the sum over reasons is his balance change over the deal
    money: dict[int, dict[str, int]] = field(default_factory=dict)
    players: tuple[SeatResult, ...] = ()  # each seat's tricks, and whether he played


@dataclass
class Reply:
    """What the handlers must show after a change."""

    game: Game | None = None
    lobby_changed: bool = False
    table_changed: bool = False
    new_deal: bool = False  # a new table message and new hand messages
    hands: set[int] = field(default_factory=set)  # users whose hand message to refresh
    results: list[DealResult] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    closed: bool = False  # the table ended (stopped or the game is over)


@dataclass
class Loaded:
    """A game read back from storage, its rules and decoded state."""

    game: Game
    plugin: Plugin
    table: Table | None  # None in the lobby
    meta: TableMeta

    @property
    def seats(self) -> list[int]:
        return list(self.game.seats)

    def seat_of(self, user_id: int) -> int | None:
        return self.seats.index(user_id) if user_id in self.game.seats else None


#: verbs whose argument the group may see (the others carry a secret card)
PUBLIC_ARGUMENT_VERBS = frozenset({"play", "trump"})


def move_params(user: int, action: Action) -> dict[str, Any]:
    """An announced move without its secret: which card was dropped or given stays private."""
    params: dict[str, Any] = {"user": user, "verb": action.verb}
    if action.verb in PUBLIC_ARGUMENT_VERBS and isinstance(action.arg, str):
        params["arg"] = action.arg
    elif isinstance(action.arg, tuple):
        params["count"] = len(action.arg)
    return params


def new_seed() -> str:
    """A fresh secret seed for one deck (never logged, never shown)."""
    return secrets.token_hex(16)


class TableService:
    """Lobbies, turns, timeouts, deals and money for every chat."""

    def __init__(
        self,
        db: Database,
        *,
        turn_timeout: float,
        clock: Callable[[], float] = time.time,
        seed: Callable[[], str] = new_seed,
        computer_pause: float = 1.5,
        thinker: Thinker | None = None,
    ) -> None:
        self.db = db
        #: seconds a computer waits before its move, so the people can follow the table
        self.computer_pause = computer_pause
        self.thinker = thinker or Thinker()
        self.turn_timeout = turn_timeout
        self.clock = clock
        self.seed = seed
        self._locks: Locks[int] = Locks()
        self._turn_timeouts: Recent[int, float] = Recent(CHATS_KEPT)
        #: the last decoded state of each open game (``snapshot``), by game id
        self._snapshots: dict[int, Loaded] = {}

    def lock(self, chat_id: int) -> asyncio.Lock:
        return self._locks(chat_id)

    # ------------------------------------------------------------------ reading

    async def load(self, game: Game) -> Loaded:
        """The game with its state decoded: objects of the caller's own, to change."""
        plugin = game_for(game.kind)
        data = game.state.get("engine")
        table = None if data is None else plugin.load(data)
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
        game = await self.db.active_game(chat_id, thread)
        return None if game is None else await self.load(game)

    async def chat_options(self, chat_id: int, kind: str) -> dict[str, Any]:
        stored = await self.db.chat_options(chat_id, kind) or {}
        try:
            return game_for(kind).check_options(stored)
        except ValueError:
            return game_for(kind).check_options({})

    async def choose_options(self, chat_id: int, kind: str, chosen: dict[str, Any]) -> None:
        """The chat chose these options (the settings menu, a preset, /new shleif): they are
        stored beside what it chose before, and only what it chose, so an option it never
        touched follows RULES.md's default even when that default changes."""
        stored = dict(await self.db.chat_options(chat_id, kind) or {})
        stored.update(chosen)
        try:
            game_for(kind).check_options(stored)
        except ValueError:
            raise Refused("not_allowed") from None
        await self.db.set_chat_options(chat_id, kind, stored)

    # ------------------------------------------------------------------ lobby

    async def new_table(
        self, chat_id: int, user_id: int, game_choice: str, *, thread: int | None = None
    ) -> Reply:
        """/new: open a lobby with the creator seated, in the forum topic ``thread`` if the
        command came from one (each topic holds a table of its own)."""
        chosen = choice(game_choice)
        if chosen is None:
            raise Refused("unknown_game")
        plugin, item = chosen
        kind, preset = plugin.kind, item.preset
        async with self.lock(chat_id):
            options = await self.chat_options(chat_id, kind)
            options.update(preset)
            options = plugin.check_options(options)
            meta = TableMeta(away_play=await self.away_play_of(chat_id))
            try:
                game = await self.db.create_game(
                    chat_id,
                    kind,
                    {"engine": None, "table": asdict(meta)},
                    created_by=user_id,
                    seats=[user_id],
                    options=options,
                    status="lobby",
                    thread_id=thread,
                )
            except ActiveGameExists:
                raise Refused("table_exists") from None
            if preset:
                await self.choose_options(chat_id, kind, preset)
            return Reply(game=game, lobby_changed=True)

    async def join(
        self, chat_id: int, user_id: int, *, reachable: bool = True, thread: int | None = None
    ) -> Reply:
        """/join: a seat in the lobby, or (Стуколка) at the next deal — only for a player the
        bot can write to, who would otherwise be auto-played without seeing his cards."""
        async with self.lock(chat_id):
            loaded = await self._require_active(chat_id, thread)
            plugin = loaded.plugin
            seats = loaded.seats
            if user_id in seats:
                if user_id in loaded.meta.leaving:
                    loaded.meta.leaving.remove(user_id)
                    return await self._commit_meta(
                        loaded, seats, Notice("stays", {"user": user_id})
                    )
                raise Refused("already_seated")
            if loaded.game.status == "lobby":
                if len(seats) < plugin.max_players:
                    return await self._commit_meta(loaded, [*seats, user_id])
                # a full lobby: a person takes the seat of the last computer, if any sits
                computers = [user for user in seats if is_computer(user)]
                if not computers:
                    raise Refused("table_full")
                return await self._commit_meta(
                    loaded,
                    [user_id if user == computers[-1] else user for user in seats],
                    Notice("takes_computer_seat", {"user": user_id, "computer": computers[-1]}),
                )
            if not plugin.seats_between_deals:
                raise Refused("game_running")
            if not reachable:
                raise Refused("start_bot_first")
            if user_id in loaded.meta.joining:
                raise Refused("already_seated")
            if len(seats) + len(loaded.meta.joining) >= plugin.max_players:
                raise Refused("table_full")
            loaded.meta.joining.append(user_id)
            return await self._commit_meta(
                loaded, seats, Notice("joins_next_deal", {"user": user_id})
            )

    async def leave(self, chat_id: int, user_id: int, *, thread: int | None = None) -> Reply:
        async with self.lock(chat_id):
            loaded = await self._require_active(chat_id, thread)
            seats = loaded.seats
            if user_id in loaded.meta.joining:
                loaded.meta.joining.remove(user_id)
                return await self._commit_meta(loaded, seats)
            if user_id not in seats:
                raise Refused("not_at_table")
            if loaded.game.status == "lobby":
                seats.remove(user_id)
                if all(is_computer(user) for user in seats):  # a table needs one person
                    return await self._close(loaded, "stopped", Notice("table_cancelled"))
                return await self._commit_meta(loaded, seats)
            if user_id not in loaded.meta.leaving:
                loaded.meta.leaving.append(user_id)
            reply = await self._advance(loaded, [Notice("leaves", {"user": user_id})])
            return reply

    async def add_computer(
        self, chat_id: int, user_id: int, level: str, *, thread: int | None = None
    ) -> Reply:
        """«🤖 Добавить компьютер»: a player at the lobby seats a computer of ``level``."""
        async with self.lock(chat_id):
            loaded = await self._require_active(chat_id, thread)
            if loaded.game.status != "lobby":
                raise Refused("game_running")
            if user_id not in loaded.game.seats:
                raise Refused("not_at_table")
            seats = loaded.seats
            if len(seats) >= loaded.plugin.max_players:
                raise Refused("table_full")
            ids = STRONG_IDS if level == "strong" else EASY_IDS
            computer = next(user for user in ids if user not in seats)
            await self.db.upsert_player(computer, computer_name(computer))
            return await self._commit_meta(
                loaded, [*seats, computer], Notice("computer_joins", {"user": computer})
            )

    async def begin(
        self,
        chat_id: int,
        user_id: int,
        reachable: Callable[[int], bool],
        *,
        thread: int | None = None,
    ) -> Reply:
        """/begin: deal the first deal when the count fits and everyone can get his cards."""
        async with self.lock(chat_id):
            loaded = await self._require_active(chat_id, thread)
            plugin = loaded.plugin
            if loaded.game.status != "lobby":
                raise Refused("game_running")
            if user_id not in loaded.game.seats:
                raise Refused("not_at_table")
            seats = loaded.seats
            if not plugin.min_players <= len(seats) <= plugin.max_players:
                raise Refused("not_enough_players")
            unreached = [seat for seat in seats if not is_computer(seat) and not reachable(seat)]
            if unreached:
                raise Refused("start_bot_first", unreached)
            pot = 0
            if plugin.chat_pot:
                pot = await self._free_pot(loaded, (await self.db.balances(chat_id)).pot)
            dealer = await self._first_dealer(chat_id, plugin, seats)
            loaded.table, step = plugin.start(
                dict(loaded.game.options),
                len(seats),
                shuffled_deck(self.seed()),
                dealer=dealer,
                pot=pot,
            )
            reply = Reply(new_deal=True, table_changed=True, hands=set(seats))
            return await self._commit_step(loaded, step, None, None, reply, status="active")

    async def _first_dealer(self, chat_id: int, plugin: Plugin, seats: list[int]) -> int:
        """Random (RULES.md §4.4), unless the game names the first dealer after the chat's
        previous game of it (Старшина's ``next_dealer``: its winner or loser), and he sits at
        the new table."""
        last = await self.db.last_deals(chat_id, 1)
        if last and last[0].kind == plugin.kind:
            previous = await self.load(await self.db.game(last[0].game_id))
            if previous.table is not None and previous.table.game_over():
                seat = previous.table.next_game_dealer()
                if seat is not None and previous.seats[seat] in seats:
                    return seats.index(previous.seats[seat])
        return secrets.randbelow(len(seats))

    async def stop(
        self,
        chat_id: int,
        user_id: int,
        is_admin: bool,
        *,
        now: bool = False,
        thread: int | None = None,
    ) -> Reply:
        """/stop by the creator or an admin (RULES.md §5 "Stopping"): a deal in progress is
        played out and settled — by the players, or with ``now`` at once by the default moves —
        and the table ends with it. The deal is voided only when every player agrees
        (``vote_void``)."""
        async with self.lock(chat_id):
            loaded = await self._require_active(chat_id, thread)
            if not is_admin and user_id != loaded.game.created_by:
                raise Refused("creator_or_admin_only")
            if loaded.game.status == "lobby" or loaded.table is None:
                return await self._close(loaded, "stopped", Notice("table_cancelled"))
            loaded.meta.stop = True
            if now:
                loaded.meta.autoplay = True
                return await self._advance(loaded, [Notice("stop_now")])
            return await self._commit_meta(loaded, loaded.seats, Notice("stop_after_deal"))

    async def close_lost(
        self, chat_id: int, thread: int | None = None, reason: str = "bot_removed"
    ) -> Reply | None:
        """The table can no longer be shown — the bot is no longer in the group
        (``bot_removed``), or the table's forum topic was closed or deleted
        (``topic_closed``): it closes as ``/stop now`` would close it (a lobby is cancelled; a
        deal in progress is played out by the default moves and settled; a Старшина game gives
        its pot back). None if there is no open table there."""
        async with self.lock(chat_id):
            loaded = await self.active(chat_id, thread)
            if loaded is None:
                return None
            if loaded.game.status == "lobby" or loaded.table is None:
                return await self._close(loaded, "stopped", Notice(reason))
            loaded.meta.stop = True
            loaded.meta.autoplay = True
            reply = await self._advance(loaded, [Notice(reason)])
            if not reply.closed:  # (the auto-play bound was reached: close it as it stands)
                current = await self.load(await self.db.game(loaded.game.game_id))
                return await self._close(current, "stopped", Notice(reason))
            return reply

    async def vote_void(self, game_id: int, user_id: int, deal: int) -> Reply:
        """A player agrees to void the deal in progress of a stopped table; when every player
        at the table has agreed, every chip of the deal goes back and the table ends."""
        async with self.lock(await self._chat_of(game_id)):
            loaded = await self._game_or_refuse(game_id)
            if loaded.game.status != "active" or loaded.table is None:
                raise Refused("game_over")
            if user_id not in loaded.game.seats:
                raise Refused("not_at_table")
            if not loaded.meta.stop or deal != loaded.meta.deals:
                raise Refused("outdated")
            if user_id in loaded.meta.void_votes:
                raise Refused("already_voted")
            loaded.meta.void_votes.append(user_id)
            if set(loaded.seats) <= set(loaded.meta.void_votes):
                return await self._void_deal(loaded)
            return await self._commit_meta(
                loaded, loaded.seats, Notice("void_vote", {"user": user_id})
            )

    # ------------------------------------------------------------------ turns

    async def act(self, game_id: int, user_id: int, turn: int, action_verb: str, arg: Any) -> Reply:
        """A button press: the user's seat, the turn number and legality are checked here."""
        async with self.lock(await self._chat_of(game_id)):
            loaded = await self._game_or_refuse(game_id)
            if loaded.game.status != "active" or loaded.table is None:
                raise Refused("game_over")
            seat = loaded.seat_of(user_id)
            if seat is None:
                raise Refused("not_at_table")
            if turn != loaded.meta.turn and action_verb != "look":
                raise Refused("outdated")
            if callable(arg):
                try:
                    arg = arg(loaded.table, seat)
                except ValueError:
                    raise Refused("unknown_button") from None
            action = Action(seat, action_verb, arg)
            before = loaded.table.dump() if action_verb == "look" else None
            try:
                step = loaded.table.apply(action)
            except IllegalAction as error:
                raise Refused(error.reason) from None
            if before is not None and loaded.table.dump() == before:
                # a repeated look (or one from an old message) changes nothing: no write
                return Reply(game=loaded.game, hands={user_id})
            loaded.meta.timeouts.pop(str(user_id), None)
            reply = Reply(hands={user_id})
            if action_verb != "look":
                reply.table_changed = True
            return await self._commit_step(loaded, step, action, user_id, reply)

    async def timeout(self, game_id: int, turn: int) -> Reply | None:
        """The turn ran out: make the default move (RULES.md §5) and announce it."""
        try:
            chat_id = (await self.db.game(game_id)).chat_id
        except GameNotFound:
            return None
        async with self.lock(chat_id):
            loaded = await self.load(await self.db.game(game_id))
            if loaded.game.status != "active" or loaded.meta.turn != turn or loaded.table is None:
                return None
            seat = loaded.table.to_act()
            if seat is not None and self._computer_plays(loaded, loaded.seats[seat]):
                return await self._computer_move(loaded, loaded.table, seat)
            action = loaded.table.default_action()
            if action is None:
                return None
            user = loaded.seats[action.seat]
            count = loaded.meta.timeouts.get(str(user), 0) + 1
            loaded.meta.timeouts[str(user)] = count
            reply = Reply(table_changed=True, hands={user})
            reply.notices.append(Notice("timeout_move", move_params(user, action)))
            if count >= AWAY_AFTER_TIMEOUTS and user not in loaded.meta.away:
                loaded.meta.away.append(user)
                reply.notices.append(self._away_notice(loaded, "now_away", user))
            step = loaded.table.apply(action)
            return await self._commit_step(loaded, step, action, None, reply)

    async def back(self, game_id: int, user_id: int) -> Reply:
        """«I'm back»: the player takes his seat over from the auto-player."""
        async with self.lock(await self._chat_of(game_id)):
            loaded = await self._game_or_refuse(game_id)
            if user_id not in loaded.meta.away:
                raise Refused("not_away")
            loaded.meta.away.remove(user_id)
            loaded.meta.timeouts.pop(str(user_id), None)
            if loaded.meta.clock_user == user_id:  # his turn: his own time, not the computer's
                loaded.meta.clock_user = None
            reply = await self._commit_meta(
                loaded, loaded.seats, Notice("is_back", {"user": user_id})
            )
            reply.hands.add(user_id)
            return reply

    async def mark_unreachable(self, game_id: int, user_id: int) -> Reply | None:
        """A player blocked the bot (403): he is auto-played, the group is told."""
        async with self.lock((await self.db.game(game_id)).chat_id):
            loaded = await self.load(await self.db.game(game_id))
            if loaded.game.status != "active" or user_id in loaded.meta.away:
                return None
            if user_id not in loaded.game.seats:
                return None
            loaded.meta.away.append(user_id)
            if loaded.meta.clock_user == user_id:  # the computer takes his turn after its pause
                loaded.meta.clock_user = None
            return await self._advance(loaded, [self._away_notice(loaded, "unreachable", user_id)])

    async def remove_player(
        self,
        chat_id: int,
        by_user: int,
        is_admin: bool,
        user_id: int,
        *,
        reachable: bool = True,
        thread: int | None = None,
    ) -> Reply:
        """The creator or an admin removes a player: from the lobby one the bot cannot write
        to (he never started it), at once; during a game an away player, after the deal."""
        async with self.lock(chat_id):
            loaded = await self._require_active(chat_id, thread)
            if not is_admin and by_user != loaded.game.created_by:
                raise Refused("creator_or_admin_only")
            if loaded.game.status == "lobby":
                if user_id not in loaded.game.seats:
                    raise Refused("not_at_table")
                if reachable and not is_computer(user_id):
                    raise Refused("kick_not_away")
                seats = [user for user in loaded.seats if user != user_id]
                if not seats:
                    return await self._close(loaded, "stopped", Notice("table_cancelled"))
                return await self._commit_meta(loaded, seats, Notice("removed", {"user": user_id}))
            if user_id not in loaded.meta.away and not (
                is_computer(user_id) and user_id in loaded.game.seats
            ):
                raise Refused("kick_not_away")
            if user_id not in loaded.meta.leaving:
                loaded.meta.leaving.append(user_id)
            return await self._commit_meta(
                loaded, loaded.seats, Notice("leaves", {"user": user_id})
            )

    async def unfreeze(self, game_id: int) -> Reply | None:
        """A table an older version left frozen between a deal's end and the next deal (the
        two were separate commits): its result is posted and the next deal dealt, or the
        table ends, as if the deal had just ended. None if the game is not in that state."""
        async with self.lock(await self._chat_of(game_id)):
            loaded = await self._game_or_refuse(game_id)
            table = loaded.table
            if loaded.game.status != "active" or table is None or table.to_act() is not None:
                return None
            timeout = await self.turn_timeout_of(loaded.game.chat_id)
            game_over = table.game_over()
            ending = self._table_ends(loaded, game_over)
            reply = Reply(table_changed=True)
            transfers: list[LedgerTransfer] = []
            if ending and not game_over:
                transfers = await self._game_pot_returned(loaded, [])
                reply.notices.append(Notice("table_closed"))
            before = await self.db.balances(loaded.game.chat_id)
            balances, pot = _balances_after(before.players, before.pot, transfers)
            engine = table.dump()
            result = DealResult(
                loaded.plugin.kind,
                loaded.plugin.load(engine),
                loaded.seats,
                game_over,
                {},
                balances=balances,
                deal=max(loaded.meta.deals - 1, 0),
            )
            reply.results.append(result)
            closing = [] if game_over or not ending else ["table_closed"]
            loaded.meta.due = [
                *loaded.meta.due,
                due_result(result, engine, closing),
            ]
            if ending:
                spec = self._spec(
                    loaded, None, None, transfers, None, timeout, status="finished", fresh=True
                )
                await self._write(loaded, [spec])
                reply.closed = True
            else:
                await self._write(loaded, [await self._next_deal(loaded, reply, pot, timeout)])
            reply.game = loaded.game
            return reply

    async def results_posted(
        self, game_id: int, deals: list[int], *, table_message_used: bool = False
    ) -> None:
        """The group has seen the results of ``deals``: they are no longer due. With
        ``table_message_used`` they were shown in the table message, which the game forgets
        in the same write (it shows a result now, not the table)."""
        async with self.lock(await self._chat_of(game_id)):
            game = await self.db.game(game_id)
            due = list(TableMeta.from_json(game.state.get("table")).due)
            left = [entry for entry in due if entry.get("deal") not in deals]
            if len(left) != len(due) or table_message_used:
                await self.db.set_results_due(
                    game_id, left, forget_table_message=table_message_used
                )

    # ------------------------------------------------------------------ internals

    async def _chat_of(self, game_id: int) -> int:
        """The chat of a game (whose lock guards it); refuses a game that does not exist."""
        try:
            return (await self.db.game(game_id)).chat_id
        except GameNotFound:
            raise Refused("unknown_game") from None

    async def _game_or_refuse(self, game_id: int) -> Loaded:
        try:
            return await self.load(await self.db.game(game_id))
        except GameNotFound:
            raise Refused("unknown_game") from None

    async def _free_pot(self, loaded: Loaded, chat_pot: int) -> int:
        """What a new deal of ``loaded`` may play for out of the chat's pot ``chat_pot``: the
        pot is the group's, shared by the tables of its forum topics, and a deal in progress
        at another table holds the chips it plays for (its P, RULES.md §1.1) until it ends.
        So two tables never pay out the same chips, and the pot never goes below zero."""
        held = 0
        for game in await self.db.chat_open_games(loaded.game.chat_id):
            if game.game_id == loaded.game.game_id or game.status != "active":
                continue
            other = await self.snapshot(game)
            if other.table is not None:
                held += other.table.pot_in_play()
        return max(0, chat_pot - held)

    async def _require_active(self, chat_id: int, thread: int | None) -> Loaded:
        loaded = await self.active(chat_id, thread)
        if loaded is None:
            raise Refused("no_game")
        return loaded

    def _state_json(self, loaded: Loaded) -> dict[str, Any]:
        engine = None if loaded.table is None else loaded.table.dump()
        return {"engine": engine, "table": asdict(loaded.meta)}

    def _deadline(
        self,
        loaded: Loaded,
        status: str | None,
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
        seat = loaded.table.to_act()
        if seat is None:
            meta.clock_user = None
            return None
        user = seats[seat]
        kept = loaded.game.turn_deadline
        if not fresh and user == meta.clock_user and kept is not None:
            return kept
        meta.clock_user = user
        if self._computer_plays(loaded, user):
            return self.clock() + self.computer_pause
        return self.clock() + timeout

    # ------------------------------------------------------------------ the chat's turn time

    async def turn_timeout_of(self, chat_id: int) -> float:
        """Seconds a decision may take in this chat: its own setting, else TURN_TIMEOUT."""
        cached = self._turn_timeouts.get(chat_id)
        if cached is None:
            stored = await self.db.chat_options(chat_id, TABLE_OPTIONS) or {}
            value = stored.get("turn_timeout")
            cached = self.turn_timeout
            if isinstance(value, int) and TURN_TIMEOUT_RANGE[0] <= value <= TURN_TIMEOUT_RANGE[1]:
                cached = float(value)
            self._turn_timeouts[chat_id] = cached
        return cached

    async def set_turn_timeout(
        self, chat_id: int, user_id: int, is_admin: bool, seconds: str
    ) -> int:
        """/timeout N by a chat admin or whoever opened a table open in the chat (in any of its
        forum topics, as for the other settings); for the whole chat, from the next decision
        on."""
        tables = await self.db.chat_open_games(chat_id)
        if not is_admin and not any(game.created_by == user_id for game in tables):
            raise Refused("creator_or_admin_only")
        if not seconds.isdecimal() or not (
            TURN_TIMEOUT_RANGE[0] <= int(seconds) <= TURN_TIMEOUT_RANGE[1]
        ):
            raise Refused("bad_timeout")
        stored = dict(await self.db.chat_options(chat_id, TABLE_OPTIONS) or {})
        stored["turn_timeout"] = int(seconds)
        await self.db.set_chat_options(chat_id, TABLE_OPTIONS, stored)
        self._turn_timeouts.pop(chat_id, None)
        return int(seconds)

    async def away_play_of(self, chat_id: int) -> str:
        """Who plays for an away player at this chat's next table (``AWAY_PLAY``)."""
        stored = await self.db.chat_options(chat_id, TABLE_OPTIONS) or {}
        value = stored.get("away_play")
        return value if value in AWAY_PLAY else AWAY_PLAY[0]

    async def set_away_play(self, chat_id: int, value: str) -> None:
        """The /settings choice of who plays for an away player, from the next table on (a
        running game keeps what it started with, as it keeps its options)."""
        if value not in AWAY_PLAY:
            raise Refused("not_allowed")
        stored = dict(await self.db.chat_options(chat_id, TABLE_OPTIONS) or {})
        stored["away_play"] = value
        await self.db.set_chat_options(chat_id, TABLE_OPTIONS, stored)

    def forget_chat(self, chat_id: int) -> None:
        """A chat moved (supergroup): its settings are read again under the new id."""
        self._turn_timeouts.pop(chat_id, None)

    def _spec(
        self,
        loaded: Loaded,
        action: Action | None,
        user_id: int | None,
        transfers: list[LedgerTransfer],
        deal: DealRecord | None,
        timeout: float,
        *,
        seats: list[int] | None = None,
        status: str | None = None,
        fresh: bool = False,
    ) -> dict[str, Any]:
        """One commit of the table as it is now (``Database.commit_action``'s arguments)."""
        deadline = self._deadline(
            loaded, status, timeout, loaded.seats if seats is None else seats, fresh=fresh
        )
        return {
            "new_state": self._state_json(loaded),
            "action": None if action is None else action.to_json(),
            "seat": None if action is None else action.seat,
            "user_id": user_id,
            "transfers": transfers,
            "deal": deal,
            "status": status,
            "seats": seats,
            "turn_deadline": deadline,
        }

    async def _write(self, loaded: Loaded, specs: list[dict[str, Any]]) -> Game:
        """Commit ``specs`` (one version each) in one transaction; ``loaded.game`` follows."""
        game_id = loaded.game.game_id
        try:
            if len(specs) == 1:
                rest = dict(specs[0])
                state, action = rest.pop("new_state"), rest.pop("action")
                await self.db.commit_action(game_id, loaded.game.version, state, action, **rest)
            else:
                await self.db.commit_actions(game_id, loaded.game.version, specs)
        except StaleVersion:
            raise Refused("outdated") from None
        except GameClosed:
            raise Refused("game_over") from None
        game = await self.db.game(game_id)
        loaded.game = game
        return game

    async def _commit(
        self,
        loaded: Loaded,
        action: Action | None,
        user_id: int | None,
        transfers: list[LedgerTransfer],
        deal: DealRecord | None,
        *,
        seats: list[int] | None = None,
        status: str | None = None,
        fresh: bool = False,
    ) -> Game:
        timeout = await self.turn_timeout_of(loaded.game.chat_id)
        if status in ("finished", "stopped"):
            transfers = transfers + await self._game_pot_returned(loaded, transfers)
        spec = self._spec(
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
        return await self._write(loaded, [spec])

    async def _commit_meta(self, loaded: Loaded, seats: list[int], *notices: Notice) -> Reply:
        game = await self._commit(loaded, None, None, [], None, seats=seats)
        return Reply(
            game=game,
            lobby_changed=game.status == "lobby",
            table_changed=True,
            notices=list(notices),
        )

    async def _close(self, loaded: Loaded, status: str, *notices: Notice) -> Reply:
        game = await self._commit(loaded, None, None, [], None, status=status)
        return Reply(
            game=game, lobby_changed=True, table_changed=True, closed=True, notices=list(notices)
        )

    async def _game_pot_returned(
        self, loaded: Loaded, pending: list[LedgerTransfer]
    ) -> list[LedgerTransfer]:
        """A game that ends without a winner gives its own pot back (RULES.md §5 "Stopping"):
        each player gets the stakes he paid into it, so no chip stays in a closed game's pot.
        ``pending`` are the transfers committed with the close."""
        paid: dict[int, int] = {}
        stored = await self.db.transfers(loaded.game.chat_id, game_id=loaded.game.game_id)
        moves: list[LedgerTransfer | LedgerEntry] = [*stored, *pending]
        for entry in moves:
            if entry.dst == GAME_POT and isinstance(entry.src, int):
                paid[entry.src] = paid.get(entry.src, 0) + entry.amount
            elif entry.src == GAME_POT and isinstance(entry.dst, int):
                paid[entry.dst] = paid.get(entry.dst, 0) - entry.amount
        if sum(paid.values()) <= 0:
            return []  # the pot is empty (a winner took it, or the game never had one)
        deal = loaded.meta.deals
        return [
            LedgerTransfer(GAME_POT, user, amount, "game_pot_return", deal)
            for user, amount in paid.items()
            if amount > 0
        ]

    def _ledger(self, step: Step, seats: list[int], deal: int) -> list[LedgerTransfer]:
        def party(value: Any) -> Any:
            if value in (POT, GAME_POT):
                return value
            return seats[value]

        return [
            LedgerTransfer(party(t.src), party(t.dst), t.amount, t.reason, deal)
            for t in step.transfers
            if isinstance(t, Transfer)
        ]

    def _deal_record(self, step: Step, seats: list[int], deal: int) -> DealRecord:
        winner = step.summary.get("winner") if step.game_over else None
        return DealRecord(
            deal=deal,
            players=tuple(
                DealPlayer(seats[r.seat], r.seat, r.tricks, r.active) for r in step.results
            ),
            summary=step.summary,
            winner=seats[winner] if isinstance(winner, int) else None,
        )

    async def _commit_step(
        self,
        loaded: Loaded,
        step: Step,
        action: Action | None,
        user_id: int | None,
        reply: Reply,
        *,
        status: str | None = None,
    ) -> Reply:
        """Commit a rules step (``_commit_move``), then the forced steps it leaves
        (``_play_forced``): each is a commit of its own."""
        timeout = await self.turn_timeout_of(loaded.game.chat_id)
        await self._commit_move(loaded, step, action, user_id, reply, timeout, status=status)
        await self._play_forced(loaded, reply, timeout)
        return reply

    async def _commit_move(
        self,
        loaded: Loaded,
        step: Step,
        action: Action | None,
        user_id: int | None,
        reply: Reply,
        timeout: float,
        *,
        status: str | None = None,
    ) -> None:
        """One rules step as one commit: a move within the deal, or the move that ends it
        together with its settlement and the next deal (``_end_deal``). A look is no move:
        the turn number (and the deadline) stay."""
        fresh = action is None or action.verb != "look"
        if fresh:
            loaded.meta.turn += 1
        transfers = self._ledger(step, loaded.seats, loaded.meta.deals)
        if step.deal_over:
            await self._end_deal(loaded, step, action, user_id, transfers, reply, timeout)
        else:
            spec = self._spec(
                loaded, action, user_id, transfers, None, timeout, status=status, fresh=fresh
            )
            await self._write(loaded, [spec])
        reply.game = loaded.game

    async def _play_forced(self, loaded: Loaded, reply: Reply, timeout: float) -> None:
        """The default moves of the seats the bot plays (away or leaving players, or every
        seat after /stop now), one commit each, until a player must decide or the table
        closes (at most ``MAX_AUTO_STEPS``; then the turn timer goes on)."""
        for _ in range(MAX_AUTO_STEPS):
            if reply.closed:
                return
            auto = self._auto_action(loaded)
            if auto is None or loaded.table is None:
                return
            step = self._forced_move(loaded.table, loaded.seats, auto, reply)
            await self._commit_move(loaded, step, auto, None, reply, timeout)

    @staticmethod
    def _forced_move(table: Table, seats: list[int], auto: Action, reply: Reply) -> Step:
        """Apply a default move made for a player, announced to the table."""
        user = seats[auto.seat]
        reply.notices.append(Notice("auto_move", move_params(user, auto)))
        reply.hands.add(user)
        return table.apply(auto)

    def _table_ends(self, loaded: Loaded, game_over: bool) -> bool:
        """Whether the table ends with the deal that just ended: the game is over, a stop
        was asked for, everyone is away, or too few players remain for another deal."""
        return (
            game_over
            or loaded.meta.stop
            or self._deserted(loaded)
            or not self._seats_after_deal(loaded)
        )

    async def _end_deal(
        self,
        loaded: Loaded,
        step: Step,
        action: Action | None,
        user_id: int | None,
        transfers: list[LedgerTransfer],
        reply: Reply,
        timeout: float,
    ) -> None:
        """The move that ends a deal, its settlement, the result still to post and the next
        deal (or the end of the table), all in one transaction: a crash or a failed write
        leaves the table either before the move or in the next deal, never in between."""
        assert loaded.table is not None
        seats = loaded.seats
        deal_no = loaded.meta.deals
        deal = self._deal_record(step, seats, deal_no)
        loaded.meta.deals += 1
        ending = self._table_ends(loaded, step.game_over)
        closing: list[str] = []
        if self._deserted(loaded) and not step.game_over:
            closing.append("all_away")
        if ending and not step.game_over:
            closing.append("table_closed")
            transfers = transfers + await self._game_pot_returned(loaded, transfers)
        before = await self.db.balances(loaded.game.chat_id)
        balances, pot = _balances_after(before.players, before.pot, transfers)
        money = await self._deal_money(loaded.game, deal_no)
        for entry in transfers:
            for party, sign in ((entry.src, -1), (entry.dst, 1)):
                if isinstance(party, int):
                    parts = money.setdefault(party, {})
                    parts[entry.reason] = parts.get(entry.reason, 0) + sign * entry.amount
        engine = loaded.table.dump()
        result = DealResult(
            loaded.plugin.kind,
            loaded.plugin.load(engine),  # the next deal may go on in the same state object
            seats,
            step.game_over,
            step.summary,
            balances=balances,
            deal=deal_no,
            money=money,
            players=tuple(step.results),
        )
        reply.results.append(result)
        # (a group that cannot be shown anything for a long while keeps only its last ones)
        loaded.meta.due = [*loaded.meta.due, due_result(result, engine, closing)]
        loaded.meta.due = loaded.meta.due[-MAX_DUE_RESULTS:]
        loaded.meta.void_votes = []
        loaded.meta.autoplay = False
        specs = [
            self._spec(
                loaded,
                action,
                user_id,
                transfers,
                deal,
                timeout,
                status="finished" if ending else None,
                fresh=True,
            )
        ]
        if not ending:
            specs.append(await self._next_deal(loaded, reply, pot, timeout))
        await self._write(loaded, specs)
        reply.game = loaded.game
        if "all_away" in closing:
            reply.notices.append(Notice("all_away"))
        if ending:
            reply.closed = True
            reply.notices.append(Notice("game_over" if step.game_over else "table_closed"))

    async def _deal_money(self, game: Game, deal: int) -> dict[int, dict[str, int]]:
        """What a deal has moved so far for each player, by reason, from its ledger entries."""
        money: dict[int, dict[str, int]] = {}
        entries = await self.db.transfers(game.chat_id, game_id=game.game_id, deal=deal)
        for entry in entries:
            for party, sign in ((entry.src, -1), (entry.dst, 1)):
                if isinstance(party, int):
                    parts = money.setdefault(party, {})
                    parts[entry.reason] = parts.get(entry.reason, 0) + sign * entry.amount
        return money

    @staticmethod
    def _deserted(loaded: Loaded) -> bool:
        """Every person who would play the next deal is away (computers do not count): the
        bot would only play itself, so the table ends with the deal instead of dealing to an
        empty room for ever."""
        staying = [u for u in loaded.seats if u not in loaded.meta.leaving and not is_computer(u)]
        return all(u in loaded.meta.away for u in staying + loaded.meta.joining)

    @staticmethod
    def _seats_after_deal(loaded: Loaded) -> bool:
        """Whether enough players remain for another deal once leavers go and joiners sit
        (a game whose seats never change goes on only if nobody leaves)."""
        if not loaded.plugin.seats_between_deals:
            return not loaded.meta.leaving
        remaining = [u for u in loaded.seats if u not in loaded.meta.leaving]
        return len(remaining) + len(loaded.meta.joining) >= loaded.plugin.min_players

    async def _next_deal(
        self, loaded: Loaded, reply: Reply, pot: int, timeout: float
    ) -> dict[str, Any]:
        """The next deal dealt from ``loaded`` (the table as the last deal left it, with the
        chat's pot ``pot`` after it), as a commit for ``_end_deal`` to make: leavers go,
        joiners sit, and the deal passes to the next player after the last dealer who stays
        (where the game's own rules do not pick the dealer)."""
        assert loaded.table is not None
        old_seats = loaded.seats
        old_dealer = loaded.table.dealer()
        seats = [u for u in old_seats if u not in loaded.meta.leaving] + loaded.meta.joining
        for user in loaded.meta.leaving:
            reply.notices.append(Notice("removed", {"user": user}))
            if user in loaded.meta.away:
                loaded.meta.away.remove(user)
        loaded.meta.leaving = []
        loaded.meta.joining = []
        after_dealer = [
            old_seats[(old_dealer + k) % len(old_seats)] for k in range(1, 1 + len(old_seats))
        ]
        dealer_user = next((user for user in after_dealer if user in seats), seats[0])
        if loaded.plugin.chat_pot:
            pot = await self._free_pot(loaded, pot)
        loaded.table, step = loaded.table.next_deal(
            shuffled_deck(self.seed()), pot=pot, players=len(seats), dealer=seats.index(dealer_user)
        )
        reply.new_deal = True
        reply.table_changed = True
        reply.hands |= set(seats)
        loaded.meta.turn += 1
        transfers = self._ledger(step, seats, loaded.meta.deals)
        return self._spec(loaded, None, None, transfers, None, timeout, seats=seats, fresh=True)

    def _auto_action(self, loaded: Loaded) -> Action | None:
        """The default move of the seat to act if the bot plays it (he is away or leaving, or
        /stop now plays every seat), else None."""
        if loaded.table is None or loaded.game.status != "active":
            return None
        seat = loaded.table.to_act()
        if seat is None:
            return None
        user = loaded.seats[seat]
        if loaded.meta.autoplay:
            return loaded.table.default_action()
        if self._computer_plays(loaded, user):
            return None  # its turn timer brings the computer's move, after a short pause
        if user in loaded.meta.away or user in loaded.meta.leaving:
            return loaded.table.default_action()
        return None

    @staticmethod
    def _computer_plays(loaded: Loaded, user: int) -> bool:
        """Whether a computer makes this seat's moves: a computer seat (to the end of its
        deal, even once removed), or an away player at a table where the computer plays for
        the away (``TableMeta.away_play``) — unless he is leaving, or /stop now plays all."""
        if loaded.meta.autoplay:
            return False
        if is_computer(user):
            return True
        return (
            loaded.meta.away_play == "computer"
            and user in loaded.meta.away
            and user not in loaded.meta.leaving
        )

    @staticmethod
    def _away_notice(loaded: Loaded, key: str, user: int) -> Notice:
        """The one announcement that a player is away, saying who plays for him now."""
        return Notice(key, {"user": user, "computer": loaded.meta.away_play == "computer"})

    async def _computer_move(self, loaded: Loaded, table: Table, seat: int) -> Reply:
        """A computer's turn (its pause is over): it looks at its cards if it has not, then
        makes the move its level chooses, thought out off the event loop (``Thinker``). An
        away player is played by the strong level, in his own interest."""
        user = loaded.seats[seat]
        reply = Reply(table_changed=True, hands={user})
        if table.computer_looks_first(seat):
            look = Action(seat, "look")
            await self._commit_step(loaded, table.apply(look), look, None, reply)
        level = computer_level(user) if is_computer(user) else "strong"
        action = await self.thinker.decide(table.computer_view(seat), level)
        step = table.apply(action)
        return await self._commit_step(loaded, step, action, None, reply)

    async def _advance(self, loaded: Loaded, notices: list[Notice]) -> Reply:
        """Commit a change of the table's own (someone leaves, goes away, /stop now), then the
        forced steps it leaves if the seat to act is now played by the bot."""
        loaded.meta.turn += 1
        reply = Reply(table_changed=True, notices=notices)
        reply.game = await self._commit(loaded, None, None, [], None)
        await self._play_forced(loaded, reply, await self.turn_timeout_of(loaded.game.chat_id))
        return reply

    async def _void_deal(self, loaded: Loaded) -> Reply:
        """Every player agreed: the deal in progress is void; every chip it moved goes back
        (and a Старшина game's own pot with it: the game ends without a winner)."""
        deal_no = loaded.meta.deals
        moved = await self.db.transfers(
            loaded.game.chat_id, game_id=loaded.game.game_id, deal=deal_no
        )
        refunds = [
            LedgerTransfer(entry.dst, entry.src, entry.amount, "void", deal_no) for entry in moved
        ]
        game = await self._commit(loaded, None, None, refunds, None, status="stopped")
        return Reply(game=game, table_changed=True, closed=True, notices=[Notice("deal_voided")])


def _balances_after(
    players: Any, pot: int, transfers: list[LedgerTransfer]
) -> tuple[dict[int, int], int]:
    """Players' balances and the chat's pot once ``transfers`` are committed."""
    after = dict(players)
    for entry in transfers:
        for party, sign in ((entry.src, -1), (entry.dst, 1)):
            if party == POT:
                pot += sign * entry.amount
            elif isinstance(party, int):
                after[party] = after.get(party, 0) + sign * entry.amount
    return after, pot


def due_result(result: DealResult, engine: JsonObject, closing: list[str]) -> dict[str, Any]:
    """A finished deal's result as stored until it is posted (see ``TableMeta.due``)."""
    return {
        "deal": result.deal,
        "kind": result.kind,
        "engine": engine,
        "seats": list(result.seats),
        "game_over": result.game_over,
        "summary": result.summary,
        "balances": [[user, amount] for user, amount in result.balances.items()],
        "closing": closing,
        "money": [[user, parts] for user, parts in result.money.items()],
        "players": [[p.seat, p.tricks, p.active] for p in result.players],
    }


def result_from_due(data: dict[str, Any]) -> tuple[DealResult, list[str]]:
    """A stored result (``due_result``) back, with the keys of its closing notices."""
    plugin = game_for(str(data["kind"]))
    result = DealResult(
        plugin.kind,
        plugin.load(data["engine"]),
        [int(user) for user in data["seats"]],
        bool(data["game_over"]),
        dict(data["summary"]),
        balances={int(user): int(amount) for user, amount in data["balances"]},
        deal=int(data["deal"]),
        money={int(user): dict(parts) for user, parts in data.get("money", [])},
        players=tuple(
            SeatResult(int(seat), int(tricks), bool(active))
            for seat, tricks, active in data.get("players", [])
        ),
    )
    return result, [str(key) for key in data.get("closing", [])]
