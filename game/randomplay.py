"""Random legal play, shared by ``game.simulate`` and the property tests.

Chance lives outside the state: every choice here comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.cards import shuffle
from game.core import Action, Legal, shared_action


def random_action(
    seat: int, legal: Sequence[Legal], hand: Sequence[str], rng: random.Random
) -> Action:
    """A uniformly chosen legal entry; for a choice of several cards, a random number of them
    in the allowed range, drawn from ``hand``."""
    entry = legal[int(rng.random() * len(legal))]
    if entry.pick is not None:
        fewest, most = entry.pick
        count = fewest + int(rng.random() * (min(most, len(hand)) - fewest + 1))
        cards = list(hand)
        shuffle(cards, rng)  # floats, not ``rng.sample``'s slower integer draws
        return Action(seat, entry.verb, tuple(cards[:count]))
    return shared_action(seat, entry.verb, entry.arg)
