"""The table service: everything a group's table does, between the handlers and the rules.

It knows ``game/`` and ``storage/`` and nothing of Telegram. Every change of a game runs under
the chat's lock, reloads the game, checks the turn number the button was made for, applies the
rules and commits the new state, the action and the money in one transaction. It returns a
``Reply`` that says what the handlers must show; it never sends anything itself.

The units, each given the ones it uses (``tables.py`` wires them into ``TableService``):

- ``records.py``: ``TableMeta``, ``Loaded``, ``Reply``, ``Notice``, ``DealResult``, ``Refused``;
- ``chat_settings.py``: a chat's game options, turn time and away play;
- ``store.py``: locks, reading and the read cache, a commit under the version check;
- ``autoplay.py``: who makes a seat's move when its player does not (pure);
- ``steps.py``: a rules step committed, then the forced steps; a deal's end, the next deal;
- ``lobby.py``: /new, /join, /leave, computers seated, /begin, /kick;
- ``turns.py``: a press, a turn run out, a computer's move, «I'm back», a blocked bot;
- ``stopping.py``: /stop, a lost table, a voided deal, a frozen table.
"""

from bot.service.records import (
    DealResult,
    Loaded,
    Notice,
    Refused,
    Reply,
    TableMeta,
    due_result,
    is_practice,
    move_params,
    result_from_due,
    sent_maybe,
)
from bot.service.tables import TableService
from bot.service.turns import AWAY_AFTER_TIMEOUTS

__all__ = [
    "AWAY_AFTER_TIMEOUTS",
    "DealResult",
    "Loaded",
    "Notice",
    "Refused",
    "Reply",
    "TableMeta",
    "TableService",
    "due_result",
    "is_practice",
    "move_params",
    "result_from_due",
    "sent_maybe",
]
