"""The records a button press decodes to (``bot.callback`` is their wire format): one frozen
dataclass a kind, each checking the shape of its fields on construction (``BadCallback``
otherwise). Whether a verb, a /new choice or an options menu is one of the shown games' is
the codec's to check (``bot.callback.Codec``): a record knows no games."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Final, Literal

MAX_ID: Final = 2**63 - 1
"""Game ids and versions are SQLite integers: at most 2**63 - 1 (13 base-36 digits)."""
MAX_MASK: Final = 2**32 - 1
"""Selections over up to 32 cards (the largest hand is 20)."""


class BadCallback(ValueError):
    """callback_data this codec did not produce (or produced by a version it no longer reads)."""


class ArgKind(Enum):
    NONE = "none"
    CARD = "card"
    SUIT = "suit"
    MASK = "mask"


Verbs = Mapping[str, tuple[str, ArgKind]]
"""A game's moves on the wire: engine verb → (wire code, kind of argument)."""

LobbyAction = Literal["join", "leave", "begin", "cancel", "computer", "novice", "uncomputer"]
LOBBY_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "join": "j",
        "leave": "l",
        "begin": "b",
        "cancel": "c",
        "computer": "r",  # seat a strong computer
        "novice": "n",  # seat an easy one
        "uncomputer": "u",  # take the last computer seated off the table
    }
)


PageName = Literal["balance", "settle"]
PAGE_CODES: Final[Mapping[str, str]] = MappingProxyType({"balance": "b", "settle": "s"})

_RANKS = "23456789TJQKA"
_SUITS = "SHDC"
_TOKEN = re.compile(r"[a-z0-9_]{1,16}")


@dataclass(frozen=True, slots=True)
class Act:
    """A game move: ``verb`` of the engine with its argument — a card (``"TH"``) for play,
    drop, give and return; a suit letter for trump; a selection mask (int) for discard and
    kitty; ``None`` otherwise. Which of them the verb takes is the codec's to check."""

    game_id: int
    version: int
    verb: str
    arg: str | int | None = None

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.version)
        _check_verb(self.verb)
        if not (self.arg is None or _is_card(self.arg) or _is_suit(self.arg)):
            _check_mask(self.arg)


@dataclass(frozen=True, slots=True)
class Select:
    """Toggle a card of a multi-card choice: ``mask`` is the whole selection after the toggle.
    The handler only redraws the keyboard; nothing is applied."""

    game_id: int
    version: int
    verb: str
    mask: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.version)
        _check_verb(self.verb)
        _check_mask(self.mask)


@dataclass(frozen=True, slots=True)
class Look:
    """Show me my cards (Стуколка: not a turn, allowed any time in the deal)."""

    game_id: int
    version: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.version)


@dataclass(frozen=True, slots=True)
class Hint:
    """💡 at a player's turn: what the strong computer would do in his seat, and why."""

    game_id: int
    version: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.version)


@dataclass(frozen=True, slots=True)
class Hints:
    """/settings: whether a group's players may ask for hints at their turn."""

    allowed: bool

    def __post_init__(self) -> None:
        if not isinstance(self.allowed, bool):
            raise BadCallback("hints are allowed or not")


@dataclass(frozen=True, slots=True)
class Lobby:
    """A lobby button: join, leave, begin (the creator), cancel (the creator or an admin),
    or seat a computer (``computer`` strong, ``novice`` easy) or take the last one off
    (``uncomputer``; anyone at the table)."""

    game_id: int
    action: LobbyAction

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        if self.action not in LOBBY_CODES:
            raise BadCallback("unknown lobby action")


@dataclass(frozen=True, slots=True)
class NewGame:
    """The /new chooser: which game to open a table for (a /new choice of a shown game)."""

    kind: str

    def __post_init__(self) -> None:
        _check_token(self.kind)


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings menu. ``game`` None: the top menu; ``option`` None: the game's options;
    ``value`` None: the values of ``option``; all three set: set the option to ``value``
    (a token from ``bot.render.menus.option_token``). ``game`` is the kind of a shown game."""

    game: str | None = None
    option: str | None = None
    value: str | None = None

    def __post_init__(self) -> None:
        if self.game is not None:
            _check_token(self.game)
        if self.option is not None and (self.game is None or not _TOKEN.fullmatch(self.option)):
            raise BadCallback("bad option name")
        if self.value is not None and (self.option is None or not _TOKEN.fullmatch(self.value)):
            raise BadCallback("bad option value")


@dataclass(frozen=True, slots=True)
class Back:
    """«I'm back»: an away player returns to the table."""

    game_id: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)


@dataclass(frozen=True, slots=True)
class Again:
    """«▶️ Новая партия» under a table's end: a new game of the ended game ``game_id``, same
    players, same settings."""

    game_id: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)


@dataclass(frozen=True, slots=True)
class Void:
    """A player agrees to void the deal in progress of a stopped table (docs/rules.md §5)."""

    game_id: int
    deal: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.deal)


@dataclass(frozen=True, slots=True)
class PlayOn:
    """A table stopped after its deal in progress, with a large pot, plays on after all."""

    game_id: int
    deal: int

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.deal)


@dataclass(frozen=True, slots=True)
class Page:
    """Switch the /balance message between the balances and the settle-up list."""

    page: PageName

    def __post_init__(self) -> None:
        if self.page not in PAGE_CODES:
            raise BadCallback("unknown page")


@dataclass(frozen=True, slots=True)
class RulesOf:
    """The private /rules chooser: show the rules of this game (a /new choice of a shown
    game)."""

    kind: str

    def __post_init__(self) -> None:
        _check_token(self.kind)


RanksName = Literal["latin", "russian"]
RANK_STYLE_CODES: Final[Mapping[str, str]] = MappingProxyType({"latin": "l", "russian": "r"})


@dataclass(frozen=True, slots=True)
class CardRanks:
    """/settings: the rank letters the group's Russian texts use."""

    ranks: RanksName

    def __post_init__(self) -> None:
        if self.ranks not in RANK_STYLE_CODES:
            raise BadCallback("unknown ranks")


#: the pauses (hours without a deal) after which an evening may end, as /settings offers them
GAP_CHOICES: Final[tuple[int, ...]] = (1, 2, 3, 4, 6, 8, 12)


@dataclass(frozen=True, slots=True)
class EveningGap:
    """/settings: how many hours without a deal end a group's evening (``0``: show the choice)."""

    hours: int

    def __post_init__(self) -> None:
        if isinstance(self.hours, bool) or (self.hours != 0 and self.hours not in GAP_CHOICES):
            raise BadCallback("not an evening gap the settings offer")


AwayPlayName = Literal["computer", "default"]
AWAY_PLAY_CODES: Final[Mapping[str, str]] = MappingProxyType({"computer": "c", "default": "d"})


@dataclass(frozen=True, slots=True)
class AwayPlay:
    """/settings: who plays for a player who is away, the strong computer or the default
    moves (docs/rules.md §5)."""

    play: AwayPlayName

    def __post_init__(self) -> None:
        if self.play not in AWAY_PLAY_CODES:
            raise BadCallback("unknown away play")


@dataclass(frozen=True, slots=True)
class History:
    """A /history page: the deals that finished before deal ``before`` (0: the newest)."""

    before: int

    def __post_init__(self) -> None:
        _check_id(self.before)


@dataclass(frozen=True, slots=True)
class DealInfo:
    """A finished deal's details, opened from the /history page ``page`` (its ``before``)."""

    deal_id: int
    page: int

    def __post_init__(self) -> None:
        _check_id(self.deal_id)
        _check_id(self.page)


Fixed = (
    Look
    | Hint
    | Hints
    | Lobby
    | Back
    | Page
    | CardRanks
    | AwayPlay
    | Void
    | PlayOn
    | History
    | DealInfo
    | EveningGap
    | Again
)
"""The kinds that carry no game's vocabulary: ``encode`` writes them without a codec."""

Callback = Act | Select | NewGame | Settings | RulesOf | Fixed


def _check_id(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise BadCallback("an id must be an int in 0..2**63-1")


def _check_mask(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MASK:
        raise BadCallback("a mask must be an int in 0..2**32-1")


def _is_card(value: object) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[0] in _RANKS and value[1] in _SUITS


def _is_suit(value: object) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in _SUITS


def _check_verb(value: object) -> None:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise BadCallback("a verb must be a word of the engine")


def _check_token(value: object) -> None:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise BadCallback("unknown game kind")


def check_arg(verb: str, kind: ArgKind, arg: object) -> None:
    """``BadCallback`` unless ``arg`` is what ``verb``, whose argument is of ``kind``, takes."""
    if kind is ArgKind.NONE:
        ok = arg is None
    elif kind is ArgKind.CARD:
        ok = _is_card(arg)
    elif kind is ArgKind.SUIT:
        ok = _is_suit(arg)
    else:
        _check_mask(arg)
        ok = True
    if not ok:
        raise BadCallback(f"bad argument for {verb}")
