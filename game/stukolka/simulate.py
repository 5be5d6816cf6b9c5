"""Random legal Стуколка deals for statistics and the engine benchmark (``game.simulate``).

The rules may not read the clock, so ``run`` takes one from the command line if it is to report
rates.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.cards import FULL_DECK, shuffle
from game.core import POT, shared_action
from game.randomplay import random_action
from game.stukolka.options import StukolkaOptions
from game.stukolka.rules import apply, dark_blind, legal_actions, new_deal, next_deal
from game.stukolka.state import Outcomes, Phases


@dataclass(slots=True)
class StukolkaStats:
    deals: int = 0
    actions: int = 0
    with_remiz: int = 0
    without_play: int = 0
    pot_total: int = 0

    def summary(self) -> dict[str, float]:
        deals = max(self.deals, 1)
        return {
            "deals": self.deals,
            "actions": self.actions,
            "remiz_share": self.with_remiz / deals,
            "mean_pot": self.pot_total / deals,
            "without_play_share": self.without_play / deals,
        }


def simulate(
    options: StukolkaOptions, players: int, deals: int, seed: int, look_chance: float = 0.3
) -> StukolkaStats:
    """Play ``deals`` deals at one table with random legal actions; players look at their
    cards with ``look_chance`` at each of their turns (so dark play happens too)."""
    rng = random.Random(seed)
    stats = StukolkaStats()
    deck = list(FULL_DECK)
    shuffle(deck, rng)
    state, _ = new_deal(options, players, deck)
    draw = rng.random
    choose, over = Phases.CHOOSE, Phases.DEAL_OVER
    actions = 0
    for number in range(deals):
        if number:
            shuffle(deck, rng)
            state, _ = next_deal(state, deck)
        looked = state.looked
        while state.phase is not over:
            seat = state.to_act
            assert seat is not None
            if (
                state.phase is not choose
                and not looked[seat]
                and not dark_blind(state, seat)
                and draw() < look_chance
            ):
                apply(state, shared_action(seat, "look"))
            apply(state, random_action(seat, legal_actions(state), state.hands[seat], rng))
            actions += 1
        stats.deals += 1
        stats.pot_total += state.pot
        if state.outcome is not Outcomes.PLAYED:
            stats.without_play += 1
        for transfer in state.transfers:
            if transfer.reason == "remiz" and transfer.dst == POT:
                stats.with_remiz += 1
                break
    stats.actions = actions
    return stats


def run(
    raw_options: dict[str, Any],
    players: int,
    deals: int,
    games: int | None,
    seed: int,
    clock: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """``python -m game.simulate --game stukolka``: ``deals`` deals at one table of ``players``
    (a table never ends a game, so ``games`` means nothing here), with deals per second when
    ``clock`` is given."""
    options = StukolkaOptions.from_json(raw_options)
    started = clock() if clock else 0.0
    stats = simulate(options, players, deals, seed)
    result: dict[str, Any] = {"game": "stukolka", "players": players, "options": options.to_json()}
    result.update(stats.summary())
    if clock:
        elapsed = max(clock() - started, 1e-9)
        result["seconds"] = round(elapsed, 3)
        result["deals_per_second"] = round(stats.deals / elapsed)
    return result
