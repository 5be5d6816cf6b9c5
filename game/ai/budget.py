"""How long a computer player may think about one decision.

``game/`` may not read the clock, so time comes in from outside: ``stop`` is a callable the
caller builds from its own clock (``time.perf_counter() > deadline``), asked between samples.
Without it the search is bounded by ``samples`` alone and is then fully reproducible from the
``random.Random`` passed in, which is what the tests use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    samples: int = 200  # determinized worlds at most, each playing every candidate out
    stop: Callable[[], bool] | None = None  # True once the time for this decision is up
    min_samples: int = 8  # worlds sampled even when ``stop`` says the time is up

    def exhausted(self, done: int) -> bool:
        if done >= self.samples:
            return True
        return done >= self.min_samples and self.stop is not None and self.stop()
