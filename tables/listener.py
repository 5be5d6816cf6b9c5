"""How the tables tell their front-ends what changed: one narrow interface.

A front-end (the Telegram chat, the Mini App) adds a ``TableListener`` to
``TableService.listeners``. The calls are plain functions, made in the event loop right after
the change is committed: a listener only takes note (schedules its own refresh) and never
awaits, so no front-end holds up a table or another front-end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from storage.records import Game
from tables.events import TableEvent


class TableListener(Protocol):
    def table_changed(self, game: Game) -> None:
        """``game`` was committed: its lobby, seats, deal or status changed (``game`` is the
        new version)."""
        ...

    def evenings_due(self, chat_id: int, after_game: int | None) -> None:
        """The chat has ended evenings not posted yet (``tables.evenings``): post them, after
        the table messages of ``after_game`` (a stopped table), if any."""
        ...

    def results_due(self, game: Game) -> None:
        """After a restart: ``game`` has results of ended deals (``TableMeta.due``) that no
        front-end marked posted (``TableService.results_posted``): post them, once."""
        ...

    async def took(self, event: TableEvent) -> None:
        """A change of a table is done (``TableService.publish``): what it did. Awaited in
        turn, so a front-end settles here only what must be settled before the change's
        maker is answered (the chat's notices and results), and sends the rest in the
        background."""
        ...


class CommitWatcher:
    """A listener of commits only (``TableService.watch``): ``watcher`` is told of each."""

    def __init__(self, watcher: Callable[[Game], None]) -> None:
        self.watcher = watcher

    def table_changed(self, game: Game) -> None:
        self.watcher(game)

    def evenings_due(self, chat_id: int, after_game: int | None) -> None:
        pass

    def results_due(self, game: Game) -> None:
        pass

    async def took(self, event: TableEvent) -> None:
        pass
