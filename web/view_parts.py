"""The parts every game's page view is made of: the table beside the engine (``TableInfo``),
texts as locale keys, card and seat references, money in the chat's words (``web.views``
has the schema)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from game.cards import sort_hand
from game.core import Legal, Transfer
from locales import MONEY_REASONS as MONEY_REASONS  # the same order as the chat
from locales import breakdown_said, catalogue, money_breakdown, signed
from tables.games.words import CardName, Phrase, SeatName
from tables.people import Ranks

SCHEMA = 1

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the table service knows beside the game's state."""

    names: Sequence[str]
    version: int
    ranks: Ranks = "russian"
    #: each seat's running balance (chips), or None where unknown
    chips: Sequence[int | None] = ()
    deadline: float | None = None
    away: frozenset[int] = frozenset()
    #: the stored table's version when the view was read: every change of the table moves
    #: it, the lobby's and a deal's alike (``version`` is the turn an action names)
    stamp: int = 0


def text(key: str, n: int | None = None, **params: object) -> Json:
    """A text the page looks up: ``key`` in the catalogue, its plural form for ``n`` (when
    given; ``n`` is then a parameter too), ``params`` for its placeholders. A parameter that is
    ``{"seat": i}`` reads as that seat's name, ``{"card": c}`` as the card in the chat's style,
    ``{"suit": s}`` as the suit, a text (``{"key": ...}``) as that text."""
    data: Json = {"key": key, "params": params}
    if n is not None:
        data["n"] = n
    return data


def unshown() -> Json:
    """The parts of a seat's view a game's page may leave out, as nothing to show: no trump,
    no pot, no stock, no last trick, no private cards, no move but its cards', no result."""
    return {
        "trump": None,
        "trump_card": None,
        "trump_card_on_stock": False,
        "trump_line": None,
        "pot": None,
        "pot_gloss": None,
        "stock": 0,
        "stock_label": "web.stock",
        "trick": [],
        "last_trick": [],
        "last_winner": None,
        "pick": None,
        "actions": [],
        "prompt": None,
        "private": [],
        "play_begun": False,
        "result": None,
    }


#: how a move of ``actions`` is drawn (``web.views``, "Moves")
Input = Literal["button", "suit"]


def action(
    verb: str,
    label: Json,
    arg: str | int | None = None,
    *,
    input: Input = "button",
    secondary: bool = False,
) -> Json:
    """One move of a view's ``actions``, described for the page to draw with no knowledge of
    the game: the verb and argument it posts, its label (a text), how it is drawn
    (``input``) and whether it is a secondary choice (drawn quieter: passing, looking,
    leaving, voiding)."""
    return {"verb": verb, "arg": arg, "label": label, "input": input, "secondary": secondary}


def phrase_text(words: Phrase) -> Json:
    """A game's ``Phrase`` as a text of the view: seats and cards as references the page
    names in the chat's style, a phrase within it as a text."""

    def value(param: object) -> object:
        match param:
            case SeatName(seat):
                return seat_ref(seat)
            case CardName(card):
                return card_ref(card)
            case Phrase():
                return phrase_text(param)
        return param

    return text(words.key, words.n, **{name: value(p) for name, p in words.params.items()})


def seat_ref(seat: int) -> Json:
    return {"seat": seat}


def card_ref(card: str) -> Json:
    return {"card": card}


def suit_ref(suit: str) -> Json:
    return {"suit": suit}


def _trick(trick: Sequence[tuple[int, str]]) -> list[Json]:
    return [{"seat": seat, "card": card} for seat, card in trick]


def _nets(transfers: Sequence[Transfer], players: int) -> list[int]:
    nets = [0] * players
    for item in transfers:
        if isinstance(item.src, int):
            nets[item.src] -= item.amount
        if isinstance(item.dst, int):
            nets[item.dst] += item.amount
    return nets


def money_parts(sums: Mapping[str, int]) -> list[Json]:
    """A seat's money by reason (paid as negative) as the chat's breakdown names it («ставка
    −3 · ремиз −12»): one text a reason, in the chat's order, none for a zero."""
    known = catalogue("ru")
    return [
        text(
            f"money.{reason}_in"
            if amount > 0 and f"money.{reason}_in" in known
            else f"money.{reason}",
            amount=signed(amount),
        )
        for reason, amount in money_breakdown(sums)
    ]


def _parts(transfers: Sequence[Transfer], players: int) -> list[list[Json]]:
    """Each seat's ``money_parts`` of ``transfers`` where the chat's result says them beside
    the net, else none: a lone part the net says already (the tricks') is not said again."""
    sums: list[dict[str, int]] = [{} for _ in range(players)]
    for item in transfers:
        for seat, amount in ((item.src, -item.amount), (item.dst, item.amount)):
            if isinstance(seat, int) and seat < players:
                sums[seat][item.reason] = sums[seat].get(item.reason, 0) + amount
    return [
        money_parts(seat_sums) if breakdown_said(money_breakdown(seat_sums)) else []
        for seat_sums in sums
    ]


def _seat(seat: int, you: int, dealer: int, to_act: int | None, info: TableInfo) -> Json:
    return {
        "seat": seat,
        "name": info.names[seat] if seat < len(info.names) else "",
        "chips": info.chips[seat] if seat < len(info.chips) else None,
        "dealer": seat == dealer,
        "to_act": seat == to_act,
        "you": seat == you,
        "away": seat in info.away,
        "tricks_in_note": False,
    }


def _hand(
    cards: Sequence[str] | None, hidden: int, legal: Sequence[Legal], trump: str | None
) -> Json:
    verbs = {entry.arg: entry.verb for entry in legal if entry.arg and len(entry.arg) == 2}
    shown = sort_hand(cards, trump) if cards is not None else []
    return {
        "cards": [{"card": card, "verb": verbs.get(card)} for card in shown],
        "hidden": hidden,
        "look": False,
    }


def _pick(legal: Sequence[Legal], verb: str, confirm: str, none: str | None) -> Json | None:
    for entry in legal:
        if entry.verb == verb and entry.pick is not None:
            return {
                "verb": verb,
                "min": entry.pick[0],
                "max": entry.pick[1],
                "confirm": text(confirm),
                "none": None if none is None else text(none),
            }
    return None


def _base(game: str, choice: str, view: Any, table: Any, info: TableInfo) -> Json:
    return {
        "schema": SCHEMA,
        "game": game,
        "choice": choice,
        "version": info.version,
        "stamp": info.stamp,
        "deal": table.deal_no,
        "phase": str(table.phase),
        "you": view.seat,
        "dealer": table.dealer,
        "to_act": table.to_act,
        "deadline": info.deadline if table.to_act is not None else None,
        "ranks": info.ranks,
        "trump": table.trump,
        "trick": _trick(table.trick),
        "last_trick": _trick(table.last_trick),
        "last_winner": table.trick_winners[-1] if table.trick_winners else None,
    }
