"""The default move when a Стуколка player does not act in time (docs/rules.md §5): never a
penalty."""

from __future__ import annotations

from game.cards import lowest
from game.core import Action
from game.stukolka import rules
from game.stukolka.state import Phase, StukolkaState


def default_action(state: StukolkaState) -> Action | None:
    """knock → pass; purchase → keep all (dark: discard none); drop → the lowest non-trump
    card, else the lowest; razrez → no; play → the lowest legal card; шлейф choice → шлейф."""
    seat = state.to_act
    if seat is None:
        return None
    match state.phase:
        case Phase.CHOOSE:
            return Action(seat, "shleif")
        case Phase.KNOCK:
            return Action(seat, "pass")
        case Phase.PURCHASE:
            return Action(seat, "discard", ())
        case Phase.PURCHASE_DROP | Phase.RAZREZ_DROP:
            hand = state.hands[seat]
            plain = [card for card in hand if card[1] != state.trump]
            return Action(seat, "drop", lowest(plain or hand))
        case Phase.RAZREZ:
            return Action(seat, "no_razrez")
        case Phase.PLAY:
            return Action(seat, "play", lowest(rules.legal_plays(state, seat)))
        case Phase.DEAL_OVER:
            return None
