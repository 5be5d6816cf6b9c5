"""``python -m game.simulate``: random legal playouts, the engine benchmark.

Prints deals (and games) per second and a few statistics. Not a timed test: the machine is
noisy, so compare figures measured in one run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from game.stukolka.options import StukolkaOptions
from game.stukolka.simulate import simulate as simulate_stukolka


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", choices=["stukolka", "starshina"], default="stukolka")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--games", type=int, default=None, help="Старшина: games to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option (JSON value), e.g. --option variant='\"shleif\"'",
    )
    args = parser.parse_args(argv)
    raw_options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            raw_options[name] = json.loads(value)
        except json.JSONDecodeError:
            raw_options[name] = value
    if args.game == "stukolka":
        options = StukolkaOptions.from_json(raw_options)
        started = time.perf_counter()
        stats = simulate_stukolka(options, args.players, args.deals, args.seed)
        elapsed = time.perf_counter() - started
        result = {"game": "stukolka", "players": args.players, "options": options.to_json()}
        result.update(stats.summary())
        result["seconds"] = round(elapsed, 3)
        result["deals_per_second"] = round(stats.deals / elapsed)
    else:
        from game.starshina.simulate import run as run_starshina

        result = run_starshina(
            raw_options, args.deals, args.games, args.seed, clock=time.perf_counter
        )
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
