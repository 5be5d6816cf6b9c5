"""What a person types after a command, and what a ``/start`` deep link carries, read one way.

Telegram hands both over as any Unicode. ``str.isdigit()`` takes «²» and «٣» for digits while
``int()`` refuses «²» and reads «٣» and «1_000»; a number of thousands of digits costs time to
read and overflows SQLite's integers. So every number the bot takes from a person goes through
``whole_number``: ASCII digits only, no more of them than the range needs, inside the range;
anything else is None, and the command answers with its usage line.
"""

from __future__ import annotations

from typing import Final

#: the payload of a lobby's deep link (``t.me/<bot>?start=g<game id>``) begins with this
GAME_LINK: Final = "g"
#: the largest id SQLite stores (a game's id is its row id)
MAX_GAME_ID: Final = 2**63 - 1


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, or None if it is anything else:
    empty, a space, a ``+``, a digit that is not ASCII, more digits than the range's ends
    have, or a number out of the range. A ``-`` before the digits only when ``low`` < 0."""
    if low > high:
        raise ValueError(f"an empty range: {low}..{high}")
    negative = low < 0 and text.startswith("-")
    digits = text[1:] if negative else text
    longest = max(len(str(abs(low))), len(str(abs(high))))
    if not digits or len(digits) > longest or not (digits.isascii() and digits.isdigit()):
        return None
    value = -int(digits) if negative else int(digits)
    return value if low <= value <= high else None


def game_link(game_id: int) -> str:
    """The deep-link payload that brings a player from a lobby to the bot's private chat."""
    return f"{GAME_LINK}{game_id}"


def linked_game(payload: str | None) -> int | None:
    """The game a ``/start`` payload names (``game_link``), or None for any other payload."""
    if not payload or not payload.startswith(GAME_LINK):
        return None
    return whole_number(payload[len(GAME_LINK) :], 1, MAX_GAME_ID)


__all__ = ["GAME_LINK", "MAX_GAME_ID", "game_link", "linked_game", "whole_number"]
