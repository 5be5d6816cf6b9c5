"""People, as every front-end shows them: a player's name (a computer's translated), his
language and a chat's, the rank letters a group chose, whether the bot may write to him, where
a table is (a group's title, its forum topic's name), who sits where and who opened a table;
and what a front-end learns of a person or a chat (his name and language as his client gives
them, his Start, his blocking the bot; a group's title, a topic's name).

The table service holds one (``TableService.people``), which the chat and the page both use:
what one stores (a group's rank letters, a player's language) the other reads at once. It
keeps copies of stored chat settings for the chats seen last (``tables.bounded.Recent``); the
database stays the truth.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Literal

from locales import LANGUAGES, language
from storage.database_chats import Chats
from storage.database_games import Games
from storage.records import Game, Player
from tables.bounded import CHATS_KEPT, PLAYERS_KEPT, Recent
from tables.computers import computer_name, is_computer
from tables.records import Loaded

Ranks = Literal["latin", "russian"]
"""How the court cards and the ace read: J Q K A, or В Д К Т (валет, дама, король, туз)."""


def ranks_style(lang: str, setting: str | None) -> Ranks:
    """The rank letters the chat's texts and the page show in ``lang`` for a chat whose
    setting is ``setting`` (None: never set): English always J Q K A; Russian the setting, by
    default В Д К Т, the letters Russian players write (docs/playing.md)."""
    if lang != "ru":
        return "latin"
    return "latin" if setting == "latin" else "russian"


#: the open table of a chat's forum topic (None: no topic), if any (``TableStore.active``)
Active = Callable[[int, int | None], Awaitable[Loaded | None]]

#: the chat_options kind that holds a chat's display settings (the rank letters)
DISPLAY = "display"
#: the chat_options kind that holds the names of a group's forum topics, by thread id
TOPICS = "topics"
MAX_NAME = 32  # characters of a player's name shown
MAX_TITLE = 20  # characters of a group's title in a hand message's header
MAX_TOPIC = 16  # characters of a forum topic's name there (the line fits a phone: ≤ 41)


class People:
    """Names, languages, rank letters, places, seats and reachability, read from storage and
    kept a while."""

    def __init__(
        self,
        chats: Chats,
        games: Games,
        default_language: str,
        active: Active,
        clock: Callable[[], float],
    ) -> None:
        self.chats = chats
        #: the service's clock, that what is written of people and chats is stamped with
        self.clock = clock
        self.games = games
        self.default_language = default_language
        self._active = active
        self._languages: Recent[int, str] = Recent(CHATS_KEPT)
        self._ranks: Recent[int, str | None] = Recent(CHATS_KEPT)  # rank letters, as stored
        self._titles: Recent[int, str | None] = Recent(CHATS_KEPT)
        self._topics: Recent[int, dict[int, str]] = Recent(CHATS_KEPT)  # thread id → name
        #: each user's name and language as last written, for the users seen last
        self._seen: Recent[int, tuple[str, str | None]] = Recent(PLAYERS_KEPT)

    async def chat_moved(self, old: int, new: int) -> bool:
        """A group became a supergroup (Telegram gave it a new id): its games, balances, pot,
        settings and evenings follow the new id, in one transaction, and nothing is kept
        under the old one. False if the old id had nothing to move."""
        moved = await self.chats.migrate_chat(old, new, now=self.clock())
        for kept in (self._languages, self._ranks, self._titles, self._topics):
            kept.pop(old, None)
        return moved

    # ------------------------------------------------------------------ what a front-end saw

    async def saw(self, user_id: int, name: str, code: str | None) -> None:
        """A person's name and his client's language code, as a front-end saw them: written
        once per change (every update would be a write otherwise)."""
        if self._seen.get(user_id) == (name, code):
            return
        await self.chats.upsert_player(user_id, name, language=code, now=self.clock())
        self._seen[user_id] = (name, code)

    async def started(self, user_id: int, name: str) -> None:
        """He pressed Start: the bot may write to him."""
        await self.chats.upsert_player(user_id, name, started=True, now=self.clock())

    async def blocked(self, user_id: int) -> None:
        """He blocked the bot: it may not write to him any more (until he starts it again)."""
        players = await self.chats.players([user_id])
        if user_id in players:
            await self.chats.upsert_player(
                user_id, players[user_id].name, started=False, now=self.clock()
            )

    async def saw_chat(self, chat_id: int, title: str | None) -> None:
        """A group's update came in: its row exists, with its title as it is now."""
        if chat_id in self._titles and self._titles.get(chat_id) == title:
            return
        await self.chats.upsert_chat(chat_id, title, now=self.clock())
        self._titles[chat_id] = title

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
        topics = {str(k): v for k, v in names.items()}
        await self.chats.set_chat_options(chat_id, TOPICS, topics, now=self.clock())
        self._topics[chat_id] = names

    async def _topic_names(self, chat_id: int) -> dict[int, str]:
        cached: dict[int, str] | None = self._topics.get(chat_id)
        if cached is not None:
            return cached
        stored = await self.chats.chat_options(chat_id, TOPICS) or {}
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
            chat = await self.chats.chat(chat_id)
            title = chat.title if chat else None
            if chat is not None:  # no row yet: ``saw_chat`` must still write one
                self._titles[chat_id] = title
        if not title:
            return None
        place = cut(title, MAX_TITLE, words=True)
        topic = (await self._topic_names(chat_id)).get(thread) if thread is not None else None
        return f"{place} · {cut(topic, MAX_TOPIC, words=True)}" if topic else place

    # ------------------------------------------------------------------ languages

    async def chat_language(self, chat_id: int) -> str:
        """The language the bot speaks in a chat: a group's setting, or a private chat's
        owner's."""
        cached: str | None = self._languages.get(chat_id)
        if cached is not None:
            return cached
        if chat_id > 0:
            players = await self.chats.players([chat_id])
            player = players.get(chat_id)
            lang = self.spoken(player.language if player else None)
        else:
            chat = await self.chats.chat(chat_id)
            lang = language(chat.language if chat and chat.language else self.default_language)
        self._languages[chat_id] = lang
        return lang

    def spoken(self, code: str | None) -> str:
        """The bot's language for a client's language code; others get DEFAULT_LANGUAGE."""
        if code and code.split("-")[0].split("_")[0].lower() in LANGUAGES:
            return language(code)
        return language(self.default_language)

    async def user_language(self, user_id: int, code: str | None) -> str:
        """A user's language: his own choice, else his client's."""
        players = await self.chats.players([user_id])
        player = players.get(user_id)
        if player is not None and player.language:
            return self.spoken(player.language)
        return self.spoken(code)

    async def choose_language(self, chat_id: int, choice: str, *, private: bool) -> None:
        """/language: a private chat's owner's language, or a group's."""
        if private:
            players = await self.chats.players([chat_id])
            name = players[chat_id].name if chat_id in players else str(chat_id)
            await self.chats.upsert_player(chat_id, name, language=choice, now=self.clock())
        else:
            await self.chats.set_chat_language(chat_id, choice, now=self.clock())
        self._languages[chat_id] = choice

    # ------------------------------------------------------------------ card style

    async def chat_ranks(self, chat_id: int) -> str | None:
        """A group's choice of rank letters (``latin`` / ``russian``), None if never set."""
        if chat_id in self._ranks:
            ranks: str | None = self._ranks.get(chat_id)
            return ranks
        stored = await self.chats.chat_options(chat_id, DISPLAY) or {}
        kept = stored.get("ranks")
        ranks = kept if isinstance(kept, str) else None
        self._ranks[chat_id] = ranks
        return ranks

    async def set_chat_ranks(self, chat_id: int, ranks: str) -> None:
        await self.chats.set_chat_options(chat_id, DISPLAY, {"ranks": ranks}, now=self.clock())
        self._ranks[chat_id] = ranks

    # ------------------------------------------------------------------ players

    async def names(self, user_ids: Sequence[int], lang: str) -> list[str]:
        """Players' names for display in ``lang`` (a computer's is translated), each at most
        ``MAX_NAME`` characters (a chat allows longer ones: a table of six long names must
        still fit one message)."""
        players = await self.chats.players(user_ids)
        return [display_name(players, u, lang) for u in user_ids]

    async def is_reachable(self, user_id: int) -> bool:
        """Whether the bot may write to him (he pressed Start and has not blocked it)."""
        player = (await self.chats.players([user_id])).get(user_id)
        return player is not None and player.started

    async def reachable_of(self, users: list[int]) -> dict[int, bool]:
        """Whether each of ``users`` may be written to (a computer needs no writing)."""
        players = await self.chats.players(users)
        return {u: is_computer(u) or bool(players.get(u) and players[u].started) for u in users}

    async def reachable_map(self, chat_id: int, thread: int | None = None) -> dict[int, bool]:
        """Whether each player at the table of the chat's forum topic ``thread`` (None: no
        topic) may be written to."""
        loaded = await self._active(chat_id, thread)
        if loaded is None:
            return {}
        return await self.reachable_of(loaded.seats)

    async def is_table_creator(self, chat_id: int, user_id: int) -> bool:
        """Whether he opened a table open in the chat (in any of its forum topics)."""
        return any(game.created_by == user_id for game in await self.games.chat_open_games(chat_id))

    async def seat_at(self, chat_id: int, number: int, thread: int | None = None) -> int | None:
        """The player at seat ``number`` (from 1) of the table of the chat's forum topic
        ``thread`` (None: no topic), if there is one."""
        loaded = await self._active(chat_id, thread)
        if loaded is None or not 1 <= number <= len(loaded.seats):
            return None
        return loaded.seats[number - 1]

    async def games_of(self, user_id: int) -> list[Game]:
        """The open games he sits at."""
        return await self.games.user_open_games(user_id)


def cut(text: str, limit: int, *, words: bool = False) -> str:
    """``text`` on one line, cut to ``limit`` characters (an ellipsis marks the cut); with
    ``words``, between two words if one ends in the second half."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    kept = text[: limit - 1]
    if words and text[limit - 1] != " " and kept.rfind(" ") >= limit // 2:
        kept = kept[: kept.rfind(" ")]
    return kept.rstrip() + "…"


def short_name(name: str) -> str:
    """A name cut to ``MAX_NAME`` characters (an ellipsis marks the cut)."""
    return cut(name, MAX_NAME)


def display_name(players: Mapping[int, Player], user_id: int, lang: str) -> str:
    """One player's name for display in ``lang``: a computer's translated, a person's cut to
    ``MAX_NAME``, the id for a user never seen."""
    if is_computer(user_id):
        return computer_name(user_id, lang)
    return short_name(players[user_id].name) if user_id in players else str(user_id)
