"""Старшина, the Sergeant Major (docs/rules.md §4, §5): its definition ``RULES``, the state every
layer holds (``StarshinaGame``), and its engine."""

from game.starshina.defaults import default_action, longest_suit
from game.starshina.game import RULES, StarshinaGame
from game.starshina.options import PRESETS, StarshinaOptions
from game.starshina.rules import (
    apply,
    diffs_of,
    exchange_plan,
    final_ranking,
    game_winner,
    legal_actions,
    legal_plays,
    new_game,
    next_deal,
    next_game_dealer,
    ring_returns,
    targets,
)
from game.starshina.state import DealRecord, EndReason, Exchanged, Phase, StarshinaState
from game.starshina.views import PublicView, SeatView, public_view, seat_view

__all__ = [
    "PRESETS",
    "RULES",
    "DealRecord",
    "EndReason",
    "Exchanged",
    "Phase",
    "PublicView",
    "SeatView",
    "StarshinaGame",
    "StarshinaOptions",
    "StarshinaState",
    "apply",
    "default_action",
    "diffs_of",
    "exchange_plan",
    "final_ranking",
    "game_winner",
    "legal_actions",
    "legal_plays",
    "longest_suit",
    "new_game",
    "next_deal",
    "next_game_dealer",
    "public_view",
    "ring_returns",
    "seat_view",
    "targets",
]
