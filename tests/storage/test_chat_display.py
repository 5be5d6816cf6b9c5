"""The chat's own display storage (``storage.chat_display``) beside the game rows: its menus
kept newest last and cut to a number, /history messages, a player's glossary."""

from __future__ import annotations

import asyncio
from pathlib import Path

from storage.chat_display import ChatDisplay
from storage.database import Database
from tests.storage.storage_support import CLOCK

GROUP, PLAYER = -5, 7


async def test_menus_keep_the_newest_of_each_kind_and_two_at_once_are_both_kept(
    db_path: Path,
) -> None:
    async with await Database.open(db_path) as db:
        await db.chats.upsert_chat(GROUP, "group", now=CLOCK())
        display = ChatDisplay(db)
        await asyncio.gather(
            display.remember_menu(GROUP, "settings", 1, 3, now=CLOCK()),
            display.remember_menu(GROUP, "settings", 2, 3, now=CLOCK()),
        )
        assert await display.is_menu(GROUP, "settings", 1)
        assert await display.is_menu(GROUP, "settings", 2)
        for message in (3, 4, 2):
            await display.remember_menu(GROUP, "settings", message, 3, now=CLOCK())
        assert [await display.is_menu(GROUP, "settings", m) for m in (1, 2, 3, 4)] == [
            False,
            True,
            True,
            True,
        ]
        assert not await display.is_menu(GROUP, "balance", 2)  # a menu of its own kind only


async def test_history_messages_and_a_players_glossary(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        await db.chats.upsert_chat(GROUP, "group", now=CLOCK())
        display = ChatDisplay(db)
        await display.remember_history_message(GROUP, 10, now=CLOCK())
        assert await display.is_history_message(GROUP, 10)
        assert not await display.is_history_message(GROUP, 11)
        assert await display.glossary(PLAYER) == {}
        await display.set_glossary(
            PLAYER, {"shleif": [3, 0]}, now=CLOCK()
        )  # his chat's row made first
        assert await display.glossary(PLAYER) == {"shleif": [3, 0]}
