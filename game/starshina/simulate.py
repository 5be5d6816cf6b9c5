"""Random legal Старшина games for statistics and the engine benchmark (``game.simulate``).

The rules may not read the clock, so ``run`` takes one from the command line if it is to report
rates.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.cards import FULL_DECK, shuffle
from game.randomplay import random_action
from game.starshina.options import StarshinaOptions
from game.starshina.rules import apply, legal_actions, new_game, next_deal
from game.starshina.state import Phases


@dataclass(slots=True)
class StarshinaStats:
    games: int = 0  # games played to their end
    deals: int = 0
    actions: int = 0
    deals_in_finished_games: int = 0
    ends: dict[str, int] = field(default_factory=dict)  # EndReason → games

    def summary(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "deals": self.deals,
            "actions": self.actions,
            "mean_deals_per_game": self.deals_in_finished_games / max(self.games, 1),
            "ends": dict(sorted(self.ends.items())),
        }


def simulate(
    options: StarshinaOptions, *, seed: int, games: int | None = None, deals: int | None = None
) -> StarshinaStats:
    """Play ``games`` whole games, or games until ``deals`` deals have been played (the last
    game may be cut short), with uniformly random legal actions from ``random.Random(seed)``.
    Each game's first dealer is random too (§4.4)."""
    if (games is None) == (deals is None):
        raise ValueError("give either games or deals")
    rng = random.Random(seed)
    stats = StarshinaStats()
    deck = list(FULL_DECK)
    while (games is None or stats.games < games) and (deals is None or stats.deals < deals):
        shuffle(deck, rng)
        state, _ = new_game(options, deck, dealer=rng.randrange(3))
        played = 0
        while True:
            while state.to_act is not None:
                seat = state.to_act
                apply(state, random_action(seat, legal_actions(state), state.hands[seat], rng))
                stats.actions += 1
            played += 1
            stats.deals += 1
            if state.phase is Phases.GAME_OVER or (deals is not None and stats.deals >= deals):
                break
            shuffle(deck, rng)
            next_deal(state, deck)
        if state.phase is Phases.GAME_OVER:
            assert state.end_reason is not None
            stats.games += 1
            stats.deals_in_finished_games += played
            reason = state.end_reason.value
            stats.ends[reason] = stats.ends.get(reason, 0) + 1
    return stats


def run(
    raw_options: dict[str, Any],
    players: int,
    deals: int,
    games: int | None,
    seed: int,
    clock: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """``python -m game.simulate --game starshina``: for each exchange option (or the one given),
    play ``games`` games (else ``deals`` deals) of three players (``players``, which the
    command line sets for any game, is always 3 here) and report the statistics, with games
    and deals per second when ``clock`` is given."""
    exchanges = [raw_options["exchange"]] if "exchange" in raw_options else ["updown", "ring"]
    result: dict[str, Any] = {"game": "starshina", "by_exchange": {}}
    for exchange in exchanges:
        options = StarshinaOptions.from_json({**raw_options, "exchange": exchange})
        started = clock() if clock else 0.0
        stats = simulate(
            options, seed=seed, games=games, deals=None if games is not None else deals
        )
        entry: dict[str, Any] = {"options": options.to_json(), **stats.summary()}
        if clock:
            elapsed = max(clock() - started, 1e-9)
            entry["seconds"] = round(elapsed, 3)
            entry["deals_per_second"] = round(stats.deals / elapsed)
            entry["games_per_second"] = round(stats.games / elapsed, 2)
        result["by_exchange"][exchange] = entry
    return result
