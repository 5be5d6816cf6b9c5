"""Who makes a seat's move when its player does not: the rules read from a loaded table alone
(no storage, no clock). A computer seat is played by its computer; an away player by the strong
computer or by the default moves (the table's ``away_play``; always the default moves in a
game without computer players); a leaving player, and every seat after /stop now, by the
default moves (docs/rules.md §5)."""

from __future__ import annotations

from game.core import Action
from tables.computers import is_computer
from tables.records import Loaded, Notice


def auto_action(loaded: Loaded) -> Action | None:
    """The default move of the seat to act if the bot plays it (he is away or leaving, or
    /stop now plays every seat), else None."""
    if loaded.table is None or loaded.game.status != "active":
        return None
    seat = loaded.table.to_act
    if seat is None:
        return None
    user = loaded.seats[seat]
    if loaded.meta.autoplay:
        return loaded.table.default_action()
    if computer_plays(loaded, user):
        return None  # its turn timer brings the computer's move, after a short pause
    if user in loaded.meta.away or user in loaded.meta.leaving:
        return loaded.table.default_action()
    return None


def computer_plays(loaded: Loaded, user: int) -> bool:
    """Whether a computer makes this seat's moves: a computer seat (to the end of its deal,
    even once removed), or an away player at a table where the computer plays for the away
    (``TableMeta.away_play``) — unless he is leaving, or /stop now plays all."""
    if loaded.meta.autoplay:
        return False
    if is_computer(user):
        return True
    return away_by_computer(loaded) and user in loaded.meta.away and user not in loaded.meta.leaving


def away_by_computer(loaded: Loaded) -> bool:
    """Whether the computer plays for the away at this table: the table's ``away_play`` says
    so, and its game has computer players (else the default moves do)."""
    return loaded.meta.away_play == "computer" and loaded.plugin.has_computers


def away_notice(loaded: Loaded, key: str, user: int) -> Notice:
    """The one announcement that a player is away, saying who plays for him now."""
    return Notice(key, {"user": user, "computer": away_by_computer(loaded)})
