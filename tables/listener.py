"""How the tables tell their front-ends what happened: one narrow interface.

A front-end (the Telegram chat, the Mini App) is a ``TableListener`` in
``TableService.listeners`` and overrides what it shows: every change of a table comes as one
``TableEvent`` (``took``, awaited in turn by ``TableService.publish``, whoever made the
change), an evening ended as ``evenings_due`` and, after a restart, a game's results still due
as ``results_due`` (plain calls: a listener takes note and never blocks). The tables' own
timers follow the commits themselves (``TableStore.committed``), not a listener.
"""

from __future__ import annotations

from storage.records import Game
from tables.events import TableEvent


class TableListener:
    """A front-end of the tables; each call does nothing unless the front-end shows it."""

    async def took(self, event: TableEvent) -> None:
        """A change of a table is done (``TableService.publish``): what it did. Awaited in
        turn, so a front-end settles here only what must be settled before the change's
        maker is answered (the chat's notices and results), and sends the rest in the
        background."""

    def evenings_due(self, chat_id: int, after_game: int | None) -> None:
        """The chat has ended evenings not posted yet (``tables.evenings``): post them, after
        the table messages of ``after_game`` (a stopped table), if any."""

    def results_due(self, game: Game) -> None:
        """After a restart: ``game`` has results of ended deals (``TableMeta.due``) that no
        front-end marked posted (``TableService.results_posted``): post them, once."""
