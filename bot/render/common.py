"""Small pieces every text is made of: escaped names, signed amounts, cards, game titles and
the one-line summary of a table's options. Pure functions, HTML parse mode."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from game.cards import label, sort_hand
from game.starshina.options import StarshinaOptions
from game.stukolka.options import StukolkaOptions
from locales import t, tn

GameKind = Literal["stukolka", "shleif", "starshina"]
"""The three games a table can be opened for (``/new stukolka|shleif|starshina``)."""
Options = StukolkaOptions | StarshinaOptions
MINUS = "\u2212"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def esc(text: str) -> str:
    """A user-provided string made safe for HTML parse mode."""
    return html.escape(text, quote=True)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The escaped, bold display name of ``seat``."""
    return f"<b>{esc(names[seat])}</b>"


def plain_name(names: Sequence[str], seat: int) -> str:
    """The escaped display name of ``seat``, not bold."""
    return esc(names[seat])


def signed(amount: int) -> str:
    """``+8``, ``−12``, ``0`` (a true minus sign)."""
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"{MINUS}{-amount}"
    return "0"


def suit(letter: str) -> str:
    return SUIT_SYMBOLS[letter]


def cards(items: Iterable[str], trump: str | None = None, *, sort: bool = True) -> str:
    """Cards as people read them, trumps first: ``A♥ 10♥ 7♠``."""
    ordered = sort_hand(items, trump) if sort else list(items)
    return " ".join(label(card) for card in ordered)


def game_title(lang: str, kind: str) -> str:
    """«Стуколка», «Стуколка со шлейфом», «Старшина»."""
    return t(lang, f"game.{kind}")


def option_game(options: Options) -> Literal["stukolka", "starshina"]:
    return "starshina" if isinstance(options, StarshinaOptions) else "stukolka"


def value_token(value: object) -> str:
    """An option value as a short ASCII token, used in callback data and locale keys:
    ``None`` → ``none``, ``True`` → ``on``, ``"8-5-3"`` → ``8_5_3``, ``6`` → ``6``."""
    if value is None:
        return "none"
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value).replace("-", "_")


def option_label(lang: str, game: str, option: str) -> str:
    return t(lang, f"opt.{game}.{option}")


def value_label(lang: str, game: str, option: str, value: object) -> str:
    """How a value of an option reads: a number as a number, anything else from the catalogue."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return t(lang, f"val.{game}.{option}.{value_token(value)}")


#: options shown in every summary even at their default value
_ALWAYS = {"stukolka": ("stake",), "starshina": ("targets", "stake", "exchange", "scoring")}
_DEFAULTS: dict[str, Options] = {"stukolka": StukolkaOptions(), "starshina": StarshinaOptions()}


def option_names(game: str) -> tuple[str, ...]:
    """The options of RULES.md for a game, in the order of its table."""
    return tuple(_DEFAULTS[game].to_json())


def options_summary(lang: str, options: Options) -> str:
    """One line: the stake and the options that differ from the defaults."""
    game = option_game(options)
    current = options.to_json()
    defaults = _DEFAULTS[game].to_json()
    parts = []
    for name, value in current.items():
        if name == "variant":
            continue  # the game's title says it
        if name == "dark_in_classic" and isinstance(options, StukolkaOptions) and options.shleif:
            continue  # dark is always allowed with the шлейф
        if name in _ALWAYS[game] or value != defaults[name]:
            parts.append(
                t(
                    lang,
                    "options.item",
                    option=option_label(lang, game, name),
                    value=value_label(lang, game, name, value),
                )
            )
    return " · ".join(parts)


def tricks_count(lang: str, n: int) -> str:
    return tn(lang, "n.tricks", n)


def seconds_left(lang: str, seconds: int | None) -> str:
    """`` · ⏳ 25 с`` or nothing."""
    if seconds is None:
        return ""
    return t(lang, "turn.seconds", seconds=max(0, seconds))


def balance_lines(lang: str, names: Sequence[str], balances: Mapping[int, int]) -> list[str]:
    """The balances block under a deal's result: highest first, by seat on a tie."""
    if not balances:
        return []
    lines = ["", t(lang, "result.balances")]
    for seat in sorted(balances, key=lambda s: (-balances[s], s)):
        lines.append(
            t(lang, "balance.line", name=plain_name(names, seat), amount=signed(balances[seat]))
        )
    return lines
