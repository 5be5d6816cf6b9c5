"""Стуколка's rules as the table service uses them (``game.registry.GameRules``): the engine's
functions under the names every game shares. ``RULES`` is what ``game.registry.rules_for``
finds for the kind ``"stukolka"``."""

from __future__ import annotations

from collections.abc import Sequence

from game.core import Action, Event, Legal
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step, played_tricks
from game.stukolka import defaults, rules, views
from game.stukolka.options import MAX_PLAYERS, MIN_PLAYERS, StukolkaOptions
from game.stukolka.state import Phase, StukolkaState
from game.stukolka.views import PublicView, SeatView


class StukolkaRules:
    """Стуколка: a table plays deal after deal until it is stopped; the chat's pot carries."""

    kind = "stukolka"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    seats_between_deals = True
    chat_pot = True

    def check_options(self, data: JsonObject) -> JsonObject:
        return StukolkaOptions.from_json(data).to_json()

    def start(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[StukolkaState, Step]:
        parsed = StukolkaOptions.from_json(options)
        state, events = rules.new_deal(
            parsed, players, deck, dealer=dealer, pot=pot, deal_no=deal_no
        )
        return state, self._step(state, events, 0)

    def next_deal(
        self,
        state: StukolkaState,
        deck: Sequence[str],
        *,
        pot: int,
        players: int,
        dealer: int,
    ) -> tuple[StukolkaState, Step]:
        # the table may have changed: a new deal for the players who sit now (§1.1)
        new, events = rules.new_deal(
            state.options, players, deck, dealer=dealer, pot=pot, deal_no=state.deal_no + 1
        )
        return new, self._step(new, events, 0)

    def apply(self, state: StukolkaState, action: Action) -> Step:
        before = len(state.transfers)
        events = rules.apply(state, action)
        return self._step(state, events, before)

    def _step(self, state: StukolkaState, events: list[Event], before: int) -> Step:
        over = state.phase is Phase.DEAL_OVER
        step = Step(events, state.transfers[before:], deal_over=over, game_over=False)
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
                **played_tricks(state.played, state.trick_winners),
            }
        return step

    def legal(self, state: StukolkaState) -> list[Legal]:
        return rules.legal_actions(state)

    def to_act(self, state: StukolkaState) -> int | None:
        return state.to_act

    def default_action(self, state: StukolkaState) -> Action | None:
        return defaults.default_action(state)

    def seat_view(self, state: StukolkaState, seat: int) -> SeatView:
        return views.seat_view(state, seat)

    def public_view(self, state: StukolkaState) -> PublicView:
        return views.public_view(state)

    def holding(self, state: StukolkaState, seat: int) -> Holding:
        return Holding(tuple(state.hands[seat]), state.trump, state.looked[seat])

    def dump(self, state: StukolkaState) -> JsonObject:
        return state.to_json()

    def load(self, data: JsonObject) -> StukolkaState:
        return StukolkaState.from_json(data)

    def deal_no(self, state: StukolkaState) -> int:
        return state.deal_no

    def dealer(self, state: StukolkaState) -> int:
        return state.dealer

    def players(self, state: StukolkaState) -> int:
        return state.players

    def deal_over(self, state: StukolkaState) -> bool:
        return state.phase is Phase.DEAL_OVER

    def game_over(self, state: StukolkaState) -> bool:
        return False

    def next_game_dealer(self, state: StukolkaState) -> int | None:
        return None

    def pot_in_play(self, state: StukolkaState) -> int:
        return 0 if self.deal_over(state) else state.pot


RULES: GameRules[StukolkaState, SeatView, PublicView] = StukolkaRules()
