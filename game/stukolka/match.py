"""A Стуколка table across several deals: the deal passes left, the pot carries over
(docs/rules.md §1.1, §1.2). Used by ``game.replay``, ``game.simulate`` and the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.core import Action, IllegalAction, Legal, Transfer
from game.stukolka.options import StukolkaOptions
from game.stukolka.rules import apply, legal_actions, new_deal, next_deal
from game.stukolka.state import Phase, StukolkaState


class StukolkaMatch:
    """Deals played one after another from the given decks, seat 0 dealing first."""

    def __init__(
        self, options: StukolkaOptions, players: int, decks: Sequence[Sequence[str]], pot: int = 0
    ) -> None:
        if not decks:
            raise ValueError("at least one deck is needed")
        self.decks = [list(deck) for deck in decks]
        self.history: list[StukolkaState] = []
        self.state, _ = new_deal(options, players, self.decks[0], pot=pot)

    @staticmethod
    def from_case(case: dict[str, Any]) -> StukolkaMatch:
        options = StukolkaOptions.from_json(dict(case.get("options", {})))
        return StukolkaMatch(options, int(case["players"]), case["decks"], int(case.get("pot", 0)))

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.DEAL_OVER

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    def legal(self) -> list[Legal]:
        return legal_actions(self.state)

    def apply(self, action: Action) -> None:
        if self.finished:
            raise IllegalAction("deal_over")
        apply(self.state, action)
        if self.finished and len(self.history) + 1 < len(self.decks):
            self.history.append(self.state)
            self.state, _ = next_deal(self.state, self.decks[len(self.history)])

    def all_states(self) -> list[StukolkaState]:
        return [*self.history, self.state]

    def deals(self) -> list[dict[str, Any]]:
        return [
            {
                "dealer": state.dealer,
                "trump": state.trump,
                "tricks": list(state.tricks),
                "pot_before": state.pot,
                "pot_after": state.pot_after,
            }
            for state in self.all_states()
        ]

    def transfers(self) -> list[Transfer]:
        return [transfer for state in self.all_states() for transfer in state.transfers]


#: what ``game.replay`` starts a case of this game with (``StukolkaMatch.from_case``)
MATCH = StukolkaMatch
