"""💡 on the page: the table service's advice (``TableService.advise``: the chat's 💡 at the
same turn gets the same, thought out once) in the chat's words (``tables.hint_words``), each
move named as the page's own controls name it: a card as the card, a button by its label, a
choice of several cards by the button that confirms it, with the cards."""

from __future__ import annotations

import re
from typing import Any

from game.ai import UNSEEN, Advice
from game.cards import RANK_LABEL, RUSSIAN_RANK_LABEL, SUIT_EMOJI
from game.core import Action
from locales import Words, t
from tables.hint_words import Buttons, hint_text, quoted
from web.view_parts import Json

TAG = re.compile(r"<[^>]+>")


class NoControl(LookupError):
    """A move the hint would name is on none of the page's controls."""


def page_hint(words: Words, lang: str, advice: Advice, view: Json) -> str:
    """The hint's one line for the page showing ``view`` (the seat's view at the turn the
    advice is for), in the ``words`` of its game. NoControl if a move of it is on none of the
    page's controls."""
    names = {
        action: _name(words, lang, action, view) for action in advice.actions or (advice.choice,)
    }
    moves = len(view["actions"]) + sum(1 for item in view["hand"]["cards"] if item["verb"])
    return hint_text(words, lang, advice, Buttons(names, moves + (1 if view["pick"] else 0)))


def _name(words: Words, lang: str, action: Action, view: Json) -> str:
    arg = action.arg
    if isinstance(arg, tuple):
        return _several(words, lang, action.verb, arg, view)
    if isinstance(arg, str) and len(arg) == 2:
        return card_label(arg, view["ranks"])
    for control in view["actions"]:
        if control["verb"] == action.verb and control["arg"] == arg:
            label = said(words, lang, control["label"], view)
            return label if isinstance(arg, str) else quoted(lang, label)  # a suit: as shown
    raise NoControl(f"{action.verb} {arg or ''}".strip())


def _several(words: Words, lang: str, verb: str, cards: tuple[str, ...], view: Json) -> str:
    """A choice of several cards: by the button that confirms it, with the cards (unseen ones:
    the button that buys as many blind)."""
    seen = [card for card in cards if card != UNSEEN]
    if not seen and cards:
        for control in view["actions"]:
            if control["verb"] == verb and control["arg"] == len(cards):
                return quoted(lang, said(words, lang, control["label"], view))
        raise NoControl(f"{verb} of {len(cards)} unseen cards")
    pick = view["pick"]
    if pick is None or pick["verb"] != verb:
        raise NoControl(f"{verb} of {len(cards)} cards")
    if not cards and pick["none"] is not None:
        return quoted(lang, said(words, lang, pick["none"], view))
    confirm = said(words, lang, {**pick["confirm"], "n": len(cards)}, view)
    cards_said = " ".join(card_label(card, view["ranks"]) for card in seen)
    return t(lang, "hint.with_cards", move=quoted(lang, confirm), cards=cards_said)


def card_label(card: str, ranks: str) -> str:
    """A card as the chat's buttons write it in the card style ``ranks``: «10♥️», «В♠️»."""
    labels = RUSSIAN_RANK_LABEL if ranks == "russian" else RANK_LABEL
    return labels.get(card[0], card[0]) + SUIT_EMOJI[card[1]]


def said(words: Words, lang: str, shown: Json, view: Json) -> str:
    """A text of the view (``{"key", "params", "n"?}``) as the page shows it, in plain text."""
    params = {
        name: _param(words, lang, value, view) for name, value in shown.get("params", {}).items()
    }
    entry = words.catalogue(lang)[shown["key"]]
    n = shown.get("n")
    if isinstance(entry, dict):
        text = words.tn(lang, shown["key"], n if isinstance(n, int) else 0, **params)
    else:
        text = words.t(lang, shown["key"], **({"n": n} if n is not None else {}), **params)
    return TAG.sub("", text)


def _param(words: Words, lang: str, value: Any, view: Json) -> str:
    if isinstance(value, dict):
        if "seat" in value:
            return str(view["seats"][value["seat"]]["name"])
        if "card" in value:
            return card_label(value["card"], view["ranks"])
        if "suit" in value:
            return SUIT_EMOJI[value["suit"]]
        if "key" in value:
            return said(words, lang, value, view)
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"\u2212{-value}"
    return str(value)
