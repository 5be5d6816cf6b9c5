"""Property tests over random legal Старшина play, every table option: the
generic per-step checks of ``tests.game.playthrough`` under hypothesis, and a wider seeded sweep
of thousands of deals with the cheaper invariants checked at the end of every deal."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import starshina
from game.cards import FULL_DECK
from game.core import GAME_POT, Action, Legal
from game.randomplay import random_action
from game.replay import money
from game.starshina import Phase, StarshinaOptions, StarshinaState
from game.starshina.simulate import simulate
from tests.depth import deep
from tests.game.playthrough import play_and_check, replay_log

options_strategy = st.builds(
    StarshinaOptions,
    targets=st.sampled_from(["8-5-3", "9-5-2"]),
    stake=st.sampled_from([1, 2, 5]),
    exchange=st.sampled_from(["updown", "ring"]),
    trumps=st.sampled_from(["none", "dealer_names"]),
    scoring=st.sampled_from(["pot", "per_trick"]),
    next_dealer=st.sampled_from(["loser", "winner"]),
    max_deals=st.integers(min_value=1, max_value=4),
)


def all_cards(state: StarshinaState) -> list[str]:
    """Every card of the deal wherever it lies: hands, kitty, discards, the table."""
    cards = [card for hand in state.hands for card in hand]
    cards += state.kitty + state.discards
    cards += [card for trick in state.played for _, card in trick]
    cards += [card for _, card in state.trick]
    return cards


def check_money(state: StarshinaState) -> None:
    """Balances plus the pots never change; the game pot is the antes until the game ends."""
    balances, pot = money(state.transfers, 3, 0)
    assert sum(balances) + pot == 0
    assert pot == state.game_pot
    assert all(transfer.amount > 0 for transfer in state.transfers)
    stake = state.options.stake
    if state.options.scoring == "per_trick":
        assert state.game_pot == 0
    elif state.phase is Phase.GAME_OVER:
        assert state.game_pot == 0
        assert state.winner is not None
        diffs = state.history[-1].diffs
        missed = sum(1 for seat, diff in enumerate(diffs) if diff < 0 and seat != state.winner)
        assert balances[state.winner] == (2 + missed) * stake
    else:
        assert state.game_pot == 3 * stake and balances == [-stake] * 3
    if state.options.scoring == "per_trick":
        for seat in range(3):
            assert balances[seat] == stake * sum(record.diffs[seat] for record in state.history)


class StarshinaAdapter:
    """Plugs Старшина into the generic random-play check."""

    def __init__(self, options: StarshinaOptions, dealer: int = 0) -> None:
        self.options = options
        self.dealer = dealer

    def start(self, deck: list[str]) -> StarshinaState:
        return starshina.new_game(self.options, deck, dealer=self.dealer)[0]

    def next_deal(self, state: StarshinaState, deck: list[str]) -> StarshinaState:
        return starshina.next_deal(state, deck)[0]

    def deal_over(self, state: StarshinaState) -> bool:
        return state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)

    def game_over(self, state: StarshinaState) -> bool:
        return state.phase is Phase.GAME_OVER

    def to_act(self, state: StarshinaState) -> int | None:
        return state.to_act

    def players(self, state: StarshinaState) -> int:
        return 3

    def legal(self, state: StarshinaState) -> list[Legal]:
        return starshina.legal_actions(state)

    def apply(self, state: StarshinaState, action: Action) -> list[Any]:
        return starshina.apply(state, action)

    def hand(self, state: StarshinaState, seat: int) -> list[str]:
        return state.hands[seat] if 0 <= seat < 3 else []

    def all_cards(self, state: StarshinaState) -> list[str]:
        return all_cards(state)

    def check_money(self, state: StarshinaState) -> None:
        check_money(state)

    def to_json(self, state: StarshinaState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> StarshinaState:
        return StarshinaState.from_json(data)

    def reshuffle_hidden(self, state: StarshinaState, seat: int, rng: random.Random) -> Any:
        """Swap the cards ``seat`` cannot see among themselves, everywhere they are written:
        the other hands, the kitty, the discards (but for the dealer) and the records of the
        exchanges between the other two. His hand, the table and the cards of his own
        exchanges stay as they are."""
        data = state.to_json()
        seen = set(data["hands"][seat])
        seen.update(card for trick in data["played"] for _, card in trick)
        seen.update(card for _, card in data["trick"])
        if seat == data["dealer"]:
            seen.update(data["discards"])
        for giver, receiver, card, returned in data["exchanged"]:
            if seat in (giver, receiver):
                seen.update(c for c in (card, returned) if c is not None)
        hidden = [card for card in FULL_DECK if card not in seen]
        relabel = dict(zip(hidden, rng.sample(hidden, len(hidden)), strict=True))

        def swap(card: str | None) -> str | None:
            return None if card is None else relabel.get(card, card)

        data["hands"] = [[swap(card) for card in hand] for hand in data["hands"]]
        data["kitty"] = [swap(card) for card in data["kitty"]]
        data["discards"] = [swap(card) for card in data["discards"]]
        data["exchanged"] = [
            [giver, receiver, swap(card), swap(returned)]
            for giver, receiver, card, returned in data["exchanged"]
        ]
        return StarshinaState.from_json(data)

    def side_actions(self, state: StarshinaState, rng: random.Random) -> list[Action]:
        return []


@settings(max_examples=deep(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=options_strategy,
    dealer=st.integers(min_value=0, max_value=2),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_play_keeps_every_invariant(
    options: StarshinaOptions, dealer: int, seed: int
) -> None:
    play_and_check(
        StarshinaAdapter(options, dealer),
        seed,
        deals=4,
        replay=lambda log: replay_log(StarshinaAdapter(options, dealer), log),
    )


def test_thousands_of_seeded_deals_across_all_options() -> None:
    """Many whole games over random option sets; at the end of every deal the 52 cards are
    all there, money is conserved and the record agrees with the tricks; the game ends exactly
    when §4.1 step 7 or ``max_deals`` says."""
    rng = random.Random(2026)
    deals = 0
    while deals < 5000:
        options = StarshinaOptions(
            targets=rng.choice(["8-5-3", "9-5-2"]),
            stake=rng.choice([1, 3]),
            exchange=rng.choice(["updown", "ring"]),
            trumps=rng.choice(["none", "dealer_names"]),
            scoring=rng.choice(["pot", "per_trick"]),
            max_deals=rng.choice([3, 20]),
        )
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        state, _ = starshina.new_game(options, deck, dealer=rng.randrange(3))
        while True:
            while state.to_act is not None:
                seat = state.to_act
                legal = starshina.legal_actions(state)
                starshina.apply(state, random_action(seat, legal, state.hands[seat], rng))
            deals += 1
            cards = all_cards(state)
            assert len(cards) == 52 and set(cards) == set(FULL_DECK)
            assert len(state.discards) == 4 and not any(state.hands) and not state.kitty
            check_money(state)
            record = state.history[-1]
            assert sum(record.tricks) == 16 and sum(record.diffs) == 0
            assert len(state.history) == state.deal_no + 1
            ended = max(record.tricks) >= 12 or len(state.history) == options.max_deals
            assert (state.phase is Phase.GAME_OVER) == ended
            if ended:
                break
            rng.shuffle(deck)
            starshina.next_deal(state, deck)


def test_global_random_does_not_change_results() -> None:
    options = StarshinaOptions(exchange="ring", trumps="dealer_names")
    first = simulate(options, seed=7, deals=60).summary()
    random.seed(12345)
    for _ in range(1000):
        random.random()
    second = simulate(options, seed=7, deals=60).summary()
    assert first == second


def test_the_game_pot_is_carried_as_game_pot_never_the_chat_pot() -> None:
    state, _ = starshina.new_game(StarshinaOptions(stake=2), list(FULL_DECK))
    assert {transfer.dst for transfer in state.transfers} == {GAME_POT}
    assert state.game_pot == 6
