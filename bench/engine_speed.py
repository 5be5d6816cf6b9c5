"""Benchmark: this tree's engines against an older commit's, side by side in one run.

    git worktree add --detach /tmp/engine-base <old commit>
    .venv/bin/python bench/engine_speed.py --base /tmp/engine-base [--rounds 7] [--deals 20000]

Each round runs ``python -m game.simulate`` once in the old tree and once in this one (the order
alternates from round to round, so a change of load on the shared machine hits both alike), for
Стуколка classic, Стуколка «со шлейфом» and Старшина (both exchange options, by deals). Prints
JSON: every run's deals per second, the median for each tree and the ratio new / old. Not a
test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CASES: dict[str, list[str]] = {
    "stukolka_classic": ["--game", "stukolka", "--players", "4"],
    "stukolka_shleif": ["--game", "stukolka", "--players", "4", "--option", 'variant="shleif"'],
    "starshina": ["--game", "starshina"],
}


def rate(tree: Path, arguments: list[str]) -> float:
    """Deals per second printed by ``python -m game.simulate`` run in ``tree``."""
    done = subprocess.run(
        [sys.executable, "-m", "game.simulate", *arguments],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    if "by_exchange" in result:
        entries = result["by_exchange"].values()
        seconds = sum(entry["seconds"] for entry in entries)
        return float(sum(entry["deals"] for entry in entries)) / float(seconds)
    return float(result["deals_per_second"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", type=Path, required=True, help="a worktree of the old commit")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    trees = {"old": args.base.resolve(), "new": ROOT}
    report: dict[str, Any] = {"old_tree": str(trees["old"]), "rounds": args.rounds}
    for case, arguments in CASES.items():
        full = [*arguments, "--deals", str(args.deals), "--seed", str(args.seed)]
        runs: dict[str, list[float]] = {"old": [], "new": []}
        for number in range(args.rounds):
            order = ("old", "new") if number % 2 == 0 else ("new", "old")
            for name in order:
                runs[name].append(rate(trees[name], full))
        old = statistics.median(runs["old"])
        new = statistics.median(runs["new"])
        report[case] = {
            "old_deals_per_second": [round(value) for value in runs["old"]],
            "new_deals_per_second": [round(value) for value in runs["new"]],
            "old_median": round(old),
            "new_median": round(new),
            "speedup": round(new / old, 2),
        }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
