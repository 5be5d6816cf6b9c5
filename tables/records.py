"""The table service's records: what it hands out and what it stores beside the rules' state.

``TableMeta`` is the table's own part of a stored game; ``Loaded`` a game read back with its
rules; ``Reply`` (with its ``Notice`` and ``DealResult``) the builder an operation gathers
its change in, handed out only as its frozen ``events.TableEvent``; ``Refused`` a request the
table turns down. A finished deal's result is stored until the group has seen it
(``due_result``, ``result_from_due``). Nothing here reads or writes storage.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar, cast

from game.core import Action, Event
from game.registry import JsonObject, SeatResult
from storage.records import Game
from tables.games import Catalogue, Plugin, Table


def is_practice(chat_id: int) -> bool:
    """Whether a table's chat is a player's private chat with the bot: his practice table
    against the computers (Telegram's private chat ids are the users' own, positive; a
    group's are negative). Its chips are its own: no group's balances, figures or evenings
    ever read another chat's rows."""
    return chat_id > 0


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
    #: the deal, removed once posted (``DealSteps.results_posted``); see ``due_result``
    due: list[JsonObject] = field(default_factory=list)
    #: who plays for an away player: the strong ``computer`` or the ``default`` moves
    away_play: str = "computer"
    #: the cards each player has marked for the move of several cards now due (a discard,
    #: Старшина's kitty): user id → {"turn": the turn they were marked at, "cards": [...]};
    #: stored, so a restart keeps them, and a timeout makes the move they choose
    marks: dict[str, JsonObject] = field(default_factory=dict)

    def marked(self, user_id: int) -> tuple[str, ...]:
        """The cards ``user_id`` has marked at the turn now due (none at another)."""
        kept = self.marks.get(str(user_id))
        if kept is None or kept.get("turn") != self.turn:
            return ()
        cards = kept.get("cards", ())
        return tuple(str(card) for card in cards) if isinstance(cards, list | tuple) else ()

    @staticmethod
    def from_json(data: Mapping[str, object] | None) -> TableMeta:
        """The table's own state from a stored game: a deep copy, so the caller may change
        it freely. (The stored state may be the read cache's, seen by every reader until the
        game's row changes: a change made before a commit that is then refused must stay
        invisible to them.)"""
        stored: dict[str, Any] = json_copy(dict(data or {}))  # as ``to_json`` wrote it
        return TableMeta(**stored)

    def to_json(self) -> JsonObject:
        """The table's own state to store: ``dataclasses.asdict`` of it (a deep copy), at a
        fraction of its cost (``json_copy``)."""
        return {part.name: json_copy(getattr(self, part.name)) for part in fields(self)}


J = TypeVar("J")


def json_copy(value: J) -> J:
    """A deep copy of a JSON-like value (dicts, lists, tuples, strings, numbers, None): what
    ``copy.deepcopy`` gives for one, without its memo and dispatch (the table's state is
    copied at every load and every commit). Anything else is left to ``copy.deepcopy``."""
    return cast(J, _copied(value))


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    if kind is tuple:
        return tuple(_copied(item) for item in value)
    return copy.deepcopy(value)


#: what a notice says of the table: a user, a verb, a card, a count, an amount
NoticeParam = int | str


@dataclass
class Notice:
    """An announcement to the group: a locale key and its parameters (user ids as ``user``)."""

    key: str
    params: dict[str, NoticeParam] = field(default_factory=dict)


@dataclass
class DealResult:
    """A finished deal, for the result message."""

    kind: str
    table: Table  # the finished deal
    seats: list[int]
    game_over: bool
    summary: JsonObject
    balances: dict[int, int] = field(default_factory=dict)  # user → balance when it ended
    deal: int = 0  # its number at the table, from 0
    #: user → reason → chips the deal moved for him (the ledger of the deal, its ante included):
    #: the sum over reasons is his balance change over the deal
    money: dict[int, dict[str, int]] = field(default_factory=dict)
    players: tuple[SeatResult, ...] = ()  # each seat's tricks, and whether he played


@dataclass
class Reply:
    """What a change did, gathered while it is made (its steps add to it); the operation hands
    it out frozen (``events.recorded``)."""

    game: Game | None = None
    lobby_changed: bool = False
    table_changed: bool = False
    new_deal: bool = False  # a new table message and new hand messages
    hands: set[int] = field(default_factory=set)  # users whose hand message to refresh
    results: list[DealResult] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    closed: bool = False  # the table ended (stopped or the game is over)
    lost: str | None = None  # why it closed: its group cannot be shown it (``close_lost``)
    #: the rules' events of the change's steps, in order, each with the user it is addressed
    #: to (None: the whole table sees it)
    events: list[tuple[Event, int | None]] = field(default_factory=list)

    def saw(self, events: Sequence[Event], seats: Sequence[int]) -> None:
        """A step's ``events``, at a table of ``seats`` (seat → user) as the step left it."""
        self.events += [(e, None if e.to is None else seats[e.to]) for e in events]


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


def move_params(user: int, action: Action) -> dict[str, NoticeParam]:
    """An announced move without its secret: which card was dropped or given stays private."""
    params: dict[str, NoticeParam] = {"user": user, "verb": action.verb}
    if action.verb in PUBLIC_ARGUMENT_VERBS and isinstance(action.arg, str):
        params["arg"] = action.arg
    elif isinstance(action.arg, tuple):
        params["count"] = len(action.arg)
    return params


def due_result(result: DealResult, engine: JsonObject, closing: list[str]) -> JsonObject:
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


def sent_maybe(entry: Mapping[str, object]) -> bool:
    """Whether a result still due was going out as a new message when the bot stopped
    (``DealSteps.results_sending``): it may be in the group already."""
    return bool(entry.get("sending"))


def result_from_due(data: Mapping[str, object], games: Catalogue) -> tuple[DealResult, list[str]]:
    """A stored result (``due_result``) of one of ``games`` back, with the keys of its closing
    notices."""
    stored: Any = data  # as ``due_result`` wrote it
    plugin = games.of(str(stored["kind"]))
    result = DealResult(
        plugin.rules.kind,
        plugin.rules.load(stored["engine"]),
        [int(user) for user in stored["seats"]],
        bool(stored["game_over"]),
        dict(stored["summary"]),
        balances={int(user): int(amount) for user, amount in stored["balances"]},
        deal=int(stored["deal"]),
        money={int(user): dict(parts) for user, parts in stored.get("money", [])},
        players=tuple(
            SeatResult(int(seat), int(tricks), bool(active))
            for seat, tricks, active in stored.get("players", [])
        ),
    )
    return result, [str(key) for key in stored.get("closing", [])]
