"""One typed interface over every game, for the table service: start a game, apply an action,
make the next deal, and read what a step changed (events, money, whether a deal or game ended).

A game's state is one object (``GameState``) that answers every question the layers ask of
it, written by the game itself; ``GameRules`` is the game's definition: its kind, its
capabilities, a new game and a stored one read back (``game.<kind>.RULES``). The table side
pairs each game's rules with its choices and menus (``tables.games``), each front-end with its
presentation; the service never learns which game it runs.

This module names no game, and finds none: the program lists its games once
(``server.games``) and hands them to whoever needs them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from game.core import Action, Event, Legal, Transfer

SV = TypeVar("SV", covariant=True)
PV = TypeVar("PV", covariant=True)

JsonObject = dict[str, object]
"""A JSON object as the games read and write it (options, states, deal summaries)."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    tricks: int
    active: bool


@dataclass(slots=True)
class Step:
    """What one change did: its events, the money it moved, and whether it ended a deal
    (``deal_over``) or the whole game (``game_over``); for a deal's end, each seat's tricks and
    the deal's summary (stored with the deal, read by /history and /stats). The state itself
    is the one the rules changed in place, or the one ``start`` / ``next_deal`` returned."""

    events: list[Event]
    transfers: list[Transfer]
    deal_over: bool
    game_over: bool
    results: list[SeatResult] = field(default_factory=list)
    summary: JsonObject = field(default_factory=dict)
    #: whether the move takes the turn on (a decision); a move any seat may make at any time of
    #: the deal, such as looking at one's cards, does not: the table's turn number stays
    moves_turn: bool = True


@dataclass(frozen=True, slots=True)
class Holding:
    """What a seat holds, to turn a choice of cards it made (a bit mask over its hand as
    shown) into cards: the hand in the engine's order, the trump, and whether the player has
    seen it (a blind choice counts in the engine's order). Never shown to anyone."""

    cards: tuple[str, ...]
    trump: str | None
    looked: bool


class GameState(Protocol):
    """One game's state, as every layer asks of it: who acts, the legal moves, apply, each
    seat's view and the public one, the next deal, and its JSON. The game writes it itself
    (its state class); a change happens in place (``apply``) or gives a new state
    (``next_deal``)."""

    @property
    def kind(self) -> str: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def deal_no(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def players(self) -> int: ...

    @property
    def deal_over(self) -> bool: ...

    @property
    def game_over(self) -> bool: ...

    def legal(self) -> list[Legal]: ...

    def default_action(self) -> Action | None: ...

    def apply(self, action: Action) -> Step:
        """Apply ``action`` in place (raises ``IllegalAction`` and changes nothing if it is
        not legal)."""
        ...

    def next_deal(
        self, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[GameState, Step]:
        """The deal after this one's. ``players`` and ``dealer`` are what the table proposes
        (the players who stay and those who join; the next of them after the last dealer); a
        game whose own rules pick the dealer and whose seats never change ignores them."""
        ...

    def seat_view(self, seat: int) -> object: ...

    def public_view(self) -> object: ...

    def holding(self, seat: int) -> Holding: ...

    def to_json(self) -> dict[str, Any]: ...

    def next_game_dealer(self) -> int | None:
        """The first dealer of the next game in the chat, chosen by how this game ended
        (Старшина §4.4), or None where the game has no such rule."""
        ...

    def pot_in_play(self) -> int:
        """The chips of the chat's pot the deal in progress plays for (0 between deals, and
        for a game with a pot of its own): another table of the same chat must not deal for
        them too."""
        ...


class ViewedState(GameState, Protocol[SV, PV]):
    """A ``GameState`` with its own seat view ``SV`` and public view ``PV``."""

    def seat_view(self, seat: int) -> SV: ...

    def public_view(self) -> PV: ...


class Start(Protocol):
    def __call__(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[GameState, Step]:
        """A new game (or, for a table whose seats changed, a new deal numbered
        ``deal_no``)."""
        ...


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game's definition as every layer starts from it: its kind, how many play, what it
    does (``seats_between_deals``: players may join at the next deal and leave between deals,
    and the table plays deal after deal while enough remain, else a player leaving ends the
    game; ``chat_pot``: deals take the chat's running pot and leave it to the next), its
    options checked (``ValueError``), a new game, and a stored state read back."""

    kind: str
    min_players: int
    max_players: int
    seats_between_deals: bool
    chat_pot: bool
    check_options: Callable[[JsonObject], JsonObject]
    start: Start
    load: Callable[[JsonObject], GameState]


def played_tricks(
    played: Sequence[Sequence[tuple[int, str]]], winners: Sequence[int]
) -> dict[str, object]:
    """A deal's tricks for its summary, as the table saw them: each trick's cards in the order
    played, as ``[seat, card]`` pairs, and who took it. Only played cards: a passer's dead
    cards, the discards and the talon are never in here."""
    return {
        "tricks": [[[seat, card] for seat, card in trick] for trick in played],
        "trick_winners": list(winners),
    }
