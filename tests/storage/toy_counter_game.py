"""A tiny deterministic game for the storage tests (the crash child uses it too).

It is not a mock of anything: the SQLite file is what the tests exercise. It only gives them
a pure ``apply`` to replay logs with and money that follows from the log, so a test can
recompute every transfer a commit must have written.

Three seats; an action is ``{"seat": s, "add": k}`` with ``k`` in 0..9; ``k`` decides the
transfer (to or from the chat pot, the game pot or a neighbour). Every fifth move ends the
deal (a deal record); the next deal starts with a system commit whose antes go to the pot.
A ``{"seat": s, "add": 0, "finish": true}`` action ends the game: the game pot goes to the
seat with the highest score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage import GAME_POT, POT, DealPlayer, DealRecord, Transfer

MOVES_PER_DEAL = 5


def new_state(seats: list[int]) -> dict[str, Any]:
    """The state at version 0."""
    return {
        "seats": seats,
        "deal": 1,
        "moves": 0,
        "turn": 0,
        "scores": [0] * len(seats),
        "game_pot": 0,
        "finished": False,
    }


def apply(state: Mapping[str, Any], action: Any) -> dict[str, Any]:
    """The state after ``action``; pure."""
    seat, add = action["seat"], action["add"]
    scores = list(state["scores"])
    scores[seat] += add
    game_pot = state["game_pot"]
    for transfer in action_transfers(state, action):
        if transfer.dst == GAME_POT:
            game_pot += transfer.amount
        if transfer.src == GAME_POT:
            game_pot -= transfer.amount
    return {
        **state,
        "moves": state["moves"] + 1,
        "turn": (state["turn"] + 1) % len(state["seats"]),
        "scores": scores,
        "game_pot": game_pot,
        "finished": bool(action.get("finish", False)),
    }


def action_transfers(state: Mapping[str, Any], action: Any) -> list[Transfer]:
    """The money an action moves, from the state before it."""
    seats, deal = state["seats"], state["deal"]
    user = seats[action["seat"]]
    neighbour = seats[(action["seat"] + 1) % len(seats)]
    if action.get("finish"):
        if state["game_pot"] <= 0:
            return []
        best = max(range(len(seats)), key=lambda s: (state["scores"][s], -s))
        return [Transfer(GAME_POT, seats[best], state["game_pot"], "game_win", deal)]
    add = action["add"]
    if add in (1, 2, 3):
        return [Transfer(user, POT, add, "ante", deal)]
    if add in (4, 5):
        return [Transfer(POT, user, add - 3, "trick", deal)]
    if add == 6:
        return [Transfer(user, POT, 2, "remiz", deal), Transfer(POT, neighbour, 1, "trick", deal)]
    if add == 7:
        return [Transfer(user, GAME_POT, 2, "game_ante", deal)]
    if add == 8 and state["game_pot"] > 0:
        return [Transfer(GAME_POT, user, 1, "game_win", deal)]
    if add == 9:
        return [Transfer(user, neighbour, 1, "diff", deal)]
    return []


def deal_ends(state_after: Mapping[str, Any]) -> bool:
    """True when the action that produced ``state_after`` ended the deal."""
    return not state_after["finished"] and state_after["moves"] == MOVES_PER_DEAL


def deal_record(state_after: Mapping[str, Any]) -> DealRecord:
    """The record of the deal that ``state_after`` ends."""
    players = tuple(
        DealPlayer(user, seat, tricks=state_after["scores"][seat] % 4, active=seat != 2)
        for seat, user in enumerate(state_after["seats"])
    )
    return DealRecord(state_after["deal"], players, {"scores": state_after["scores"]})


def next_deal(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state a system commit sets to start the next deal."""
    return {**state, "deal": state["deal"] + 1, "moves": 0}


def deal_antes(state_after: Mapping[str, Any]) -> list[Transfer]:
    """The antes the system commit that starts a deal writes: one chip per seat to the pot."""
    return [Transfer(user, POT, 1, "ante", state_after["deal"]) for user in state_after["seats"]]
