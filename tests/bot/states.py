"""Engine states for the bot's unit tests: random legal play, stopped at a chosen step, with the
options drawn by hypothesis. Each generator returns every state it passed through (copies)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from game.cards import FULL_DECK
from game.core import Action
from game.randomplay import random_action
from game.starshina import StarshinaOptions, StarshinaState, new_game
from game.starshina import apply as starshina_apply
from game.starshina import legal_actions as starshina_legal
from game.starshina import next_deal as starshina_next_deal
from game.starshina.state import Phase as StarshinaPhase
from game.stukolka import (
    StukolkaOptions,
    StukolkaState,
    apply,
    dark_blind,
    legal_actions,
    new_deal,
)
from game.stukolka.state import Phase

NAMES = ["Аня", "Борис", "Вика", "Гоша", "Даша", "Егор"]

stukolka_options = st.builds(
    StukolkaOptions,
    variant=st.sampled_from(["classic", "shleif"]),
    stake=st.sampled_from([3, 6, 15]),
    ante_mode=st.sampled_from(["dealer", "obligatory"]),
    lone_player=st.sampled_from(["takes_pot", "dealer_defends"]),
    void_rule=st.sampled_from(["must_trump", "head_only"]),
    compulsory_lead=st.sampled_from(["first_lead", "every_lead"]),
    remiz_cap=st.sampled_from([None, 6]),
    dark_in_classic=st.booleans(),
)

starshina_options = st.builds(
    StarshinaOptions,
    targets=st.sampled_from(["8-5-3", "9-5-2"]),
    stake=st.sampled_from([1, 2]),
    exchange=st.sampled_from(["updown", "ring"]),
    trumps=st.sampled_from(["none", "dealer_names"]),
    scoring=st.sampled_from(["pot", "per_trick"]),
    max_deals=st.sampled_from([1, 2, 20]),
)


def copy_stukolka(state: StukolkaState) -> StukolkaState:
    return StukolkaState.from_json(state.to_json())


def copy_starshina(state: StarshinaState) -> StarshinaState:
    return StarshinaState.from_json(state.to_json())


def stukolka_deal(
    options: StukolkaOptions, players: int, seed: int, look_chance: float = 0.4
) -> list[StukolkaState]:
    """One deal played at random; every state on the way, the finished one last."""
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    state, _ = new_deal(
        options, players, deck, dealer=rng.randrange(players), pot=rng.choice([0, 0, 3, 10])
    )
    states = [copy_stukolka(state)]
    while state.phase is not Phase.DEAL_OVER:
        seat = state.to_act
        assert seat is not None
        if state.phase is not Phase.CHOOSE:
            for other in range(players):
                if (
                    not state.looked[other]
                    and not dark_blind(state, other)
                    and rng.random() < look_chance / players
                ):
                    apply(state, Action(other, "look"))
                    states.append(copy_stukolka(state))
        apply(state, random_action(seat, legal_actions(state), state.hands[seat], rng))
        states.append(copy_stukolka(state))
    return states


def starshina_game(
    options: StarshinaOptions, seed: int, max_steps: int = 400
) -> list[StarshinaState]:
    """A game played at random (deals follow one another) for at most ``max_steps`` actions;
    every state on the way."""
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    state, _ = new_game(options, deck, dealer=rng.randrange(3))
    states = [copy_starshina(state)]
    for _ in range(max_steps):
        if state.phase is StarshinaPhase.GAME_OVER:
            break
        if state.phase is StarshinaPhase.DEAL_OVER:
            rng.shuffle(deck)
            state, _ = starshina_next_deal(state, deck)
            states.append(copy_starshina(state))
            continue
        seat = state.to_act
        assert seat is not None
        starshina_apply(state, random_action(seat, starshina_legal(state), state.hands[seat], rng))
        states.append(copy_starshina(state))
    return states
