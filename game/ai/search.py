"""The Monte-Carlo choice shared by the strong players.

Every candidate action is played out in the same sampled worlds. The rules-of-thumb action is
the default: another action is taken only when, paired world by world, it beats the default by
more than ``CONFIDENCE`` standard errors. With few samples (a busy machine, a short budget) a
lucky estimate would otherwise replace a sound default by a worse move, most of all where one
deal can swing by the whole pot.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.ai.budget import Budget
from game.core import Action

CONFIDENCE = 1.0


@dataclass(frozen=True, slots=True)
class Advice:
    """What the strong player would do in a seat, and why: ``choice``, and each candidate's
    mean value over the ``samples`` worlds played out (``means``, in the candidates' order;
    none when the choice came from the rules of thumb alone, with nothing to play out).
    ``unit`` names the value: ``chips`` won or lost from here on (Стуколка), or ``tricks``
    over or under the seat's target (Старшина)."""

    choice: Action
    actions: tuple[Action, ...] = ()
    means: tuple[float, ...] = ()
    samples: int = 0
    unit: str = "chips"

    def mean_of(self, action: Action) -> float | None:
        """The mean value of ``action`` over the sampled worlds (None if it was not tried)."""
        return self.means[self.actions.index(action)] if action in self.actions else None

    def runner_up(self) -> Action | None:
        """The best of the other candidates by mean value (None if there is no other)."""
        others = [(mean, index) for index, mean in enumerate(self.means)]
        others = [item for item in others if self.actions[item[1]] != self.choice]
        if not others:
            return None
        return self.actions[max(others, key=lambda item: (item[0], -item[1]))[1]]


def choose_by_samples(
    actions: Sequence[Action],
    default: Action,
    values_in_a_world: Callable[[], Sequence[float]],
    budget: Budget,
) -> Action:
    """``values_in_a_world()`` samples one world and returns each action's value in it."""
    return advise_by_samples(actions, default, values_in_a_world, budget).choice


def advise_by_samples(
    actions: Sequence[Action],
    default: Action,
    values_in_a_world: Callable[[], Sequence[float]],
    budget: Budget,
) -> Advice:
    """The choice of ``choose_by_samples`` with every candidate's mean value in the same
    worlds: the rules-of-thumb ``default`` unless another action beats it, paired world by
    world, by more than ``CONFIDENCE`` standard errors."""
    if len(actions) == 1:
        return Advice(actions[0], tuple(actions))
    base = actions.index(default)
    totals = [0.0] * len(actions)
    sums = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    done = 0
    while not budget.exhausted(done):
        values = values_in_a_world()
        for index, value in enumerate(values):
            gain = value - values[base]
            totals[index] += value
            sums[index] += gain
            squares[index] += gain * gain
        done += 1
    best, best_mean = base, 0.0
    for index in range(len(actions)):
        mean = sums[index] / done
        spread = math.sqrt(max(squares[index] / done - mean * mean, 0.0) / max(done - 1, 1))
        if mean - CONFIDENCE * spread > 0 and mean > best_mean:
            best, best_mean = index, mean
    means = tuple(total / done for total in totals)
    return Advice(actions[best], tuple(actions), means, done)
