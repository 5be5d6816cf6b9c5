"""Computer players: legal in every position, and blind to what their seat cannot
see — a choice with a fixed seed does not change when the unseen cards are reshuffled."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game import starshina, stukolka
from game.ai import Advice, Budget, Computer
from game.ai.sampling import deal_unseen
from game.ai.search import UNSEEN
from game.cards import FULL_DECK, RANK, shuffle
from game.core import Action
from game.randomplay import random_action
from game.starshina import StarshinaOptions
from game.starshina import ai as starshina_ai
from game.stukolka import StukolkaOptions
from game.stukolka import ai as stukolka_ai
from tests.game.test_starshina_properties import StarshinaAdapter
from tests.game.test_stukolka_properties import StukolkaAdapter

SMALL = Budget(samples=2, min_samples=1)


def computer(view: object) -> Computer[Any]:
    """The computer players of the game ``view`` is a seat view of."""
    return stukolka_ai.COMPUTER if isinstance(view, stukolka.SeatView) else starshina_ai.COMPUTER


def choose(view: Any, level: str, rng: random.Random, budget: Budget | None = None) -> Action:
    return computer(view).choose(view, level, rng, budget)


def advise(view: Any, rng: random.Random, budget: Budget | None = None) -> Advice:
    return computer(view).advise(view, rng, budget)


def _stukolka_options(rng: random.Random) -> StukolkaOptions:
    return StukolkaOptions(
        variant=rng.choice(["classic", "shleif"]),
        ante_mode=rng.choice(["dealer", "obligatory"]),
        lone_player=rng.choice(["takes_pot", "dealer_defends"]),
        void_rule=rng.choice(["must_trump", "head_only"]),
        compulsory_lead=rng.choice(["first_lead", "every_lead"]),
        dark_in_classic=rng.random() < 0.5,
    )


def stukolka_positions(count: int, seed: int) -> Iterator[stukolka.StukolkaState]:
    """Positions reached by random legal play (dark play and razrez included), each with the
    seat to act having looked at its cards when it may: as a computer seat does."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        state = stukolka.new_deal(_stukolka_options(rng), rng.randint(2, 6), deck)[0]
        while state.to_act is not None and made < count:
            seat = state.to_act
            view = stukolka.seat_view(state, seat)
            if view.may_look and rng.random() < 0.9:
                stukolka.apply(state, Action(seat, "look"))
            if rng.random() < 0.5:
                made += 1
                yield state
            legal = stukolka.legal_actions(state)
            stukolka.apply(state, random_action(seat, legal, state.hands[seat], rng))


def starshina_positions(count: int, seed: int) -> Iterator[starshina.StarshinaState]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        options = StarshinaOptions(
            exchange=rng.choice(["ring", "updown"]),
            trumps=rng.choice(["none", "dealer_names"]),
        )
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        state = starshina.new_game(options, deck, dealer=rng.randrange(3))[0]
        for _ in range(rng.randint(1, 3)):  # a later deal has an updown exchange
            while state.to_act is not None and made < count:
                if rng.random() < 0.15:
                    made += 1
                    yield state
                seat = state.to_act
                legal = starshina.legal_actions(state)
                starshina.apply(state, random_action(seat, legal, state.hands[seat], rng))
            if state.phase is not starshina.Phase.DEAL_OVER or made >= count:
                break
            shuffle(deck, rng)
            starshina.next_deal(state, deck)


def to_act(state: stukolka.StukolkaState | starshina.StarshinaState) -> int:
    """The seat to act in a position the generators made (one always is)."""
    seat = state.to_act
    assert seat is not None
    return seat


def _copy(state: Any) -> Any:
    return type(state).from_json(state.to_json())


@pytest.mark.parametrize("level", ["random", "easy", "strong"])
def test_stukolka_computer_never_moves_illegally(level: str) -> None:
    for number, state in enumerate(stukolka_positions(3000 if level != "strong" else 1500, 1)):
        view = stukolka.seat_view(state, to_act(state))
        action = choose(view, level, random.Random(number), SMALL)
        stukolka.apply(_copy(state), action)  # raises IllegalAction if it were illegal


@pytest.mark.parametrize("level", ["random", "easy", "strong"])
def test_starshina_computer_never_moves_illegally(level: str) -> None:
    for number, state in enumerate(starshina_positions(2000 if level != "strong" else 400, 2)):
        view = starshina.seat_view(state, to_act(state))
        action = choose(view, level, random.Random(number), SMALL)
        starshina.apply(_copy(state), action)


def test_stukolka_strong_choice_ignores_the_cards_it_cannot_see() -> None:
    """For each position, the cards the seat cannot see are reshuffled (as in the property
    tests); the seat's view stays the same, and so does the strong player's choice."""
    budget = Budget(samples=6, min_samples=6)
    checked = 0
    for number, state in enumerate(stukolka_positions(300, 3)):
        seat = to_act(state)
        adapter = StukolkaAdapter(state.options, state.players)
        view = stukolka.seat_view(state, seat)
        first = choose(view, "strong", random.Random(number), budget)
        for shuffle_seed in range(3):
            other = adapter.reshuffle_hidden(state, seat, random.Random(shuffle_seed))
            other_view = stukolka.seat_view(other, seat)
            assert other_view == view
            assert choose(other_view, "strong", random.Random(number), budget) == first
            for level in ("easy", "random"):
                assert choose(other_view, level, random.Random(number)) == choose(
                    view, level, random.Random(number)
                )
        checked += 1
    assert checked == 300


def test_starshina_strong_choice_ignores_the_cards_it_cannot_see() -> None:
    budget = Budget(samples=3, min_samples=3)
    for number, state in enumerate(starshina_positions(120, 4)):
        seat = to_act(state)
        adapter = StarshinaAdapter(state.options, state.dealer)
        view = starshina.seat_view(state, seat)
        first = choose(view, "strong", random.Random(number), budget)
        for shuffle_seed in range(2):
            other = adapter.reshuffle_hidden(state, seat, random.Random(shuffle_seed))
            other_view = starshina.seat_view(other, seat)
            assert other_view == view
            assert choose(other_view, "strong", random.Random(number), budget) == first


def test_stukolka_sampled_worlds_agree_with_the_view() -> None:
    """Every determinized world shows the seat exactly its view, and a seat that did not
    follow suit is dealt none of that suit."""
    for number, state in enumerate(stukolka_positions(400, 5)):
        seat = to_act(state)
        view = stukolka.seat_view(state, seat)
        world = stukolka_ai.determinize(view, random.Random(number))
        assert stukolka.seat_view(world, seat).table.seats == view.table.seats
        assert sorted(world.hands[seat]) == sorted(view.hand or world.hands[seat])
        cards = [card for hand in world.hands for card in hand] + world.stock
        cards += [card for pile in world.discards + world.dead for card in pile]
        cards += [card for trick in world.played for _, card in trick]
        cards += [card for _, card in world.trick]
        if world.shleif_card_held and world.trump_card is not None:
            cards.append(world.trump_card)
        assert sorted(cards) == sorted(FULL_DECK)
        for trick in world.played:
            led = trick[0][1][1]
            for other, card in trick[1:]:
                if card[1] != led:
                    assert all(held[1] != led for held in world.hands[other])


def test_starshina_sampled_worlds_agree_with_the_view() -> None:
    for number, state in enumerate(starshina_positions(300, 6)):
        if state.phase is not starshina.Phase.PLAY:
            continue
        seat = to_act(state)
        view = starshina.seat_view(state, seat)
        world = starshina_ai.determinize(view, random.Random(number))
        assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands]
        assert world.hands[seat] == state.hands[seat]
        for item in view.exchanged:
            card = item.card if item.giver == seat else item.returned
            other = item.receiver if item.giver == seat else item.giver
            if card in state.hands[other] and other != state.dealer:
                assert card in world.hands[other]


def test_a_playout_copy_equals_its_world_and_shares_nothing_the_playout_changes() -> None:
    for state in stukolka_positions(80, seed=17):
        before = state.to_json()
        world = state.copy()
        assert world == state
        seat = state.to_act
        assert seat is not None
        stukolka_ai.playout(world, seat)
        assert state.to_json() == before
    for starshina_world in starshina_positions(30, seed=17):
        if starshina_world.phase is not starshina.Phase.PLAY:
            continue
        before = starshina_world.to_json()
        copied = starshina_world.copy()
        assert copied == starshina_world
        starshina_ai.played_out(copied, 0)
        assert starshina_world.to_json() == before


def test_deal_unseen_respects_counts_exclusions_and_fixed_cards() -> None:
    rng = random.Random(7)
    unseen = list(FULL_DECK[:20])
    for _ in range(200):
        places = deal_unseen(unseen, [5, 5, 3], [{"2S", "3S"}, set(), set()], [[], ["4S"], []], rng)
        assert [len(cards) for cards in places[:3]] == [5, 5, 3]
        assert not {"2S", "3S"} & set(places[0])
        assert "4S" in places[1]
        assert sorted(card for cards in places for card in cards) == sorted(unseen)


def test_strong_is_reproducible_from_its_seed_and_bounded_by_its_budget() -> None:
    state = next(stukolka_positions(1, 8))
    view = stukolka.seat_view(state, to_act(state))
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return True

    first = choose(view, "strong", random.Random(1), Budget(samples=50, stop=stop, min_samples=3))
    again = choose(view, "strong", random.Random(1), Budget(samples=3))
    assert first == again
    assert len(calls) <= 1 or len(stukolka_ai.candidates(view)) == 1


def test_starshina_strong_tries_one_card_of_each_run_of_equals() -> None:
    for state in starshina_positions(300, 9):
        if state.phase is not starshina.Phase.PLAY:
            continue
        view = starshina.seat_view(state, to_act(state))
        legal = [str(entry.arg) for entry in view.legal]
        kept = starshina_ai.distinct_plays(view)
        assert set(kept) <= set(legal) and {card[1] for card in kept} == {c[1] for c in legal}
        out = set(view.hand) | {card for trick in state.played for _, card in trick}
        out |= {card for _, card in state.trick} | set(view.discards)
        for card in set(legal) - set(kept):
            lower = [k for k in kept if k[1] == card[1] and RANK[k] < RANK[card]]
            assert lower
            between = [
                c
                for c in FULL_DECK
                if c[1] == card[1]
                and RANK[max(lower, key=lambda k: RANK[k])] < RANK[c] < RANK[card]
            ]
            assert set(between) <= out


def test_hints_are_the_strong_choice_and_blind_to_the_cards_the_seat_cannot_see() -> None:
    """A hint (``advise``) is the strong player's own search: the same choice with the same
    seed, and, like it, the same advice — choice, candidates, means, worlds — when the cards
    the seat cannot see are reshuffled consistently with its view."""
    budget = Budget(samples=6, min_samples=6)
    advised = 0
    for number, state in enumerate(stukolka_positions(150, 6)):
        seat = to_act(state)
        adapter = StukolkaAdapter(state.options, state.players)
        view = stukolka.seat_view(state, seat)
        advice = advise(view, random.Random(number), budget)
        if view.hand is not None:  # one who has not looked is advised what to do without
            assert advice.choice == choose(view, "strong", random.Random(number), budget)
        assert advice.choice in advice.actions
        advised += bool(advice.means)
        for shuffle_seed in range(2):
            other = adapter.reshuffle_hidden(state, seat, random.Random(shuffle_seed))
            other_view = stukolka.seat_view(other, seat)
            assert other_view == view
            assert advise(other_view, random.Random(number), budget) == advice
    assert advised > 50  # most positions had a choice to play out
    for number, position in enumerate(starshina_positions(60, 7)):
        seat = to_act(position)
        dealer = StarshinaAdapter(position.options, position.dealer)
        seen = starshina.seat_view(position, seat)
        small = Budget(samples=3, min_samples=3)
        advice = advise(seen, random.Random(number), small)
        assert advice.choice == choose(seen, "strong", random.Random(number), small)
        assert advice.unit == "tricks"
        other_deal = dealer.reshuffle_hidden(position, seat, random.Random(number))
        assert advise(starshina.seat_view(other_deal, seat), random.Random(number), small) == advice


def unlooked_positions(count: int, seed: int) -> Iterator[stukolka.StukolkaState]:
    """Positions of random legal play in which nobody ever looks at his cards (all but the
    seats whose hands are shown at once: they cannot go dark), every one where such a seat is
    to act."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        options = _stukolka_options(rng)
        state = stukolka.new_deal(options, rng.randint(2, 6), deck)[0]
        while state.to_act is not None and made < count:
            seat = state.to_act
            if not state.looked[seat]:
                made += 1
                yield state
            legal = stukolka.legal_actions(state)
            stukolka.apply(state, random_action(seat, legal, state.hands[seat], rng))


def swap_own_unseen(state: stukolka.StukolkaState, seat: int, rng: random.Random) -> Any:
    """``state`` with the cards of ``seat``, who has not looked at them, exchanged at random
    with cards he cannot see either (the others' hands, the stock, the dead cards)."""
    copy = _copy(state)
    face_up = copy.trump_card if copy.shleif is False else None
    piles = [copy.stock, copy.hands[seat]]
    piles += [copy.hands[other] for other in range(copy.players) if other != seat]
    piles += [copy.dead[other] for other in range(copy.players) if other != seat]
    places = [(pile, i) for pile in piles for i, card in enumerate(pile) if card != face_up]
    cards = [pile[index] for pile, index in places]
    rng.shuffle(cards)
    for (pile, index), card in zip(places, cards, strict=True):
        pile[index] = card
    return copy


def test_a_hint_for_a_player_who_has_not_looked_knows_nothing_of_his_cards() -> None:
    """A player who has not looked is advised among the moves his keyboard offers without his
    cards — to look, to go dark, how many unseen cards to discard — never a card, and never
    a failure: the same advice, to the worlds and figures, whatever cards he holds."""
    budget = Budget(samples=4, min_samples=4)
    seen: set[tuple[str, str]] = set()
    for number, state in enumerate(unlooked_positions(160, 11)):
        seat = to_act(state)
        view = stukolka.seat_view(state, seat)
        assert view.hand is None
        advice = advise(view, random.Random(number), budget)
        assert advice.choice in advice.actions
        for action in advice.actions:
            assert action.verb not in ("play", "drop"), action
            assert action.arg is None or set(action.arg) <= {UNSEEN}, action
        if view.may_look:  # looking first is the rule of thumb, the computer's own habit
            assert Action(seat, "look") in advice.actions
        seen.add((state.phase.value, advice.choice.verb))
        for swap in range(2):
            other = swap_own_unseen(state, seat, random.Random(swap))
            assert advise(stukolka.seat_view(other, seat), random.Random(number), budget) == advice
    phases = {phase for phase, _ in seen}
    assert {"knock", "purchase", "play"} <= phases, seen
    assert ("purchase", "discard") in seen and ("play", "look") in seen, seen


def test_a_hint_means_what_each_move_won_in_the_worlds_played_out() -> None:
    """The means a hint shows are the chips each candidate won from here on, averaged over
    the worlds: the same figures as playing each candidate out in those worlds by hand."""
    state = next(
        s
        for s in stukolka_positions(400, 8)
        if s.phase is stukolka.Phase.KNOCK and len(stukolka.legal_actions(s)) == 2
    )
    seat = to_act(state)
    view = stukolka.seat_view(state, seat)
    advice = advise(view, random.Random(1), Budget(samples=30, min_samples=30))
    assert advice.samples == 30 and len(advice.means) == len(advice.actions) == 2
    rng = random.Random(1)
    stukolka_ai.easy(view, rng)  # the search draws its default first
    totals = [0.0, 0.0]
    for _ in range(30):
        world = stukolka_ai.determinize(view, rng)
        for index, action in enumerate(advice.actions):
            copy = _copy(world)
            stukolka.apply(copy, action)
            totals[index] += stukolka_ai.playout(copy, seat)
    assert advice.means == pytest.approx([total / 30 for total in totals])


def test_the_common_part_names_no_game() -> None:
    """Each game brings its own computer (``game.ai.<game>.COMPUTER``, which its table-side
    plugin hands over): the computers' common part imports no game's rules or computer."""
    root = Path(__file__).resolve().parents[2] / "game" / "ai"
    games = {"stukolka", "starshina"}
    found = []
    for name in ("__init__.py", "budget.py", "sampling.py", "search.py"):
        for node in ast.walk(ast.parse((root / name).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            parts = {part for imported in names for part in imported.split(".")}
            found += [f"{name} imports {imported}" for imported in names if parts & games]
    assert not found, found
