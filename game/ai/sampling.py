"""Dealing the cards a seat cannot see into the places it cannot see, consistently with what
it has seen: each place takes a known number of cards, some places may not hold some cards
(a player who could not follow suit holds none of it), and some cards are known to lie in
one place (the face-up trump card that a player drew).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from game.cards import RANK, RANKS, SUITS, shuffle

ATTEMPTS = 30

ALL_OF_SUIT = {suit: frozenset(rank + suit for rank in RANKS) for suit in SUITS}


def above(card: str) -> set[str]:
    """The cards of ``card``'s suit ranked above it."""
    return {rank + card[1] for rank in RANKS if RANK[rank + card[1]] > RANK[card]}


def deal_unseen(
    unseen: Sequence[str],
    needs: Sequence[int],
    excluded: Sequence[Iterable[str]],
    fixed: Sequence[Iterable[str]],
    rng: random.Random,
) -> list[list[str]]:
    """Deal ``unseen`` (in a canonical order, so that the result depends on ``rng`` alone)
    into places: place ``i`` gets ``fixed[i]`` plus random cards up to ``needs[i]`` that are
    not in ``excluded[i]``; one more list at the end holds the cards left. The most
    constrained places are filled first; if the constraints cannot be met by chance in a few
    attempts, they are dropped (the sample is then merely plausible, never illegal for the
    engine)."""
    fixed_cards = {card for cards in fixed for card in cards}
    pool = [card for card in unseen if card not in fixed_cards]
    bans = [frozenset(cards) for cards in excluded]
    order = sorted(range(len(needs)), key=lambda place: -len(bans[place]))
    for attempt in range(ATTEMPTS + 1):
        cards = list(pool)
        shuffle(cards, rng)
        places: list[list[str]] = [list(items) for items in fixed]
        taken: set[str] = set()
        ok = True
        for place in order:
            want = needs[place] - len(places[place])
            if want <= 0:
                continue
            ban = bans[place] if attempt < ATTEMPTS else frozenset()
            chosen = [card for card in cards if card not in taken and card not in ban][:want]
            if len(chosen) < want:
                ok = False
                break
            places[place].extend(chosen)
            taken.update(chosen)
        if ok:
            places.append([card for card in cards if card not in taken])
            return places
    raise ValueError("more places than unseen cards")
