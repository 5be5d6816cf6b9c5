"""The whole suite's settings for Hypothesis: no per-example deadline; and the program's games.

A deadline is a timing assert, and this machine is shared and noisy: a pure test whose example
took 250 ms under load was reported as flaky ("unreliable test timings") and failed the run.
Slow properties are kept in check by their example counts instead.

Every test runs beside the program's library of games (``tests.library``), as the program
does: its games' texts are in the catalogue and its buttons carry their moves, whichever test
module runs alone. A test with toy games builds a library of its own (``library_with``).
"""

from hypothesis import settings

import tests.library  # noqa: F401  (the program's games: their texts, their buttons)

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
