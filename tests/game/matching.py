"""The conformance matching rule (docs/conformance.md): every key of ``expect`` must
be in the output with the same value; objects key by key, lists element by element, ``legal``
as a set."""

from __future__ import annotations

import json
from typing import Any


def _frozen(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def mismatches(expected: Any, got: Any, path: str = "") -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{path or '.'}: expected an object, got {_frozen(got)}"]
        found: list[str] = []
        for key, value in expected.items():
            where = f"{path}.{key}" if path else key
            if key not in got:
                found.append(f"{where}: missing")
            elif key == "legal" and isinstance(value, list) and isinstance(got[key], list):
                want = {_frozen(item) for item in value}
                have = {_frozen(item) for item in got[key]}
                if want != have:
                    found.append(f"{where}: missing {want - have}, unexpected {have - want}")
            else:
                found.extend(mismatches(value, got[key], where))
        return found
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return [f"{path}: expected {_frozen(expected)}, got {_frozen(got)}"]
        return [
            problem
            for index, (want, have) in enumerate(zip(expected, got, strict=True))
            for problem in mismatches(want, have, f"{path}[{index}]")
        ]
    return [] if expected == got else [f"{path}: expected {_frozen(expected)}, got {_frozen(got)}"]
