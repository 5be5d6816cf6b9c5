"""``@pytest.mark.both_loops``: the test runs once on asyncio's own loop and once on uvloop (the
loop the bot runs on, where it is installed), through pytest-asyncio's loop-factory hook."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

import pytest


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    factories: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {
        "asyncio": asyncio.new_event_loop
    }
    if item.get_closest_marker("both_loops") is not None:
        try:
            import uvloop
        except ImportError:
            pass
        else:
            factories["uvloop"] = uvloop.new_event_loop
    return factories
