"""The tables: one table's life, whoever shows it — between the front-ends and the rules.

It knows ``game/`` and ``storage/`` and nothing of Telegram, the chat (``bot/``) or the Mini
App (``web/``). Every change of a game runs under
the chat's lock, reloads the game, checks the turn number the button was made for, applies the
rules and commits the new state, the action and the money in one transaction. It publishes
the frozen record of what the change did (``events.TableEvent``) to every front-end
(``events.Stream``, each a ``listener.TableListener``), and hands it back to the caller, with
the evenings ended and the results due after a restart on the same stream; it never sends
anything itself.

The units, each given the ones it uses (``service.py`` wires them into ``TableService``):

- ``commands.py``: what a player asks a table to do, as both front-ends hand it in (``Move``:
  a look, a decision, a suit, cards named from a seen hand, a count of unseen ones);
- ``events.py``: the records every listener is told of: ``TableEvent``, what one change of a
  table did (the rules' events in order, each public or addressed to one player),
  ``EveningEnded`` and ``ResultsDue``;
- ``records.py``: ``TableMeta``, ``Loaded``, ``Notice``, ``DealResult``, ``Refused``, and
  ``Reply``, the builder an operation makes its change's record in;
- ``chat_settings.py``: a chat's game options, turn time and away play;
- ``store.py``: locks, reading and the read cache, a commit (``Commit``) under the version
  check;
- ``autoplay.py``: who makes a seat's move when its player does not (pure);
- ``steps.py``: a rules step committed, then the forced steps; a deal's end, the next deal;
- ``lobby.py``: /new, /join, /leave, computers seated, /begin, /kick;
- ``turns.py``: a press, a turn run out, a computer's move, «I'm back», a blocked bot;
- ``stopping.py``: /stop, a lost table, a voided deal, a frozen table;
- ``evenings.py``: when a chat's run of play ends;
- ``people.py``: names, languages, card style, places and seats, as both front-ends show them;
- ``deals.py``: finished deals read back from the log (the page's score cards and replays);
- ``ledger_csv.py``: a chat's ledger as a CSV file, for any front-end to hand out (/export);
- ``runner.py``: the tables' own time: turn timers armed from the commits, the moves that
  come due (timeouts, computers, away players), every table resumed after a restart;
- ``presence.py``: who looks at a table on the page now (the chat stands back for him);
- ``games/``: every game's table side (its rules, choices, options menu, computers);
- ``computers.py`` (the computer players' worker processes), ``timers.py``, ``bounded.py``
  (bounded caches and locks), ``arguments.py`` (numbers typed by people),
  ``storage_health.py`` (the database failing).
"""

from storage.records import Game
from tables.records import (
    DealResult,
    Loaded,
    Notice,
    Refused,
    TableMeta,
    due_result,
    is_practice,
    move_params,
    result_from_due,
    sent_maybe,
)
from tables.service import TableService
from tables.turns import AWAY_AFTER_TIMEOUTS

__all__ = [
    "AWAY_AFTER_TIMEOUTS",
    "DealResult",
    "Game",
    "Loaded",
    "Notice",
    "Refused",
    "TableMeta",
    "TableService",
    "due_result",
    "is_practice",
    "move_params",
    "result_from_due",
    "sent_maybe",
]
