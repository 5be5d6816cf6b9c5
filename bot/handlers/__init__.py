"""Telegram handlers: decode the update, call one service function, show the result.

Every callback query is answered, a refusal included. Commands work as ``/cmd`` and
``/cmd@botname`` (python-telegram-bot's CommandHandler checks the name).

Here: the registration and the error handler. The handlers themselves, by concern:
``group`` (group commands), ``anywhere`` (commands for a group or private), ``buttons``
(callback queries), ``membership`` (migrations, closed topics, the bot blocked or removed);
``common`` holds what they share.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.commands import PRIVATE_COMMANDS
from bot.context import BotContext
from bot.handlers.anywhere import cmd_balance, cmd_help, cmd_rules, cmd_start, cmd_stats
from bot.handlers.buttons import on_callback
from bot.handlers.common import topic_of, track
from bot.handlers.group import (
    cmd_begin,
    cmd_evening,
    cmd_export,
    cmd_history,
    cmd_join,
    cmd_kick,
    cmd_lang,
    cmd_leave,
    cmd_new,
    cmd_settings,
    cmd_stop,
    cmd_timeout,
    cmd_top,
    group_only,
)
from bot.handlers.membership import on_forum_topic_closed, on_migrate, on_my_chat_member
from bot.messenger import answer
from bot.render import chat as chat_render
from locales import language
from tables.storage_health import is_storage_error

log = logging.getLogger(__name__)

GROUPS = filters.ChatType.GROUPS
PRIVATE = filters.ChatType.PRIVATE


def register(application: Application) -> None:  # type: ignore[type-arg]
    """Add every handler and the error handler."""
    application.add_handler(TypeHandler(Update, track), group=-1)
    group_commands = {
        "new": cmd_new,
        "join": cmd_join,
        "leave": cmd_leave,
        "begin": cmd_begin,
        "stop": cmd_stop,
        "history": cmd_history,
        "settings": cmd_settings,
        "lang": cmd_lang,
        "kick": cmd_kick,
        "timeout": cmd_timeout,
        "top": cmd_top,
        "export": cmd_export,
        "evening": cmd_evening,
    }
    # commands react to new messages only: an old message edited into /join seats nobody
    new = filters.UpdateType.MESSAGE
    for name, function in group_commands.items():
        application.add_handler(CommandHandler(name, function, filters=GROUPS & new))
        if name not in PRIVATE_COMMANDS:  # /lang, /new, /stop, /settings mean something there
            application.add_handler(CommandHandler(name, group_only(name), filters=PRIVATE & new))
    application.add_handler(CommandHandler("start", cmd_start, filters=PRIVATE & new))
    # /start in a group (typed, or from an «add to group» link): what the bot does there
    application.add_handler(CommandHandler("start", cmd_help, filters=GROUPS & new))
    # in private, /new opens the player's practice table against the computers
    application.add_handler(CommandHandler("new", cmd_new, filters=PRIVATE & new))
    application.add_handler(CommandHandler("stop", cmd_stop, filters=PRIVATE & new))
    # and /settings sets up his practice table's games
    application.add_handler(CommandHandler("settings", cmd_settings, filters=PRIVATE & new))
    application.add_handler(CommandHandler("balance", cmd_balance, filters=new))
    application.add_handler(CommandHandler("help", cmd_help, filters=new))
    application.add_handler(CommandHandler("rules", cmd_rules, filters=new))
    application.add_handler(CommandHandler("lang", cmd_lang, filters=PRIVATE & new))
    application.add_handler(CommandHandler("stats", cmd_stats, filters=new))
    application.add_handler(CallbackQueryHandler(on_callback))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    application.add_handler(
        MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CLOSED, on_forum_topic_closed)
    )
    application.add_handler(ChatMemberHandler(on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_error_handler(on_error)


# ---------------------------------------------------------------------------- errors


async def on_error(update: object, context: BotContext) -> None:
    if is_storage_error(context.error):
        await _storage_failed(update, context)
        return
    log.error("handler error: %s", describe_update(update), exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None:
        await answer(update.callback_query.answer, None)


def describe_update(update: object) -> str:
    """Which update failed, for the log: its id, its kind, the chat and the user (ids only:
    no names, no texts)."""
    if not isinstance(update, Update):
        return f"no update ({type(update).__name__})"
    kind = next(
        (name for name in _UPDATE_KINDS if getattr(update, name, None) is not None), "other"
    )
    chat = update.effective_chat
    user = update.effective_user
    return (
        f"update {update.update_id} ({kind}), chat {chat.id if chat else None}, "
        f"user {user.id if user else None}"
    )


_UPDATE_KINDS = (
    "message",
    "edited_message",
    "callback_query",
    "my_chat_member",
    "chat_member",
    "channel_post",
)


async def _storage_failed(update: object, context: BotContext) -> None:
    """The database cannot be written: a short apology (the log says it once a minute); the
    change was not made, and the player may try again when it works."""
    services = context.services
    assert context.error is not None
    services.storage.failed(context.error, "handler")
    if not isinstance(update, Update):
        return
    user = update.effective_user
    lang = language(user.language_code if user else None)
    text = chat_render.refusal(services.tables.games.words, lang, "storage")
    if update.callback_query is not None:
        await answer(update.callback_query.answer, text)
        return
    chat = update.effective_chat
    if chat is not None and services.storage.may_tell(chat.id):
        await services.messenger.send(chat.id, text, thread=topic_of(update))
