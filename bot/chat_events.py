"""What Telegram's answers tell about a chat, from the one who learns it to the one who acts.

A send or an edit can learn that a player blocked the bot (or that the bot was removed from a
group: a negative id), that a group became a supergroup, or that a forum topic cannot be
written to any more. The messenger reports each to the ``ChatEvents`` it was built with, which
hands it to its listeners: the presenter, whose table closes, whose player is played for, whose
chat's data moves. The presenter sends through the messenger, so one of the two must exist
before the other: this object is built before both and joins them (``bot.assembly``), and
neither is changed once built.
"""

from __future__ import annotations

from typing import Protocol


class ChatListener(Protocol):
    async def user_blocked(self, user_id: int) -> None:
        """He blocked the bot (a group's id: the bot was removed from it)."""
        ...

    async def chat_migrated(self, old: int, new: int) -> None:
        """The group ``old`` became the supergroup ``new``."""
        ...

    async def topic_lost(self, chat_id: int, thread: int) -> None:
        """The forum topic ``thread`` cannot be written to any more (closed, or deleted)."""
        ...


class ChatEvents:
    """Hands each event to every listener, in the order they were added, and waits for each:
    the sender whose request failed goes on only once the event has been acted on."""

    def __init__(self) -> None:
        self._listeners: list[ChatListener] = []

    def listen(self, listener: ChatListener) -> None:
        self._listeners.append(listener)

    async def user_blocked(self, user_id: int) -> None:
        for listener in self._listeners:
            await listener.user_blocked(user_id)

    async def chat_migrated(self, old: int, new: int) -> None:
        for listener in self._listeners:
            await listener.chat_migrated(old, new)

    async def topic_lost(self, chat_id: int, thread: int) -> None:
        for listener in self._listeners:
            await listener.topic_lost(chat_id, thread)
