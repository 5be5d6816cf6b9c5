"""Benchmark: this tree's engines and computer players against an older commit's, in one run.

    git archive 30ff950 | tar -x -C /tmp/engine-base   # or: git worktree add --detach ...
    .venv/bin/python bench/engine_speed.py --base /tmp/engine-base [--rounds 7] [--deals 20000]

Three figures, each old tree against new, for Стуколка classic, Стуколка «со шлейфом» and
Старшина (both exchange options, by deals), and for the strong computer players:

- ``instructions`` (when valgrind is installed; ``--no-instructions`` skips them): CPU
  instructions per deal of ``python -m game.simulate``, counted by callgrind over a fixed
  number of deals with a fixed seed, start-up subtracted (a run of no deals). Other work on a
  shared machine cannot change this count, so it is the figure to quote.
- ``rates``: deals per second of wall time and of CPU time over ``--rounds`` runs of
  ``python -m game.simulate`` in each tree; the order alternates from round to round, so a
  change of load hits both alike. Medians and the ratio new / old.
- ``ai``: the strong player's decisions at fixed positions (reached by the easy player from
  seeded decks), each with a fixed number of sampled worlds: CPU milliseconds per decision
  (median of the rounds) and, with valgrind, instructions per decision. The choices must agree
  between the trees (``same_choices``): a faster engine decides the same.

Prints JSON; asserts nothing. Every tree is run by this interpreter with its own root first on
``sys.path``; the child code uses only what both trees have (``game.simulate``, the engines,
``game.ai.<game>.strong``, ``Budget``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
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
#: Старшина's simulate plays the given number of deals once per exchange option
DEALS_PER_RUN = {"stukolka_classic": 1, "stukolka_shleif": 1, "starshina": 2}
#: share of ``--instruction-deals`` counted per case: a Старшина deal is about four times as
#: long as a Стуколка one, and callgrind runs some fifty times slower than the bare interpreter
COUNTED_SHARE = {"stukolka_classic": 1.0, "stukolka_shleif": 1.0, "starshina": 0.2}

# Strong decisions at fixed positions: run in each tree as ``python -c``, so it may use only
# what both trees have. argv: game (classic | shleif | starshina), positions, samples, decide
# (1, or 0 for the positions alone: the start-up that the instruction count subtracts).
AI_CHILD = r"""
import json, random, sys, time
from game.ai.budget import Budget
from game.cards import FULL_DECK, shuffle
from game.core import Action

game, count, samples, decide = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(7)
views = []
if game == "starshina":
    from game.starshina import ai
    from game.starshina.options import StarshinaOptions
    from game.starshina.rules import apply, new_game
    from game.starshina.views import seat_view
    while len(views) < count:
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        state, _ = new_game(StarshinaOptions(), deck, dealer=int(rng.random() * 3))
        while state.to_act is not None and len(views) < count:
            view = seat_view(state, state.to_act)
            if view.table.phase == "play" and len(view.legal) > 1 and rng.random() < 0.25:
                views.append(view)
            apply(state, ai.easy(view, rng))
else:
    from game.stukolka import ai
    from game.stukolka.options import StukolkaOptions
    from game.stukolka.rules import apply, new_deal
    from game.stukolka.views import seat_view
    options = StukolkaOptions(variant=game)
    while len(views) < count:
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        state, _ = new_deal(options, 4, deck, dealer=int(rng.random() * 4))
        while state.to_act is not None and len(views) < count:
            view = seat_view(state, state.to_act)
            if view.hand is None and view.may_look:
                apply(state, Action(state.to_act, "look"))
                view = seat_view(state, state.to_act)
            if len(ai.candidates(view)) > 1:
                views.append(view)
            apply(state, ai.easy(view, rng))
choices = []
started = time.process_time()
if decide == "1":
    for index, view in enumerate(views):
        budget = Budget(samples=samples, min_samples=samples)
        choices.append(ai.strong(view, random.Random(index), budget).to_json())
seconds = time.process_time() - started
print(json.dumps({"decisions": len(choices), "cpu_seconds": seconds, "choices": choices}))
"""
AI_CASES: dict[str, tuple[int, int]] = {  # game: (positions, worlds sampled per decision)
    "classic": (30, 20),
    "shleif": (30, 20),
    "starshina": (12, 6),
}


def _environment(tree: Path) -> dict[str, str]:
    # a fixed hash seed: the instruction count of start-up then repeats exactly
    return {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}


def _run(tree: Path, command: list[str], *, count_instructions: bool = False) -> tuple[str, int]:
    """Run ``command`` (arguments to this interpreter) in ``tree``: its stdout, and under
    callgrind the instructions it executed (else 0)."""
    prefix: list[str] = []
    if count_instructions:
        prefix = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*prefix, sys.executable, *command],
        cwd=tree,
        env=_environment(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    instructions = 0
    if count_instructions:
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count from callgrind:\n{done.stderr[-2000:]}")
        instructions = int(found.group(1))
    return done.stdout, instructions


def rate(tree: Path, arguments: list[str]) -> tuple[float, float]:
    """Deals per second of ``python -m game.simulate`` run in ``tree``: per second of wall
    time (as it prints) and per second of the process's CPU time (from the kernel's account of
    the child, start-up included: on a shared machine the steadier of the two)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    output, _ = _run(tree, ["-m", "game.simulate", *arguments])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result: dict[str, Any] = json.loads(output)
    if "by_exchange" in result:
        entries = list(result["by_exchange"].values())
        deals = float(sum(entry["deals"] for entry in entries))
        wall = float(sum(entry["seconds"] for entry in entries))
    else:
        deals, wall = float(result["deals"]), float(result["seconds"])
    return deals / wall, deals / cpu


def instructions_per_deal(tree: Path, case: str, deals: int, seed: int) -> float:
    """Instructions per deal of ``game.simulate`` in ``tree``: a run of ``deals`` less a run
    of none (interpreter start-up, imports, the first deal's set-up)."""
    counts = []
    for number in (deals, 0):
        arguments = [*CASES[case], "--deals", str(number), "--seed", str(seed)]
        command = ["-m", "game.simulate", *arguments]
        counts.append(_run(tree, command, count_instructions=True)[1])
    return (counts[0] - counts[1]) / (deals * DEALS_PER_RUN[case])


def ai_decisions(tree: Path, game: str, *, count_instructions: bool) -> dict[str, Any]:
    """The strong player's decisions at the fixed positions of ``game`` in ``tree``: their
    choices, CPU seconds and (under callgrind) instructions, start-up subtracted."""
    positions, samples = AI_CASES[game]
    command = ["-c", AI_CHILD, game, str(positions), str(samples)]
    output, total = _run(tree, [*command, "1"], count_instructions=count_instructions)
    result: dict[str, Any] = json.loads(output)
    if count_instructions:
        _, start_up = _run(tree, [*command, "0"], count_instructions=True)
        result["instructions"] = total - start_up
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--base", type=Path, required=True, help="a tree of the old commit")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals", type=int, default=20000, help="deals per timed run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--instruction-deals", type=int, default=1000, help="deals per callgrind run"
    )
    parser.add_argument("--no-instructions", action="store_true", help="skip callgrind")
    parser.add_argument("--no-ai", action="store_true", help="skip the computer players")
    args = parser.parse_args(argv)
    trees = {"old": args.base.resolve(), "new": ROOT}
    counting = not args.no_instructions and shutil.which("valgrind") is not None
    report: dict[str, Any] = {"old_tree": str(trees["old"]), "rounds": args.rounds}

    if counting:
        report["instructions"] = {}
        for case in CASES:
            deals = max(1, round(args.instruction_deals * COUNTED_SHARE[case]))
            per_deal = {
                name: instructions_per_deal(tree, case, deals, args.seed)
                for name, tree in trees.items()
            }
            report["instructions"][case] = {
                "deals": deals * DEALS_PER_RUN[case],
                "old_per_deal": round(per_deal["old"]),
                "new_per_deal": round(per_deal["new"]),
                "speedup": round(per_deal["old"] / per_deal["new"], 3),
            }

    report["rates"] = {}
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
        report["rates"][case] = entry

    if not args.no_ai:
        report["ai"] = {}
        for game, (positions, samples) in AI_CASES.items():
            milliseconds: dict[str, list[float]] = {"old": [], "new": []}
            choices: dict[str, Any] = {}
            for number in range(max(1, args.rounds // 2)):
                order = ("old", "new") if number % 2 == 0 else ("new", "old")
                for name in order:
                    result = ai_decisions(trees[name], game, count_instructions=False)
                    milliseconds[name].append(1000 * result["cpu_seconds"] / positions)
                    choices[name] = result["choices"]
            old_ms = statistics.median(milliseconds["old"])
            new_ms = statistics.median(milliseconds["new"])
            entry = {
                "decisions": positions,
                "worlds_per_decision": samples,
                "same_choices": choices["old"] == choices["new"],
                "old_cpu_ms_per_decision": round(old_ms, 2),
                "new_cpu_ms_per_decision": round(new_ms, 2),
                "cpu_speedup": round(old_ms / new_ms, 2),
            }
            if counting:
                counts = {
                    name: ai_decisions(tree, game, count_instructions=True)["instructions"]
                    for name, tree in trees.items()
                }
                entry["old_instructions_per_decision"] = round(counts["old"] / positions)
                entry["new_instructions_per_decision"] = round(counts["new"] / positions)
                entry["instruction_speedup"] = round(counts["old"] / counts["new"], 3)
            report["ai"][game] = entry
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
