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

from game.ai.budget import Budget
from game.core import Action

CONFIDENCE = 1.0


def choose_by_samples(
    actions: Sequence[Action],
    default: Action,
    values_in_a_world: Callable[[], Sequence[float]],
    budget: Budget,
) -> Action:
    """``values_in_a_world()`` samples one world and returns each action's value in it."""
    if len(actions) == 1:
        return actions[0]
    base = actions.index(default)
    sums = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    done = 0
    while not budget.exhausted(done):
        values = values_in_a_world()
        for index, value in enumerate(values):
            gain = value - values[base]
            sums[index] += gain
            squares[index] += gain * gain
        done += 1
    best, best_mean = base, 0.0
    for index in range(len(actions)):
        mean = sums[index] / done
        spread = math.sqrt(max(squares[index] / done - mean * mean, 0.0) / max(done - 1, 1))
        if mean - CONFIDENCE * spread > 0 and mean > best_mean:
            best, best_mean = index, mean
    return actions[best]
