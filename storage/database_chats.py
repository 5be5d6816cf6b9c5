"""The chats and players repository (``Database.chats``): sightings, names, languages, options,
a chat's move to a new id."""

from __future__ import annotations

from collections.abc import Iterable

from storage import chats
from storage.database_core import Repository
from storage.records import (
    Chat,
    JSONObject,
    Player,
)


class Chats(Repository):
    """Chats and players, on the shared core (players are kept in its read cache)."""

    async def upsert_chat(self, chat_id: int, title: str | None = None, *, now: float) -> Chat:
        """Record a sighting of a chat (call on every update) at ``now``; None keeps the
        stored title."""
        return (await self._db._write(chats.upsert_chat, chat_id, title, now=now))[0]

    async def chat(self, chat_id: int) -> Chat | None:
        """The chat, or None if the bot has never seen it."""
        return await self._db._run(chats.get_chat, chat_id)

    async def set_chat_language(self, chat_id: int, language: str | None, *, now: float) -> None:
        """Set the chat's language (None: the bot's default) at ``now``. Raises
        ``UnknownChat``."""
        await self._db._write(chats.set_chat_language, chat_id, language, now=now)

    async def chat_options(self, chat_id: int, kind: str) -> JSONObject | None:
        """The chat's saved table options for game ``kind``, or None."""
        return await self._db._run(chats.get_chat_options, chat_id, kind)

    async def set_chat_options(
        self, chat_id: int, kind: str, options: JSONObject, *, now: float
    ) -> None:
        """Save the chat's table options for game ``kind`` at ``now``. Raises
        ``UnknownChat``."""
        await self._db._write(chats.set_chat_options, chat_id, kind, options, now=now)

    async def upsert_player(
        self,
        user_id: int,
        name: str,
        *,
        language: str | None = None,
        started: bool | None = None,
        now: float,
    ) -> Player:
        """Record a sighting of a user at ``now``; ``language``/``started`` None keep what is
        stored.

        ``started``: True when he presses /start in private, False when he blocks the bot.
        """
        with self._db._cache.writing_player(user_id):
            player, fresh = await self._db._write(
                chats.upsert_player, user_id, name, language, started, now=now
            )
        if fresh:
            self._db._cache.keep_player(player)
        return player

    async def players(self, user_ids: Iterable[int]) -> dict[int, Player]:
        """The known players among ``user_ids``, by id."""
        found, missing = self._db._cache.players(list(user_ids))
        if missing:
            read, fresh = await self._db._trip(chats.get_players, missing)
            for player in read.values() if fresh else ():
                self._db._cache.keep_player(player)
            found.update(read)
        return found

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int, *, now: float) -> bool:
        """Move a chat that became a supergroup to its new id, everything in one transaction
        (stamped ``now``).

        Returns False if the old chat is unknown. Settings the new chat already has win.
        Raises ``ChatMigrationConflict`` (moving nothing) if both chats have an open game.
        """
        with self._db._cache.writing_everything():
            return await self._db._run(chats.migrate_chat, old_chat_id, new_chat_id, now=now)
