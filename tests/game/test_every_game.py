"""One harness over every game the tables offer and the tests' three toy games, through what every
layer asks of a game's state (``game.registry.GameState``) and nothing of its own: random legal
play to the game's end (or a few deals, for a game that plays deal after deal) under random table
options from its menu, and after every step

- the JSON round trip is exact (a state read back is equal and writes the same JSON);
- the money moves in whole positive chips between the seats and the pots, the chat's pot never
  goes below nothing and a game's own pot is empty once the game is over;
- only the seat to act has moves, and it has some;
- every seat's view is the same when the cards it cannot see (those nowhere in its view nor in
  its hand) trade places, every copy of a card in the state at once.

The games' own property tests (``test_<kind>_properties``) check what only their rules know."""

from __future__ import annotations

import random

import pytest

from game.cards import FULL_DECK, shuffle
from game.core import GAME_POT, POT, Transfer
from game.randomplay import random_action
from game.registry import GameState, Step
from tables.games import Plugin
from tests.depth import deep
from tests.game.unseen import reshuffled
from tests.library import GAMES
from tests.plugin import highcard, kopilka, tricks

#: deals played at a table that plays deal after deal
DEALS = 4


def every_game() -> list[Plugin]:
    return [*GAMES, tricks.GAME, highcard.GAME, kopilka.GAME]


def random_options(plugin: Plugin, rng: random.Random) -> dict[str, object]:
    """One value of each option of the game's menu, checked by its rules (a choice the rules
    refuse together falls back to the defaults)."""
    chosen = {name: rng.choice(values) for name, values in plugin.menu.values.items()}
    try:
        return plugin.rules.check_options({**plugin.menu.defaults, **chosen})
    except ValueError:
        return plugin.rules.check_options(dict(plugin.menu.defaults))


class Money:
    """The chips a game moved, step by step: each seat's, the chat's pot, the game's pot."""

    def __init__(self, players: int, pot: int) -> None:
        self.seats = [0] * players
        self.pots = {POT: pot, GAME_POT: 0}

    def count(self, transfers: list[Transfer]) -> None:
        for transfer in transfers:
            assert isinstance(transfer.amount, int) and transfer.amount > 0, transfer
            for party, sign in ((transfer.src, -1), (transfer.dst, 1)):
                if isinstance(party, int):
                    assert 0 <= party < len(self.seats), transfer
                    self.seats[party] += sign * transfer.amount
                else:
                    self.pots[party] += sign * transfer.amount
        assert self.pots[POT] >= 0 and self.pots[GAME_POT] >= 0, self.pots


def check(plugin: Plugin, state: GameState, rng: random.Random) -> None:
    data = state.to_json()
    again = plugin.rules.load(data)
    assert again == state and again.to_json() == data, "the JSON round trip is not exact"
    seat, legal = state.to_act, state.legal()
    assert (seat is None) == (not legal), (seat, legal)
    for looker in range(state.players):
        view = state.seat_view(looker)
        assert reshuffled(plugin, state, looker, rng).seat_view(looker) == view, looker
    assert plugin.rules.load(data).to_json() == data, "a view changed the state"


def play(plugin: Plugin, seed: int) -> int:
    """A game played at random to its end (``DEALS`` deals of one that never ends), checked
    at every step; the steps it took."""
    rng = random.Random(seed)
    players = rng.randint(plugin.rules.min_players, plugin.rules.max_players)
    pot = rng.choice([0, 0, 7, 30]) if plugin.rules.chat_pot else 0
    deck = list(FULL_DECK)
    shuffle(deck, rng)
    options = random_options(plugin, rng)
    step: Step
    state, step = plugin.rules.start(options, players, deck, dealer=rng.randrange(players), pot=pot)
    money = Money(players, pot)
    money.count(step.transfers)
    deals, steps = 1, 0
    while True:
        check(plugin, state, rng)
        if state.deal_over:
            if state.game_over or deals >= DEALS:
                break
            shuffle(deck, rng)
            state, step = state.next_deal(
                deck, pot=money.pots[POT], players=players, dealer=(state.dealer + 1) % players
            )
            money.count(step.transfers)
            deals += 1
            continue
        seat = state.to_act
        assert seat is not None
        action = random_action(seat, state.legal(), state.holding(seat).cards, rng)
        step = state.apply(action)
        money.count(step.transfers)
        assert step.deal_over == state.deal_over and step.game_over == state.game_over
        steps += 1
    if state.game_over:
        assert money.pots[GAME_POT] == 0, "a game over keeps chips in its own pot"
    return steps


@pytest.mark.parametrize("plugin", every_game(), ids=lambda plugin: plugin.rules.kind)
def test_random_play_keeps_what_every_game_promises(plugin: Plugin) -> None:
    assert sum(play(plugin, seed) for seed in range(deep(6))) > 0
