"""One game of Старшина across the decks of a conformance case (docs/rules.md §4.1, §4.4): the
deal passes left while nobody has won; once the game is over every action is rejected. Used by
``game.replay`` and the tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.core import Action, Legal, Transfer
from game.starshina.options import PLAYERS, StarshinaOptions
from game.starshina.rules import apply, legal_actions, new_game, next_deal
from game.starshina.state import Phase


class StarshinaMatch:
    """A game played from the given decks, seat 0 dealing first; deck k is for deal k."""

    def __init__(self, options: StarshinaOptions, decks: Sequence[Sequence[str]]) -> None:
        if not decks:
            raise ValueError("at least one deck is needed")
        self.decks = [list(deck) for deck in decks]
        self.state, _ = new_game(options, self.decks[0])

    @staticmethod
    def from_case(case: dict[str, Any]) -> StarshinaMatch:
        """The case's ``pot`` is the chat's Стуколка pot, which Старшина leaves untouched."""
        if case.get("players") != PLAYERS:
            raise ValueError("Старшина is for exactly 3 players")
        options = StarshinaOptions.from_json(dict(case.get("options", {})))
        return StarshinaMatch(options, case["decks"])

    @property
    def finished(self) -> bool:
        """The game is over, or the last deck's deal is played out."""
        phase = self.state.phase
        return phase is Phase.GAME_OVER or (
            phase is Phase.DEAL_OVER and self.state.deal_no + 1 >= len(self.decks)
        )

    @property
    def to_act(self) -> int | None:
        return self.state.to_act

    def legal(self) -> list[Legal]:
        return legal_actions(self.state)

    def apply(self, action: Action) -> None:
        state = self.state
        apply(state, action)
        if state.phase is Phase.DEAL_OVER and state.deal_no + 1 < len(self.decks):
            next_deal(state, self.decks[state.deal_no + 1])

    def deals(self) -> list[dict[str, Any]]:
        state = self.state
        entries = [record.to_json() for record in state.history]
        if state.winner is not None:
            entries[-1]["winner"] = state.winner
        if state.phase not in (Phase.DEAL_OVER, Phase.GAME_OVER):
            entries.append(
                {
                    "dealer": state.dealer,
                    "trump": state.trump,
                    "tricks": list(state.tricks),
                    "pot_before": state.game_pot,
                    "pot_after": None,
                }
            )
        return entries

    def transfers(self) -> list[Transfer]:
        return list(self.state.transfers)


#: what ``game.replay`` starts a case of this game with (``StarshinaMatch.from_case``)
MATCH = StarshinaMatch
