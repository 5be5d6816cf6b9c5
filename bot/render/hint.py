"""The hint (💡) a player asks for at his turn, in one line: what the strong computer would
do in his seat, and why — the mean result of its choice and of the best other move over the
worlds it played out («💡 Стучать: в среднем +1,2 фишки; пас: −0,3 (по 400 разыгрываниям)»).
Pure: an ``Advice`` of ``game.ai`` in, text out. A hint is shown to its player alone, so it
may name the cards of his own hand (a purchase, a card to put away)."""

from __future__ import annotations

from game.ai import Advice
from game.core import Action
from locales import catalogue, plural_form, t, tn

from .common import MINUS, cards, label, suit

#: callback answers hold at most 200 characters
MAX_HINT = 200


def hint_text(lang: str, advice: Advice) -> str:
    """The hint's one line: the choice, then why (means over the worlds played out), or that
    it was the only move, or that the computer follows its rules of thumb here."""
    choice = move_label(lang, advice.choice)
    if len(advice.actions) == 1:
        return _cut(t(lang, "hint.only", move=_capital(choice)))
    mean = advice.mean_of(advice.choice)
    other = advice.runner_up()
    if mean is None or other is None or not advice.samples:
        return _cut(t(lang, "hint.rules", move=_capital(choice)))
    other_mean = advice.mean_of(other)
    assert other_mean is not None
    key = "hint.close" if other_mean > mean else "hint.line"
    # a mean shown with a decimal takes the noun's fractional form («+1,2 фишки», «1.0
    # chips»), the form of 2; a mean that rounds to nothing, that of 0 («0 фишек»)
    form = 0 if round(mean, 1) == 0 else 2
    amount = _decimal_plural(lang, f"hint.amount.{advice.unit}", form, decimal(lang, mean))
    best = t(lang, "hint.best", move=_capital(choice), amount=amount)
    runner = t(lang, "hint.other", move=move_label(lang, other), value=decimal(lang, other_mean))
    samples = tn(lang, "hint.samples", advice.samples)
    return _cut(t(lang, key, best=best, other=runner, samples=samples))


def move_label(lang: str, action: Action) -> str:
    """A move as its player would name it, his own cards included («сменить 7♠️ 8♦️»,
    «Д♠️»), starting in lower case but for a card."""
    arg = action.arg
    if isinstance(arg, tuple):
        shown = cards(str(card) for card in arg)
        if not arg:
            return t(lang, "hint.move.keep")
        return t(lang, f"hint.move.{action.verb}", cards=shown)
    if action.verb == "play" and isinstance(arg, str):
        return label(arg)
    if action.verb == "trump" and isinstance(arg, str):
        return t(lang, "hint.move.trump", suit=suit(arg))
    if isinstance(arg, str):
        return t(lang, f"hint.move.{action.verb}", cards=label(arg))
    return t(lang, f"hint.move.{action.verb}")


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


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cut(text: str) -> str:
    return text if len(text) <= MAX_HINT else text[: MAX_HINT - 1] + "…"
