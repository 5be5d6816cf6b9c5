"""The hint (💡) in the chat: each move of the advice named as the button of the player's own
keyboard that makes it (the words are ``tables.hint_words``', the page's too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.callback import Act, BadCallback, Codec, Look
from bot.keyboards import Keyboard, selection_order
from bot.render.common import label
from game.ai import UNSEEN, Advice
from game.core import Action
from game.registry import Holding
from locales import t
from tables.hint_words import MAX_HINT as MAX_HINT
from tables.hint_words import Buttons as Buttons
from tables.hint_words import hint_text as hint_text
from tables.hint_words import quoted


class NoButton(LookupError):
    """A move the hint would name is on none of the player's buttons."""


def keyboard_buttons(
    codec: Codec,
    lang: str,
    advice: Advice,
    keyboard: Callable[[int], Keyboard],
    holding: Holding,
) -> Buttons:
    """Each move of ``advice`` named by the button of the player's keyboard that makes it:
    ``keyboard(mask)`` is his keyboard with the cards of ``mask`` marked (a choice of several
    cards has its confirm button only once they are), read with ``codec``; ``holding`` his
    hand, to mark them by. ``NoButton`` if a move is on none of its buttons."""
    plain = _presses(codec, keyboard(0))
    names: dict[Action, str] = {}
    for action in advice.actions or (advice.choice,):
        if isinstance(action.arg, tuple):
            mask = _mask(action.arg, holding)
            found = _presses(codec, keyboard(mask)).get(("act", action.verb, mask))
            if found is None:
                raise NoButton(f"{action.verb} of {len(action.arg)} cards")
            name = quoted(lang, found)
            seen = [card for card in action.arg if card != UNSEEN]
            if seen:
                name = t(lang, "hint.with_cards", move=name, cards=_cards(seen))
            names[action] = name
            continue
        key = ("look", None, None) if action.verb == "look" else ("act", action.verb, action.arg)
        found = plain.get(key)
        if found is None:
            raise NoButton(f"{action.verb} {action.arg or ''}".strip())
        names[action] = found if isinstance(action.arg, str) else quoted(lang, found)
    return Buttons(names, len(plain))


def _presses(codec: Codec, rows: Keyboard) -> dict[tuple[str, str | None, str | int | None], str]:
    """The moves a keyboard makes, each with its button's label: ``("act", verb, arg)`` for a
    move, ``("look", None, None)`` for a look (not a move, but what a player may press)."""
    found: dict[tuple[str, str | None, str | int | None], str] = {}
    for row in rows:
        for text, data in row:
            try:
                pressed = codec.decode(data)
            except BadCallback:
                continue
            if isinstance(pressed, Act):
                found[("act", pressed.verb, pressed.arg)] = text
            elif isinstance(pressed, Look):
                found[("look", None, None)] = text
    return found


def _mask(chosen: Sequence[str], holding: Holding) -> int:
    """The selection mask of ``chosen`` in the keyboard's order (``UNSEEN`` cards: as many of
    the first places, as a blind choice marks them)."""
    if all(card == UNSEEN for card in chosen):
        return (1 << len(chosen)) - 1
    order = selection_order(holding.cards, holding.trump, looked=holding.looked)
    return sum(1 << order.index(card) for card in chosen)


def _cards(items: Sequence[str]) -> str:
    return " ".join(label(card) for card in items)
