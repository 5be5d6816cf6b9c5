"""The whole suite's settings for Hypothesis: no per-example deadline.

A deadline is a timing assert, and this machine is shared and noisy: a pure test whose example
took 250 ms under load was reported as flaky ("unreliable test timings") and failed the run.
Slow properties are kept in check by their example counts instead.
"""

from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
