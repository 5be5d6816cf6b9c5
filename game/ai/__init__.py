"""Computer players: pure functions of what a seat may see.

A player takes the seat's view (``game.stukolka.SeatView`` or ``game.starshina.SeatView``,
which hold exactly what a person in that seat knows), a ``random.Random`` and, for the strong
level, a ``Budget``; it returns one ``Action`` among the view's legal ones. ``choose`` picks the
game from the view. Levels: ``random`` (uniform legal), ``easy`` (rules of thumb), ``strong``
(determinized Monte-Carlo search over the engine).

A computer looks at its cards before it acts (the caller applies ``look`` when the view
allows it); it never plays dark.
"""

from __future__ import annotations

import random

from game.ai import starshina, stukolka
from game.ai.budget import Budget
from game.ai.search import Advice
from game.core import Action
from game.starshina.views import SeatView as StarshinaView
from game.stukolka.views import SeatView as StukolkaView

LEVELS = ("random", "easy", "strong")
#: time per strong decision (ms) and the worlds sampled even past it, by game: the budgets of
#: the arena figures in docs/performance.md (decision p99 48 ms for Стуколка, 126 ms for Старшина)
STUKOLKA_BUDGET = (30.0, 6)
STARSHINA_BUDGET = (100.0, 2)


def looks_first(view: StukolkaView | StarshinaView) -> bool:
    """Whether the computer looks at its cards before it acts (it never plays dark)."""
    return isinstance(view, StukolkaView) and view.may_look


def decision_budget(view: StukolkaView | StarshinaView) -> tuple[float, int]:
    """Milliseconds a strong decision in the seat of ``view`` may take, and its least samples."""
    return STUKOLKA_BUDGET if isinstance(view, StukolkaView) else STARSHINA_BUDGET


def choose(
    view: StukolkaView | StarshinaView,
    level: str,
    rng: random.Random,
    budget: Budget | None = None,
) -> Action:
    """The action the computer of ``level`` takes in the seat of ``view`` (its turn)."""
    if not view.legal:
        raise ValueError("not this seat's turn")
    if isinstance(view, StukolkaView):
        if level == "strong":
            return stukolka.strong(view, rng, budget)
        return stukolka.easy(view, rng) if level == "easy" else stukolka.random_player(view, rng)
    if level == "strong":
        return starshina.strong(view, rng, budget)
    return starshina.easy(view, rng) if level == "easy" else starshina.random_player(view, rng)


def advise(
    view: StukolkaView | StarshinaView, rng: random.Random, budget: Budget | None = None
) -> Advice:
    """What the strong computer would do in the seat of ``view`` (its turn), with the mean
    values of the candidates it played out: a player's hint, from his own seat's view only."""
    if not view.legal:
        raise ValueError("not this seat's turn")
    if isinstance(view, StukolkaView):
        return stukolka.advise(view, rng, budget)
    return starshina.advise(view, rng, budget)


__all__ = ["LEVELS", "Advice", "Budget", "advise", "choose", "decision_budget", "looks_first"]
