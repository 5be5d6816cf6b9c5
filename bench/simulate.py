"""Benchmark: the rules engines alone, through ``python -m game.simulate``, for docs/performance.md.

    .venv/bin/python bench/simulate.py [--deals 20000] [--games 300] [--repeat 3]

Runs, each as its own ``python -m game.simulate`` process (so the figures are exactly what that
command prints): Стуколка with 4 players, classic and «со шлейфом»; Старшина with both exchange
options (``updown`` and ``ring``), by deals and by whole games. Each is run ``--repeat`` times
and the best rate is kept (the machine is shared; the best run is the least disturbed one).
Prints a Markdown table for docs/performance.md, the commands that reproduce each
line, and the machine it ran on. Not a test: it prints figures and checks nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def simulate(arguments: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [python(), "-m", "game.simulate", *arguments],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def best(arguments: list[str], repeat: int, rate: Any) -> dict[str, Any]:
    runs = [simulate(arguments) for _ in range(repeat)]
    return max(runs, key=rate)


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.2f} before the run"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--games", type=int, default=300, help="Старшина games per exchange")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seed = ["--seed", str(args.seed)]
    rows: list[tuple[str, str, str, str, str]] = []
    commands: list[str] = []

    def stukolka_row(label: str, extra: list[str]) -> None:
        arguments = ["--game", "stukolka", "--players", "4", "--deals", str(args.deals), *extra]
        result = best([*arguments, *seed], args.repeat, lambda r: r["deals_per_second"])
        actions = result["actions"] / result["seconds"]
        rows.append(
            (
                label,
                f"{result['deals_per_second']:,}",
                f"{actions:,.0f}",
                "—",
                f"remiz in {100 * result['remiz_share']:.0f}% of deals"
                + (f", mean pot {result['mean_pot']:.1f}" if not extra else ""),
            )
        )
        commands.append(shlex.join(["python", "-m", "game.simulate", *arguments, *seed]))

    stukolka_row("Стуколка, 4 players, classic", [])
    stukolka_row("Стуколка, 4 players, со шлейфом", ["--option", 'variant="shleif"'])

    for by, count in (
        ("deals", ["--deals", str(args.deals)]),
        ("games", ["--games", str(args.games)]),
    ):
        arguments = ["--game", "starshina", *count]
        result = best(
            [*arguments, *seed],
            args.repeat,
            lambda r: sum(e["deals_per_second"] for e in r["by_exchange"].values()),
        )
        for exchange, entry in result["by_exchange"].items():
            actions = entry["actions"] / entry["seconds"]
            ends = ", ".join(f"{reason} {n}" for reason, n in entry["ends"].items())
            rows.append(
                (
                    f"Старшина, exchange {exchange} ({entry[by]:,} {by})",
                    f"{entry['deals_per_second']:,}",
                    f"{actions:,.0f}",
                    f"{entry['games_per_second']:.1f}",
                    f"{entry['mean_deals_per_game']:.1f} deals a game; ends: {ends}",
                )
            )
        commands.append(shlex.join(["python", "-m", "game.simulate", *arguments, *seed]))

    print("| Engine run | Deals/s | Actions/s | Games/s | Notes |")
    print("|---|---:|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print(f"Measured on {machine()}; best of {args.repeat} runs each. Reproduce with:")
    print()
    for command in commands:
        print(f"    {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
