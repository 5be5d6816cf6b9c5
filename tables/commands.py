"""What a player asks a table to do, as the front-ends hand it in: one small typed union.

Both front-ends build a ``Move`` from what the player pressed — the chat from a button's
callback, the page from its JSON — and the table service checks it under the chat's lock:
the seat, the turn number the button was made for, and legality through the rules. A move is
expressed as its player sees his hand: cards are named (``Card``, ``Cards``) only from a hand he
has seen, and counted (``Blind``) only from one he has not. Whether he has seen it is read when
the move is applied (``action_of``), so no answer depends on a card he cannot see: the cards
he holds and the ones he does not are refused alike (``unknown_button``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.core import Action
from game.registry import Holding
from tables.games import Table

#: a suit as the rules name it (a trump chosen)
SUITS: Final = frozenset("SHDC")


class Unseen(ValueError):
    """A move expressed as its player cannot see his hand (a card named from a hand he has not
    seen, a count from one he has, more cards than he holds): an unknown button."""


@dataclass(frozen=True, slots=True)
class Look:
    """Show me my cards: allowed at any time of the deal, so it carries no turn of its own."""


@dataclass(frozen=True, slots=True)
class Decide:
    """A decision that names no card: pass, knock, dark, shleif, razrez…"""

    verb: str


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit chosen (Старшина's trump)."""

    verb: str
    suit: str


@dataclass(frozen=True, slots=True)
class Card:
    """One card named from a hand its player has seen: played, dropped, given, returned."""

    verb: str
    card: str


@dataclass(frozen=True, slots=True)
class Cards:
    """Several cards named from a hand its player has seen (a discard, Старшина's kitty)."""

    verb: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Blind:
    """A number of cards of a hand its player has not seen (a blind purchase): the first ones
    in the engine's order, as dealt — cards he cannot have chosen."""

    verb: str
    count: int


#: every move a player makes at a table
Move = Look | Decide | Suit | Card | Cards | Blind


def verb_of(move: Move) -> str:
    """The rules' verb of ``move``."""
    return "look" if isinstance(move, Look) else move.verb


def action_of(move: Move, table: Table, seat: int) -> Action:
    """``move`` as the rules' action of ``seat`` at ``table`` now; ``Unseen`` if it names what
    its player cannot see, or counts what he has seen."""
    match move:
        case Look():
            return Action(seat, "look")
        case Decide(verb):
            return Action(seat, verb)
        case Suit(verb, suit):
            return Action(seat, verb, suit)
        case Card(verb, card):
            _holding(table, seat, looked=True)
            return Action(seat, verb, card)
        case Cards(verb, cards):
            _holding(table, seat, looked=True)
            return Action(seat, verb, cards)
        case Blind(verb, count):
            held = _holding(table, seat, looked=False).cards
            if not 0 <= count <= len(held):
                raise Unseen("more cards than the hand holds")
            return Action(seat, verb, held[:count])


def _holding(table: Table, seat: int, *, looked: bool) -> Holding:
    holding = table.holding(seat)
    if holding.looked is not looked:
        raise Unseen("a move expressed as the player cannot see his hand")
    return holding


__all__ = [
    "SUITS",
    "Blind",
    "Card",
    "Cards",
    "Decide",
    "Look",
    "Move",
    "Suit",
    "Unseen",
    "action_of",
    "verb_of",
]
