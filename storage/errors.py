"""Typed errors raised by the storage layer.

Every error the bot is expected to handle is a subclass of ``StorageError``. Programming
errors (a negative amount, an unknown status) are ``ValueError`` and are not caught here.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error the storage layer raises on purpose."""


class StaleVersion(StorageError):
    """The game moved on: its stored version is not the one the caller expected.

    The caller lost a race (another press, a timer) and must reload the game.
    """

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, stored {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameNotFound(StorageError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class GameClosed(StorageError):
    """The game is finished or stopped; it accepts no more commits."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}")
        self.game_id = game_id
        self.status = status


class ActiveGameExists(StorageError):
    """The chat (or its forum topic) already has a game in the lobby or in play (one at a time
    per chat and topic)."""

    def __init__(self, chat_id: int, game_id: int) -> None:
        super().__init__(f"chat {chat_id} already has open game {game_id}")
        self.chat_id = chat_id
        self.game_id = game_id


class UnknownChat(StorageError):
    """The chat has no row yet: call ``Database.chats.upsert_chat`` when the bot first sees it."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"unknown chat {chat_id}")
        self.chat_id = chat_id


class UnknownPlayer(StorageError):
    """A user id that has no player row: call ``Database.chats.upsert_player`` on every sighting.

    Also what a seat number passed where a Telegram user id belongs usually looks like.
    """

    def __init__(self, user_ids: list[int]) -> None:
        super().__init__(f"unknown players {sorted(user_ids)}")
        self.user_ids = sorted(user_ids)


class ChatMigrationConflict(StorageError):
    """Both the old and the new chat have an open game; nothing was moved."""

    def __init__(self, old_chat_id: int, new_chat_id: int) -> None:
        super().__init__(f"chats {old_chat_id} and {new_chat_id} both have an open game")
        self.old_chat_id = old_chat_id
        self.new_chat_id = new_chat_id


class SchemaTooNew(StorageError):
    """The file was written by a newer version of this code; refuse to touch it."""

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(f"database schema version {found} is newer than {supported}")
        self.found = found
        self.supported = supported


class ReplayError(StorageError):
    """An action log that cannot be replayed (a gap in versions, no initial state)."""


class DatabaseDamaged(StorageError):
    """The database file fails SQLite's ``PRAGMA quick_check`` (or is not a database at all):
    the bot refuses to start on it rather than play on a damaged ledger."""
