"""``python -m game.simulate`` (``main`` over ``game.games``' list): random legal playouts,
the engine benchmark.

Prints deals (and games) per second and a few statistics. Not a timed test: the machine is
noisy, so compare figures measured in one run. Each game plays its own
(``GameTools.simulation``); this module names none.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from game.tools import GameTools, tools_for


def main(games: Sequence[GameTools], argv: Sequence[str] | None = None) -> int:
    """Simulate the game a command line names, one of ``games``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", choices=[game.rules.kind for game in games], required=True)
    parser.add_argument("--players", type=int, default=None, help="(the game's usual table)")
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument(
        "--games", type=int, default=None, help="whole games to play, for a game that ends"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one of the game's table options, its value as JSON (a bare word is a string)",
    )
    args = parser.parse_args(argv)
    raw_options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            raw_options[name] = json.loads(value)
        except json.JSONDecodeError:
            raw_options[name] = value
    game = tools_for(games, args.game)
    try:
        players = game.table_size(args.players)
    except ValueError as error:
        parser.error(str(error))
    if args.games is not None and game.rules.seats_between_deals:
        parser.error(f"{args.game} plays deal after deal and never ends a game: use --deals")
    if game.simulation is None:
        parser.error(f"{args.game} has no simulation")
    result = game.simulation(
        raw_options, players, args.deals, args.games, args.seed, clock=time.perf_counter
    )
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    import sys

    from game.games import TOOLS

    sys.exit(main(TOOLS))
