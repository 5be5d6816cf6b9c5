"""Real engine states of each game for the page: random legal play from a seeded deck, stopped
where a predicate says (a phase, a hand size), as the table service would hold them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from game.cards import shuffled_deck
from game.randomplay import random_action
from tests.library import rules_for

GAMES: dict[str, tuple[str, dict[str, object], int]] = {
    "starshina": ("starshina", {}, 3),
    "starshina_named": ("starshina", {"trumps": "dealer_names", "exchange": "updown"}, 3),
    "starshina_one": ("starshina", {"max_deals": 1}, 3),
    "shleif": ("stukolka", {"variant": "shleif", "dark_in_classic": True}, 4),
    "stukolka": ("stukolka", {"variant": "classic", "dark_in_classic": True}, 4),
}
NAMES = ("Алиса", "Борис", "Вика", "Гоша")


def states(game: str, seed: int, deals: int = 2) -> Iterator[Any]:
    """Every state of ``deals`` deals of ``game`` played at random (each one a copy)."""
    kind, options, players = GAMES[game]
    rules = rules_for(kind)
    rng = random.Random(seed)
    state, _ = rules.start(options, players, shuffled_deck(seed), dealer=0, pot=9)
    for deal in range(deals):
        while True:
            yield rules.load(state.to_json())
            seat = state.to_act
            if seat is None:
                break
            legal = state.legal()
            if not legal:
                break
            holding = state.holding(seat)
            state.apply(random_action(seat, legal, holding.cards, rng))
        if state.game_over or deal == deals - 1:
            return
        state, _ = state.next_deal(
            shuffled_deck(f"{seed}:{deal}"),
            pot=9,
            players=players,
            dealer=(state.dealer + 1) % players,
        )


def first_state(game: str, where: Callable[[Any], bool], seeds: range = range(200)) -> Any:
    """The first state of a random game of ``game`` where ``where`` holds."""
    for seed in seeds:
        for state in states(game, seed):
            if where(state):
                return state
    raise LookupError(f"no {game} state found")
