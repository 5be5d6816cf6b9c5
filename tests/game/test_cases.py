"""Every conformance case, ours (tests/cases/**) and the shared ones, gives its ``expect``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.replay import run_case
from tests.game.matching import mismatches

ROOT = Path(__file__).resolve().parents[2]
OURS = sorted((ROOT / "tests" / "cases").rglob("*.json"))
SHARED = sorted((ROOT.parent / "shared" / "conformance").glob("*.json"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", OURS + SHARED, ids=_id)
def test_case(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    problems = mismatches(case["expect"], run_case(case))
    assert not problems, "\n".join(problems)


def test_our_cases_are_many() -> None:
    """The issue asks for at least 40 hand-worked Стуколка cases and 25 Старшина ones."""
    by_game: dict[str, int] = {}
    for path in OURS:
        game = json.loads(path.read_text(encoding="utf-8"))["game"]
        by_game[game] = by_game.get(game, 0) + 1
    assert by_game.get("stukolka", 0) >= 40
    assert by_game.get("starshina", 0) >= 25


def test_cases_are_described() -> None:
    for path in OURS:
        case = json.loads(path.read_text(encoding="utf-8"))
        assert case.get("description"), f"{path.name} has no description"
