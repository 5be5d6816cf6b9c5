"""The commands that work in a group and in private: /balance, /stats, /help, /rules, and
/start in private."""

from __future__ import annotations

from telegram import Chat, Update

from bot.context import BotContext
from bot.handlers.common import (
    chat_and_user,
    command_message,
    game_choice,
    player_name,
    replied_user,
    topic_of,
)


async def cmd_balance(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is not None:
        await context.services.menus.send_balance(*ids, reply_to=command_message(update))


async def cmd_stats(update: Update, context: BotContext) -> None:
    """/stats: in a group, the sender's figures here, or those of the player whose message
    it replies to; in private, the sender's figures across his chats."""
    ids = chat_and_user(update)
    message = update.effective_message
    if ids is None or message is None:
        return
    chat_id, user_id = ids
    target = replied_user(message)
    if chat_id < 0 and target is not None and not target.is_bot:
        await context.services.screens.send_stats(
            chat_id, target.id, target.full_name, reply_to=command_message(update)
        )
        return
    await context.services.screens.send_stats(chat_id, user_id, reply_to=command_message(update))


async def cmd_help(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.menus.send_help(
            chat.id, private=chat.type == Chat.PRIVATE, reply_to=command_message(update)
        )


async def cmd_rules(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    argument = (context.args or [""])[0].lower() if context.args else ""
    await context.services.menus.send_rules(
        chat.id,
        game_choice(context, argument),
        reply_to=command_message(update),
        thread=topic_of(update),
    )


async def cmd_start(update: Update, context: BotContext) -> None:
    user = update.effective_user
    if user is None:
        return
    payload = context.args[0] if context.args else None
    await context.services.presenter.started(
        user.id, player_name(user), user.language_code, payload
    )
