"""Which messages are menus: a menu press (settings, the /balance pages) edits the message it
was pressed on, so it must act only on a menu message of its own kind — never on a lobby, a
table or a deal's result that a forged or misplaced press points at.

The ids of a chat's recent menu messages are stored with the chat's options (kind
``menus``), so they survive a restart.
"""

from __future__ import annotations

from typing import Literal

from storage.database import Database

MENUS = "menus"  # the chat-options kind they are kept under
KEEP = 20  # the newest menus of each kind a chat keeps live
MenuKind = Literal["settings", "balance"]


async def remember(db: Database, chat_id: int, kind: MenuKind, message_id: int | None) -> None:
    """``message_id`` is now a menu of ``kind`` in the chat (the oldest beyond ``KEEP`` are
    forgotten: their buttons are refused as outdated)."""
    if message_id is None:
        return
    stored = dict(await db.chat_options(chat_id, MENUS) or {})
    ids = [i for i in stored.get(kind, []) if isinstance(i, int) and i != message_id]
    stored[kind] = [*ids, message_id][-KEEP:]
    await db.set_chat_options(chat_id, MENUS, stored)


async def is_menu(db: Database, chat_id: int, kind: MenuKind, message_id: int | None) -> bool:
    """Whether ``message_id`` is a menu of ``kind`` in the chat."""
    if message_id is None:
        return False
    stored = await db.chat_options(chat_id, MENUS) or {}
    return message_id in stored.get(kind, [])
