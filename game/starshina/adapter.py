"""Старшина's rules as the table service uses them (``game.registry.GameRules``): the engine's
functions under the names every game shares. ``RULES`` is what ``game.registry.rules_for``
finds for the kind ``"starshina"``."""

from __future__ import annotations

from collections.abc import Sequence

from game.core import Action, Event, Legal
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step, played_tricks
from game.starshina import defaults, rules, views
from game.starshina.options import PLAYERS, StarshinaOptions
from game.starshina.state import Phase, StarshinaState
from game.starshina.views import PublicView, SeatView


class StarshinaRules:
    """Старшина: one game of several deals among three, until someone takes 12 tricks."""

    kind = "starshina"
    min_players = PLAYERS
    max_players = PLAYERS
    seats_between_deals = False
    chat_pot = False

    def check_options(self, data: JsonObject) -> JsonObject:
        return StarshinaOptions.from_json(data).to_json()

    def start(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[StarshinaState, Step]:
        if players != PLAYERS:
            raise ValueError("Старшина is for exactly three players")
        parsed = StarshinaOptions.from_json(options)
        state, events = rules.new_game(parsed, deck, dealer=dealer)
        return state, self._step(state, events, 0)

    def next_deal(
        self,
        state: StarshinaState,
        deck: Sequence[str],
        *,
        pot: int,
        players: int,
        dealer: int,
    ) -> tuple[StarshinaState, Step]:
        # the game's own rules pick the dealer (§4.1), and its three seats never change
        before = len(state.transfers)
        new, events = rules.next_deal(state, deck)
        return new, self._step(new, events, before)

    def apply(self, state: StarshinaState, action: Action) -> Step:
        before = len(state.transfers)
        events = rules.apply(state, action)
        return self._step(state, events, before)

    def _step(self, state: StarshinaState, events: list[Event], before: int) -> Step:
        game_over = state.phase is Phase.GAME_OVER
        over = game_over or state.phase is Phase.DEAL_OVER
        step = Step(events, state.transfers[before:], deal_over=over, game_over=game_over)
        if over and state.history:
            record = state.history[-1]
            step.results = [SeatResult(seat, record.tricks[seat], True) for seat in range(PLAYERS)]
            step.summary = {
                **record.to_json(),
                "winner": state.winner,
                **played_tricks(state.played, state.trick_winners),
            }
        return step

    def legal(self, state: StarshinaState) -> list[Legal]:
        return rules.legal_actions(state)

    def to_act(self, state: StarshinaState) -> int | None:
        return state.to_act

    def default_action(self, state: StarshinaState) -> Action | None:
        return defaults.default_action(state)

    def seat_view(self, state: StarshinaState, seat: int) -> SeatView:
        return views.seat_view(state, seat)

    def public_view(self, state: StarshinaState) -> PublicView:
        return views.public_view(state)

    def holding(self, state: StarshinaState, seat: int) -> Holding:
        return Holding(tuple(state.hands[seat]), state.trump, True)

    def dump(self, state: StarshinaState) -> JsonObject:
        return state.to_json()

    def load(self, data: JsonObject) -> StarshinaState:
        return StarshinaState.from_json(data)

    def deal_no(self, state: StarshinaState) -> int:
        return state.deal_no

    def dealer(self, state: StarshinaState) -> int:
        return state.dealer

    def players(self, state: StarshinaState) -> int:
        return PLAYERS

    def deal_over(self, state: StarshinaState) -> bool:
        return state.phase in (Phase.DEAL_OVER, Phase.GAME_OVER)

    def game_over(self, state: StarshinaState) -> bool:
        return state.phase is Phase.GAME_OVER

    def next_game_dealer(self, state: StarshinaState) -> int | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        return rules.next_game_dealer(state)

    def pot_in_play(self, state: StarshinaState) -> int:
        return 0  # its game pot is its own


RULES: GameRules[StarshinaState, SeatView, PublicView] = StarshinaRules()
