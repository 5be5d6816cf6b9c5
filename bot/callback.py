"""The callback_data codec: what a button press carries, in at most 64 ASCII bytes.

Telegram returns a button's ``callback_data`` verbatim, from anyone who can see the button, for
as long as the message exists, so the data is treated as untrusted input: ``decode`` accepts
exactly the strings ``encode`` produces and raises ``BadCallback`` on anything else. The data
carries no secret: ids, a state version, a verb and a public argument (a card of the presser's
own hand, a suit, or a bit mask over his hand).

Wire format, version 1. The first character tags the codec version and the kind; the fields
follow, separated by ``:``. Numbers are canonical lower-case base 36 (no sign, no leading zero).

=====  ==========================  ===========================================================
tag    kind                        fields
=====  ==========================  ===========================================================
``a``  ``Act`` (a game move)       game, version, verb code, argument (card / suit / mask / -)
``s``  ``Select`` (toggle a card)  game, version, verb code, mask
``l``  ``Look``                    game, version
``j``  ``Lobby``                   game, lobby action code
``n``  ``NewGame``                 the code of a game's /new choice (``bot.games``)
``o``  ``Settings``                game's menu code or ``-``, option name or ``-``, value or ``-``
``b``  ``Back``                    game
``p``  ``Page``                    page code
``r``  ``RulesOf``                 game kind code (the private /rules chooser)
``v``  ``CardRanks``               ``l`` (J Q K A) or ``r`` (В Д К Т), a group's setting
``w``  ``AwayPlay``                ``c`` (the computer) or ``d`` (the default moves) plays for
                                   an away player: a group's setting
``x``  ``Void``                    game, deal (a player agrees to void a stopped table's deal)
``g``  ``PlayOn``                  game, deal (a stopped table with a large pot plays on)
``h``  ``History``                 the /history page: deals before this one (``0``: the newest)
``d``  ``DealInfo``                deal, the /history page it was opened from
``e``  ``EveningGap``              hours (``0`` opens the choice), a group's evening setting
``i``  ``Hint``                    game, version (💡: the strong computer's advice at a turn)
``u``  ``Hints``                   ``y`` or ``n``: whether a group allows hints (a setting)
=====  ==========================  ===========================================================

A later version takes other tag letters (upper case), so old buttons still decode or fail
cleanly. Selections are stateless: a toggle button carries the whole new mask, the confirm
button the final one, so a selection survives a restart. Bit ``i`` of a mask is the ``i``-th
card of the hand in the order ``bot.keyboards.selection_order`` gives.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Final, Literal

from tables.games import games

MAX_BYTES: Final = 64
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

#: the verbs of every registered game (``use_verbs``): each game brings its own
#: (``bot.games.GameScreens.verbs``), and games may share one (``play``) with the same code
VERBS: Final[dict[str, tuple[str, ArgKind]]] = {}
_VERB_BY_CODE: Final[dict[str, str]] = {}
MASK_VERBS: Final[set[str]] = set()
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


def use_verbs(verbs: Verbs) -> None:
    """Make the buttons carry ``verbs`` (``merged_verbs`` of the registered games)."""
    VERBS.clear()
    VERBS.update(verbs)
    _VERB_BY_CODE.clear()
    _VERB_BY_CODE.update({code: verb for verb, (code, _) in verbs.items()})
    MASK_VERBS.clear()
    MASK_VERBS.update(verb for verb, (_, kind) in verbs.items() if kind is ArgKind.MASK)


LobbyAction = Literal["join", "leave", "begin", "cancel", "computer", "novice"]
_LOBBY: Final[dict[str, str]] = {
    "join": "j",
    "leave": "l",
    "begin": "b",
    "cancel": "c",
    "computer": "r",  # seat a strong computer
    "novice": "n",  # seat an easy one
}


def _new_game_codes() -> dict[str, str]:
    """Each /new choice of every registered game → its code (``tables.games``: the registry
    is read when a button is made or read, so a game registered later has its buttons)."""
    return {item.name: item.code for game in games() for item in game.choices}


def _settings_codes() -> dict[str, str]:
    """Each registered game's kind → the code of its options menu."""
    return {game.kind: game.menu.code for game in games()}


PageName = Literal["balance", "settle"]
_PAGES: Final[dict[str, str]] = {"balance": "b", "settle": "s"}

_RANKS = "23456789TJQKA"
_SUITS = "SHDC"
_TOKEN = re.compile(r"[a-z0-9_]{1,16}")
_NUMBER = re.compile(r"0|[1-9a-z][0-9a-z]*")


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
    or seat a computer (``computer`` strong, ``novice`` easy; anyone at the table)."""

    game_id: int
    action: LobbyAction

    def __post_init__(self) -> None:
        _check_id(self.game_id)
        if self.action not in _LOBBY:
            raise BadCallback("unknown lobby action")


@dataclass(frozen=True, slots=True)
class NewGame:
    """The /new chooser: which game to open a table for."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in _new_game_codes():
            raise BadCallback("unknown game kind")


@dataclass(frozen=True, slots=True)
class Settings:
    """The settings menu. ``game`` None: the top menu; ``option`` None: the game's options;
    ``value`` None: the values of ``option``; all three set: set the option to ``value``
    (a token from ``bot.keyboards.option_token``)."""

    game: str | None = None
    option: str | None = None
    value: str | None = None

    def __post_init__(self) -> None:
        if self.game is not None and self.game not in _settings_codes():
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
        if self.page not in _PAGES:
            raise BadCallback("unknown page")


@dataclass(frozen=True, slots=True)
class RulesOf:
    """The private /rules chooser: show the rules of this game."""

    kind: str

    def __post_init__(self) -> None:
        if self.kind not in _new_game_codes():
            raise BadCallback("unknown game kind")


RanksName = Literal["latin", "russian"]
_RANKS_STYLES: Final[dict[str, str]] = {"latin": "l", "russian": "r"}


@dataclass(frozen=True, slots=True)
class CardRanks:
    """/settings: the rank letters the group's Russian texts use."""

    ranks: RanksName

    def __post_init__(self) -> None:
        if self.ranks not in _RANKS_STYLES:
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
_AWAY_PLAY: Final[dict[str, str]] = {"computer": "c", "default": "d"}


@dataclass(frozen=True, slots=True)
class AwayPlay:
    """/settings: who plays for a player who is away, the strong computer or the default
    moves (docs/rules.md §5)."""

    play: AwayPlayName

    def __post_init__(self) -> None:
        if self.play not in _AWAY_PLAY:
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


def _b36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if value == 0:
        return "0"
    out = []
    while value:
        value, rest = divmod(value, 36)
        out.append(digits[rest])
    return "".join(reversed(out))


def _parse_b36(text: str, limit: int) -> int:
    if len(text) > 13 or not _NUMBER.fullmatch(text):
        raise BadCallback("bad number")
    value = int(text, 36)
    if value > limit:
        raise BadCallback("number out of range")
    return value


def _encode_arg(verb: str, arg: str | int | None) -> str:
    if arg is None:
        return "-"
    if isinstance(arg, int):
        return _b36(arg)
    return arg


def _decode_arg(verb: str, text: str) -> str | int | None:
    kind = VERBS[verb][1]
    if kind is ArgKind.NONE:
        if text != "-":
            raise BadCallback("unexpected argument")
        return None
    if kind is ArgKind.MASK:
        return _parse_b36(text, MAX_MASK)
    return text  # checked by the dataclass


def encode(callback: Callback) -> str:
    """The callback_data of ``callback`` (ASCII, at most 64 bytes)."""
    match callback:
        case Act(game_id, version, verb, arg):
            fields = ["a", _b36(game_id), _b36(version), VERBS[verb][0], _encode_arg(verb, arg)]
        case Select(game_id, version, verb, mask):
            fields = ["s", _b36(game_id), _b36(version), VERBS[verb][0], _b36(mask)]
        case Look(game_id, version):
            fields = ["l", _b36(game_id), _b36(version)]
        case Hint(game_id, version):
            fields = ["i", _b36(game_id), _b36(version)]
        case Hints(allowed):
            fields = ["u", "y" if allowed else "n"]
        case Lobby(game_id, action):
            fields = ["j", _b36(game_id), _LOBBY[action]]
        case NewGame(kind):
            fields = ["n", _new_game_codes()[kind]]
        case Settings(game, option, value):
            fields = [
                "o",
                "-" if game is None else _settings_codes()[game],
                option or "-",
                value or "-",
            ]
        case Back(game_id):
            fields = ["b", _b36(game_id)]
        case Page(page):
            fields = ["p", _PAGES[page]]
        case RulesOf(kind):
            fields = ["r", _new_game_codes()[kind]]
        case CardRanks(ranks):
            fields = ["v", _RANKS_STYLES[ranks]]
        case AwayPlay(play):
            fields = ["w", _AWAY_PLAY[play]]
        case Void(game_id, deal):
            fields = ["x", _b36(game_id), _b36(deal)]
        case PlayOn(game_id, deal):
            fields = ["g", _b36(game_id), _b36(deal)]
        case History(before):
            fields = ["h", _b36(before)]
        case DealInfo(deal_id, page):
            fields = ["d", _b36(deal_id), _b36(page)]
        case EveningGap(hours):
            fields = ["e", _b36(hours)]
    data = fields[0] + ":".join(fields[1:])
    if len(data) > MAX_BYTES:  # cannot happen with the limits above; kept as a guard
        raise BadCallback("callback data too long")
    return data


def _reverse(table: dict[str, str], code: str) -> str:
    for name, value in table.items():
        if value == code:
            return name
    raise BadCallback("unknown code")


def decode(data: str) -> Callback:
    """Parse callback_data; ``BadCallback`` for anything ``encode`` would not have produced."""
    if not isinstance(data, str) or not data or len(data) > MAX_BYTES or not data.isascii():
        raise BadCallback("not callback data of this bot")
    tag, fields = data[0], data[1:].split(":")
    try:
        callback = _decode(tag, fields)
    except (ValueError, KeyError, TypeError) as error:
        if isinstance(error, BadCallback):
            raise
        raise BadCallback(str(error)) from error
    if encode(callback) != data:
        raise BadCallback("not in canonical form")
    return callback


def _decode(tag: str, fields: list[str]) -> Callback:
    match tag, fields:
        case "a", [game, version, code, arg]:
            verb = _VERB_BY_CODE[code]
            return Act(
                _parse_b36(game, MAX_ID),
                _parse_b36(version, MAX_ID),
                verb,
                _decode_arg(verb, arg),
            )
        case "s", [game, version, code, mask]:
            return Select(
                _parse_b36(game, MAX_ID),
                _parse_b36(version, MAX_ID),
                _VERB_BY_CODE[code],
                _parse_b36(mask, MAX_MASK),
            )
        case "l", [game, version]:
            return Look(_parse_b36(game, MAX_ID), _parse_b36(version, MAX_ID))
        case "i", [game, version]:
            return Hint(_parse_b36(game, MAX_ID), _parse_b36(version, MAX_ID))
        case "u", [allowed] if allowed in ("y", "n"):
            return Hints(allowed == "y")
        case "j", [game, action]:
            return Lobby(_parse_b36(game, MAX_ID), _reverse(_LOBBY, action))  # type: ignore[arg-type]
        case "n", [kind]:
            return NewGame(_reverse(_new_game_codes(), kind))
        case "o", [game, option, value]:
            return Settings(
                None if game == "-" else _reverse(_settings_codes(), game),
                None if option == "-" else option,
                None if value == "-" else value,
            )
        case "b", [game]:
            return Back(_parse_b36(game, MAX_ID))
        case "p", [name]:
            return Page(_reverse(_PAGES, name))  # type: ignore[arg-type]
        case "r", [kind]:
            return RulesOf(_reverse(_new_game_codes(), kind))
        case "v", [ranks]:
            return CardRanks(_reverse(_RANKS_STYLES, ranks))  # type: ignore[arg-type]
        case "w", [play]:
            return AwayPlay(_reverse(_AWAY_PLAY, play))  # type: ignore[arg-type]
        case "x", [game, deal]:
            return Void(_parse_b36(game, MAX_ID), _parse_b36(deal, MAX_ID))
        case "g", [game, deal]:
            return PlayOn(_parse_b36(game, MAX_ID), _parse_b36(deal, MAX_ID))
        case "h", [before]:
            return History(_parse_b36(before, MAX_ID))
        case "d", [deal_id, page]:
            return DealInfo(_parse_b36(deal_id, MAX_ID), _parse_b36(page, MAX_ID))
        case "e", [hours]:
            return EveningGap(_parse_b36(hours, max(GAP_CHOICES)))
    raise BadCallback("unknown kind of callback")


def mask_of(indices: list[int] | tuple[int, ...] | set[int]) -> int:
    """The mask with the given bit positions set."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def mask_indices(mask: int) -> list[int]:
    """The bit positions set in ``mask``, lowest first."""
    return [index for index in range(mask.bit_length()) if mask >> index & 1]
