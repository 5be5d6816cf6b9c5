"""``GameRules.pot_in_play``: the chips of the chat's pot a deal in progress plays for, which
another table of the same group (another forum topic) must not deal for too."""

from __future__ import annotations

import random
from typing import Any

from game.cards import FULL_DECK
from game.randomplay import random_action
from game.stukolka import StukolkaGame
from tests.library import rules_for


def _random_step(rules: Any, state: Any, rng: random.Random) -> Any:
    seat = state.to_act
    action = random_action(seat, state.legal(), state.hands[seat], rng)
    state.apply(action)  # in place
    return state


def _deck(rng: random.Random) -> list[str]:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


def test_a_stukolka_deal_holds_its_p_until_it_ends() -> None:
    rules = rules_for("stukolka")
    rng = random.Random(3)
    for _ in range(30):
        state, _ = rules.start(rules.check_options({}), 4, _deck(rng), dealer=0, pot=9)
        assert isinstance(state, StukolkaGame)
        held = state.pot_in_play()
        assert held == state.pot >= 9, "P: the pot given and the antes"
        while not state.deal_over:
            assert state.pot_in_play() == held, "P is fixed for the deal"
            state = _random_step(rules, state, rng)
        assert state.pot_in_play() == 0, "a finished deal holds nothing"


def test_starshina_plays_for_its_own_game_pot() -> None:
    rules = rules_for("starshina")
    rng = random.Random(4)
    state, _ = rules.start(rules.check_options({}), 3, _deck(rng), dealer=0, pot=50)
    for _ in range(40):
        assert state.pot_in_play() == 0
        if state.deal_over:
            break
        state = _random_step(rules, state, rng)
