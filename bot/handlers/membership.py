"""Updates about the chat itself: a group migrated to a supergroup, a forum topic closed,
the bot blocked, removed or gone from a chat."""

from __future__ import annotations

from telegram import Chat, Update
from telegram.constants import ChatMemberStatus

from bot.context import BotContext


async def on_migrate(update: Update, context: BotContext) -> None:
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        await context.services.presenter.chat_migrated(message.chat_id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await context.services.presenter.chat_migrated(
            message.migrate_from_chat_id, message.chat_id
        )


async def on_forum_topic_closed(update: Update, context: BotContext) -> None:
    """A forum topic was closed: its table closes cleanly (the deal played out and settled);
    the group's tables in other topics play on. (A deleted topic sends no update: the first
    send refused with "message thread not found" closes its table the same way.)"""
    message = update.effective_message
    if message is None or message.message_thread_id is None:
        return
    await context.services.presenter.topic_lost(message.chat_id, message.message_thread_id)


async def on_my_chat_member(update: Update, context: BotContext) -> None:
    """A user blocked the bot in private: play for him at once rather than at his next 403.
    The bot left or was removed from a group: its table closes."""
    change = update.my_chat_member
    if change is None:
        return
    gone = change.new_chat_member.status in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT)
    if change.chat.type != Chat.PRIVATE:
        if gone:
            await context.services.presenter.group_lost(change.chat.id)
        return
    if change.new_chat_member.status == ChatMemberStatus.BANNED:
        await context.services.presenter.user_blocked(change.chat.id)
