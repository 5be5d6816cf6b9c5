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
``t``  ``Again``                   game (a new game of an ended one: same players, settings)
``e``  ``EveningGap``              hours (``0`` opens the choice), a group's evening setting
``i``  ``Hint``                    game, version (💡: the strong computer's advice at a turn)
``u``  ``Hints``                   ``y`` or ``n``: whether a group allows hints (a setting)
=====  ==========================  ===========================================================

A later version takes other tag letters (upper case), so old buttons still decode or fail
cleanly. Selections are stateless: a toggle button carries the whole new mask, the confirm
button the final one, so a selection survives a restart. Bit ``i`` of a mask is the ``i``-th
card of the hand in the order ``bot.keyboards.selection_order`` gives. The records themselves, and
the checks they make, are in ``bot.callback_records``; this module re-exports them.

The kinds marked with a game's vocabulary (``Act``, ``Select``: its verbs; ``NewGame``,
``RulesOf``: its /new choices; ``Settings``: its options menu) are encoded and every kind is
decoded by a ``Codec``, made from the games a chat shows (``bot.games.ChatGames.codec``); the
other kinds (``Fixed``) carry no game and ``encode`` writes them without one. A codec is a
value: two chats of different games each have their own, side by side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from bot.callback_records import (
    AWAY_PLAY_CODES,
    GAP_CHOICES,
    LOBBY_CODES,
    MAX_ID,
    MAX_MASK,
    PAGE_CODES,
    RANK_STYLE_CODES,
    Act,
    Again,
    ArgKind,
    AwayPlay,
    AwayPlayName,
    Back,
    BadCallback,
    Callback,
    CardRanks,
    DealInfo,
    EveningGap,
    Fixed,
    Hint,
    Hints,
    History,
    Lobby,
    LobbyAction,
    Look,
    NewGame,
    Page,
    PageName,
    PlayOn,
    RanksName,
    RulesOf,
    Select,
    Settings,
    Verbs,
    Void,
    check_arg,
)

__all__ = [
    "AWAY_PLAY_CODES",
    "GAP_CHOICES",
    "LOBBY_CODES",
    "MAX_BYTES",
    "MAX_ID",
    "MAX_MASK",
    "PAGE_CODES",
    "RANK_STYLE_CODES",
    "Act",
    "Again",
    "ArgKind",
    "AwayPlay",
    "AwayPlayName",
    "Back",
    "BadCallback",
    "Callback",
    "CardRanks",
    "Codec",
    "DealInfo",
    "EveningGap",
    "Fixed",
    "Hint",
    "Hints",
    "History",
    "Lobby",
    "LobbyAction",
    "Look",
    "NewGame",
    "Page",
    "PageName",
    "PlayOn",
    "RanksName",
    "RulesOf",
    "Select",
    "Settings",
    "Verbs",
    "Void",
    "encode",
    "mask_indices",
    "mask_of",
]

MAX_BYTES: Final = 64
_NUMBER = re.compile(r"0|[1-9a-z][0-9a-z]*")
_WIRE_CODE = re.compile(r"[a-z]{1,3}")


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


def _joined(fields: list[str]) -> str:
    data = fields[0] + ":".join(fields[1:])
    if len(data) > MAX_BYTES:  # cannot happen with the limits above; kept as a guard
        raise BadCallback("callback data too long")
    return data


def encode(callback: Fixed) -> str:
    """The callback_data of ``callback``, a kind that carries no game (ASCII, at most 64
    bytes); the others are a ``Codec``'s."""
    match callback:
        case Look(game_id, version):
            fields = ["l", _b36(game_id), _b36(version)]
        case Hint(game_id, version):
            fields = ["i", _b36(game_id), _b36(version)]
        case Hints(allowed):
            fields = ["u", "y" if allowed else "n"]
        case Lobby(game_id, action):
            fields = ["j", _b36(game_id), LOBBY_CODES[action]]
        case Back(game_id):
            fields = ["b", _b36(game_id)]
        case Page(page):
            fields = ["p", PAGE_CODES[page]]
        case CardRanks(ranks):
            fields = ["v", RANK_STYLE_CODES[ranks]]
        case AwayPlay(play):
            fields = ["w", AWAY_PLAY_CODES[play]]
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
        case Again(game_id):
            fields = ["t", _b36(game_id)]
    return _joined(fields)


def _reverse(table: Mapping[str, str], code: str) -> str:
    for name, value in table.items():
        if value == code:
            return name
    raise BadCallback("unknown code")


def _code(table: Mapping[str, str], name: str) -> str:
    try:
        return table[name]
    except KeyError:
        raise BadCallback("unknown game kind") from None


def _distinct(what: str, codes: Mapping[str, str]) -> Mapping[str, str]:
    if len(set(codes.values())) != len(codes):
        raise ValueError(f"two {what} share a code: {dict(codes)!r}")
    return MappingProxyType(dict(codes))


@dataclass(frozen=True, slots=True)
class Codec:
    """The buttons of one list of games: each verb's wire code and kind of argument
    (``verbs``), each /new choice's code (``choices``) and each game's options menu code
    (``menus``). ``decode`` accepts exactly the strings ``encode`` produces and raises
    ``BadCallback`` on anything else, a move of a game not in the list among them.
    ``ValueError`` when a code is not one to three small letters or two share one."""

    verbs: Mapping[str, tuple[str, ArgKind]]
    choices: Mapping[str, str]
    menus: Mapping[str, str]
    _verb_by_code: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for verb, (code, _) in self.verbs.items():
            if not _WIRE_CODE.fullmatch(code):
                raise ValueError(f"bad wire code {code!r} for {verb!r}")
        by_code = {code: verb for verb, (code, _) in self.verbs.items()}
        if len(by_code) != len(self.verbs):
            raise ValueError("two verbs share a wire code")
        object.__setattr__(self, "verbs", MappingProxyType(dict(self.verbs)))
        object.__setattr__(self, "choices", _distinct("/new choices", self.choices))
        object.__setattr__(self, "menus", _distinct("options menus", self.menus))
        object.__setattr__(self, "_verb_by_code", MappingProxyType(by_code))

    @classmethod
    def of(
        cls, games: Iterable[Verbs], choices: Mapping[str, str], menus: Mapping[str, str]
    ) -> Codec:
        """The codec of games with these verbs (one ``Verbs`` a game; games may share a verb,
        ``play``, with the same code and kind), /new choices and options menus;
        ``ValueError`` when two give one verb different codes or kinds, or two verbs one
        code."""
        merged: dict[str, tuple[str, ArgKind]] = {}
        codes: dict[str, str] = {}
        for verbs in games:
            for verb, (code, kind) in verbs.items():
                if merged.get(verb, (code, kind)) != (code, kind) or codes.get(code, verb) != verb:
                    raise ValueError(f"verb {verb!r} ({code!r}) clashes with another game's")
                merged[verb] = (code, kind)
                codes[code] = verb
        return cls(merged, choices, menus)

    def _verb(self, verb: str) -> tuple[str, ArgKind]:
        try:
            return self.verbs[verb]
        except KeyError:
            raise BadCallback("unknown verb") from None

    def encode(self, callback: Callback) -> str:
        """The callback_data of ``callback`` (ASCII, at most 64 bytes); ``BadCallback`` for a
        verb, choice or game these games do not have, or an argument its verb does not take."""
        match callback:
            case Act(game_id, version, verb, arg):
                code, kind = self._verb(verb)
                check_arg(verb, kind, arg)
                wire_arg = "-" if arg is None else _b36(arg) if isinstance(arg, int) else arg
                fields = ["a", _b36(game_id), _b36(version), code, wire_arg]
            case Select(game_id, version, verb, mask):
                code, kind = self._verb(verb)
                if kind is not ArgKind.MASK:
                    raise BadCallback(f"{verb} is not a selection verb")
                fields = ["s", _b36(game_id), _b36(version), code, _b36(mask)]
            case NewGame(kind):
                fields = ["n", _code(self.choices, kind)]
            case RulesOf(kind):
                fields = ["r", _code(self.choices, kind)]
            case Settings(game, option, value):
                menu = "-" if game is None else _code(self.menus, game)
                fields = ["o", menu, option or "-", value or "-"]
            case _:
                return encode(callback)
        return _joined(fields)

    def decode(self, data: str) -> Callback:
        """Parse callback_data; ``BadCallback`` for anything ``encode`` would not have
        produced."""
        if not isinstance(data, str) or not data or len(data) > MAX_BYTES or not data.isascii():
            raise BadCallback("not callback data of this bot")
        tag, fields = data[0], data[1:].split(":")
        try:
            callback = self._decode(tag, fields)
        except (ValueError, KeyError, TypeError) as error:
            if isinstance(error, BadCallback):
                raise
            raise BadCallback(str(error)) from error
        if self.encode(callback) != data:
            raise BadCallback("not in canonical form")
        return callback

    def _decode(self, tag: str, fields: list[str]) -> Callback:
        match tag, fields:
            case "a", [game, version, code, arg]:
                verb = self._verb_by_code[code]
                return Act(
                    _parse_b36(game, MAX_ID),
                    _parse_b36(version, MAX_ID),
                    verb,
                    self._decode_arg(verb, arg),
                )
            case "s", [game, version, code, mask]:
                return Select(
                    _parse_b36(game, MAX_ID),
                    _parse_b36(version, MAX_ID),
                    self._verb_by_code[code],
                    _parse_b36(mask, MAX_MASK),
                )
            case "n", [kind]:
                return NewGame(_reverse(self.choices, kind))
            case "r", [kind]:
                return RulesOf(_reverse(self.choices, kind))
            case "o", [game, option, value]:
                return Settings(
                    None if game == "-" else _reverse(self.menus, game),
                    None if option == "-" else option,
                    None if value == "-" else value,
                )
        return _decode_fixed(tag, fields)

    def _decode_arg(self, verb: str, text: str) -> str | int | None:
        kind = self.verbs[verb][1]
        if kind is ArgKind.NONE:
            if text != "-":
                raise BadCallback("unexpected argument")
            return None
        if kind is ArgKind.MASK:
            return _parse_b36(text, MAX_MASK)
        return text  # checked by ``check_arg`` as it is encoded again


def _decode_fixed(tag: str, fields: list[str]) -> Fixed:
    match tag, fields:
        case "l", [game, version]:
            return Look(_parse_b36(game, MAX_ID), _parse_b36(version, MAX_ID))
        case "i", [game, version]:
            return Hint(_parse_b36(game, MAX_ID), _parse_b36(version, MAX_ID))
        case "u", [allowed] if allowed in ("y", "n"):
            return Hints(allowed == "y")
        case "j", [game, action]:
            return Lobby(_parse_b36(game, MAX_ID), _reverse(LOBBY_CODES, action))  # type: ignore[arg-type]
        case "b", [game]:
            return Back(_parse_b36(game, MAX_ID))
        case "p", [name]:
            return Page(_reverse(PAGE_CODES, name))  # type: ignore[arg-type]
        case "v", [ranks]:
            return CardRanks(_reverse(RANK_STYLE_CODES, ranks))  # type: ignore[arg-type]
        case "w", [play]:
            return AwayPlay(_reverse(AWAY_PLAY_CODES, play))  # type: ignore[arg-type]
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
        case "t", [game]:
            return Again(_parse_b36(game, MAX_ID))
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
