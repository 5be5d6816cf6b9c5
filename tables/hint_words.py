"""The hint (💡) a player asks for at his turn, in one line: what the strong computer would
do in his seat, named as the control he would press, and why — the playouts' figure that sets
it apart from the next best move («💡 К♠️: в среднем +1,2 фишки, 7♠️: −0,3; ремиз в 5%
разыгрываний против 30% (по 400 разыгрываниям)»), or that the moves are equal as far as the
playouts can tell, or the rule of thumb the computer follows where it plays nothing out.
Pure: an ``Advice`` of ``game.ai`` (``tables.hints``) and each move's name as the player's own
controls name it in; the chat (its keyboard's buttons) and the page (its controls) say the
same words. A hint is shown to its player alone, so it may name the cards of his own hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from game.ai import Advice, Measure
from game.core import Action
from locales import Words, catalogue, listed, plural_form, t, tn

#: callback answers hold at most 200 characters
MAX_HINT = 200
#: a tie names at most this many moves, the rest as «or others»
MOST_NAMED = 4
#: a true minus sign, as money is written
MINUS = "\u2212"


@dataclass(frozen=True, slots=True)
class Buttons:
    """The moves of one turn as its player's keyboard names them: ``names`` per move (a card
    as its button shows it, a word button in quotes, a choice of several cards as the button
    that confirms it, with the cards), and ``moves``, how many different moves it offers."""

    names: Mapping[Action, str]
    moves: int


def quoted(lang: str, text: str) -> str:
    """A control's label as a hint names it: «…»."""
    return t(lang, "hint.quoted", move=text)


def hint_text(words: Words, lang: str, advice: Advice, buttons: Buttons) -> str:
    """The hint's one line, in the ``words`` of its game: the choice by its button, then why
    — the figure of the playouts that sets it apart from the next best move, or that they
    are equal as far as the playouts tell —, or that it is the only move (to look at one's
    cards first, for a player who has not), or the rule of thumb the computer follows
    here."""
    names = buttons.names
    choice = names[advice.choice]
    if len(advice.actions) == 1:
        if advice.choice.verb == "look" and buttons.moves > 1:
            return _cut(t(lang, "hint.look", move=choice))
        return _cut(t(lang, "hint.only", move=choice))
    other = advice.runner_up()
    if other is None or not advice.samples:
        key = f"hint.rule.{advice.rule}" if advice.rule else "hint.rules"
        return _cut(words.t(lang, key, move=choice))
    samples = tn(lang, "hint.samples", advice.samples)
    equal = advice.equal_moves()
    if not equal:
        reasons = [m for m in advice.reasons(other) if _differs(lang, advice, m, other)]
        primary = advice.measures[0] if advice.measures else None
        if primary is not None and primary in reasons:
            amount = _amount(lang, primary, advice.mean_of(advice.choice) or 0.0)
            value = decimal(lang, advice.mean_of(other) or 0.0)
            text = t(
                lang, "hint.better", move=choice, amount=amount, other=names[other], value=value
            )
            why = [m for m in reasons if m is not primary]
            if why:
                text += "; " + _why(words, lang, advice, why[0], other)
            return _cut(t(lang, "hint.played", text=text, samples=samples))
        if reasons:
            why_text = _why(words, lang, advice, reasons[0], other)
            text = t(lang, "hint.rather", move=choice, other=names[other], why=why_text)
            return _cut(t(lang, "hint.played", text=text, samples=samples))
        equal = (other,)
    moves = [choice, *(names[action] for action in equal)]
    return _cut(t(lang, "hint.equal", moves=_either(lang, moves), samples=samples))


def _either(lang: str, moves: Sequence[str]) -> str:
    """«К♠️, 7♠️ или 9♣️» (more than ``MOST_NAMED``: the first ones «или другие»)."""
    if len(moves) > MOST_NAMED:
        return t(lang, "hint.or_others", moves=", ".join(moves[: MOST_NAMED - 1]))
    return listed(lang, moves, "or")


def _differs(lang: str, advice: Advice, measure: Measure, other: Action) -> bool:
    """Whether ``measure`` reads differently for the choice and ``other`` once rounded as
    shown (a reason that reads «30% против 30%» says nothing)."""
    mine, theirs = advice.actions.index(advice.choice), advice.actions.index(other)
    name, means = measure.name, measure.means
    return _figure(lang, name, means[mine]) != _figure(lang, name, means[theirs])


def _why(words: Words, lang: str, advice: Advice, measure: Measure, other: Action) -> str:
    mine, theirs = advice.actions.index(advice.choice), advice.actions.index(other)
    name = measure.name
    mean = _figure(lang, name, measure.means[mine])
    return words.t(
        lang, f"hint.why.{name}", mean=mean, value=_figure(lang, name, measure.means[theirs])
    )


def _figure(lang: str, name: str, mean: float) -> str:
    """A figure as the hint shows it: a share of the playouts in whole percent, else a mean
    to one decimal (tricks taken, unsigned)."""
    if name == "taken":
        return decimal(lang, mean).lstrip("+")
    if name in ("chips", "tricks"):
        return decimal(lang, mean)
    return f"{round(mean * 100)}%"


def _amount(lang: str, measure: Measure, mean: float) -> str:
    # a mean shown with a decimal takes the noun's fractional form («+1,2 фишки», «1.0
    # chips»), the form of 2; a mean that rounds to nothing, that of 0 («0 фишек»)
    form = 0 if round(mean, 1) == 0 else 2
    return _decimal_plural(lang, f"hint.amount.{measure.name}", form, decimal(lang, mean))


def decimal(lang: str, value: float) -> str:
    """A mean to one decimal, signed with a true minus, with the language's decimal mark
    (``+1,2`` in Russian, ``+1.2`` in English); ``0`` when it rounds to nothing."""
    rounded = round(value, 1)
    if rounded == 0:
        return "0"
    text = f"{abs(rounded):.1f}"
    if lang == "ru":
        text = text.replace(".", ",")
    return ("+" if rounded > 0 else MINUS) + text


def _decimal_plural(lang: str, key: str, form: int, shown: str) -> str:
    """The plural entry ``key`` in the form for the count ``form``, with ``shown`` (a decimal)
    as its number."""
    entry = catalogue(lang)[key]
    assert isinstance(entry, dict)
    return entry[plural_form(lang, form)].format(n=shown)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_HINT else text[: MAX_HINT - 1] + "…"
