"""Real engine states of each game for the page: random legal play from a seeded deck, stopped
where a predicate says (a phase, a hand size), as the table service would hold them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from game.cards import shuffled_deck
from game.randomplay import random_action
from tests.library import rules_for

#: a game to play: the kind of game, its table options and how many play
Game = tuple[str, dict[str, object], int]

#: the program's games by name
GAMES: Mapping[str, Game] = {
    "starshina": ("starshina", {}, 3),
    "starshina_named": ("starshina", {"trumps": "dealer_names", "exchange": "updown"}, 3),
    "starshina_one": ("starshina", {"max_deals": 1}, 3),
    "starshina_per_trick": ("starshina", {"scoring": "per_trick"}, 3),
    "shleif": ("stukolka", {"variant": "shleif", "dark_in_classic": True}, 4),
    "stukolka": ("stukolka", {"variant": "classic", "dark_in_classic": True}, 4),
}
NAMES = ("Алиса", "Борис", "Вика", "Гоша")


def states(
    game: str, seed: int, deals: int = 2, *, games: Mapping[str, Game] = GAMES
) -> Iterator[Any]:
    """Every state of ``deals`` deals of ``game`` (one of ``games``) played at random (each
    one a copy)."""
    kind, options, players = games[game]
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


def first_state(
    game: str,
    where: Callable[[Any], bool],
    seeds: range = range(200),
    *,
    games: Mapping[str, Game] = GAMES,
) -> Any:
    """The first state of a random game of ``game`` (one of ``games``) where ``where``
    holds."""
    for seed in seeds:
        for state in states(game, seed, games=games):
            if where(state):
                return state
    raise LookupError(f"no {game} state found")


def seen_cards(state: Any, seat: int) -> set[str]:
    """The cards ``seat`` may have seen at the table by ``state``, as docs/rules.md lets him:
    every card played; at Стуколка the trump card once face up (§2, an opened deal; the шлейф
    card to its dealer, and to all once the deal is over, §3), his hand only once he has
    looked at it (§1.2, never a passer's dead cards to another, §1.3) and the cards he put
    away (the chat shows him them); at Старшина his hand, the exchanges he gave or received,
    and to the dealer his discards and the kitty he took (§4.3)."""
    seen = {card for trick in state.played for _, card in trick}
    seen |= {card for _, card in state.trick}
    if state.HEADER["game"] == "stukolka":
        over = state.phase.value == "deal_over"
        face_up = state.shleif is False or over or seat == state.dealer
        if state.trump_card and face_up:
            seen.add(state.trump_card)
        if state.looked[seat]:
            seen |= set(state.hands[seat])
        seen |= set(state.discards[seat])
        return seen
    seen |= set(state.hands[seat])
    if seat == state.dealer:
        seen |= set(state.discards) | set(state.kitty_taken)
    for item in state.exchanged:
        if seat in (item.giver, item.receiver):
            seen |= {item.card, *([item.returned] if item.returned else [])}
    return seen
