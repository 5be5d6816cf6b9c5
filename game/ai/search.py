"""The Monte-Carlo choice shared by the strong players.

Every candidate action is played out in the same sampled worlds. The rules-of-thumb action is
the default: another action is taken only when, paired world by world, it beats the default by
more than ``CONFIDENCE`` standard errors. With few samples (a busy machine, a short budget) a
lucky estimate would otherwise replace a sound default by a worse move, most of all where one
deal can swing by the whole pot.

A hint shows the player the same search (``Advice``): its choice, and figures of the playouts
(``Measure``) that say why — or that the moves are equal, when the choice beats none of them
by more than ``HINT_CONFIDENCE`` standard errors.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.ai.budget import Budget
from game.core import Action

CONFIDENCE = 1.0

#: a hint calls its choice better than another move only when it wins, paired world by world,
#: by more than this many standard errors: two moves truly equal pass it about once in 40
HINT_CONFIDENCE = 2.0

#: a card of the seat's own that it has not seen: a blind discard of ``k`` cards is advised as
#: ``k`` of these (which ones does not matter: the seat cannot tell its cards apart)
UNSEEN = "??"


@dataclass(frozen=True, slots=True)
class Measure:
    """One figure of the playouts per candidate (in the candidates' order): ``means`` over the
    worlds sampled, and ``errors``, the standard error of each candidate's difference from
    the choice, paired world by world (0 for the choice itself; infinite with fewer than two
    worlds). ``name`` says what it counts (``chips``, ``remiz``, …); ``better`` is 1 when
    more is better for the seat, −1 when less is."""

    name: str
    means: tuple[float, ...]
    errors: tuple[float, ...]
    better: int = 1

    def edge(self, choice: int, other: int) -> float:
        """By how many standard errors candidate ``choice`` beats ``other`` in this figure
        (negative: it does worse)."""
        gap = (self.means[choice] - self.means[other]) * self.better
        error = self.errors[other]
        if math.isinf(error) or gap == 0:
            return 0.0
        return gap / error if error else math.copysign(math.inf, gap)


@dataclass(frozen=True, slots=True)
class Advice:
    """What the strong player would do in a seat, and why: ``choice`` among ``actions``, and
    the figures of the ``samples`` worlds it played out: ``value``, what the search weighs
    (none when the choice came from the rules of thumb alone, with nothing to play out), and
    ``measures``, what a player is shown, the first in ``unit``: ``chips`` won or lost from
    here on (Стуколка), or ``tricks`` over or under the seat's target (Старшина). ``rule``
    names the rule of thumb an unplayed choice follows, when the game says which."""

    choice: Action
    actions: tuple[Action, ...] = ()
    measures: tuple[Measure, ...] = ()
    samples: int = 0
    unit: str = "chips"
    value: Measure | None = None
    rule: str | None = None

    @property
    def means(self) -> tuple[float, ...]:
        """The first figure's mean per candidate (none when nothing was played out)."""
        return self.measures[0].means if self.measures else ()

    def mean_of(self, action: Action) -> float | None:
        """The mean value of ``action`` over the sampled worlds (None if it was not tried)."""
        means = self.means
        return means[self.actions.index(action)] if means and action in self.actions else None

    def runner_up(self) -> Action | None:
        """The best of the other candidates in what the search weighs (None if there is no
        other, or nothing was played out)."""
        means = self.value.means if self.value is not None else self.means
        others = [(mean, index) for index, mean in enumerate(means)]
        others = [item for item in others if self.actions[item[1]] != self.choice]
        if not others:
            return None
        return self.actions[max(others, key=lambda item: (item[0], -item[1]))[1]]

    def equal_moves(self) -> tuple[Action, ...]:
        """The other candidates the choice does not surely beat (``HINT_CONFIDENCE``) in what
        the search weighs: within chance of it, the best first."""
        value = self.value
        if value is None:
            return ()
        mine = self.actions.index(self.choice)
        tied = [
            index
            for index in range(len(self.actions))
            if index != mine and value.edge(mine, index) <= HINT_CONFIDENCE
        ]
        tied.sort(key=lambda index: -value.means[index] * value.better)
        return tuple(self.actions[index] for index in tied)

    def reasons(self, other: Action) -> tuple[Measure, ...]:
        """The figures shown in which the choice beats ``other``, the surest first: those it
        wins by more than ``HINT_CONFIDENCE`` standard errors, or else the one it wins by most
        (it beat ``other`` in what the search weighs, made of these)."""
        mine, theirs = self.actions.index(self.choice), self.actions.index(other)
        edges = sorted(
            ((measure.edge(mine, theirs), index) for index, measure in enumerate(self.measures)),
            key=lambda item: (-item[0], item[1]),
        )
        sure = [self.measures[index] for edge, index in edges if edge > HINT_CONFIDENCE]
        if sure:
            return tuple(sure)
        return tuple(self.measures[index] for edge, index in edges[:1] if edge > 0)


def advise_by_samples(
    actions: Sequence[Action],
    default: Action,
    values_in_a_world: Callable[[], Sequence[Sequence[float]]],
    budget: Budget,
    shown: Sequence[tuple[str, int]] = (),
    unit: str = "chips",
) -> Advice:
    """The choice among ``actions``, with every candidate's figures in the same worlds: the
    rules-of-thumb ``default`` unless another action beats it, paired world by world, by
    more than ``CONFIDENCE`` standard errors. ``values_in_a_world()`` samples one world and
    gives, per candidate, its value to the search, then the figures named by ``shown`` (name,
    better)."""
    if len(actions) == 1:
        return Advice(actions[0], tuple(actions), unit=unit)
    worlds: list[Sequence[Sequence[float]]] = []
    while not budget.exhausted(len(worlds)):
        worlds.append(values_in_a_world())
    base = actions.index(default)
    _, gains, errors = _paired(worlds, 0, base)
    best, best_mean = base, 0.0
    for index in range(len(actions)):
        mean = gains[index]
        if mean - CONFIDENCE * errors[index] > 0 and mean > best_mean:
            best, best_mean = index, mean
    value = _measure("value", 1, worlds, 0, best)
    measures = tuple(
        _measure(name, better, worlds, column, best)
        for column, (name, better) in enumerate(shown, start=1)
    )
    return Advice(actions[best], tuple(actions), measures, len(worlds), unit, value)


def _measure(
    name: str, better: int, worlds: Sequence[Sequence[Sequence[float]]], column: int, mine: int
) -> Measure:
    """Figure ``column`` of every candidate over ``worlds``, paired with candidate ``mine``."""
    means, _, spreads = _paired(worlds, column, mine)
    if len(worlds) < 2:  # one world tells nothing of chance
        spreads = tuple(0.0 if index == mine else math.inf for index in range(len(means)))
    return Measure(name, means, spreads, better)


def _paired(
    worlds: Sequence[Sequence[Sequence[float]]], column: int, mine: int
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """Figure ``column`` of every candidate over ``worlds``: its mean, its mean difference
    from candidate ``mine`` world by world, and the standard error of that difference."""
    done = len(worlds)
    count = len(worlds[0])
    sums = [0.0] * count
    gains = [0.0] * count
    squares = [0.0] * count
    for rows in worlds:
        reference = rows[mine][column]
        for index in range(count):
            value = rows[index][column]
            gain = value - reference
            sums[index] += value
            gains[index] += gain
            squares[index] += gain * gain
    errors = []
    for index in range(count):
        mean = gains[index] / done
        spread = math.sqrt(max(squares[index] / done - mean * mean, 0.0) / max(done - 1, 1))
        errors.append(spread)
    means = tuple(total / done for total in sums)
    return means, tuple(total / done for total in gains), tuple(errors)
