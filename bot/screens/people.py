"""People as the chat knows them: the places (a group's title, its forum topics' names) its
private messages name, who sits where and who opened a table; and, from the table service's
``People`` (``tables.people``, which the page uses too), names, languages, rank letters and who
may be written to.

Every screen asks this one for those facts. It keeps copies of the groups' titles and topic
names for the chats seen last (``tables.bounded.Recent``); the database stays the truth.
"""

from __future__ import annotations

from storage.database import Database
from storage.records import Game
from tables import TableService
from tables.bounded import CHATS_KEPT, Recent
from tables.people import cut

#: the chat_options kind that holds the names of a group's forum topics, by thread id
TOPICS = "topics"
MAX_TITLE = 20  # characters of a group's title in a hand message's header
MAX_TOPIC = 16  # characters of a forum topic's name there (the line fits a phone: ≤ 41)


class People:
    """Places, seats and the table service's people, read from storage and kept a while."""

    def __init__(self, db: Database, tables: TableService) -> None:
        self.db = db
        self.tables = tables
        shared = tables.people
        self.shared = shared
        self.chat_language = shared.chat_language
        self.spoken = shared.spoken
        self.user_language = shared.user_language
        self.choose_language = shared.choose_language
        self.chat_ranks = shared.chat_ranks
        self.set_chat_ranks = shared.set_chat_ranks
        self.names = shared.names
        self.is_reachable = shared.is_reachable
        self.reachable_of = shared.reachable_of
        self._titles: Recent[int, str | None] = Recent(CHATS_KEPT)
        self._topics: Recent[int, dict[int, str]] = Recent(CHATS_KEPT)  # thread id → name

    async def saw_chat(self, chat_id: int, title: str | None) -> None:
        """A group's update came in: its row exists, with its title as it is now."""
        if chat_id in self._titles and self._titles.get(chat_id) == title:
            return
        await self.db.upsert_chat(chat_id, title)
        self._titles[chat_id] = title

    def forget_chat(self, chat_id: int) -> None:
        """A chat moved (supergroup): nothing kept under its old id."""
        for kept in (self._titles, self._topics):
            kept.pop(chat_id, None)
        self.shared.forget_chat(chat_id)

    async def saw_topic(
        self, chat_id: int, thread: int, name: str, *, first_sight: bool = False
    ) -> None:
        """A forum topic's name as Telegram gave it: at its creation or a rename (kept), or
        on the opening message every message of the topic carries (``first_sight``: kept
        only while no name is known, as it shows the name the topic was created with)."""
        names = await self._topic_names(chat_id)
        if names.get(thread) == name or (first_sight and thread in names):
            return
        names = {**names, thread: name}
        await self.db.set_chat_options(chat_id, TOPICS, {str(k): v for k, v in names.items()})
        self._topics[chat_id] = names

    async def _topic_names(self, chat_id: int) -> dict[int, str]:
        cached: dict[int, str] | None = self._topics.get(chat_id)
        if cached is not None:
            return cached
        stored = await self.db.chat_options(chat_id, TOPICS) or {}
        names = {int(k): v for k, v in stored.items() if k.isdigit() and isinstance(v, str)}
        self._topics[chat_id] = names
        return names

    async def place(self, chat_id: int, thread: int | None) -> str | None:
        """Where a table is, for its players' private chats, where they may sit at several:
        the group's title, then its forum topic's name when the bot knows it, each cut short
        for a phone («Картёжники · Стол у окна»). None if the group's title is unknown."""
        if chat_id in self._titles:
            title: str | None = self._titles.get(chat_id)
        else:
            # kept as ``saw_chat`` keeps it: the stored title (after a restart, every hand
            # rendered before the group's next update would read the chat's row again)
            chat = await self.db.chat(chat_id)
            title = chat.title if chat else None
            if chat is not None:  # no row yet: ``saw_chat`` must still write one
                self._titles[chat_id] = title
        if not title:
            return None
        place = cut(title, MAX_TITLE, words=True)
        topic = (await self._topic_names(chat_id)).get(thread) if thread is not None else None
        return f"{place} · {cut(topic, MAX_TOPIC, words=True)}" if topic else place

    # ------------------------------------------------------------------ players

    async def reachable_map(self, chat_id: int, thread: int | None = None) -> dict[int, bool]:
        """Whether each player at the table of the chat's forum topic ``thread`` (None: no
        topic) may be written to."""
        loaded = await self.tables.store.active(chat_id, thread)
        if loaded is None:
            return {}
        return await self.reachable_of(loaded.seats)

    async def is_table_creator(self, chat_id: int, user_id: int) -> bool:
        """Whether he opened a table open in the chat (in any of its forum topics)."""
        return any(game.created_by == user_id for game in await self.db.chat_open_games(chat_id))

    async def seat_at(self, chat_id: int, number: int, thread: int | None = None) -> int | None:
        """The player at seat ``number`` (from 1) of the table of the chat's forum topic
        ``thread`` (None: no topic), if there is one."""
        loaded = await self.tables.store.active(chat_id, thread)
        if loaded is None or not 1 <= number <= len(loaded.seats):
            return None
        return loaded.seats[number - 1]

    async def games_of(self, user_id: int) -> list[Game]:
        """The open games he sits at."""
        return await self.db.user_open_games(user_id)
