"""A rules action as a player would press it (``tables.commands``): what the tests hand the
table service when they play a deal from the rules' own legal or random actions."""

from __future__ import annotations

from game.core import Action
from tables import TableService
from tables.commands import SUITS, Blind, Card, Cards, Decide, Look, Move, Suit
from tables.events import TableEvent
from tables.games import Table


def move_for(action: Action, table: Table | None = None) -> Move:
    """The move that names ``action`` as its player sees his hand at ``table`` (None: as a
    player who has seen it): cards of a hand not yet seen are only counted (a blind choice
    takes the first ones as dealt, whichever ``action`` named)."""
    verb, arg = action.verb, action.arg
    if verb == "look" and arg is None:
        return Look()
    if arg is None:
        return Decide(verb)
    if isinstance(arg, tuple):
        held = None if table is None else table.holding(action.seat)
        if held is None or held.looked:
            return Cards(verb, arg)
        return Blind(verb, len(arg))
    if arg in SUITS:
        return Suit(verb, arg)
    return Card(verb, arg)


async def press(
    tables: TableService, game_id: int, user_id: int, turn: int, action: Action, table: Table
) -> TableEvent:
    """``user_id`` makes ``action`` at ``table`` (his turn ``turn``) as a player does: a card
    of a hand he has not seen yet he looks at first (no card is on a button before)."""
    card = isinstance(action.arg, str) and action.arg not in SUITS
    if card and not table.holding(action.seat).looked:
        await tables.turns.act(game_id, user_id, turn, Look())
    return await tables.turns.act(game_id, user_id, turn, move_for(action, table))
