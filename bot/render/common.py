"""Small pieces every text is made of: escaped names, signed amounts, cards, game titles and
the one-line summary of a table's options. Pure functions, HTML parse mode."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import locales
from game.cards import RANK_LABEL, RUSSIAN_RANK_LABEL, SUIT_EMOJI, sort_hand
from locales import MONEY_REASONS as MONEY_REASONS  # listed here for the renderers
from locales import Words, signed, t, tn
from tables.games.words import CardName, Phrase, SeatName
from tables.people import Ranks, ranks_style

if TYPE_CHECKING:
    from game.registry import JsonObject
    from tables.games import Plugin

ANSWER_LIMIT = 200
"""Telegram's limit on the text of a callback answer."""


def short_answer(text: str) -> str:
    """``text`` cut to a callback answer's limit (its last character an ellipsis)."""
    return text if len(text) <= ANSWER_LIMIT else text[: ANSWER_LIMIT - 1] + "…"


#: suits in emoji presentation (U+FE0F), so hearts and diamonds show red on every client, the
#: same in texts and on buttons
SUIT_SYMBOLS = SUIT_EMOJI
#: how the court cards and the ace read: J Q K A, or В Д К Т (валет, дама, король, туз)
RANK_LABELS: dict[str, dict[str, str]] = {"latin": RANK_LABEL, "russian": RUSSIAN_RANK_LABEL}
_RANKS: ContextVar[Ranks] = ContextVar("ranks", default="latin")


def use_ranks(lang: str, ranks: str | None) -> None:
    """Cards rendered from now on in this task read as ``ranks_style`` says. Every place that
    renders for a chat calls it first (the presenter's entry points), so a value left from
    another chat is never used; the default, outside the presenter, is J Q K A."""
    _RANKS.set(ranks_style(lang, ranks))


@contextmanager
def ranks_shown(lang: str, ranks: str | None) -> Iterator[None]:
    """Within this block cards read as ``ranks_style`` says (for tests and one-off texts)."""
    token = _RANKS.set(ranks_style(lang, ranks))
    try:
        yield
    finally:
        _RANKS.reset(token)


def rank_label(rank: str) -> str:
    """A rank as shown now: ``T`` → ``10``, ``Q`` → ``Q`` or ``Д``."""
    return RANK_LABELS[_RANKS.get()].get(rank, rank)


def label(card: str) -> str:
    """A card as shown: ``TH`` → ``10♥️``, ``QS`` → ``Q♠️`` (or ``Д♠️``)."""
    return rank_label(card[0]) + SUIT_SYMBOLS[card[1]]


def esc(text: str) -> str:
    """A user-provided string made safe for HTML parse mode."""
    return html.escape(text, quote=True)


def seat_name(names: Sequence[str], seat: int) -> str:
    """The escaped, bold display name of ``seat``."""
    return f"<b>{esc(names[seat])}</b>"


def mark_own_seat(lang: str, line: str, names: Sequence[str], seat: int, *, dealer: bool) -> str:
    """A player's own seat line in his private table: «(вы)» after his name, or one bracket
    «(сдаёт, вы)» where he deals."""
    name = seat_name(names, seat)
    if dealer:
        dealer_mark = t(lang, "seat.dealer_mark")
        both = t(lang, "seat.dealer_you_mark")
        return line.replace(f"{name} {dealer_mark}", f"{name} {both}", 1)
    return line.replace(name, f"{name} " + t(lang, "seat.you_mark"), 1)


def plain_name(names: Sequence[str], seat: int) -> str:
    """The escaped display name of ``seat``, not bold."""
    return esc(names[seat])


def suit(letter: str) -> str:
    return SUIT_SYMBOLS[letter]


def said(words: Words, lang: str, phrase: Phrase, names: Sequence[str]) -> str:
    """A game's ``Phrase`` in its ``words``, as the chat says it: seats by their escaped
    names, cards by their labels in the chat's style."""

    def value(param: object) -> object:
        match param:
            case SeatName(seat):
                return plain_name(names, seat)
            case CardName(card):
                return label(card)
            case Phrase():
                return said(words, lang, param, names)
        return param

    params = {name: value(param) for name, param in phrase.params.items()}
    if phrase.n is None:
        return words.t(lang, phrase.key, **params)
    return words.tn(lang, phrase.key, phrase.n, **params)


def trick_lines(
    lang: str,
    trick: Sequence[tuple[int, str]],
    last_trick: Sequence[tuple[int, str]],
    winners: Sequence[int],
    names: Sequence[str],
) -> list[str]:
    """The trick on the cloth (its number, who played what) and the last one taken, with who
    took it, of any trick-taking game."""

    def played(cards: Sequence[tuple[int, str]]) -> str:
        return " · ".join(
            t(lang, "trick.card", name=plain_name(names, seat), card=label(card))
            for seat, card in cards
        )

    lines = []
    if trick:
        lines.append(t(lang, "trick.current", number=len(winners) + 1, cards=played(trick)))
    if last_trick:
        winner = plain_name(names, winners[-1])
        number = len(winners)
        lines.append(t(lang, "trick.last", number=number, cards=played(last_trick), winner=winner))
    return lines


def cards(items: Iterable[str], trump: str | None = None, *, sort: bool = True) -> str:
    """Cards as people read them, trumps first: ``A♥ 10♥ 7♠``."""
    ordered = sort_hand(items, trump) if sort else list(items)
    return " ".join(label(card) for card in ordered)


def game_title(words: Words, lang: str, choice: str) -> str:
    """A game by its choice's name, in the words of that game: «Стуколка», «Стуколка со
    шлейфом», «Старшина»."""
    return words.t(lang, f"game.{choice}")


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


def option_label(lang: str, game: Plugin, option: str) -> str:
    return game.words.t(lang, f"opt.{game.rules.kind}.{option}")


def value_label(lang: str, game: Plugin, option: str, value: object) -> str:
    """How a value of an option reads: a number as a number, anything else from the game's
    words."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return game.words.t(lang, f"val.{game.rules.kind}.{option}.{value_token(value)}")


def option_names(game: Plugin) -> tuple[str, ...]:
    """The options of docs/rules.md for a game, in the order of its table."""
    return tuple(game.menu.defaults)


def options_summary(lang: str, game: Plugin, options: JsonObject) -> str:
    """One line: the stake and the options that differ from the defaults (not those the
    game's title already says, nor those that follow from the others)."""
    menu = game.menu
    titled = {name for item in game.choices for name in item.preset}
    skipped = titled | menu.hidden(options)
    parts = []
    for name in option_names(game):
        value = options.get(name, menu.defaults[name])
        if name in skipped:
            continue
        if name in menu.always or value != menu.defaults[name]:
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


def reason_key(lang: str, key: str, amount: int) -> str:
    """The catalogue key naming a part of a deal's money: ``key`` (``money.<reason>``), or
    for chips received ``key_in`` where the two sides have their own words (the penalty a
    player short of his target pays, the penalties the winner receives)."""
    received = f"{key}_in"
    return received if amount > 0 and received in locales.catalogue(lang) else key


def _money_part(lang: str, reason: str, amount: int) -> str:
    """One part of a player's money: ``ставка −1``; a reason no catalogue names (an old
    ledger's) by its stored word."""
    key = reason_key(lang, f"money.{reason}", amount)
    if key not in locales.catalogue(lang):
        return t(lang, "money.other", reason=esc(reason), amount=signed(amount))
    return t(lang, key, amount=signed(amount))


def money_text(lang: str, parts: Mapping[str, int]) -> str:
    """A player's net chips for a deal, equal to his balance change, with its parts where they
    differ from it, or when a lone part is not the tricks': ``+3 (ставка −1 · взятки +4)``,
    ``−3 (ставка −3)``; ``0`` when the deal moved nothing."""
    net = sum(parts.values())
    shown = locales.money_breakdown(parts)
    text = t(lang, "money.net", amount=signed(net))
    if locales.breakdown_said(shown):
        details = " · ".join(_money_part(lang, reason, amount) for reason, amount in shown)
        text += " " + t(lang, "money.parts", parts=details)
    return text


def hours_text(seconds: float) -> str:
    """A pause in hours as the settings show it: ``3``, or ``1.5`` for a stored half hour."""
    hours = seconds / 3600
    return str(int(hours)) if hours == int(hours) else f"{hours:.1f}"


@dataclass(frozen=True)
class Deadline:
    """A turn's deadline as a text shows it: when it ends (``at``, Unix seconds) and how many
    seconds are ``left`` as the text is written (the clock the deadline is stored by)."""

    at: float
    left: float

    @staticmethod
    def of(deadline: float | None, now: float) -> Deadline | None:
        return None if deadline is None else Deadline(deadline, deadline - now)


#: a turn with less than this many seconds left says them in seconds, else in minutes
SECONDS_SHOWN_BELOW = 120


def time_left(lang: str, seconds: float) -> str:
    """``60 с``, ``5 мин``: the time a turn has left, rounded up to the second (to the
    minute from two minutes on), never below nothing."""
    whole = max(0, math.ceil(seconds))
    if whole < SECONDS_SHOWN_BELOW:
        return t(lang, "turn.left_seconds", n=whole)
    return t(lang, "turn.left_minutes", n=round(whole / 60))


def turn_deadline(lang: str, deadline: Deadline | None) -> str:
    """`` · ⏳ 60 с, до 20:27`` (the time left as the text is written, then when the turn ends,
    rounded down to the minute) or nothing.

    Both are Telegram date-time entities, so no one has to work out the time left, and no edit
    has to keep it ticking (Telegram's edit limits, 20 a minute in a group, could not): the
    time left is the entity's relative format, which each reader's app keeps current («через
    45 секунд»), and the end is a time his app shows in his own time zone. An app that does
    not know the entity shows the text inside: the seconds left when the message was written,
    and the end in UTC, marked so."""
    if deadline is None:
        return ""
    moment = int(deadline.at)
    utc = datetime.fromtimestamp(moment, UTC).strftime("%H:%M")
    left = f'<tg-time unix="{moment}" format="r">{time_left(lang, deadline.left)}</tg-time>'
    ends = f'<tg-time unix="{moment}" format="t">{utc} UTC</tg-time>'
    return t(lang, "turn.deadline", left=left, time=ends)


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
