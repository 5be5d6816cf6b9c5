"""The chat's own display storage: which Telegram messages show what (the group's table
message and the deal it shows, a table send that may have been delivered, a started game's
lobby message whose buttons are still on, each player's hand message by deal, the /history
and menu messages whose buttons may edit them, the words of the game each player has had
explained).

Only the chat front-end (``bot/``) imports this module: nothing here is a table's state, and
the table service never reads it. The ids of a game's messages are kept beside the game's row
(its ``Display`` comes back with every read of the game, in the same statement), so the move
that changes what is on screen changes them in its own transaction: the commit that begins a
game moves the lobby's message aside (``storage.games.commit_action``), the commit that ends a
deal makes that deal's hand messages old (each is stored with the deal it shows) and writes its
result as due. What this module writes besides is what only the chat learns: a message id
once Telegram returns it, an old message once it is retired."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from storage import chats, games
from storage.chats import unknown_players
from storage.database_core import Repository
from storage.errors import GameNotFound, UnknownPlayer
from storage.records import Display, Game, HandMessage, JSONObject
from storage.sql import write_transaction

__all__ = ["ChatDisplay", "Display", "HandMessage"]

MENUS = "menus"
"""The chat-options kind a chat's recent menu messages are kept under, by the menu's kind."""
GLOSSARY = "glossary"
"""The private chat's options kind that holds, per word of the game, the [game, deal] its gloss
was first shown in."""


class ChatDisplay(Repository):
    """The chat's message ids, a repository on the database's one connection (its writes go in
    the same group commit as the service's)."""

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, deal: int | None = None, now: float
    ) -> None:
        """Remember the group message that shows the table of ``deal`` (None forgets it)."""
        await self._db._write_game(game_id, set_table_message, game_id, message_id, deal, now=now)

    async def set_table_unknown(self, game_id: int, *, now: float) -> None:
        """A table message may have been delivered though its send failed (see ``Display``)."""
        await self._db._write_game(game_id, set_table_unknown, game_id, now=now)

    async def set_lobby_message(self, game_id: int, message_id: int | None, *, now: float) -> None:
        """Remember (None: forget) a started game's lobby message whose buttons are still on."""
        await self._db._write_game(game_id, set_lobby_message, game_id, message_id, now=now)

    async def set_hand_message(
        self, game_id: int, user_id: int, message_id: int, *, deal: int | None = None
    ) -> None:
        """Remember the private message that shows ``user_id`` his hand of ``deal`` (None: the
        deal in play; a message rendered from an earlier deal is recorded as that deal's, so
        it is old at once: see ``Display.old_hands``)."""
        await self._db._write_game(game_id, set_hand_message, game_id, user_id, message_id, deal)

    async def forget_hand_message(self, game_id: int, user_id: int, message_id: int) -> None:
        """Forget a hand message (retired, or closed with its table), whichever deal it shows."""
        await self._db._write_game(game_id, forget_hand_message, game_id, user_id, message_id)

    async def games_with_old_hands(self) -> list[Game]:
        """Games (open or not) with hand messages of ended deals still to retire (a restart
        retires them: see ``Display.old_hands``)."""
        return self._db._games_from(*await self._db._trip(old_hands_rows))

    async def remember_history_message(self, chat_id: int, message_id: int, *, now: float) -> None:
        """Record a /history message the bot sent at ``now`` (its buttons may edit it)."""
        await self._db._write(remember_history_message, chat_id, message_id, now=now)

    async def is_history_message(self, chat_id: int, message_id: int) -> bool:
        """Whether ``message_id`` of ``chat_id`` is a /history message of the bot."""
        return await self._db._run(is_history_message, chat_id, message_id)

    async def remember_menu(
        self, chat_id: int, kind: str, message_id: int, keep: int, *, now: float
    ) -> None:
        """``message_id`` is now a menu of ``kind`` in the chat; only the newest ``keep`` of
        that kind are kept (an older one's buttons are refused as outdated)."""
        await self._db._write(remember_menu, chat_id, kind, message_id, keep, now=now)

    async def is_menu(self, chat_id: int, kind: str, message_id: int) -> bool:
        """Whether ``message_id`` is one of the chat's kept menus of ``kind``."""
        stored = await self._db._run(chats.get_chat_options, chat_id, MENUS) or {}
        return message_id in stored.get(kind, [])

    async def glossary(self, user_id: int) -> dict[str, list[int]]:
        """The words ``user_id`` has had explained, each with the [game, deal] it first was."""
        stored = await self._db._run(chats.get_chat_options, user_id, GLOSSARY) or {}
        return {
            term: [int(part) for part in where]
            for term, where in stored.items()
            if isinstance(where, list) and len(where) == 2
        }

    async def set_glossary(self, user_id: int, met: dict[str, list[int]], *, now: float) -> None:
        """Store the words ``user_id`` has had explained (``glossary``)."""
        met_lists: JSONObject = {term: list(w) for term, w in met.items()}
        await self._db._write(set_glossary, user_id, met_lists, now=now)


def set_table_message(
    conn: sqlite3.Connection,
    game_id: int,
    message_id: int | None,
    deal: int | None = None,
    *,
    now: float,
) -> None:
    """Record (or clear, with None) the group message that shows the table, and the deal it
    shows (None: the current one); a table message known is no longer unknown."""
    games.update_game(
        conn,
        game_id,
        "table_message_id = ?, table_deal = ?, table_unknown = 0",
        (message_id, deal),
        now=now,
    )


def set_table_unknown(conn: sqlite3.Connection, game_id: int, *, now: float) -> None:
    """A table message may have been delivered though its send failed: none other is sent
    until the next deal (``set_table_message`` or the deal's result clears the mark)."""
    games.update_game(conn, game_id, "table_unknown = 1", (), now=now)


def set_lobby_message(
    conn: sqlite3.Connection, game_id: int, message_id: int | None, *, now: float
) -> None:
    """Record (or clear, with None: its buttons are off) the started game's lobby message."""
    games.update_game(conn, game_id, "lobby_message_id = ?", (message_id,), now=now)


def set_hand_message(
    conn: sqlite3.Connection, game_id: int, user_id: int, message_id: int, deal: int | None
) -> None:
    """Record the private message that shows ``user_id`` his hand of ``deal`` (None: the deal
    in play), in place of the one it had for that deal."""
    with write_transaction(conn):
        row = conn.execute(
            f"SELECT {games.DEAL} AS deal FROM games WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        missing = unknown_players(conn, [user_id])
        if missing:
            raise UnknownPlayer(missing)
        conn.execute(
            "INSERT INTO game_messages (game_id, user_id, deal, message_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id, deal) DO UPDATE SET message_id = excluded.message_id",
            (game_id, user_id, row["deal"] if deal is None else deal, message_id),
        )


def forget_hand_message(
    conn: sqlite3.Connection, game_id: int, user_id: int, message_id: int
) -> None:
    """The message ``message_id`` shows ``user_id``'s hand no more (whichever deal it showed):
    it has been retired, or closed with its table."""
    with write_transaction(conn):
        if conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is None:
            raise GameNotFound(game_id)
        conn.execute(
            "DELETE FROM game_messages WHERE game_id = ? AND user_id = ? AND message_id = ?",
            (game_id, user_id, message_id),
        )


def old_hands_rows(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """The rows of the games (open or not) that have hand messages of a deal that has ended,
    still to be retired."""
    return games.game_rows(
        conn,
        "EXISTS (SELECT 1 FROM game_messages AS m"
        f" WHERE m.game_id = games.game_id AND m.deal < {games.DEAL})",
        (),
    )


def remember_history_message(
    conn: sqlite3.Connection, chat_id: int, message_id: int, *, now: float
) -> None:
    """Record a /history message the bot sent, whose buttons may edit it."""
    with write_transaction(conn):
        conn.execute(
            "INSERT OR IGNORE INTO history_messages (chat_id, message_id, created_at)"
            " VALUES (?, ?, ?)",
            (chat_id, message_id, now),
        )


def is_history_message(conn: sqlite3.Connection, chat_id: int, message_id: int) -> bool:
    """Whether the bot sent ``message_id`` in ``chat_id`` as a /history message."""
    row = conn.execute(
        "SELECT 1 FROM history_messages WHERE chat_id = ? AND message_id = ?",
        (chat_id, message_id),
    ).fetchone()
    return row is not None


def remember_menu(
    conn: sqlite3.Connection, chat_id: int, kind: str, message_id: int, keep: int, *, now: float
) -> None:
    """Add ``message_id`` to the chat's menus of ``kind``, keeping the newest ``keep``; read
    and written in one transaction, so two menus sent at once are both kept."""
    with write_transaction(conn):
        stored = dict(chats.get_chat_options(conn, chat_id, MENUS) or {})
        ids: Sequence[object] = stored.get(kind, [])
        kept = [i for i in ids if isinstance(i, int) and i != message_id]
        stored[kind] = [*kept, message_id][-keep:]
        chats.set_chat_options(conn, chat_id, MENUS, stored, now=now)


def set_glossary(conn: sqlite3.Connection, user_id: int, met: JSONObject, *, now: float) -> None:
    """Store a player's glossary with his private chat's options (the chat's row is made
    first: it exists once something of its own is stored)."""
    with write_transaction(conn):
        chats.upsert_chat(conn, user_id, None, now=now)
        chats.set_chat_options(conn, user_id, GLOSSARY, met, now=now)
