"""``python -m game.arena``: computer players against each other (figures: docs/performance.md).

    python -m game.arena --game stukolka --players 4 --deals 20000 --seats strong,easy,easy,random
    python -m game.arena --game stukolka --option variant='"shleif"' --deals 20000 ...
    python -m game.arena --game starshina --players 3 --games 2000 --seats strong,easy,random

Deals (Старшина: games) are dealt from ``--seed``; the players change chairs every round of
deals so that each sits in every seat and meets every dealer equally. Prints JSON: one entry per
player of ``--seats``, in that order, with its chips per deal (Старшина: per game) and their
95% interval, and the time of its decisions (p50, p99, in ms); then, for each two levels, the
difference of their chips per deal with its 95% interval. A front end: it reads the clock
(each strong decision gets ``--budget-ms``) and may use one more process (``--jobs 2``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from game import starshina, stukolka
from game.ai import LEVELS, Budget, Computer
from game.cards import FULL_DECK, shuffle
from game.core import Action, Transfer
from game.starshina import ai as starshina_ai
from game.stukolka import ai as stukolka_ai


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


def _net(transfers: Sequence[Transfer], seat: int) -> int:
    return sum(
        transfer.amount if transfer.dst == seat else -transfer.amount
        for transfer in transfers
        if seat in (transfer.src, transfer.dst)
    )


def play_stukolka(
    players: Sequence[str], options: dict[str, Any], count: int, seed: int, args: dict[str, Any]
) -> tuple[list[list[float]], list[list[float]]]:
    """``count`` deals at one table (the pot carries over); per deal, each player's chips."""
    n = len(players)
    seats = Seats(
        players, stukolka_ai.COMPUTER, args["budget_ms"], args["samples"], args["min_samples"]
    )
    rules_options = stukolka.StukolkaOptions.from_json(options)
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    chips: list[list[float]] = [[] for _ in players]
    state = None
    for number in range(count):
        shuffle(deck, rng)
        if state is None:
            state = stukolka.new_deal(rules_options, n, deck)[0]
        else:
            state = stukolka.next_deal(state, deck)[0]
        shift = (number // n) % n  # player p sits in chair (p + shift) % n
        while state.to_act is not None:
            seat = state.to_act
            if stukolka.seat_view(state, seat).may_look:
                stukolka.apply(state, Action(seat, "look"))
            view = stukolka.seat_view(state, seat)
            player = (seat - shift) % n
            stukolka.apply(state, seats.decide(player, view, rng))
        for player in range(n):
            chips[player].append(_net(state.transfers, (player + shift) % n))
    return chips, seats.times


def play_starshina(
    players: Sequence[str], options: dict[str, Any], count: int, seed: int, args: dict[str, Any]
) -> tuple[list[list[float]], list[list[float]]]:
    """``count`` whole games; per game, each player's chips (the game's transfers)."""
    seats = Seats(
        players, starshina_ai.COMPUTER, args["budget_ms"], args["samples"], args["min_samples"]
    )
    rules_options = starshina.StarshinaOptions.from_json(options)
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    chips: list[list[float]] = [[] for _ in players]
    for number in range(count):
        shift = number % 3
        shuffle(deck, rng)
        state = starshina.new_game(rules_options, deck, dealer=(number // 3) % 3)[0]
        while state.phase is not starshina.Phase.GAME_OVER:
            if state.phase is starshina.Phase.DEAL_OVER:
                shuffle(deck, rng)
                starshina.next_deal(state, deck)
            seat = state.to_act
            assert seat is not None
            view = starshina.seat_view(state, seat)
            starshina.apply(state, seats.decide((seat - shift) % 3, view, rng))
        for player in range(3):
            chips[player].append(_net(state.transfers, (player + shift) % 3))
    return chips, seats.times


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", choices=["stukolka", "starshina"], default="stukolka")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--deals", type=int, default=1000, help="Стуколка: deals to play")
    parser.add_argument("--games", type=int, default=100, help="Старшина: games to play")
    parser.add_argument("--seats", default=None, help="levels by seat, e.g. strong,easy,random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None, help="per strong decision")
    parser.add_argument("--samples", type=int, default=400, help="most worlds per decision")
    parser.add_argument("--min-samples", type=int, default=None)
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
        help="a table option (JSON value), e.g. --option variant='\"shleif\"'",
    )
    args = parser.parse_args(argv)
    stukolka_game = args.game == "stukolka"
    players_count = args.players or (4 if stukolka_game else 3)
    default_seats = "strong,easy,easy,random" if stukolka_game else "strong,easy,random"
    players = (args.seats or default_seats).split(",")
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
        "budget_ms": args.budget_ms or (60.0 if stukolka_game else 250.0),
        "samples": args.samples,
        "min_samples": args.min_samples or (4 if stukolka_game else 1),
    }
    count = args.deals if stukolka_game else args.games
    play: Callable[..., tuple[list[list[float]], list[list[float]]]] = (
        play_stukolka if stukolka_game else play_starshina
    )
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
        chips, times = play(players, options, count, args.seed, settings)
    else:  # this process and one more, each half the deals from its own seed
        half = count // 2
        with ProcessPoolExecutor(max_workers=1) as pool:
            other = pool.submit(play, players, options, count - half, args.seed + 1, settings)
            chips, times = play(players, options, half, args.seed, settings)
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
            "deals" if stukolka_game else "games": count,
            "chips_per": "deal" if stukolka_game else "game",
            "seed": args.seed,
            "budget_ms": settings["budget_ms"],
            "seconds": round(time.perf_counter() - started, 1),
        }
    )
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
