"""One generic random-play check that every game goes through (OpenSpiel's habit).

A game plugs in through ``GameAdapter``; ``play_and_check`` plays random legal actions and checks
after every step: the 52 cards are all accounted for, money is conserved, only the seat to act
has legal actions, every legal action applies, random illegal ones are rejected without a trace,
the JSON round trip is exact, and replaying the action log rebuilds the same state (what a seat
sees is checked for every game at once: ``test_every_game``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.cards import FULL_DECK
from game.core import Action, IllegalAction, Legal
from game.randomplay import random_action


class GameAdapter(Protocol):
    """What the generic check needs to know of a game (its state type is opaque here)."""

    def start(self, deck: list[str]) -> Any: ...
    def next_deal(self, state: Any, deck: list[str]) -> Any: ...
    def deal_over(self, state: Any) -> bool: ...
    def game_over(self, state: Any) -> bool: ...
    def to_act(self, state: Any) -> int | None: ...
    def players(self, state: Any) -> int: ...
    def legal(self, state: Any) -> list[Legal]: ...
    def apply(self, state: Any, action: Action) -> list[Any]: ...
    def hand(self, state: Any, seat: int) -> list[str]: ...
    def all_cards(self, state: Any) -> list[str]: ...
    def check_money(self, state: Any) -> None: ...
    def to_json(self, state: Any) -> dict[str, Any]: ...
    def from_json(self, data: dict[str, Any]) -> Any: ...
    def reshuffle_hidden(self, state: Any, seat: int, rng: random.Random) -> Any: ...
    def side_actions(self, state: Any, rng: random.Random) -> list[Action]: ...


@dataclass
class Log:
    """What happened, to rebuild the game from its first deck and actions."""

    decks: list[list[str]] = field(default_factory=list)
    steps: list[tuple[int, Action]] = field(default_factory=list)  # (deal index, action)


def _random_illegal(state: Any, adapter: GameAdapter, rng: random.Random) -> Action:
    """An action drawn from a wide space: any seat, any verb, any card or cards."""
    verbs = [
        "knock",
        "pass",
        "dark",
        "discard",
        "drop",
        "play",
        "shleif",
        "open",
        "razrez",
        "no_razrez",
        "give",
        "return",
        "trump",
        "kitty",
        "fly",
    ]
    seat = rng.randrange(-1, adapter.players(state) + 1)
    verb = rng.choice(verbs)
    shape = rng.randrange(4)
    if shape == 0:
        return Action(seat, verb)
    if shape == 1:
        return Action(seat, verb, rng.choice(FULL_DECK))
    if shape == 2:
        return Action(seat, verb, rng.choice("SHDCX"))
    return Action(seat, verb, tuple(rng.sample(FULL_DECK, rng.randrange(6))))


def _legal_set(legal: list[Legal]) -> set[tuple[str, str | None]]:
    return {(entry.verb, entry.arg) for entry in legal}


def _is_listed(action: Action, legal: list[Legal], hand: list[str]) -> bool:
    """Whether ``action`` is one that ``legal`` allows (picks: a subset of the hand in range)."""
    for entry in legal:
        if entry.verb != action.verb:
            continue
        if entry.pick is not None:
            cards = action.arg
            if (
                isinstance(cards, tuple)
                and entry.pick[0] <= len(cards) <= entry.pick[1]
                and len(set(cards)) == len(cards)
                and all(card in hand for card in cards)
            ):
                return True
        elif entry.arg == action.arg:
            return True
    return False


def check_state(adapter: GameAdapter, state: Any, rng: random.Random) -> None:
    cards = adapter.all_cards(state)
    assert len(cards) == 52 and set(cards) == set(FULL_DECK), "the 52 cards are not all there"
    adapter.check_money(state)
    data = adapter.to_json(state)
    again = adapter.from_json(data)
    assert again == state and adapter.to_json(again) == data, "JSON round trip is not exact"
    seat = adapter.to_act(state)
    legal = adapter.legal(state)
    if seat is None:
        assert not legal
    else:
        assert legal, "the seat to act has nothing to do"
        for other in range(adapter.players(state)):
            if other == seat:
                continue
            action = random_action(other, legal[:1], adapter.hand(state, other), rng)
            try:
                adapter.apply(state, action)
            except IllegalAction as error:
                assert error.reason == "not_your_turn", error.reason
            else:
                raise AssertionError("a seat not to act was allowed to act")
            assert adapter.to_json(state) == data


def play_and_check(
    adapter: GameAdapter,
    seed: int,
    deals: int,
    *,
    every_legal: bool = True,
    illegal_tries: int = 3,
    replay: Callable[[Log], Any] | None = None,
) -> tuple[Any, Log]:
    """Play ``deals`` deals (or until the game ends) with random legal actions, checking every
    invariant after every step. Returns the final state and the log."""
    rng = random.Random(seed)
    log = Log()
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    log.decks.append(list(deck))
    state = adapter.start(deck)
    deal_index = 0
    while True:
        check_state(adapter, state, rng)
        if adapter.deal_over(state):
            if adapter.game_over(state) or deal_index + 1 >= deals:
                break
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            log.decks.append(list(deck))
            state = adapter.next_deal(state, deck)
            deal_index += 1
            continue
        for side in adapter.side_actions(state, rng):
            adapter.apply(state, side)
            log.steps.append((deal_index, side))
        seat = adapter.to_act(state)
        assert seat is not None
        legal = adapter.legal(state)
        hand = adapter.hand(state, seat)
        snapshot = adapter.to_json(state)
        if every_legal:
            for entry in legal:
                trial = adapter.from_json(snapshot)
                adapter.apply(trial, random_action(seat, [entry], hand, rng))
        for _ in range(illegal_tries):
            action = _random_illegal(state, adapter, rng)
            if action.seat == seat and _is_listed(action, legal, hand):
                continue
            try:
                adapter.apply(state, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"an illegal action was accepted: {action}")
            assert adapter.to_json(state) == snapshot, "a rejected action changed the state"
        action = random_action(seat, legal, hand, rng)
        adapter.apply(state, action)
        log.steps.append((deal_index, action))
    if replay is not None:
        rebuilt = replay(log)
        assert adapter.to_json(rebuilt) == adapter.to_json(state), "the log does not replay"
    return state, log


def replay_log(adapter: GameAdapter, log: Log) -> Any:
    """Rebuild a game from its log with a fresh ``adapter``: the first deck, then every action,
    dealing the next deck whenever the log moves on to the next deal."""
    state = adapter.start(log.decks[0])
    current = 0
    for deal_index, action in log.steps:
        while current < deal_index:
            current += 1
            state = adapter.next_deal(state, log.decks[current])
        adapter.apply(state, action)
    while current + 1 < len(log.decks):
        current += 1
        state = adapter.next_deal(state, log.decks[current])
    return state
