"""Unit tests of single Старшина rules (docs/rules.md §4, §5); the worked cases are in
tests/cases/starshina, the random-play properties in test_starshina_properties.py."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest

from game import starshina
from game.cards import FULL_DECK, LOW_ORDER, RANK
from game.core import GAME_POT, Action, IllegalAction, OptionsError, Transfer
from game.starshina import (
    DealRecord,
    EndReason,
    Phase,
    StarshinaOptions,
    StarshinaState,
    default_action,
    longest_suit,
)
from game.starshina.match import StarshinaMatch
from game.starshina.rules import exchange_plan, game_winner, per_trick_transfers
from game.starshina.simulate import run, simulate
from tests.clock import ManualClock


def default(state: StarshinaState) -> Action:
    """The default move where there is one to make."""
    action = default_action(state)
    assert action is not None
    return action


def act(state: StarshinaState, *actions: tuple[Any, ...]) -> list[Any]:
    events = []
    for raw in actions:
        events += starshina.apply(state, Action(*raw))
    return events


def stacked(hands: dict[int, list[str]], kitty: list[str], dealer: int = 0) -> list[str]:
    """The deck that deals ``hands`` (seat → 16 cards) and the kitty (docs/rules.md "Cards")."""
    deck = [""] * 52
    for offset in (1, 2, 3):
        for index, card in enumerate(hands[(dealer + offset) % 3]):
            deck[3 * index + offset - 1] = card
    deck[48:] = kitty
    assert sorted(deck) == sorted(FULL_DECK)
    return deck


#: the updown exchange (§4.2), which most tests of the deal and of the exchange are about
UPDOWN = StarshinaOptions(exchange="updown")


def finished_state(options: StarshinaOptions, diffs: list[int], dealer: int = 0) -> StarshinaState:
    """A game whose last finished deal (dealt by ``dealer``) ended with ``diffs``, ready for
    the next deal."""
    state, _ = starshina.new_game(options, list(FULL_DECK), dealer=dealer)
    target = starshina.targets(options, dealer)
    tricks = tuple(t + d for t, d in zip(target, diffs, strict=True))
    state.history.append(DealRecord(dealer, None, tricks, tuple(diffs), 0, 0))
    state.phase, state.to_act = Phase.DEAL_OVER, None
    return state


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    "bad",
    [
        {"targets": "7-6-3"},
        {"stake": 0},
        {"stake": True},
        {"stake": 1.5},
        {"exchange": "swap"},
        {"trumps": "always"},
        {"scoring": "pot_and_trick"},
        {"next_dealer": "random"},
        {"max_deals": 0},
        {"colour": "red"},
    ],
)
def test_options_are_validated(bad: dict[str, Any]) -> None:
    with pytest.raises(OptionsError):
        StarshinaOptions.from_json(bad)


def test_options_defaults_presets_and_round_trip() -> None:
    options = StarshinaOptions()
    assert options.to_json() == {
        "targets": "8-5-3",
        "stake": 1,
        "exchange": "ring",
        "trumps": "none",
        "scoring": "pot",
        "next_dealer": "loser",
        "max_deals": 20,
    }
    # §4 "Presets": as the text (the defaults) and British (updown, the dealer names trump)
    assert starshina.PRESETS["as_written"] == options
    assert starshina.PRESETS["british"] == StarshinaOptions(
        exchange="updown", trumps="dealer_names"
    )
    for preset in starshina.PRESETS.values():
        assert StarshinaOptions.from_json(preset.to_json()) == preset


# ---------------------------------------------------------------- the deal (§4.1)


def test_sixteen_each_from_the_top_left_first_and_four_to_the_kitty() -> None:
    deck = list(FULL_DECK)
    state, events = starshina.new_game(UPDOWN, deck, dealer=2)
    assert state.hands[0] == deck[0:48:3]  # seat 0 is the dealer's left
    assert state.hands[1] == deck[1:48:3]
    assert state.hands[2] == deck[2:48:3]
    assert state.kitty == deck[48:]
    assert state.phase is Phase.KITTY and state.to_act == 2
    assert [e.kind for e in events] == ["game_started", "antes", "deal_started"]
    assert events[2].data["targets"] == [5, 3, 8]


def test_exactly_three_seats_and_a_full_deck() -> None:
    with pytest.raises(ValueError):
        starshina.new_game(UPDOWN, list(FULL_DECK), dealer=3)
    with pytest.raises(ValueError):
        starshina.new_game(UPDOWN, list(FULL_DECK)[:51])
    with pytest.raises(ValueError):
        StarshinaMatch.from_case({"players": 4, "decks": [list(FULL_DECK)]})


def test_targets_are_relative_to_the_dealer() -> None:
    assert starshina.targets(UPDOWN, 0) == [8, 5, 3]
    assert starshina.targets(UPDOWN, 1) == [3, 8, 5]
    assert starshina.targets(StarshinaOptions(targets="9-5-2"), 2) == [5, 2, 9]


def test_next_deal_passes_left_only_after_a_deal() -> None:
    state, _ = starshina.new_game(UPDOWN, list(FULL_DECK))
    with pytest.raises(IllegalAction) as error:
        starshina.next_deal(state, list(FULL_DECK))
    assert error.value.reason == "wrong_phase"
    state = finished_state(UPDOWN, [0, 0, 0])
    starshina.next_deal(state, list(FULL_DECK))
    assert (state.dealer, state.deal_no, state.phase) == (1, 1, Phase.KITTY)
    state.phase = Phase.GAME_OVER
    with pytest.raises(IllegalAction) as error:
        starshina.next_deal(state, list(FULL_DECK))
    assert error.value.reason == "game_over"


# ---------------------------------------------------------------- the exchange (§4.2)


@pytest.mark.parametrize(
    ("diffs", "plan"),
    [
        ([0, 0, 0], []),
        # one up, two down: to the one further down first
        ([-2, -1, 3], [(2, 0), (2, 0), (2, 1)]),
        ([-1, -2, 3], [(2, 1), (2, 1), (2, 0)]),
        # two up, one down: the one further up gives first
        ([1, -3, 2], [(2, 1), (2, 1), (0, 1)]),
        # ties go to the higher target in the new deal (dealer 1: seat 1 8, seat 2 5, seat 0 3)
        ([-2, -2, 4], [(2, 1), (2, 1), (2, 0), (2, 0)]),
        ([1, -2, 1], [(2, 1), (0, 1)]),
        ([3, -3, 0], [(0, 1), (0, 1), (0, 1)]),
    ],
)
def test_updown_plan(diffs: list[int], plan: list[tuple[int, int]]) -> None:
    state = finished_state(UPDOWN, diffs)
    starshina.next_deal(state, list(FULL_DECK))
    assert state.queue == plan == exchange_plan(state)
    assert state.to_act == (plan[0][0] if plan else 1)


def test_ring_plan_every_deal_from_the_dealers_left() -> None:
    state, _ = starshina.new_game(StarshinaOptions(exchange="ring"), list(FULL_DECK), dealer=2)
    assert state.queue == [(0, 1), (1, 2), (2, 0)]
    assert state.phase is Phase.EXCHANGE_GIVE and state.to_act == 0


def test_updown_return_is_forced_and_private() -> None:
    state = finished_state(UPDOWN, [-1, 0, 1])
    hands = {
        0: [c + "S" for c in "23456789TJQKA"] + ["2H", "3H", "4H"],
        1: [c + "H" for c in "56789TJQKA"] + ["2D", "3D", "4D", "5D", "6D", "7D"],
        2: [c + "D" for c in "89TJQKA"] + [c + "C" for c in "23456789T"],
    }
    starshina.next_deal(state, stacked(hands, ["JC", "QC", "KC", "AC"], dealer=1))
    assert state.queue == [(2, 0)]
    events = act(state, (2, "give", "8D"))
    # seat 0 has no diamond: the 8D comes straight back
    assert state.hands[2].count("8D") == 1 and "8D" not in state.hands[0]
    assert state.phase is Phase.KITTY
    public = [(e.kind, e.data) for e in events if e.to is None]
    assert public == [
        ("card_given", {"seat": 2, "to": 0, "count": 1}),
        ("card_returned", {"seat": 0, "to": 2, "forced": True}),
    ]
    private = {(e.to, e.kind): e.data for e in events if e.to is not None}
    assert private == {
        (0, "received"): {"from": 2, "card": "8D"},
        (0, "returned"): {"to": 2, "card": "8D", "forced": True},
        (2, "received"): {"from": 0, "card": "8D"},
    }
    assert all("8D" not in repr(event.data) for event in events if event.to is None)


def test_ring_return_choice() -> None:
    state, _ = starshina.new_game(StarshinaOptions(exchange="ring"), list(FULL_DECK))
    giver_card = state.hands[1][0]
    act(state, (1, "give", giver_card))
    assert state.phase is Phase.RING_RETURN and state.to_act == 2
    allowed = starshina.ring_returns(state)
    suit = giver_card[1]
    higher = [c for c in state.hands[2] if c[1] == suit and RANK[c] > RANK[giver_card]]
    assert set(allowed) == set(higher or state.hands[2])
    with pytest.raises(IllegalAction) as error:
        act(state, (2, "give", allowed[0]))
    assert error.value.reason == "wrong_action"


# ---------------------------------------------------------------- kitty and play (§4.1)


def test_kitty_discards_are_out_of_play_and_private() -> None:
    deck = list(FULL_DECK)
    state, _ = starshina.new_game(UPDOWN, deck)
    dealer_hand = list(state.hands[0])
    events = act(state, (0, "kitty", tuple(dealer_hand[:4])))
    assert state.discards == dealer_hand[:4]
    assert sorted(state.hands[0]) == sorted(dealer_hand[4:] + deck[48:])
    assert state.kitty == [] and state.phase is Phase.PLAY and state.to_act == 1
    assert [(e.kind, e.to) for e in events] == [
        ("kitty_taken", None),
        ("kitty", 0),
        ("play_starts", None),
    ]
    for seat in (1, 2):
        view = starshina.seat_view(state, seat)
        assert view.discards == () and view.table.discard_count == 4
        assert not set(dealer_hand[:4]) & set(re.findall(r"'(\w\w)'", repr(view)))
    assert starshina.seat_view(state, 0).discards == tuple(dealer_hand[:4])
    # the dealer is told which cards came from the kitty; nobody else sees them
    assert starshina.seat_view(state, 0).from_kitty == tuple(deck[48:])
    for seat in (1, 2):
        assert starshina.seat_view(state, seat).from_kitty == ()
        assert not set(deck[48:]) & set(
            re.findall(r"'(\w\w)'", repr(starshina.seat_view(state, seat)))
        )
    again = starshina.StarshinaState.from_json(state.to_json())
    assert again.kitty_taken == deck[48:]


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (("2S", "3S", "4S"), "malformed"),  # a string, not a list
        (("2S", "2S", "3S", "4S"), "duplicate_card"),
        (("2S", "3S", "4S", "5S", "6S"), "wrong_count"),
    ],
)
def test_kitty_rejections(cards: tuple[str, ...], reason: str) -> None:
    state, _ = starshina.new_game(UPDOWN, list(FULL_DECK))
    before = state.to_json()
    action = Action(0, "kitty", "2S") if reason == "malformed" else Action(0, "kitty", cards)
    with pytest.raises(IllegalAction) as error:
        starshina.apply(state, action)
    assert error.value.reason == reason
    assert state.to_json() == before


def test_a_whole_deal_then_the_game_over() -> None:
    """The §5 defaults played throughout one deal with max_deals 1: 16 tricks, the game ends
    either way, the pot is paid out, and nothing is accepted afterwards."""
    state, _ = starshina.new_game(StarshinaOptions(max_deals=1), list(FULL_DECK))
    while state.to_act is not None:
        action = default_action(state)
        assert action is not None
        starshina.apply(state, action)
    assert state.phase is Phase.GAME_OVER and state.end_reason is not None
    record = state.history[-1]
    assert sum(record.tricks) == 16 and record.pot_after == 0 == state.game_pot
    won = game_winner(state.options, state.history)
    assert won is not None and state.winner == won[0]
    with pytest.raises(IllegalAction) as error:
        starshina.apply(state, Action(1, "play", "2S"))
    assert error.value.reason == "game_over"


# ---------------------------------------------------------------- money and the end (§4.4)


def test_per_trick_transfers_pair_the_single_side() -> None:
    assert per_trick_transfers([-2, -1, 3], 2) == [
        Transfer(0, 2, 4, "diff"),
        Transfer(1, 2, 2, "diff"),
    ]
    assert per_trick_transfers([4, -5, 1], 1) == [
        Transfer(1, 0, 4, "diff"),
        Transfer(1, 2, 1, "diff"),
    ]
    assert per_trick_transfers([0, 0, 0], 1) == []


def _records(*deals: tuple[int, list[int], list[int]]) -> list[DealRecord]:
    return [DealRecord(d, None, tuple(t), tuple(x), 3, 3) for d, t, x in deals]


def test_twelve_tricks_win_before_max_deals() -> None:
    options = StarshinaOptions(max_deals=1)
    history = _records((0, [2, 12, 2], [-6, 7, -1]))
    assert game_winner(options, history) == (1, EndReason.TWELVE)
    assert game_winner(UPDOWN, _records((0, [8, 5, 3], [0, 0, 0]))) is None


def test_max_deals_ranking_and_its_ties() -> None:
    options = StarshinaOptions(max_deals=2)
    # sums +1 -2 +1, last deal tricks 5 5 6 → tie on both: order from the last dealer's left
    history = _records((0, [7, 5, 4], [-1, 0, 1]), (1, [5, 6, 5], [2, -2, 0]))
    assert game_winner(options, history) == (2, EndReason.MAX_DEALS)
    # the dealer of the last deal comes last in that order: seat 0 before the dealer, seat 2
    history = _records((0, [7, 5, 4], [0, -1, 1]), (2, [5, 6, 5], [1, -1, 0]))
    assert game_winner(options, history) == (0, EndReason.MAX_DEALS)


@pytest.mark.parametrize(("rule", "expected"), [("winner", 2), ("loser", 1)])
def test_next_game_dealer(rule: Literal["loser", "winner"], expected: int) -> None:
    options = StarshinaOptions(max_deals=2, next_dealer=rule)
    state, _ = starshina.new_game(options, list(FULL_DECK))
    state.history = _records((0, [7, 5, 4], [-1, 0, 1]), (1, [5, 6, 5], [2, -2, 0]))
    state.winner, state.end_reason = 2, EndReason.MAX_DEALS
    assert starshina.next_game_dealer(state) == expected


def test_next_game_dealer_after_twelve_ranks_the_others_by_their_game_sums() -> None:
    """§4.4 "The final ranking": the 12-trick player first, the others below him by the sum of
    diffs over the whole game, not by the final deal alone."""
    state, _ = starshina.new_game(UPDOWN, list(FULL_DECK))
    # final deal alone: seat 0 is -1, seat 2 is -3; over the game seat 0 is -5, seat 2 is -1
    state.history = _records((0, [4, 5, 7], [-4, 0, 2]), (1, [2, 12, 2], [-1, 4, -3]))
    state.winner, state.end_reason = 1, EndReason.TWELVE
    assert starshina.final_ranking(state.history, 1) == [1, 2, 0]
    assert starshina.next_game_dealer(state) == 0
    state.options = StarshinaOptions(next_dealer="winner")
    assert starshina.next_game_dealer(state) == 1


def test_final_ranking_ties_by_tricks_then_order_from_the_dealers_left() -> None:
    state, _ = starshina.new_game(UPDOWN, list(FULL_DECK))
    # seats 0 and 2 both -2 over the game: fewer tricks in the last deal ranks lower (seat 0)
    state.history = _records((1, [1, 12, 3], [-2, 4, -2]))
    state.winner, state.end_reason = 1, EndReason.TWELVE
    assert starshina.next_game_dealer(state) == 0
    state.winner = None
    with pytest.raises(IllegalAction):
        starshina.next_game_dealer(state)


def test_pot_antes_go_to_the_game_pot() -> None:
    state, events = starshina.new_game(StarshinaOptions(stake=3), list(FULL_DECK))
    assert state.transfers == [Transfer(seat, GAME_POT, 3, "ante") for seat in range(3)]
    assert events[1].data["pot"] == 9 == state.game_pot
    state, _ = starshina.new_game(StarshinaOptions(scoring="per_trick"), list(FULL_DECK))
    assert state.transfers == [] and state.game_pot == 0


# ---------------------------------------------------------------- views (§4.3)


def test_hidden_fields_never_reach_a_repr() -> None:
    state, _ = starshina.new_game(StarshinaOptions(exchange="ring"), list(FULL_DECK))
    act(state, (1, "give", state.hands[1][0]))
    text = repr(state)
    assert not any(card in text for card in FULL_DECK)
    assert "hands" not in text and "kitty=" not in text


def test_only_the_two_seats_of_an_exchange_see_its_cards() -> None:
    state, _ = starshina.new_game(StarshinaOptions(exchange="ring"), list(FULL_DECK))
    card = state.hands[1][0]
    act(state, (1, "give", card))
    act(state, (2, "return", starshina.ring_returns(state)[0]))
    assert starshina.seat_view(state, 1).exchanged == tuple(state.exchanged)
    assert starshina.seat_view(state, 2).exchanged == tuple(state.exchanged)
    assert starshina.seat_view(state, 0).exchanged == ()
    table = starshina.public_view(state)
    assert [(p.giver, p.receiver, p.count) for p in table.passed] == [(1, 2, 1)]
    assert table.exchange_left == ((2, 0), (0, 1))
    assert table.kitty_count == 4 and [s.cards for s in table.seats] == [16, 16, 16]


def test_seat_view_offers_legal_actions_to_the_seat_to_act_only() -> None:
    options = StarshinaOptions(exchange="updown", trumps="dealer_names")
    state, _ = starshina.new_game(options, list(FULL_DECK))
    assert [e.to_json() for e in starshina.seat_view(state, 0).legal] == [
        ["trump", s] for s in "SHDC"
    ]
    assert starshina.seat_view(state, 1).legal == ()
    with pytest.raises(ValueError):
        starshina.seat_view(state, 3)


# ---------------------------------------------------------------- defaults (§5)


def test_default_moves() -> None:
    options = StarshinaOptions(exchange="ring", trumps="dealer_names")
    deck = list(FULL_DECK)
    state, _ = starshina.new_game(options, deck)
    hand1 = list(state.hands[1])
    assert default_action(state) == Action(1, "give", min(hand1, key=_low))
    act(state, (1, "give", hand1[0]))
    expected = min(starshina.ring_returns(state), key=_low)
    assert default_action(state) == Action(2, "return", expected)
    for _ in range(5):
        starshina.apply(state, default(state))
    assert state.phase is Phase.NAME_TRUMP
    assert default_action(state) == Action(0, "trump", longest_suit(state.hands[0]))
    starshina.apply(state, default(state))
    four = tuple(sorted(state.hands[0], key=_low)[:4])
    assert default_action(state) == Action(0, "kitty", four)
    starshina.apply(state, default(state))
    assert default_action(state) == Action(1, "play", min(state.hands[1], key=_low))
    act(state, (1, "play", state.hands[1][0]))
    led = state.trick[0][1][1]
    follow = [c for c in state.hands[2] if c[1] == led] or state.hands[2]
    assert default_action(state) == Action(2, "play", min(follow, key=_low))


def _low(card: str) -> int:
    return LOW_ORDER[card]


def test_longest_suit_and_its_tie_breaks() -> None:
    assert longest_suit(["2C", "3C", "4C", "AS"]) == "C"
    # equal length: the higher cards, compared from the top: A-7-2 beats K-Q-J
    assert longest_suit(["AH", "7H", "2H", "KS", "QS", "JS"]) == "H"
    assert longest_suit(["AH", "7H", "2H", "AD", "7D", "3D"]) == "D"
    # identical ranks: ♠ ♥ ♦ ♣, the reverse of the "lowest" order
    assert longest_suit(["AH", "2H", "AC", "2C"]) == "H"
    assert longest_suit(["AS", "AH", "AD", "AC"]) == "S"


def test_defaults_only_when_someone_is_to_act() -> None:
    state = finished_state(UPDOWN, [0, 0, 0])
    assert default_action(state) is None


# ---------------------------------------------------------------- JSON, match, simulate


def test_json_round_trip_mid_exchange() -> None:
    state, _ = starshina.new_game(StarshinaOptions(exchange="ring"), list(FULL_DECK))
    act(state, (1, "give", state.hands[1][3]))
    again = StarshinaState.from_json(state.to_json())
    assert again == state and again.to_json() == state.to_json()
    with pytest.raises(ValueError):
        StarshinaState.from_json({**state.to_json(), "schema": 99})


def test_match_rejects_after_the_last_deck_and_lists_deals() -> None:
    match = StarshinaMatch(UPDOWN, [list(FULL_DECK)])
    assert match.deals() == [
        {"dealer": 0, "trump": None, "tricks": [0, 0, 0], "pot_before": 3, "pot_after": None}
    ]
    while not match.finished:
        action = default_action(match.state)
        assert action is not None
        match.apply(action)
    assert match.to_act is None and match.legal() == []
    assert "diffs" in match.deals()[0]
    with pytest.raises(IllegalAction):
        match.apply(Action(1, "give", "2S"))


def test_simulate_counts_and_run_report() -> None:
    stats = simulate(StarshinaOptions(max_deals=2), seed=3, games=5)
    assert stats.games == 5 and 5 <= stats.deals <= 10
    assert sum(stats.ends.values()) == 5
    clock = ManualClock(now=0.0)

    def reading() -> float:
        """The suite's manual clock, a second later at each reading: the run took a second."""
        clock.advance(1.0)
        return clock()

    report = run({"exchange": "ring"}, 3, 20, None, 1, clock=reading)
    entry = report["by_exchange"]["ring"]
    assert entry["deals"] == 20 and entry["seconds"] == 1.0 and entry["deals_per_second"] == 20
    assert set(run({}, 3, 3, None, 1)["by_exchange"]) == {"updown", "ring"}
    with pytest.raises(ValueError):
        simulate(UPDOWN, seed=1)
