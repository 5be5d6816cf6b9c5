"""The records the storage layer takes and returns: plain frozen dataclasses, no I/O.

States, actions, options and deal summaries are opaque JSON to storage: it stores them and
gives them back, and never looks inside.

Ledger parties (``Party``): a Telegram user id (``int``), ``POT`` — the chat's running pot
(the carried «ремиз»), or ``GAME_POT`` — the own pot of the game the transfer belongs to
(Старшина, docs/rules.md §4.4). A transfer moves a positive ``amount`` from one party to another,
so for every chat the player balances, the chat pot and all game pots sum to zero.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

JSONObject = dict[str, Any]
"""A JSON object as ``json.loads`` returns it."""
ActionJSON = list[Any] | dict[str, Any]
"""An action as the game engine serialises it (``Action.to_json()`` is a list)."""

GameStatus = Literal["lobby", "active", "finished", "stopped"]
"""Where a game is: ``lobby`` and ``active`` games are *open* (at most one per chat)."""
GAME_STATUSES: Final[tuple[GameStatus, ...]] = get_args(GameStatus)
OPEN_STATUSES: Final[tuple[GameStatus, ...]] = ("lobby", "active")
"""Statuses of a game that still accepts commits."""

LogKind = Literal["init", "action", "system"]
"""A log row: the initial state (version 0), a player's action, or a system state change."""

POT: Final = "pot"
"""The chat's running pot."""
GAME_POT: Final = "game_pot"
"""The own pot of the game a transfer belongs to."""
Party = int | Literal["pot", "game_pot"]
"""Who pays or receives: a Telegram user id, ``POT`` or ``GAME_POT``."""


def check_party(party: object) -> Party:
    """Return ``party`` if it is a valid ledger party, else raise ``ValueError``."""
    if party == POT:
        return POT
    if party == GAME_POT:
        return GAME_POT
    if isinstance(party, int) and not isinstance(party, bool):
        return party
    raise ValueError(f"not a ledger party: {party!r}")


@dataclass(frozen=True, slots=True)
class Transfer:
    """Money moved by a commit: ``amount`` chips from ``src`` to ``dst``.

    ``deal`` is the caller's number of the deal the money belongs to (so a deal's history can
    list its transfers); ``reason`` is the game's short code for it (``ante``, ``trick``…),
    which storage keeps and never reads into.
    """

    src: Party
    dst: Party
    amount: int
    reason: str
    deal: int

    def __post_init__(self) -> None:
        check_party(self.src)
        check_party(self.dst)
        if self.src == self.dst:
            raise ValueError(f"transfer from {self.src!r} to itself")
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount <= 0:
            raise ValueError(f"transfer amount must be a positive int, not {self.amount!r}")
        if not self.reason:
            raise ValueError("transfer reason must not be empty")
        if isinstance(self.deal, bool) or not isinstance(self.deal, int) or self.deal < 0:
            raise ValueError(f"deal must be a non-negative int, not {self.deal!r}")


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One stored transfer. ``version`` is the game version whose commit wrote it."""

    entry_id: int
    chat_id: int
    game_id: int
    version: int
    deal: int
    src: Party
    dst: Party
    amount: int
    reason: str
    created_at: float


@dataclass(frozen=True, slots=True)
class DealPlayer:
    """One seated player's result in a finished deal.

    ``active`` is False for a player who sat the deal out (passed in Стуколка).
    """

    user_id: int
    seat: int
    tricks: int
    active: bool = True


@dataclass(frozen=True, slots=True)
class DealRecord:
    """Written with the commit that ends a deal: who sat, their tricks, and a free summary.

    ``winner``: the user who won the game this deal ended (Старшина), else None.
    """

    deal: int
    players: tuple[DealPlayer, ...]
    summary: JSONObject = field(default_factory=dict)
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class DealHistory:
    """A finished deal as history shows it, with every transfer of that deal.

    ``game_transfers``: where the deal won its game and one deal is shown alone, every
    transfer of that game up to it (the game's money, which its table showed at its end);
    else empty.
    """

    deal_id: int
    game_id: int
    chat_id: int
    kind: str
    deal: int
    version: int
    ended_at: float
    summary: JSONObject
    players: tuple[DealPlayer, ...]
    transfers: tuple[LedgerEntry, ...]
    game_transfers: tuple[LedgerEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class Balances:
    """A chat's money: the kept balances, always equal to sums over its ledger.

    ``players`` has every user who ever paid or received in the chat (zero included);
    ``game_pots`` only the games whose own pot is not empty.
    """

    players: Mapping[int, int]
    pot: int
    game_pots: Mapping[int, int]

    @property
    def total(self) -> int:
        """Sum of everything; zero for every consistent chat."""
        return sum(self.players.values()) + self.pot + sum(self.game_pots.values())


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A player's record in one chat.

    ``deals``: finished deals he was seated at; ``deals_active``: those he played;
    ``net``: his balance in the chat.
    """

    chat_id: int
    user_id: int
    deals: int
    deals_active: int
    tricks: int
    net: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A Telegram chat the bot has seen. ``language`` None means the bot's default."""

    chat_id: int
    title: str | None
    language: str | None
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class Player:
    """A Telegram user. ``started``: he pressed /start in private, so the bot may write to him."""

    user_id: int
    name: str
    language: str | None
    started: bool
    created_at: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class HandMessage:
    """A player's private hand message of one deal (``deal``, from 0)."""

    user_id: int
    deal: int
    message_id: int


@dataclass(frozen=True, slots=True)
class Game:
    """A game row with everything the bot needs to resume it after a restart.

    ``seats`` are user ids in seat order; ``hand_messages`` maps a user id to the private
    message that shows his hand of the deal in play (``deal``, counted from 0 in the state's
    table part); ``old_hands`` are the hand messages of deals that have ended, still to be
    retired; ``turn_deadline`` is in unix seconds.

    Read-only, all the way down: a ``Database`` that caches reads hands the same object to
    every reader until the game's row changes. ``options`` and ``hand_messages`` are read-only
    mappings; ``state`` is typed as one (its nested values are the decoded JSON, to be copied
    before any change).
    """

    game_id: int
    chat_id: int
    kind: str
    status: GameStatus
    version: int
    state_text: str  # the stored JSON of ``state``
    options: Mapping[str, Any]
    seats: tuple[int, ...]
    created_by: int | None
    table_message_id: int | None
    hand_messages: Mapping[int, int]
    turn_deadline: float | None
    created_at: float
    updated_at: float
    thread_id: int | None = None
    """The forum topic the table is in (Telegram's ``message_thread_id``); None: a chat
    without topics, or the General topic of one."""
    table_deal: int | None = None
    table_unknown: bool = False
    lobby_message_id: int | None = None
    deal: int = 0
    old_hands: tuple[HandMessage, ...] = ()
    _state: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def state(self) -> Mapping[str, Any]:
        """The stored state, decoded on first use (once per object, and so once per version
        when reads are cached). The bot reads a game many times per button press, mostly for
        its messages and seats; only some of those reads need the state, and decoding it each
        time was a tenth of the bot's CPU."""
        if self._state is None:
            decoded: Mapping[str, Any] = MappingProxyType(json.loads(self.state_text))
            object.__setattr__(self, "_state", decoded)
            return decoded
        return self._state

    @property
    def is_open(self) -> bool:
        """True while the game is in the lobby or in play."""
        return self.status in OPEN_STATUSES

    @property
    def display(self) -> Display:
        """What the group and the players have on screen for this game, as stored."""
        due = self.state.get("table", {}).get("due", [])
        return Display(
            table_message_id=self.table_message_id,
            table_deal=self.table_deal,
            table_unknown=self.table_unknown,
            lobby_message_id=self.lobby_message_id,
            hand_messages=self.hand_messages,
            old_hands=self.old_hands,
            results_due=tuple(int(entry["deal"]) for entry in due),
        )


@dataclass(frozen=True, slots=True)
class Display:
    """A game's display state: one record, stored with the game, so a restart shows exactly
    what it should, once.

    ``table_message_id``: the group message that shows the table; ``table_deal``: the deal it
    shows (None: the current one); ``table_unknown``: a send of it failed but may have been
    delivered, so no other is sent until the next deal; ``lobby_message_id``: a started game's
    lobby message whose buttons are still to be taken off, moved there from the table message
    by the very commit that takes the game out of the lobby; ``hand_messages``: each player's
    private hand message of the current deal; ``old_hands``: hand messages of deals that have
    ended, to be retired (their last edit, or their buttons taken off, then forgotten): each
    message knows its deal, so the commit that ends a deal makes them old by itself;
    ``results_due``: the deals (from 0) whose results the group has not been shown yet,
    written by the very commit that ended each deal.
    """

    table_message_id: int | None
    table_deal: int | None
    table_unknown: bool
    lobby_message_id: int | None
    hand_messages: Mapping[int, int]
    old_hands: tuple[HandMessage, ...]
    results_due: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of a game's action log.

    ``init`` (version 0) and ``system`` rows carry the full ``state`` they set; ``action``
    rows carry the ``action`` that, applied to the previous state, produced this version.
    """

    game_id: int
    version: int
    kind: LogKind
    seat: int | None
    user_id: int | None
    action: ActionJSON | None
    state: JSONObject | None
    created_at: float
