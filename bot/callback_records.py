"""The records a button press decodes to (``bot.callback`` is their wire format): one frozen
dataclass a kind, each checking its fields on construction (``BadCallback`` otherwise), and
the shown games' verbs and the codes of the other choices they may carry."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
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

#: what the buttons carry of the games the chat shows (``use_games``): each game's verbs
#: (``bot.games.GameScreens.verbs``; games may share one, ``play``, with the same code), the
#: codes of their /new choices and of their options menus
VERBS: Final[dict[str, tuple[str, ArgKind]]] = {}
VERB_BY_CODE: Final[dict[str, str]] = {}
MASK_VERBS: Final[set[str]] = set()
_CHOICE_CODES: Final[dict[str, str]] = {}
_MENU_CODES: Final[dict[str, str]] = {}
_WIRE_CODE = re.compile(r"[a-z]{1,3}")


def merged_verbs(*games: Verbs) -> dict[str, tuple[str, ArgKind]]:
    """The verbs of ``games`` together; ``ValueError`` when two give one verb different codes
    or kinds, two verbs one code, or a code is not one to three small letters."""
    merged: dict[str, tuple[str, ArgKind]] = {}
    codes: dict[str, str] = {}
    for verbs in games:
        for verb, (code, kind) in verbs.items():
            if not _WIRE_CODE.fullmatch(code):
                raise ValueError(f"bad wire code {code!r} for {verb!r}")
            if merged.get(verb, (code, kind)) != (code, kind) or codes.get(code, verb) != verb:
                raise ValueError(f"verb {verb!r} ({code!r}) clashes with a registered one")
            merged[verb] = (code, kind)
            codes[code] = verb
    return merged


def use_games(verbs: Verbs, choices: Mapping[str, str], menus: Mapping[str, str]) -> None:
    """Make the buttons carry the games the chat shows (``bot.games.ChatGames``, as it is
    built): ``verbs`` (``merged_verbs`` of theirs), each /new choice's code and each game's
    options menu code."""
    VERBS.clear()
    VERBS.update(verbs)
    VERB_BY_CODE.clear()
    VERB_BY_CODE.update({code: verb for verb, (code, _) in verbs.items()})
    MASK_VERBS.clear()
    MASK_VERBS.update(verb for verb, (_, kind) in verbs.items() if kind is ArgKind.MASK)
    _CHOICE_CODES.clear()
    _CHOICE_CODES.update(choices)
    _MENU_CODES.clear()
    _MENU_CODES.update(menus)


LobbyAction = Literal["join", "leave", "begin", "cancel", "computer", "novice", "uncomputer"]
LOBBY_CODES: Final[dict[str, str]] = {
    "join": "j",
    "leave": "l",
    "begin": "b",
    "cancel": "c",
    "computer": "r",  # seat a strong computer
    "novice": "n",  # seat an easy one
    "uncomputer": "u",  # take the last computer seated off the table
}


def new_game_codes() -> Mapping[str, str]:
    """Each /new choice of the games shown → its code."""
    return _CHOICE_CODES


def settings_codes() -> Mapping[str, str]:
    """Each game's kind → the code of its options menu."""
    return _MENU_CODES


PageName = Literal["balance", "settle"]
PAGE_CODES: Final[dict[str, str]] = {"balance": "b", "settle": "s"}

_RANKS = "23456789TJQKA"
_SUITS = "SHDC"
_TOKEN = re.compile(r"[a-z0-9_]{1,16}")


@dataclass(frozen=True, slots=True)
class Act:
    """A game move: ``verb`` of the engine with its argument — a card (``"TH"``) for play,
    drop, give and return; a suit letter for trump; a selection mask (int) for discard and
    kitty; ``None`` otherwise."""

    game_id: int
    version: int
    verb: str
    arg: str | int | None = None

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        _check_id(self.version)
        _check_arg(self.verb, self.arg)


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
        if self.verb not in MASK_VERBS:
            raise BadCallback(f"{self.verb} is not a selection verb")
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
    """The /new chooser: which game to open a table for."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in new_game_codes():
            raise BadCallback("unknown game kind")


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings menu. ``game`` None: the top menu; ``option`` None: the game's options;
    ``value`` None: the values of ``option``; all three set: set the option to ``value``
    (a token from ``bot.render.menus.option_token``)."""

    game: str | None = None
    option: str | None = None
    value: str | None = None

    def __post_init__(self) -> None:
        if self.game is not None and self.game not in settings_codes():
            raise BadCallback("unknown game kind")
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
    """The private /rules chooser: show the rules of this game."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in new_game_codes():
            raise BadCallback("unknown game kind")


RanksName = Literal["latin", "russian"]
RANK_STYLE_CODES: Final[dict[str, str]] = {"latin": "l", "russian": "r"}


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
AWAY_PLAY_CODES: Final[dict[str, str]] = {"computer": "c", "default": "d"}


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


Callback = (
    Act
    | Select
    | Look
    | Hint
    | Hints
    | Lobby
    | NewGame
    | Settings
    | Back
    | Page
    | RulesOf
    | CardRanks
    | AwayPlay
    | Void
    | PlayOn
    | History
    | DealInfo
    | EveningGap
    | Again
)


def _check_id(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise BadCallback("an id must be an int in 0..2**63-1")


def _check_mask(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MASK:
        raise BadCallback("a mask must be an int in 0..2**32-1")


def _is_card(value: object) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[0] in _RANKS and value[1] in _SUITS


def _check_arg(verb: str, arg: object) -> None:
    if verb not in VERBS:
        raise BadCallback("unknown verb")
    kind = VERBS[verb][1]
    if kind is ArgKind.NONE:
        ok = arg is None
    elif kind is ArgKind.CARD:
        ok = _is_card(arg)
    elif kind is ArgKind.SUIT:
        ok = isinstance(arg, str) and len(arg) == 1 and arg in _SUITS
    else:
        _check_mask(arg)
        ok = True
    if not ok:
        raise BadCallback(f"bad argument for {verb}")
