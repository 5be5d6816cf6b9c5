"""A chat's own settings for its tables: the game options it chose, the time a decision may
take (/timeout) and who plays for an away player. They are stored per chat (the table settings
under ``TABLE_OPTIONS``, beside each game's options) and read when a table opens or a turn
starts; the turn time is cached per chat."""

from __future__ import annotations

from collections.abc import Callable

from game.registry import JsonObject
from storage.database_chats import Chats
from storage.database_games import Games
from tables.arguments import whole_number
from tables.bounded import CHATS_KEPT, Recent
from tables.games import Catalogue
from tables.records import Refused, is_practice

#: the chat's own table settings, stored beside the games' options (not a game kind)
TABLE_OPTIONS = "table"
TURN_TIMEOUT_RANGE = (10, 3600)  # seconds a chat may give a decision with /timeout
#: how an away player is played (a chat setting, in TABLE_OPTIONS, taken when a table opens):
#: by the strong computer in his own interest, or by the plain default moves of docs/rules.md §5
AWAY_PLAY = ("computer", "default")


class ChatSettings:
    """Each chat's game options, turn time and away play; ``turn_timeout`` where it chose
    none."""

    def __init__(
        self,
        chats: Chats,
        games: Games,
        catalogue: Catalogue,
        *,
        turn_timeout: float,
        clock: Callable[[], float],
    ) -> None:
        self.chats = chats
        #: the service's clock, that the settings written are stamped with
        self.clock = clock
        #: the games the tables offer
        self.catalogue = catalogue
        self.games = games
        self.turn_timeout = turn_timeout
        self._turn_timeouts: Recent[int, float] = Recent(CHATS_KEPT)
        self._hints: Recent[int, bool] = Recent(CHATS_KEPT)

    async def chat_options(self, chat_id: int, kind: str) -> JsonObject:
        stored = await self.chats.chat_options(chat_id, kind) or {}
        try:
            return self.catalogue.of(kind).rules.check_options(stored)
        except ValueError:
            return self.catalogue.of(kind).rules.check_options({})

    async def choose_options(self, chat_id: int, kind: str, chosen: JsonObject) -> None:
        """The chat chose these options (the settings menu, a preset, /new shleif): they are
        stored beside what it chose before, and only what it chose, so an option it never
        touched follows docs/rules.md's default even when that default changes."""
        stored = dict(await self.chats.chat_options(chat_id, kind) or {})
        stored.update(chosen)
        try:
            self.catalogue.of(kind).rules.check_options(stored)
        except ValueError:
            raise Refused("not_allowed") from None
        await self.chats.set_chat_options(chat_id, kind, stored, now=self.clock())

    async def turn_timeout_of(self, chat_id: int) -> float:
        """Seconds a decision may take in this chat: its own setting, else TURN_TIMEOUT."""
        cached = self._turn_timeouts.get(chat_id)
        if cached is None:
            stored = await self.chats.chat_options(chat_id, TABLE_OPTIONS) or {}
            value = stored.get("turn_timeout")
            cached = self.turn_timeout
            if isinstance(value, int) and TURN_TIMEOUT_RANGE[0] <= value <= TURN_TIMEOUT_RANGE[1]:
                cached = float(value)
            self._turn_timeouts[chat_id] = cached
        return cached

    async def in_play(self, chat_id: int) -> bool:
        """Whether a game of the chat is being played (not a lobby): it keeps the options it
        began with, and a change of them waits for the chat's next game."""
        return any(game.status == "active" for game in await self.games.chat_open_games(chat_id))

    async def set_turn_timeout(
        self, chat_id: int, user_id: int, is_admin: bool, seconds: str
    ) -> int:
        """/timeout N by a chat admin or whoever opened a table open in the chat (in any of its
        forum topics, as for the other settings); for the whole chat, from the next decision
        on."""
        tables = await self.games.chat_open_games(chat_id)
        if not is_admin and not any(game.created_by == user_id for game in tables):
            raise Refused("creator_or_admin_only")
        value = whole_number(seconds, *TURN_TIMEOUT_RANGE)
        if value is None:
            raise Refused("bad_timeout")
        stored = dict(await self.chats.chat_options(chat_id, TABLE_OPTIONS) or {})
        stored["turn_timeout"] = value
        await self.chats.set_chat_options(chat_id, TABLE_OPTIONS, stored, now=self.clock())
        self._turn_timeouts.pop(chat_id, None)
        return value

    async def away_play_of(self, chat_id: int) -> str:
        """Who plays for an away player at this chat's next table (``AWAY_PLAY``)."""
        stored = await self.chats.chat_options(chat_id, TABLE_OPTIONS) or {}
        value = stored.get("away_play")
        return value if value in AWAY_PLAY else AWAY_PLAY[0]

    async def set_away_play(self, chat_id: int, value: str) -> None:
        """The /settings choice of who plays for an away player, from the next table on (a
        running game keeps what it started with, as it keeps its options)."""
        if value not in AWAY_PLAY:
            raise Refused("not_allowed")
        stored = dict(await self.chats.chat_options(chat_id, TABLE_OPTIONS) or {})
        stored["away_play"] = value
        await self.chats.set_chat_options(chat_id, TABLE_OPTIONS, stored, now=self.clock())

    async def hints_of(self, chat_id: int) -> bool:
        """Whether a player at this chat's tables may ask for the strong computer's advice at
        his turn (💡): always at a practice table; in a group only once its settings allow it
        (off by default: a group plays its own game). Read at every turn, so a change in
        /settings shows at the next one; cached per chat."""
        if is_practice(chat_id):
            return True
        cached = self._hints.get(chat_id)
        if cached is None:
            stored = await self.chats.chat_options(chat_id, TABLE_OPTIONS) or {}
            cached = stored.get("hints") is True
            self._hints[chat_id] = cached
        return cached

    async def set_hints(self, chat_id: int, allowed: bool) -> None:
        """The /settings choice whether hints are allowed at the chat's tables."""
        stored = dict(await self.chats.chat_options(chat_id, TABLE_OPTIONS) or {})
        stored["hints"] = allowed
        await self.chats.set_chat_options(chat_id, TABLE_OPTIONS, stored, now=self.clock())
        self._hints[chat_id] = allowed

    def forget_chat(self, chat_id: int) -> None:
        """A chat moved (supergroup): its settings are read again under the new id."""
        self._turn_timeouts.pop(chat_id, None)
        self._hints.pop(chat_id, None)
