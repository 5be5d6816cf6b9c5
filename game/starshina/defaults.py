"""The default move when a Старшина player does not act in time (docs/rules.md §5): never a penalty.
"Lowest" is ``game.cards.lowest``: by rank, ties in the order ♣ ♦ ♥ ♠."""

from __future__ import annotations

from game.cards import LOW_ORDER, RANK, TIE_ORDER, lowest
from game.core import Action
from game.starshina import rules
from game.starshina.state import Phase, StarshinaState


def longest_suit(hand: list[str]) -> str:
    """§5 naming trump → his longest suit. docs/rules.md does not break ties; here the tied suit
    with the higher cards wins (compared card by card from the top, so A-7-2 beats K-Q-J),
    and suits identical in rank go by ♠ ♥ ♦ ♣, the reverse of the "lowest" order. A void hand
    cannot occur (the dealer holds 16 cards), but it would give ♠."""

    def strength(suit: str) -> tuple[int, list[int], int]:
        ranks = sorted((RANK[card] for card in hand if card[1] == suit), reverse=True)
        return len(ranks), ranks, TIE_ORDER.index(suit)

    return max(TIE_ORDER, key=strength)


def default_action(state: StarshinaState) -> Action | None:
    """give or ring return → the lowest allowed card; naming trump → the longest suit; kitty
    discard → the 4 lowest; play → the lowest legal card."""
    seat = state.to_act
    if seat is None:
        return None
    hand = state.hands[seat]
    match state.phase:
        case Phase.EXCHANGE_GIVE:
            return Action(seat, "give", lowest(hand))
        case Phase.RING_RETURN:
            return Action(seat, "return", lowest(rules.ring_returns(state)))
        case Phase.NAME_TRUMP:
            return Action(seat, "trump", longest_suit(hand))
        case Phase.KITTY:
            return Action(
                seat, "kitty", tuple(sorted(hand, key=LOW_ORDER.__getitem__)[: rules.KITTY_SIZE])
            )
        case Phase.PLAY:
            return Action(seat, "play", lowest(rules.legal_plays(state, seat)))
        case Phase.DEAL_OVER | Phase.GAME_OVER:
            return None
