"""``python -m game.replay CASE.json``: play a conformance case and print the result as JSON
(``main``, over ``game.games``' list).

The format is ``docs/conformance.md``: a table, a stacked deck per deal and a list of
actions; the output gives the status, each deal's summary, balances, the pot, whose turn it is
with every legal action, and the first rejected action. A rejection is a result (exit 0).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game.core import Action, IllegalAction, Transfer
from game.tools import GameTools, ReplayMatch, tools_for


def money(transfers: Sequence[Transfer], players: int, pot: int) -> tuple[list[int], int]:
    """Each seat's net and the pot after ``transfers``. The output's ``pot`` is everything not
    held by a seat: the chat's pot plus a Старшина game pot (docs/conformance.md: balances + pot
    equal the pot given)."""
    balances = [0] * players
    for transfer in transfers:
        if isinstance(transfer.src, int):
            balances[transfer.src] -= transfer.amount
        else:
            pot -= transfer.amount
        if isinstance(transfer.dst, int):
            balances[transfer.dst] += transfer.amount
        else:
            pot += transfer.amount
    return balances, pot


def start_match(case: dict[str, Any], games: Sequence[GameTools]) -> ReplayMatch:
    """The case's game (one of ``games``) at its first deal: each game replays its own cases
    (``GameTools.replay``)."""
    game = case.get("game")
    if not isinstance(game, str):
        raise ValueError(f"unknown game {game!r}")
    replay = tools_for(games, game).replay  # ValueError for a kind no game has
    if replay is None:
        raise ValueError(f"no replay for game {game!r}")
    return replay(case)


def run_case(case: dict[str, Any], games: Sequence[GameTools]) -> dict[str, Any]:
    """Play ``case`` and return the output object of the conformance format."""
    match = start_match(case, games)
    rejected: dict[str, Any] | None = None
    for index, raw in enumerate(case.get("actions", [])):
        try:
            match.apply(Action.from_json(raw))
        except IllegalAction as error:
            rejected = {"index": index, "reason": error.reason}
            break
    balances, pot = money(match.transfers(), int(case["players"]), int(case.get("pot", 0)))
    finished = match.finished
    status = "rejected" if rejected else "finished" if finished else "waiting"
    return {
        "status": status,
        "deals": match.deals(),
        "balances": balances,
        "pot": pot,
        "to_act": None if finished else match.to_act,
        "legal": [] if finished else [entry.to_json() for entry in match.legal()],
        "rejected": rejected,
    }


def main(games: Sequence[GameTools], argv: Sequence[str] | None = None) -> int:
    """Replay the case a command line names, a case of one of ``games``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m game.replay CASE.json", file=sys.stderr)
        return 2
    case = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    print(json.dumps(run_case(case, games), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    from game.games import TOOLS

    sys.exit(main(TOOLS))
