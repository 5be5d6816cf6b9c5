"""Every conformance case gives its ``expect`` (docs/conformance.md): the project's own, worked by
hand (tests/cases/stukolka, tests/cases/starshina), and those that came with the rules
(tests/cases/conformance)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.replay import run_case
from tests.game.matching import mismatches
from tests.library import TOOLS

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
CONFORMANCE = sorted((CASES / "conformance").glob("*.json"))
OURS = sorted(path for path in CASES.rglob("*.json") if path.parent.name != "conformance")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", OURS + CONFORMANCE, ids=_id)
def test_case(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    problems = mismatches(case["expect"], run_case(case, TOOLS))
    assert not problems, "\n".join(problems)


def test_our_cases_are_many() -> None:
    """At least 40 hand-worked Стуколка cases and 25 Старшина ones, and the cases that came with
    the rules, all present in the repository."""
    by_game: dict[str, int] = {}
    for path in OURS:
        game = json.loads(path.read_text(encoding="utf-8"))["game"]
        by_game[game] = by_game.get(game, 0) + 1
    assert by_game.get("stukolka", 0) >= 40
    assert by_game.get("starshina", 0) >= 25
    assert len(CONFORMANCE) >= 40


def test_cases_are_described() -> None:
    for path in OURS:
        case = json.loads(path.read_text(encoding="utf-8"))
        assert case.get("description"), f"{path.name} has no description"


def test_the_command_the_conformance_format_names_replays_a_case() -> None:
    """``python -m game.replay CASE.json`` (the command the shared conformance checker runs)
    prints the case's result as one JSON object, with no program around it."""
    path = CONFORMANCE[0]
    case = json.loads(path.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, "-m", "game.replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    problems = mismatches(case["expect"], json.loads(done.stdout))
    assert not problems, "\n".join(problems)
