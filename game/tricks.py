"""Trick resolution shared by every game: the highest trump wins, else the highest card of the
led suit (docs/rules.md §1.5, §4.1 step 5)."""

from __future__ import annotations

from collections.abc import Sequence

from game.cards import RANK


def winning_index(cards: Sequence[str], trump: str | None) -> int:
    """Index in ``cards`` (in play order, the lead first) of the card that wins so far."""
    best = 0
    best_card = cards[0]
    for index in range(1, len(cards)):
        card = cards[index]
        if card[1] == best_card[1]:
            if RANK[card] > RANK[best_card]:
                best, best_card = index, card
        elif card[1] == trump:
            best, best_card = index, card
    return best
