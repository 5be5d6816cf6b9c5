"""One interface over every game, for the service layer: start a game, apply an action, make
the next deal, and read what a step changed (events, money, whether a deal or game ended).

Each game keeps its own shape (RULES.md §1–§4); this module only adapts names, so the bot can
treat Стуколка and Старшина alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from game import starshina, stukolka
from game.core import Action, Event, Legal, Transfer
from game.starshina.options import PLAYERS as STARSHINA_PLAYERS


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    tricks: int
    active: bool


@dataclass(slots=True)
class Step:
    """What one change did: the state after it, its events, the money it moved, and whether it
    ended a deal (``deal_over``) or the whole game (``game_over``)."""

    state: Any
    events: list[Event]
    transfers: list[Transfer]
    deal_over: bool
    game_over: bool
    results: list[SeatResult] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


class GameRules(Protocol):
    """The rules of one game as the service layer uses them."""

    kind: str
    min_players: int
    max_players: int

    def check_options(self, data: dict[str, Any]) -> dict[str, Any]:
        """Validated options as JSON (raises ValueError)."""

    def start(
        self,
        options: dict[str, Any],
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> Step: ...

    def next_deal(self, state: Any, deck: Sequence[str], *, pot: int) -> Step: ...

    def apply(self, state: Any, action: Action) -> Step: ...

    def legal(self, state: Any) -> list[Legal]: ...

    def to_act(self, state: Any) -> int | None: ...

    def default_action(self, state: Any) -> Action | None: ...

    def seat_view(self, state: Any, seat: int) -> Any: ...

    def public_view(self, state: Any) -> Any: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> Any: ...

    def deal_no(self, state: Any) -> int: ...

    def dealer(self, state: Any) -> int: ...

    def players(self, state: Any) -> int: ...

    def deal_over(self, state: Any) -> bool: ...

    def game_over(self, state: Any) -> bool: ...

    def pot_in_play(self, state: Any) -> int:
        """The chips of the chat's pot the deal in progress plays for (0 between deals, and
        for a game with a pot of its own): another table of the same chat must not deal for
        them too."""


class _ModuleRules:
    """What both games do the same way: the rules module's functions and the state fields
    every state has (``to_act``, ``dealer``, ``deal_no``, ``transfers``, ``to_json``)."""

    kind: str
    min_players: int
    max_players: int
    module: ModuleType
    state_type: type

    def apply(self, state: Any, action: Action) -> Step:
        before = len(state.transfers)
        events = self.module.apply(state, action)
        return self._step(state, events, before)

    def _step(self, state: Any, events: list[Event], before: int) -> Step:
        raise NotImplementedError

    def legal(self, state: Any) -> list[Legal]:
        legal: list[Legal] = self.module.legal_actions(state)
        return legal

    def to_act(self, state: Any) -> int | None:
        seat: int | None = state.to_act
        return seat

    def default_action(self, state: Any) -> Action | None:
        action: Action | None = self.module.default_action(state)
        return action

    def seat_view(self, state: Any, seat: int) -> Any:
        return self.module.seat_view(state, seat)

    def public_view(self, state: Any) -> Any:
        return self.module.public_view(state)

    def dump(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = state.to_json()
        return data

    def load(self, data: dict[str, Any]) -> Any:
        return self.state_type.from_json(data)  # type: ignore[attr-defined]

    def deal_no(self, state: Any) -> int:
        number: int = state.deal_no
        return number

    def dealer(self, state: Any) -> int:
        dealer: int = state.dealer
        return dealer


class StukolkaRules(_ModuleRules):
    """Стуколка: a table plays deal after deal until it is stopped; the chat's pot carries."""

    kind = "stukolka"
    min_players = stukolka.options.MIN_PLAYERS
    max_players = stukolka.options.MAX_PLAYERS
    module = stukolka
    state_type = stukolka.StukolkaState

    def check_options(self, data: dict[str, Any]) -> dict[str, Any]:
        return stukolka.StukolkaOptions.from_json(data).to_json()

    def start(
        self,
        options: dict[str, Any],
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> Step:
        parsed = stukolka.StukolkaOptions.from_json(options)
        state, events = stukolka.new_deal(
            parsed, players, deck, dealer=dealer, pot=pot, deal_no=deal_no
        )
        return self._step(state, events, 0)

    def next_deal(self, state: Any, deck: Sequence[str], *, pot: int) -> Step:
        dealer = (state.dealer + 1) % state.players
        new, events = stukolka.new_deal(
            state.options, state.players, deck, dealer=dealer, pot=pot, deal_no=state.deal_no + 1
        )
        return self._step(new, events, 0)

    def _step(self, state: Any, events: list[Event], before: int) -> Step:
        over = state.phase is stukolka.Phase.DEAL_OVER
        step = Step(state, events, state.transfers[before:], deal_over=over, game_over=False)
        if over:
            active = set(state.active)
            step.results = [
                SeatResult(seat, state.tricks[seat], seat in active)
                for seat in range(state.players)
            ]
            step.summary = {
                "outcome": None if state.outcome is None else state.outcome.value,
                "pot_before": state.pot,
                "pot_after": state.pot_after,
                "trump": state.trump,
                "trump_card": state.trump_card,
                "shleif": state.shleif,
                "variant": state.options.variant,
                "dealer": state.dealer,
                **_tricks(state),
            }
        return step

    def players(self, state: Any) -> int:
        count: int = state.players
        return count

    def deal_over(self, state: Any) -> bool:
        return bool(state.phase is stukolka.Phase.DEAL_OVER)

    def game_over(self, state: Any) -> bool:
        return False

    def pot_in_play(self, state: Any) -> int:
        return 0 if self.deal_over(state) else int(state.pot)


class StarshinaRules(_ModuleRules):
    """Старшина: one game of several deals among three, until someone takes 12 tricks."""

    kind = "starshina"
    min_players = STARSHINA_PLAYERS
    max_players = STARSHINA_PLAYERS
    module = starshina
    state_type = starshina.StarshinaState

    def check_options(self, data: dict[str, Any]) -> dict[str, Any]:
        return starshina.StarshinaOptions.from_json(data).to_json()

    def start(
        self,
        options: dict[str, Any],
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> Step:
        if players != STARSHINA_PLAYERS:
            raise ValueError("Старшина is for exactly three players")
        parsed = starshina.StarshinaOptions.from_json(options)
        state, events = starshina.new_game(parsed, deck, dealer=dealer)
        return self._step(state, events, 0)

    def next_deal(self, state: Any, deck: Sequence[str], *, pot: int) -> Step:
        before = len(state.transfers)
        state, events = starshina.next_deal(state, deck)
        return self._step(state, events, before)

    def _step(self, state: Any, events: list[Event], before: int) -> Step:
        game_over = state.phase is starshina.Phase.GAME_OVER
        over = game_over or state.phase is starshina.Phase.DEAL_OVER
        step = Step(state, events, state.transfers[before:], deal_over=over, game_over=game_over)
        if over and state.history:
            record = state.history[-1]
            step.results = [
                SeatResult(seat, record.tricks[seat], True) for seat in range(STARSHINA_PLAYERS)
            ]
            step.summary = {**record.to_json(), "winner": state.winner, **_tricks(state)}
        return step

    def players(self, state: Any) -> int:
        return STARSHINA_PLAYERS

    def deal_over(self, state: Any) -> bool:
        return state.phase in (starshina.Phase.DEAL_OVER, starshina.Phase.GAME_OVER)

    def pot_in_play(self, state: Any) -> int:
        return 0  # its game pot is its own

    def game_over(self, state: Any) -> bool:
        return bool(state.phase is starshina.Phase.GAME_OVER)


def _tricks(state: Any) -> dict[str, Any]:
    """The deal's tricks as the table saw them: each trick's cards in the order played, as
    ``[seat, card]`` pairs, and who took it. Only played cards: a passer's dead cards, the
    discards and the talon are never in here."""
    return {
        "tricks": [[[seat, card] for seat, card in trick] for trick in state.played],
        "trick_winners": list(state.trick_winners),
    }


RULES: dict[str, GameRules] = {"stukolka": StukolkaRules(), "starshina": StarshinaRules()}


def rules_for(kind: str) -> GameRules:
    try:
        return RULES[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}") from None
