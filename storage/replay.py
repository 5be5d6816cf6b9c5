"""Rebuilding a game's state from its action log.

The log holds the initial state at version 0, then one row per commit: an ``action`` row is
replayed by the caller's pure ``apply(state, action)``, a ``system`` row (a commit without an
action, such as dealing the next deal) carries the state it set. Storage does not know the
rules, so the rules come in as ``apply``; replaying must give the stored state, which is how
tests check that the log and the game row never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from storage.errors import ReplayError
from storage.records import ActionJSON, JSONObject, LogEntry
from storage.sql import dumps, loads

Apply = Callable[[JSONObject, ActionJSON], JSONObject]
"""A pure function: the state after ``action`` is applied to ``state``."""


def replay(log: Sequence[LogEntry], apply: Apply) -> JSONObject:
    """The state at the last version of ``log``.

    Each intermediate state goes through JSON, exactly as it would after a reload, so
    ``apply`` sees what the bot would see. Raises ``ReplayError`` on a log that does not start
    with the initial state or skips a version.
    """
    if not log or log[0].kind != "init" or log[0].state is None:
        raise ReplayError("the log does not start with the initial state")
    state: JSONObject = log[0].state
    for expected_version, entry in enumerate(log):
        if entry.version != expected_version:
            raise ReplayError(f"version {entry.version} where {expected_version} was due")
        if expected_version == 0:
            continue
        if entry.kind == "action" and entry.action is not None:
            state = loads(dumps(apply(state, entry.action)))
        elif entry.kind == "system" and entry.state is not None:
            state = entry.state
        else:
            raise ReplayError(f"malformed log row at version {entry.version}")
    return state
