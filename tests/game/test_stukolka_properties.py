"""Property tests over random legal Стуколка play, every table option."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import stukolka
from game.cards import FULL_DECK
from game.core import POT, Action, Legal
from game.replay import money
from game.stukolka import Phase, Role, StukolkaOptions, StukolkaState
from game.stukolka.simulate import simulate
from tests.depth import deep
from tests.game.playthrough import play_and_check, replay_log

options_strategy = st.builds(
    StukolkaOptions,
    variant=st.sampled_from(["classic", "shleif"]),
    stake=st.sampled_from([3, 6, 9]),
    ante_mode=st.sampled_from(["dealer", "obligatory"]),
    lone_player=st.sampled_from(["takes_pot", "dealer_defends"]),
    void_rule=st.sampled_from(["must_trump", "head_only"]),
    compulsory_lead=st.sampled_from(["first_lead", "every_lead"]),
    remiz_cap=st.sampled_from([None, 4, 10, 30]),
    dark_in_classic=st.booleans(),
)


class StukolkaAdapter:
    """Plugs Стуколка into the generic random-play check."""

    def __init__(self, options: StukolkaOptions, players: int, pot: int = 0) -> None:
        self.options = options
        self.players_count = players
        self.pot_in = pot
        self.transfers_before: list[Any] = []

    def start(self, deck: list[str]) -> StukolkaState:
        return stukolka.new_deal(self.options, self.players_count, deck, pot=self.pot_in)[0]

    def next_deal(self, state: StukolkaState, deck: list[str]) -> StukolkaState:
        self.transfers_before.extend(state.transfers)
        return stukolka.next_deal(state, deck)[0]

    def deal_over(self, state: StukolkaState) -> bool:
        return state.phase is Phase.DEAL_OVER

    def game_over(self, state: StukolkaState) -> bool:
        return False

    def to_act(self, state: StukolkaState) -> int | None:
        return state.to_act

    def players(self, state: StukolkaState) -> int:
        return state.players

    def legal(self, state: StukolkaState) -> list[Legal]:
        return stukolka.legal_actions(state)

    def apply(self, state: StukolkaState, action: Action) -> list[Any]:
        return stukolka.apply(state, action)

    def hand(self, state: StukolkaState, seat: int) -> list[str]:
        return state.hands[seat] if 0 <= seat < state.players else []

    def all_cards(self, state: StukolkaState) -> list[str]:
        cards = [card for hand in state.hands for card in hand]
        cards += state.stock
        cards += [card for pile in state.discards + state.dead for card in pile]
        cards += [card for trick in state.played for _, card in trick]
        cards += [card for _, card in state.trick]
        if state.shleif_card_held and state.trump_card:
            cards.append(state.trump_card)
        return cards

    def check_money(self, state: StukolkaState) -> None:
        transfers = self.transfers_before + state.transfers
        balances, pot = money(transfers, state.players, self.pot_in)
        assert sum(balances) + pot == self.pot_in
        assert all(t.amount > 0 for t in transfers)
        assert state.pot == state.pot_in + sum(
            t.amount for t in state.transfers if t.reason == "ante"
        )
        if state.pot_after is not None:
            _, deal_pot = money(state.transfers, state.players, state.pot_in)
            assert deal_pot == state.pot_after >= 0
            paid = sum(t.amount for t in state.transfers if t.src == POT)
            assert paid <= state.pot

    def to_json(self, state: StukolkaState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: dict[str, Any]) -> StukolkaState:
        return StukolkaState.from_json(data)

    def reshuffle_hidden(self, state: StukolkaState, seat: int, rng: random.Random) -> Any:
        """Permute every card ``seat`` cannot see among the places such cards lie. (His own
        hand is his to see whenever he looks, so it stays; the face-up trump card is public.)"""
        copy = StukolkaState.from_json(state.to_json())
        face_up = copy.trump_card if copy.shleif is False else None
        places: list[tuple[list[str], int]] = []
        piles = [copy.stock]
        piles += [copy.hands[other] for other in range(copy.players) if other != seat]
        piles += [copy.discards[other] for other in range(copy.players) if other != seat]
        piles += [copy.dead[other] for other in range(copy.players) if other != seat]
        for pile in piles:
            places += [(pile, index) for index, card in enumerate(pile) if card != face_up]
        cards = [pile[index] for pile, index in places]
        rng.shuffle(cards)
        for (pile, index), card in zip(places, cards, strict=True):
            pile[index] = card
        return copy

    def side_actions(self, state: StukolkaState, rng: random.Random) -> list[Action]:
        if state.phase is Phase.CHOOSE:
            return []
        return [
            Action(seat, "look")
            for seat in range(state.players)
            if not state.looked[seat]
            and not stukolka.dark_blind(state, seat)
            and rng.random() < 0.15
        ]


@settings(max_examples=deep(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=options_strategy,
    players=st.integers(min_value=2, max_value=6),
    pot=st.sampled_from([0, 0, 5, 30]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_play_keeps_every_invariant(
    options: StukolkaOptions, players: int, pot: int, seed: int
) -> None:
    adapter = StukolkaAdapter(options, players, pot)
    play_and_check(
        adapter,
        seed,
        deals=4,
        replay=lambda log: replay_log(StukolkaAdapter(options, players, pot), log),
    )


def test_thousands_of_seeded_deals_across_all_options() -> None:
    """A wider, cheaper sweep: many deals per option set, with the invariants that matter most
    checked at the end of every deal (the per-step checks run in the hypothesis test)."""
    rng = random.Random(2026)
    total = 0
    for _ in range(40):
        options = StukolkaOptions(
            variant=rng.choice(["classic", "shleif"]),
            stake=rng.choice([3, 6]),
            ante_mode=rng.choice(["dealer", "obligatory"]),
            lone_player=rng.choice(["takes_pot", "dealer_defends"]),
            void_rule=rng.choice(["must_trump", "head_only"]),
            compulsory_lead=rng.choice(["first_lead", "every_lead"]),
            remiz_cap=rng.choice([None, 12]),
            dark_in_classic=rng.choice([False, True]),
        )
        stats = simulate(options, rng.randint(2, 6), 100, rng.randrange(10**9))
        total += stats.deals
        assert stats.deals == 100
    assert total >= 4000


def test_global_random_does_not_change_results() -> None:
    first = simulate(StukolkaOptions(variant="shleif"), 4, 50, seed=7).summary()
    random.seed(12345)
    for _ in range(1000):
        random.random()
    second = simulate(StukolkaOptions(variant="shleif"), 4, 50, seed=7).summary()
    assert first == second


def test_shuffled_deck_ignores_global_random() -> None:
    from game.cards import shuffled_deck

    random.seed(1)
    first = shuffled_deck("table-1/deal-3")
    random.seed(2)
    random.random()
    assert shuffled_deck("table-1/deal-3") == first
    assert sorted(first) == sorted(FULL_DECK)
    assert shuffled_deck("table-1/deal-4") != first


def test_dark_player_sees_no_cards_until_he_looks() -> None:
    deck = list(FULL_DECK)
    state, _ = stukolka.new_deal(StukolkaOptions(variant="shleif"), 3, deck)
    stukolka.apply(state, Action(0, "open"))
    view = stukolka.seat_view(state, 1)
    assert view.hand is None and view.hand_count == 3 and view.may_look
    assert {entry.verb for entry in view.legal} == {"knock", "pass", "dark"}
    stukolka.apply(state, Action(1, "dark"))
    assert state.roles[1] is Role.DARK
    assert stukolka.seat_view(state, 1).hand is None
