"""The table's own state (``TableMeta``) is copied at every load and every commit: the fast
copies give what ``copy.deepcopy`` and ``dataclasses.asdict`` gave, and share nothing with
what they were copied from."""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Any

from tables.records import TableMeta, json_copy

STATE: dict[str, Any] = {
    "turn": 7,
    "timeouts": {"42": 1},
    "away": [42],
    "leaving": [],
    "joining": [43],
    "stop": False,
    "deals": 3,
    "clock_user": None,
    "autoplay": False,
    "void_votes": [],
    "due": [
        {
            "deal": 3,
            "engine": {"hands": [["7♠", "8♠"], []], "score": 1.5, "trump": None},
            "players": [[0, 2, True]],
            "pair": (1, 2),
        }
    ],
    "away_play": "computer",
    "marks": {"42": {"turn": 7, "cards": ["QS"]}},
}


def _ids(value: Any) -> set[int]:
    """The ids of every list and dict inside ``value``."""
    if isinstance(value, dict):
        return {id(value)} | {i for item in value.values() for i in _ids(item)}
    if isinstance(value, list | tuple):
        return {id(value)} | {i for item in value for i in _ids(item)}
    return set()


def test_a_json_copy_equals_a_deep_copy_and_shares_no_container() -> None:
    copied = json_copy(STATE)
    assert copied == copy.deepcopy(STATE)
    assert type(copied["due"][0]["pair"]) is tuple
    assert not _ids(copied) & _ids(STATE)


def test_the_meta_stored_equals_asdict_and_loads_back_unshared() -> None:
    meta = TableMeta.from_json(STATE)
    assert meta.to_json() == asdict(meta) == STATE
    meta.away.append(1)
    engine: Any = meta.due[0]["engine"]
    engine["hands"][0].append("9♠")
    assert STATE["away"] == [42]  # the stored state (the read cache's) is untouched
    assert STATE["due"][0]["engine"]["hands"][0] == ["7♠", "8♠"]
    stored = meta.to_json()
    meta.joining.append(2)
    assert stored["joining"] == [43]
