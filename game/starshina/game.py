"""Старшина as every layer holds it: the game's state (``StarshinaState``) that answers what
the table asks of it (``game.registry.GameState``), and the game's definition ``RULES``: one game
of several deals among three, until someone takes 12 tricks."""

from __future__ import annotations

from collections.abc import Sequence

from game.core import Action, Event, Legal
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step, played_tricks
from game.starshina import defaults, rules, views
from game.starshina.options import PLAYERS, StarshinaOptions
from game.starshina.rules import new_game
from game.starshina.state import Phases, StarshinaState


class StarshinaGame(StarshinaState):
    """A game of Старшина, as the table service, the front-ends and the tools hold it."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return "starshina"

    @property
    def players(self) -> int:
        return PLAYERS

    @property
    def deal_over(self) -> bool:
        return self.phase in (Phases.DEAL_OVER, Phases.GAME_OVER)

    @property
    def game_over(self) -> bool:
        return self.phase is Phases.GAME_OVER

    def legal(self) -> list[Legal]:
        return rules.legal_actions(self)

    def default_action(self) -> Action | None:
        return defaults.default_action(self)

    def apply(self, action: Action) -> Step:
        before = len(self.transfers)
        return self.step(rules.apply(self, action), before)

    def next_deal(
        self, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[StarshinaGame, Step]:
        # the game's own rules pick the dealer (§4.1), and its three seats never change
        before = len(self.transfers)
        _, events = rules.next_deal(self, deck)  # the same state goes on
        return self, self.step(events, before)

    def step(self, events: list[Event], before: int) -> Step:
        """What the change that made ``events`` did, its transfers those after ``before``."""
        game_over = self.phase is Phases.GAME_OVER
        over = game_over or self.phase is Phases.DEAL_OVER
        step = Step(events, self.transfers[before:], deal_over=over, game_over=game_over)
        if over and self.history:
            record = self.history[-1]
            step.results = [SeatResult(seat, record.tricks[seat], True) for seat in range(PLAYERS)]
            step.summary = {
                **record.to_json(),
                "winner": self.winner,
                **played_tricks(self.played, self.trick_winners),
            }
        return step

    def seat_view(self, seat: int) -> views.SeatView:
        return views.seat_view(self, seat)

    def public_view(self) -> views.PublicView:
        return views.public_view(self)

    def holding(self, seat: int) -> Holding:
        return Holding(tuple(self.hands[seat]), self.trump, True)

    def next_game_dealer(self) -> int | None:
        return rules.next_game_dealer(self) if self.phase is Phases.GAME_OVER else None

    def pot_in_play(self) -> int:
        return 0  # its game pot is its own


def _check(data: JsonObject) -> JsonObject:
    return StarshinaOptions.from_json(data).to_json()


def _start(
    options: JsonObject,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int,
    pot: int,
    deal_no: int = 0,
) -> tuple[StarshinaGame, Step]:
    if players != PLAYERS:
        raise ValueError("Старшина is for exactly three players")
    state, events = new_game(StarshinaOptions.from_json(options), deck, dealer=dealer)
    table = StarshinaGame.copy_of(state)
    return table, table.step(events, 0)


RULES = GameRules(
    kind="starshina",
    min_players=PLAYERS,
    max_players=PLAYERS,
    seats_between_deals=False,
    chat_pot=False,
    check_options=_check,
    start=_start,
    load=StarshinaGame.from_json,
)
