"""Стуколка, classic and «со шлейфом» (docs/rules.md §1–§3, §5): its definition ``RULES``, the
state every layer holds (``StukolkaGame``), and its engine."""

from game.stukolka.defaults import default_action
from game.stukolka.game import RULES, StukolkaGame
from game.stukolka.options import PRESETS, StukolkaOptions
from game.stukolka.rules import (
    apply,
    dark_blind,
    legal_actions,
    legal_plays,
    new_deal,
    next_deal,
    settle,
)
from game.stukolka.state import Outcome, Phase, Role, StukolkaState
from game.stukolka.views import PublicView, SeatView, public_view, seat_view

__all__ = [
    "PRESETS",
    "RULES",
    "Outcome",
    "Phase",
    "PublicView",
    "Role",
    "SeatView",
    "StukolkaGame",
    "StukolkaOptions",
    "StukolkaState",
    "apply",
    "dark_blind",
    "default_action",
    "legal_actions",
    "legal_plays",
    "new_deal",
    "next_deal",
    "public_view",
    "seat_view",
    "settle",
]
