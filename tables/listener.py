"""How the tables tell their front-ends what happened: one narrow interface.

A front-end (the Telegram chat, the Mini App) is a ``TableListener`` in the service's
``stream.listeners`` and takes every record the tables publish at one entry point, ``took``
(awaited in turn by ``events.Stream.publish``, right after the change commits, in the task
that made it): a change of a table (``TableEvent``,
whoever made it), an evening ended (``EveningEnded``) and, after a restart, a game's results
still due (``ResultsDue``). A listener shows what it shows of each and ignores the rest. The
tables' own timers follow the commits themselves (``TableStore.committed``), not a listener.
"""

from __future__ import annotations

from tables.events import Record


class TableListener:
    """A front-end of the tables; it does nothing unless the front-end shows a record."""

    async def took(self, record: Record) -> None:
        """The tables published ``record`` (``events.Stream``). Awaited in turn, so a
        front-end settles here only what must be settled before the change's maker is
        answered (the chat's notices and results), and sends the rest in the background; an
        evening ended or a result due is taken note of, never waited for."""
