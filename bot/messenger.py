"""Sending and editing messages, the Telegram way: skip edits that change nothing, pace groups,
turn 403s and migrations into events the service understands.

Buttons arrive as plain rows of ``(label, callback_data)`` (``bot.keyboards`` makes them); this
module is where they become ``InlineKeyboardMarkup``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from bot.pacing import Pacer

log = logging.getLogger(__name__)

Rows = Sequence[Sequence[tuple[str, str]]]
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


@dataclass(frozen=True, slots=True)
class Shown:
    text: str
    rows: tuple[tuple[tuple[str, str], ...], ...]


def markup(rows: Rows | None) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(label, url=data[4:])
                if data.startswith("url:")
                else InlineKeyboardButton(label, callback_data=data)
                for label, data in row
            ]
            for row in rows
            if row
        ]
    )


def _frozen(rows: Rows | None) -> tuple[tuple[tuple[str, str], ...], ...]:
    return tuple(tuple(row) for row in rows or ())


class Messenger:
    """Sends and edits for the bot. Group requests take a slot of the group's ``Pacer``."""

    def __init__(
        self,
        bot: Bot,
        pacer: Pacer,
        *,
        on_blocked: Callable[[int], Awaitable[None]],
        on_migrated: Callable[[int, int], Awaitable[None]],
    ) -> None:
        self.bot = bot
        self.pacer = pacer
        self.on_blocked = on_blocked
        self.on_migrated = on_migrated
        self._shown: dict[tuple[int, int], Shown] = {}

    async def send(self, chat_id: int, text: str, rows: Rows | None = None) -> int | None:
        """Send a message; the new message id, or None if the user cannot be written to."""
        if chat_id < 0:
            await self.pacer.slot(chat_id)
        try:
            message = await self.bot.send_message(
                chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(rows),
                link_preview_options=NO_PREVIEW,
            )
        except ChatMigrated as error:
            await self.on_migrated(chat_id, error.new_chat_id)
            return await self.send(error.new_chat_id, text, rows)
        except Forbidden:
            if chat_id > 0:
                await self.on_blocked(chat_id)
            return None
        self._shown[(chat_id, message.message_id)] = Shown(text, _frozen(rows))
        return message.message_id

    async def edit(
        self, chat_id: int, message_id: int, text: str, rows: Rows | None = None
    ) -> bool:
        """Edit a message in place unless it already shows exactly this; True if it shows it."""
        wanted = Shown(text, _frozen(rows))
        if self._shown.get((chat_id, message_id)) == wanted:
            return True
        if chat_id < 0:
            await self.pacer.slot(chat_id)
        try:
            await self.bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup(rows),
                link_preview_options=NO_PREVIEW,
            )
        except BadRequest as error:
            if "not modified" in error.message.lower():
                self._shown[(chat_id, message_id)] = wanted
                return True
            log.warning("edit of %s/%s failed: %s", chat_id, message_id, error.message)
            self._shown.pop((chat_id, message_id), None)
            return False
        except ChatMigrated as error:
            await self.on_migrated(chat_id, error.new_chat_id)
            return False
        except Forbidden:
            if chat_id > 0:
                await self.on_blocked(chat_id)
            return False
        self._shown[(chat_id, message_id)] = wanted
        return True

    async def show(
        self, chat_id: int, message_id: int | None, text: str, rows: Rows | None = None
    ) -> int | None:
        """Edit ``message_id`` if there is one and it can be edited, else send a new message."""
        if message_id is not None and await self.edit(chat_id, message_id, text, rows):
            return message_id
        return await self.send(chat_id, text, rows)

    def forget(self, chat_id: int) -> None:
        """Drop what is remembered of a chat's messages (after a migration)."""
        for key in [key for key in self._shown if key[0] == chat_id]:
            del self._shown[key]


async def answer(query_answer: Callable[..., Awaitable[bool]], text: str | None) -> None:
    """Answer a callback query (≤ 200 characters), ignoring a query that is too old."""
    try:
        await query_answer(text=text[:200] if text else None)
    except TelegramError as error:
        log.debug("callback answer failed: %s", error)
