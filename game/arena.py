"""``python -m game.arena``: computer players against each other (figures: docs/performance.md).

    python -m game.arena --game stukolka --players 4 --deals 20000 --seats strong,easy,easy,random
    python -m game.arena --game stukolka --option variant='"shleif"' --deals 20000 ...
    python -m game.arena --game starshina --players 3 --games 2000 --seats strong,easy,random

Any game with computer players (``GameTools.computer``). A game whose table plays deal after deal
(Стуколка) is counted by deals, one that ends (Старшина) by whole games. Deals are dealt from
``--seed``; the players change chairs every round so that each sits in every seat and meets
every dealer equally. Prints JSON: one entry per player of ``--seats``, in that order, with its
chips per deal (or per game) and their 95% interval, and the time of its decisions (p50, p99,
in ms); then, for each two levels, the difference of their chips per deal with its 95%
interval. A front end: it reads the clock (each strong decision gets ``--budget-ms``, by
default what the bot's computers get) and may use one more process (``--jobs 2``).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from game.ai import LEVELS, Budget, Computer
from game.cards import FULL_DECK, shuffle
from game.core import Action
from game.replay import money
from game.tools import GameTools, tools_for


def _budget(milliseconds: float, samples: int, min_samples: int) -> Budget:
    deadline = time.perf_counter() + milliseconds / 1000
    return Budget(samples, lambda: time.perf_counter() > deadline, min_samples)


class Seats:
    """Who sits where (each a level of the game's ``computer``), and the time each player's
    decisions took."""

    def __init__(
        self,
        players: Sequence[str],
        computer: Computer[Any],
        budget_ms: float,
        samples: int,
        min_samples: int,
    ):
        self.players = list(players)
        self.computer = computer
        self.budget_ms = budget_ms
        self.samples = samples
        self.min_samples = min_samples
        self.times: list[list[float]] = [[] for _ in players]

    def decide(self, player: int, view: Any, rng: random.Random) -> Action:
        started = time.perf_counter()
        budget = _budget(self.budget_ms, self.samples, self.min_samples)
        action = self.computer.choose(view, self.players[player], rng, budget)
        self.times[player].append(1000 * (time.perf_counter() - started))
        return action


def play(
    game: GameTools,
    players: Sequence[str],
    options: dict[str, Any],
    count: int,
    seed: int,
    args: dict[str, Any],
) -> tuple[list[list[float]], list[list[float]]]:
    """``count`` deals or games of ``game`` (``by_deal``); per deal or game, each player's
    chips. A game whose table plays deal after deal is counted by deals: the pot carries, the
    deal passes left, and the players change chairs every round of deals. Another is counted
    by whole games: each from a fresh deck, the players changing chairs every game and the
    first dealer every round of games."""
    rules = game.rules
    dealt = by_deal(game)
    n = len(players)
    assert game.computer is not None
    seats = Seats(players, game.computer, args["budget_ms"], args["samples"], args["min_samples"])
    checked = rules.check_options(options)
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    chips: list[list[float]] = [[] for _ in players]
    state: Any = None
    pot = 0
    for number in range(count):
        shuffle(deck, rng)
        if not dealt:
            shift = number % n  # player p sits in chair (p + shift) % n
            state, step = rules.start(checked, n, deck, dealer=(number // n) % n, pot=0)
        elif state is None:
            shift = 0
            state, step = rules.start(checked, n, deck, dealer=0, pot=pot)
        else:
            shift = (number // n) % n
            dealer = (state.dealer + 1) % n
            state, step = state.next_deal(deck, pot=pot, players=n, dealer=dealer)
        transfers = list(step.transfers)
        while True:
            if state.deal_over:
                if dealt or state.game_over:
                    break
                shuffle(deck, rng)
                state, step = state.next_deal(deck, pot=0, players=n, dealer=(state.dealer + 1) % n)
                transfers += step.transfers
                continue
            seat = state.to_act
            assert seat is not None
            if seats.computer.looks_first(state.seat_view(seat)):
                transfers += state.apply(Action(seat, "look")).transfers
            view = state.seat_view(seat)
            transfers += state.apply(seats.decide((seat - shift) % n, view, rng)).transfers
        nets, left = money(transfers, n, pot)
        for player in range(n):
            chips[player].append(nets[(player + shift) % n])
        if rules.chat_pot:
            pot = left
    return chips, seats.times


def by_deal(game: GameTools) -> bool:
    """Whether ``game`` is counted by deals (its table plays deal after deal, the players
    free to change between them) rather than by whole games."""
    return game.rules.seats_between_deals


def _interval(values: Sequence[float]) -> tuple[float, list[float]]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return mean, [round(mean - half, 4), round(mean + half, 4)]


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(
    players: Sequence[str], chips: list[list[float]], times: list[list[float]]
) -> dict[str, Any]:
    entries = []
    for player, level in enumerate(players):
        mean, ci = _interval(chips[player])
        entries.append(
            {
                "player": level,
                "chips_per_deal": round(mean, 4),
                "ci95": ci,
                "decision_ms_p50": round(_percentile(times[player], 0.50), 2),
                "decision_ms_p99": round(_percentile(times[player], 0.99), 2),
                "decisions": len(times[player]),
            }
        )
    comparisons = []
    levels = [level for level in LEVELS[::-1] if level in players]
    for better, worse in itertools.pairwise(levels):
        mine = [index for index, level in enumerate(players) if level == better]
        theirs = [index for index, level in enumerate(players) if level == worse]
        per_deal = [
            statistics.fmean(chips[p][deal] for p in mine)
            - statistics.fmean(chips[p][deal] for p in theirs)
            for deal in range(len(chips[0]))
        ]
        mean, ci = _interval(per_deal)
        comparisons.append({"better": better, "worse": worse, "diff": round(mean, 4), "ci95": ci})
    return {"seats": entries, "comparisons": comparisons}


def main(games: Sequence[GameTools], argv: Sequence[str] | None = None) -> int:
    """Play the computers of the game a command line names, one of ``games``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    playing = [game.rules.kind for game in games if game.computer is not None]
    parser.add_argument("--game", choices=playing, required=True)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument(
        "--deals", type=int, default=1000, help="deals to play, for a game counted by deals"
    )
    parser.add_argument(
        "--games", type=int, default=100, help="whole games, for a game counted by games"
    )
    parser.add_argument("--seats", default=None, help="levels by seat, e.g. strong,easy,random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget-ms", type=float, default=None, help="per strong decision (the game's own)"
    )
    parser.add_argument("--samples", type=int, default=400, help="most worlds per decision")
    parser.add_argument("--min-samples", type=int, default=None, help="(the game's own)")
    parser.add_argument("--jobs", type=int, choices=[1, 2], default=1)
    parser.add_argument("--save", default=None, help="also write every deal's chips here")
    parser.add_argument(
        "--merge", nargs="+", default=None, help="report on runs saved with --save instead"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one of the game's table options, its value as JSON (a bare word is a string)",
    )
    args = parser.parse_args(argv)
    game = tools_for(games, args.game)
    computer = game.computer
    assert computer is not None
    try:
        players_count = game.table_size(args.players)
    except ValueError as error:
        parser.error(str(error))
    # the strong player, the easy one in every middle seat, the random one last
    default_seats = ["strong", *["easy"] * (players_count - 2), "random"]
    players = args.seats.split(",") if args.seats else default_seats
    if len(players) != players_count or any(level not in LEVELS for level in players):
        parser.error(f"--seats needs {players_count} of {', '.join(LEVELS)}")
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    settings = {
        "budget_ms": args.budget_ms or computer.milliseconds,
        "samples": args.samples,
        "min_samples": args.min_samples or computer.min_samples,
    }
    dealt = by_deal(game)
    count = args.deals if dealt else args.games
    playing_game = functools.partial(play, game)
    started = time.perf_counter()
    if args.merge:
        runs = []
        for path in args.merge:
            with open(path, encoding="utf-8") as file:
                runs.append(json.load(file))
        chips = [[x for run in runs for x in run["chips"][p]] for p in range(len(players))]
        times = [[x for run in runs for x in run["times"][p]] for p in range(len(players))]
        count = len(chips[0])
    elif args.jobs == 1:
        chips, times = playing_game(players, options, count, args.seed, settings)
    else:  # this process and one more, each half the deals from its own seed
        half = count // 2
        with ProcessPoolExecutor(max_workers=1) as pool:
            other = pool.submit(
                playing_game, players, options, count - half, args.seed + 1, settings
            )
            chips, times = playing_game(players, options, half, args.seed, settings)
            more_chips, more_times = other.result()
        for player in range(len(players)):
            chips[player] += more_chips[player]
            times[player] += more_times[player]
    if args.save:
        with open(args.save, "w", encoding="utf-8") as file:
            json.dump({"players": players, "chips": chips, "times": times}, file)
    result: dict[str, Any] = report(players, chips, times)
    result.update(
        {
            "game": args.game,
            "options": options,
            "deals" if dealt else "games": count,
            "chips_per": "deal" if dealt else "game",
            "seed": args.seed,
            "budget_ms": settings["budget_ms"],
            "seconds": round(time.perf_counter() - started, 1),
        }
    )
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    import sys

    from game.games import TOOLS

    sys.exit(main(TOOLS))
