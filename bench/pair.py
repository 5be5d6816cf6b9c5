"""Two copies of the bot under bench/load.py, one after the other, in pairs: CPU per press.

    .venv/bin/python bench/pair.py --other /tmp/old [--this DIR] [--pairs 3] -- LOAD ARGUMENTS

Each copy runs with its own bench/load.py (the fake, the users and the figures of its own
time) and its own Python: ``DIR/.venv/bin/python`` when the copy has one (an old commit's
dependencies), else this interpreter. The pairs alternate which copy goes first, so a change in
the machine's load between the runs of a pair falls on both alike. Not a test: it prints each
run's figures and, per copy, the median over the pairs, and the ratio of the medians.

The figure that matters is the bot's CPU time per answered press (``cpu_bot_share`` × 1000 /
``actions_per_s``, in ms): the CPU time of the bot process, which other work on the machine
spoils much less than wall time does. Give both copies the same ``--rate`` (presses a second)
that both can keep up with, so neither is measured idle or saturated where the other is not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def python_of(root: Path) -> str:
    venv = root / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def run_once(root: Path, load_args: list[str], bench: Path | None = None) -> dict[str, Any]:
    """One bench/load.py run of the copy at ``root`` (with the bench of ``bench``, the copy
    itself by default); its JSON figures."""
    if bench is not None:
        command = [sys.executable, str(bench / "bench" / "load.py"), "--bot-root", str(root)]
    else:
        command = [python_of(root), str(root / "bench" / "load.py")]
    done = subprocess.run(
        [*command, *load_args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench/load.py of {root} failed:\n{done.stderr[-3000:]}")
    result, _ = json.JSONDecoder().raw_decode(done.stdout.lstrip())
    return dict(result)


def figures(result: dict[str, Any]) -> dict[str, float]:
    actions = float(result["actions_per_s"]) or float("nan")
    requests = result.get("requests_per_action", {})
    return {
        "cpu_ms_per_press": round(1000 * float(result["cpu_bot_share"]) / actions, 3),
        "main_thread_ms_per_press": round(
            1000 * float(result["cpu_bot_main_thread_share"]) / actions, 3
        ),
        # the kernel's part (a bench from before it printed this gives nan)
        "system_ms_per_press": round(
            1000 * float(result.get("cpu_bot_system_share", float("nan"))) / actions, 3
        ),
        "actions_per_s": actions,
        "requests_per_press": float(requests.get("total", float("nan"))),
        "messages_per_press": round(
            sum(v for k, v in requests.items() if k not in ("total", "callback")), 2
        ),
        **{f"{kind}_per_press": float(v) for kind, v in requests.items() if kind != "total"},
        **{
            f"own_screen_{q}_ms": float(v)
            for q, v in result.get("own_screen_ms", {}).items()
            if q in ("p50", "p99")
        },
        **{
            f"others_screen_{q}": float(v)
            for q, v in result.get("others_screen_ms", {}).items()
            if q in ("p50", "p99", "max", "over_5s")
        },
        **{
            f"table_{q}_ms": float(v)
            for q, v in result.get("latency_ms", {}).items()
            if q in ("p50", "p99")
        },
        "loadavg_before": round(float(result.get("loadavg_before", 0.0)), 2),
    }


def per_request(found: dict[str, float]) -> dict[str, float]:
    """The bot's CPU per Bot API request (ms), from one run's figures."""
    requests = found.get("requests_per_press", float("nan"))
    if not requests:
        return {}
    return {"cpu_ms_per_request": round(found["cpu_ms_per_press"] / requests, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--other", required=True, help="the copy to compare with (its root)")
    parser.add_argument("--this", default=str(ROOT), help="this copy (default: this project)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument(
        "--same-bench",
        action="store_true",
        help="run both copies under this copy's bench (--bot-root), in this interpreter: for "
        "two versions of the same bot (figures the other copy's bench lacks)",
    )
    parser.add_argument("load_args", nargs=argparse.REMAINDER, help="-- then bench/load.py's")
    args = parser.parse_args(argv)
    load_args = [a for a in args.load_args if a != "--"]
    copies = {"this": Path(args.this).resolve(), "other": Path(args.other).resolve()}
    runs: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    for pair in range(args.pairs):
        order = ["other", "this"] if pair % 2 == 0 else ["this", "other"]
        for name in order:
            bench = copies["this"] if args.same_bench else None
            found = figures(run_once(copies[name], load_args, bench))
            found |= per_request(found)
            runs[name].append(found)
            print(json.dumps({"pair": pair, "copy": name, **found}), flush=True)
    summary: dict[str, Any] = {}
    for name, done in runs.items():
        keys = dict.fromkeys(key for run in done for key in run)
        summary[name] = {
            key: round(statistics.median(run.get(key, float("nan")) for run in done), 3)
            for key in keys
        } | {"root": str(copies[name])}
    summary["ratio_this_to_other"] = {
        key: round(summary["this"][key] / summary["other"][key], 3)
        for key in (
            "cpu_ms_per_press",
            "main_thread_ms_per_press",
            "system_ms_per_press",
            "cpu_ms_per_request",
            "requests_per_press",
            "messages_per_press",
        )
        if summary["other"].get(key)
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
