"""Стуколка as every layer holds it: one deal's state (``StukolkaState``) that answers what
the table asks of it (``game.registry.GameState``), and the game's definition ``RULES``: a table
plays deal after deal until it is stopped; the chat's pot carries."""

from __future__ import annotations

from collections.abc import Sequence

from game.core import Action, Event, Legal
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step, played_tricks
from game.stukolka import defaults, rules, views
from game.stukolka.options import MAX_PLAYERS, MIN_PLAYERS, StukolkaOptions
from game.stukolka.rules import new_deal
from game.stukolka.state import Phases, StukolkaState


class StukolkaGame(StukolkaState):
    """A deal of Стуколка, as the table service, the front-ends and the tools hold it."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "stukolka"

    @property
    def deal_over(self) -> bool:
        return self.phase is Phases.DEAL_OVER

    @property
    def game_over(self) -> bool:
        return False  # a table plays deal after deal until it is stopped

    def legal(self) -> list[Legal]:
        return rules.legal_actions(self)

    def default_action(self) -> Action | None:
        return defaults.default_action(self)

    def apply(self, action: Action) -> Step:
        before = len(self.transfers)
        step = self.step(rules.apply(self, action), before)
        step.moves_turn = action.verb != "look"  # a player looks at his cards when he likes
        return step

    def next_deal(
        self, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[StukolkaGame, Step]:
        # the table may have changed: a new deal for the players who sit now (§1.1)
        state, events = rules.new_deal(
            self.options, players, deck, dealer=dealer, pot=pot, deal_no=self.deal_no + 1
        )
        new = StukolkaGame.copy_of(state)
        return new, new.step(events, 0)

    def step(self, events: list[Event], before: int) -> Step:
        """What the change that made ``events`` did, its transfers those after ``before``."""
        over = self.phase is Phases.DEAL_OVER
        step = Step(events, self.transfers[before:], deal_over=over, game_over=False)
        if over:
            active = set(self.active)
            step.results = [
                SeatResult(seat, self.tricks[seat], seat in active) for seat in range(self.players)
            ]
            step.summary = {
                "outcome": None if self.outcome is None else self.outcome.value,
                "pot_before": self.pot,
                "pot_after": self.pot_after,
                "trump": self.trump,
                "trump_card": self.trump_card,
                "shleif": self.shleif,
                "variant": self.options.variant,
                "dealer": self.dealer,
                **played_tricks(self.played, self.trick_winners),
            }
        return step

    def seat_view(self, seat: int) -> views.SeatView:
        return views.seat_view(self, seat)

    def public_view(self) -> views.PublicView:
        return views.public_view(self)

    def holding(self, seat: int) -> Holding:
        return Holding(tuple(self.hands[seat]), self.trump, self.looked[seat])

    def next_game_dealer(self) -> int | None:
        return None

    def pot_in_play(self) -> int:
        return 0 if self.deal_over else self.pot


def _check(data: JsonObject) -> JsonObject:
    return StukolkaOptions.from_json(data).to_json()


def _start(
    options: JsonObject,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int,
    pot: int,
    deal_no: int = 0,
) -> tuple[StukolkaGame, Step]:
    parsed = StukolkaOptions.from_json(options)
    state, events = new_deal(parsed, players, deck, dealer=dealer, pot=pot, deal_no=deal_no)
    table = StukolkaGame.copy_of(state)
    return table, table.step(events, 0)


RULES = GameRules(
    kind="stukolka",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    seats_between_deals=True,
    chat_pot=True,
    check_options=_check,
    start=_start,
    load=StukolkaGame.from_json,
)
