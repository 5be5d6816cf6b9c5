"""Benchmark: this tree's engines against an older commit's, side by side in one run.

    git worktree add --detach /tmp/engine-base <old commit>
    .venv/bin/python bench/engine_speed.py --base /tmp/engine-base [--rounds 7] [--deals 20000]

Each round runs ``python -m game.simulate`` once in the old tree and once in this one (the order
alternates from round to round, so a change of load on the shared machine hits both alike), for
Стуколка classic, Стуколка «со шлейфом» and Старшина (both exchange options, by deals). Prints
JSON: every run's deals per second of wall time and of CPU time, the median for each tree and
the ratio new / old. Not a test: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def rate(tree: Path, arguments: list[str]) -> tuple[float, float]:
    """Deals per second of ``python -m game.simulate`` run in ``tree``: per second of wall
    time (as it prints) and per second of the process's CPU time (from the kernel's account of
    the child, start-up included: on a shared machine the steadier of the two)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "game.simulate", *arguments],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result: dict[str, Any] = json.loads(done.stdout)
    if "by_exchange" in result:
        entries = list(result["by_exchange"].values())
        deals = float(sum(entry["deals"] for entry in entries))
        wall = float(sum(entry["seconds"] for entry in entries))
    else:
        deals, wall = float(result["deals"]), float(result["seconds"])
    return deals / wall, deals / cpu


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
        runs: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
        for number in range(args.rounds):
            order = ("old", "new") if number % 2 == 0 else ("new", "old")
            for name in order:
                runs[name].append(rate(trees[name], full))
        entry: dict[str, Any] = {}
        for index, measure in enumerate(("wall", "cpu")):
            old = statistics.median(run[index] for run in runs["old"])
            new = statistics.median(run[index] for run in runs["new"])
            entry[measure] = {
                "old_deals_per_second": [round(run[index]) for run in runs["old"]],
                "new_deals_per_second": [round(run[index]) for run in runs["new"]],
                "old_median": round(old),
                "new_median": round(new),
                "speedup": round(new / old, 2),
            }
        report[case] = entry
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
