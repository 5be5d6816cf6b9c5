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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from bot.callback_records import (
    AWAY_PLAY_CODES,
    GAP_CHOICES,
    LOBBY_CODES,
    MASK_VERBS,
    MAX_ID,
    MAX_MASK,
    PAGE_CODES,
    RANK_STYLE_CODES,
    VERB_BY_CODE,
    VERBS,
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
    merged_verbs,
    new_game_codes,
    settings_codes,
    use_games,
)

__all__ = [
    "AWAY_PLAY_CODES",
    "GAP_CHOICES",
    "LOBBY_CODES",
    "MASK_VERBS",
    "MAX_BYTES",
    "MAX_ID",
    "MAX_MASK",
    "PAGE_CODES",
    "RANK_STYLE_CODES",
    "VERBS",
    "VERB_BY_CODE",
    "Act",
    "Again",
    "ArgKind",
    "AwayPlay",
    "AwayPlayName",
    "Back",
    "BadCallback",
    "Callback",
    "CardRanks",
    "DealInfo",
    "EveningGap",
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
    "decode",
    "encode",
    "mask_indices",
    "mask_of",
    "merged_verbs",
    "new_game_codes",
    "settings_codes",
    "use_games",
]

MAX_BYTES: Final = 64
_NUMBER = re.compile(r"0|[1-9a-z][0-9a-z]*")


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
            fields = ["j", _b36(game_id), LOBBY_CODES[action]]
        case NewGame(kind):
            fields = ["n", new_game_codes()[kind]]
        case Settings(game, option, value):
            fields = [
                "o",
                "-" if game is None else settings_codes()[game],
                option or "-",
                value or "-",
            ]
        case Back(game_id):
            fields = ["b", _b36(game_id)]
        case Page(page):
            fields = ["p", PAGE_CODES[page]]
        case RulesOf(kind):
            fields = ["r", new_game_codes()[kind]]
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
    data = fields[0] + ":".join(fields[1:])
    if len(data) > MAX_BYTES:  # cannot happen with the limits above; kept as a guard
        raise BadCallback("callback data too long")
    return data


def _reverse(table: Mapping[str, str], code: str) -> str:
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
            verb = VERB_BY_CODE[code]
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
                VERB_BY_CODE[code],
                _parse_b36(mask, MAX_MASK),
            )
        case "l", [game, version]:
            return Look(_parse_b36(game, MAX_ID), _parse_b36(version, MAX_ID))
        case "i", [game, version]:
            return Hint(_parse_b36(game, MAX_ID), _parse_b36(version, MAX_ID))
        case "u", [allowed] if allowed in ("y", "n"):
            return Hints(allowed == "y")
        case "j", [game, action]:
            return Lobby(_parse_b36(game, MAX_ID), _reverse(LOBBY_CODES, action))  # type: ignore[arg-type]
        case "n", [kind]:
            return NewGame(_reverse(new_game_codes(), kind))
        case "o", [game, option, value]:
            return Settings(
                None if game == "-" else _reverse(settings_codes(), game),
                None if option == "-" else option,
                None if value == "-" else value,
            )
        case "b", [game]:
            return Back(_parse_b36(game, MAX_ID))
        case "p", [name]:
            return Page(_reverse(PAGE_CODES, name))  # type: ignore[arg-type]
        case "r", [kind]:
            return RulesOf(_reverse(new_game_codes(), kind))
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
