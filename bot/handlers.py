"""Telegram handlers: decode the update, call one service function, show the result.

Every callback query is answered, a refusal included. Commands work as ``/cmd`` and
``/cmd@botname`` (python-telegram-bot's CommandHandler checks the name).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import callback as cb
from bot import games
from bot.commands import PRIVATE_COMMANDS
from bot.context import BotContext
from bot.messenger import answer
from bot.render import chat as chat_render
from bot.screens.people import People
from locales import language, t
from tables import Refused
from tables.arguments import whole_number
from tables.storage_health import is_storage_error

log = logging.getLogger(__name__)

GROUPS = filters.ChatType.GROUPS
PRIVATE = filters.ChatType.PRIVATE
#: Telegram's user that stands for an anonymous group admin
ANONYMOUS_ADMIN_ID = 1087968824
#: the largest seat number /kick reads (larger ones are no seat at any table)
MAX_SEAT_NUMBER = 99


def _game_choice(argument: str) -> str | None:
    """The /new or /rules choice a word names (its name or an alias, ``bot.games``)."""
    found = games.choice(argument) if argument else None
    return None if found is None else found[1].name


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
        if name not in PRIVATE_COMMANDS:  # /lang, /new and /stop mean something in private
            application.add_handler(CommandHandler(name, group_only(name), filters=PRIVATE & new))
    application.add_handler(CommandHandler("start", cmd_start, filters=PRIVATE & new))
    # /start in a group (typed, or from an «add to group» link): what the bot does there
    application.add_handler(CommandHandler("start", cmd_help, filters=GROUPS & new))
    # in private, /new opens the player's practice table against the computers
    application.add_handler(CommandHandler("new", cmd_new, filters=PRIVATE & new))
    application.add_handler(CommandHandler("stop", cmd_stop, filters=PRIVATE & new))
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


# ---------------------------------------------------------------------------- helpers


async def track(update: Update, context: BotContext) -> None:
    """Record every chat and user the bot sees (names for the table, languages)."""
    services = context.services
    user = update.effective_user
    if user is not None and not user.is_bot:
        await services.saw_player(user.id, player_name(user), user.language_code)
    chat = update.effective_chat
    if chat is not None and chat.type != Chat.PRIVATE:
        await services.people.saw_chat(chat.id, chat.title)
        message = update.effective_message
        if message is not None and message.is_topic_message and message.message_thread_id:
            await _saw_topic(services.people, chat.id, message.message_thread_id, message)


async def _saw_topic(people: People, chat_id: int, thread: int, message: Message) -> None:
    """Learn a forum topic's name (for the hand messages' header): from its creation or a
    rename, or from the topic's opening message, which Telegram attaches as the replied-to
    message to every message of the topic that replies to nothing."""
    created, edited = message.forum_topic_created, message.forum_topic_edited
    if created is not None:
        await people.saw_topic(chat_id, thread, created.name)
    elif edited is not None and edited.name:
        await people.saw_topic(chat_id, thread, edited.name)
    elif message.reply_to_message and message.reply_to_message.forum_topic_created:
        name = message.reply_to_message.forum_topic_created.name
        await people.saw_topic(chat_id, thread, name, first_sight=True)


def replied_user(message: Message) -> User | None:
    """Whose message this one replies to, if it replies to one. In a forum topic a message
    that replies to nothing carries the topic's opening service message as its replied-to
    message: that is no reply (else /stats and /kick in a topic would name the person who
    opened the topic)."""
    replied = message.reply_to_message
    if replied is None or replied.forum_topic_created is not None:
        return None
    return replied.from_user


def player_name(user: User) -> str:
    """The name a player is shown by: his name, else (an empty name: some clients, deleted
    accounts) his username, else «Игрок N» from his id."""
    name = (user.full_name or "").strip()
    if name:
        return name
    if user.username:
        return user.username
    return f"Игрок {user.id % 10000}"


async def is_admin(update: Update, context: BotContext) -> bool:
    chat = update.effective_chat
    message = update.effective_message
    if chat is None:
        return False
    if (
        message is not None
        and message.sender_chat is not None
        and message.sender_chat.id == chat.id
    ):
        return True  # an anonymous admin writes as the group itself
    user = update.effective_user
    if user is None:
        return False
    if user.id == ANONYMOUS_ADMIN_ID:
        return True
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def _ids(update: Update) -> tuple[int, int] | None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return None
    return chat.id, user.id


def _thread(update: Update) -> int | None:
    """The forum topic the update's message is in: each topic of a supergroup with topics
    holds a table of its own. None for a chat without topics and for the General topic (a
    reply in a group without topics has a ``message_thread_id`` too: it is not a topic)."""
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def _command(update: Update) -> int | None:
    """The group command message to answer as a reply (None in private, where every answer
    follows its command anyway)."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None or chat.type == Chat.PRIVATE:
        return None
    return message.message_id


async def _refusal_text(
    context: BotContext, lang: str, refusal: Refused | str, *, html: bool
) -> str:
    if isinstance(refusal, str):
        return chat_render.refusal(lang, refusal)
    names = await context.services.people.names(refusal.users, lang) if refusal.users else []
    return chat_render.refusal(lang, refusal.reason, names, html=html)


async def _refuse_in_chat(update: Update, context: BotContext, refusal: Refused | str) -> None:
    """Say why a command was refused, as a reply to it."""
    chat = update.effective_chat
    if chat is None:
        return
    lang = await context.services.people.chat_language(chat.id)
    text = await _refusal_text(context, lang, refusal, html=True)
    await context.services.messenger.send(chat.id, text, reply_to=_command(update))


async def _run(update: Update, context: BotContext, coroutine: Any) -> None:
    """Await a service call and show its reply, or say why it was refused."""
    try:
        reply = await coroutine
    except Refused as refusal:
        await _refuse_in_chat(update, context, refusal)
        return
    await context.services.presenter.show(reply)


# ---------------------------------------------------------------------------- group commands


async def cmd_new(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is None:
        return
    chat_id, user_id = ids
    argument = (context.args or [""])[0].lower() if context.args else ""
    thread = _thread(update)
    if not argument:
        if await context.services.tables.active(chat_id, thread) is not None:
            # a table is open: no game to choose (the picker's buttons could not work)
            await _refuse_in_chat(update, context, "table_exists")
            return
        await context.services.menus.send_new_game_chooser(chat_id, reply_to=_command(update))
        return
    choice = _game_choice(argument)
    if choice is None:
        await _refuse_in_chat(update, context, "unknown_game")
        return
    await _run(
        update, context, context.services.tables.new_table(chat_id, user_id, choice, thread=thread)
    )


async def cmd_join(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is not None:
        reachable = await context.services.people.is_reachable(ids[1])
        tables = context.services.tables
        await _run(update, context, tables.join(*ids, reachable=reachable, thread=_thread(update)))


async def cmd_leave(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is not None:
        await _run(update, context, context.services.tables.leave(*ids, thread=_thread(update)))


async def cmd_begin(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is None:
        return
    thread = _thread(update)
    reachable = await context.services.people.reachable_map(ids[0], thread)
    await _run(
        update,
        context,
        context.services.tables.begin(*ids, reachable.__getitem__, thread=thread),
    )


async def cmd_stop(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is None:
        return
    args = context.args or []
    now = bool(args) and args[0].lower() in ("now", "сейчас", "void")
    # a practice table is its player's own: he opened it (nobody administers a private chat)
    private = update.effective_chat is not None and update.effective_chat.type == Chat.PRIVATE
    admin = not private and await is_admin(update, context)
    await _run(
        update,
        context,
        context.services.tables.stop(*ids, admin, now=now, thread=_thread(update)),
    )


async def cmd_kick(update: Update, context: BotContext) -> None:
    """/kick as a reply to the player's message, or with his seat number: an away player
    after the deal, or from the lobby one who never started the bot."""
    ids = _ids(update)
    message = update.effective_message
    if ids is None or message is None:
        return
    chat_id, by_user = ids
    target = replied_user(message)
    if target is not None:
        user_id = target.id
    else:
        args = context.args or []
        # any short number is read (0, -1, 9 are answered «no such seat»), nothing else
        seat = whole_number(args[0], -MAX_SEAT_NUMBER, MAX_SEAT_NUMBER) if len(args) == 1 else None
        if seat is None:
            await _refuse_in_chat(update, context, "kick_usage")
            return
        seated = await context.services.people.seat_at(chat_id, seat, _thread(update))
        if seated is None:
            await _refuse_in_chat(update, context, "no_such_seat")
            return
        user_id = seated
    admin = await is_admin(update, context)
    reachable = await context.services.people.is_reachable(user_id)
    await _run(
        update,
        context,
        context.services.tables.remove_player(
            chat_id, by_user, admin, user_id, reachable=reachable, thread=_thread(update)
        ),
    )


async def cmd_timeout(update: Update, context: BotContext) -> None:
    """/timeout shows how long a turn lasts here; /timeout N sets it (admins, the creator)."""
    ids = _ids(update)
    if ids is None:
        return
    chat_id, user_id = ids
    services = context.services
    if context.args:
        admin = await is_admin(update, context)
        try:
            await services.tables.set_turn_timeout(chat_id, user_id, admin, context.args[0])
        except Refused as refusal:
            if refusal.reason == "bad_timeout":
                await services.menus.send_turn_timeout(
                    chat_id, usage=True, reply_to=_command(update)
                )
            else:
                await _refuse_in_chat(update, context, refusal)
            return
    await services.menus.send_turn_timeout(
        chat_id, changed=bool(context.args), reply_to=_command(update)
    )


async def cmd_history(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.screens.send_history(chat.id, reply_to=_command(update))


async def cmd_top(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.screens.send_top(chat.id, reply_to=_command(update))


async def cmd_export(update: Update, context: BotContext) -> None:
    """/export: the chat's ledger as a CSV document, for group admins."""
    chat = update.effective_chat
    if chat is None:
        return
    if not await is_admin(update, context):
        await _refuse_in_chat(update, context, "admin_only")
        return
    await context.services.screens.send_export(chat.id, chat.title, reply_to=_command(update))


async def cmd_evening(update: Update, context: BotContext) -> None:
    """/evening: the evening's summary now; /evening gap [N]: the pause that ends one."""
    chat = update.effective_chat
    if chat is None:
        return
    services = context.services
    args = [arg.lower() for arg in context.args or []]
    if args and args[0] in ("gap", "пауза"):
        admin = bool(len(args) > 1) and await is_admin(update, context)
        text = await services.posts.send_gap(chat.id, args[1] if len(args) > 1 else None, admin)
        await services.messenger.send(chat.id, text, reply_to=_command(update))
        return
    if not await services.evenings.end_now(chat.id):
        lang = await services.people.chat_language(chat.id)
        await services.messenger.send(chat.id, t(lang, "evening.none"), reply_to=_command(update))


async def cmd_settings(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.menus.send_settings(chat.id, None, reply_to=_command(update))


async def cmd_lang(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is None:
        return
    chat_id, user_id = ids
    choice = (context.args or [""])[0].lower() if context.args else ""
    in_group = update.effective_chat is not None and update.effective_chat.type != Chat.PRIVATE
    if (
        in_group
        and not await is_admin(update, context)
        and not await context.services.people.is_table_creator(chat_id, user_id)
    ):
        await _refuse_in_chat(update, context, "creator_or_admin_only")
        return
    await context.services.menus.set_language(
        chat_id, choice, private=chat_id == user_id, reply_to=_command(update)
    )


def group_only(name: str) -> Callable[[Update, BotContext], Coroutine[Any, Any, None]]:
    """The handler of group command ``name`` in a private chat: a line saying where it works
    (silence would leave the player wondering whether the bot heard)."""

    async def answer_in_private(update: Update, context: BotContext) -> None:
        user = update.effective_user
        if user is None:
            return
        lang = await context.services.people.user_language(user.id, user.language_code)
        await context.services.messenger.send(user.id, chat_render.group_only_text(lang, name))

    return answer_in_private


# ---------------------------------------------------------------------------- anywhere


async def cmd_balance(update: Update, context: BotContext) -> None:
    ids = _ids(update)
    if ids is not None:
        await context.services.menus.send_balance(*ids, reply_to=_command(update))


async def cmd_stats(update: Update, context: BotContext) -> None:
    """/stats: in a group, the sender's figures here, or those of the player whose message
    it replies to; in private, the sender's figures across his chats."""
    ids = _ids(update)
    message = update.effective_message
    if ids is None or message is None:
        return
    chat_id, user_id = ids
    target = replied_user(message)
    if chat_id < 0 and target is not None and not target.is_bot:
        await context.services.screens.send_stats(
            chat_id, target.id, target.full_name, reply_to=_command(update)
        )
        return
    await context.services.screens.send_stats(chat_id, user_id, reply_to=_command(update))


async def cmd_help(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.menus.send_help(
            chat.id, private=chat.type == Chat.PRIVATE, reply_to=_command(update)
        )


async def cmd_rules(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    argument = (context.args or [""])[0].lower() if context.args else ""
    await context.services.menus.send_rules(
        chat.id, _game_choice(argument), reply_to=_command(update), thread=_thread(update)
    )


async def cmd_start(update: Update, context: BotContext) -> None:
    user = update.effective_user
    if user is None:
        return
    payload = context.args[0] if context.args else None
    await context.services.presenter.started(
        user.id, player_name(user), user.language_code, payload
    )


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


# ---------------------------------------------------------------------------- buttons


async def on_callback(update: Update, context: BotContext) -> None:
    """Every press is answered; anything forged or stale is refused and changes nothing."""
    query = update.callback_query
    if query is None:
        return
    presenter = context.services.presenter
    user_id = query.from_user.id
    chat = query.message.chat if query.message is not None else None
    lang = await context.services.people.user_language(user_id, query.from_user.language_code)
    try:
        data = cb.decode(query.data or "")
    except cb.BadCallback:
        await answer(query.answer, chat_render.refusal(lang, "unknown_button"))
        return
    if isinstance(data, cb.History | cb.DealInfo):
        message = query.message
        screens = context.services.screens
        if message is None or not await screens.is_history_message(
            message.chat.id, message.message_id
        ):
            await answer(query.answer, chat_render.refusal(lang, "unknown_button"))
            return
        if isinstance(data, cb.History):
            await screens.send_history(message.chat.id, data.before, message.message_id)
        else:
            await screens.send_deal(message.chat.id, data.deal_id, data.page, message.message_id)
        await answer(query.answer, None)
        return
    try:
        text = await presenter.press(
            data,
            user_id,
            chat.id if chat else None,
            lambda: is_admin(update, context),
            query.message.message_id if query.message is not None else None,
            _thread(update),
        )
    except Refused as refusal:
        await answer(query.answer, await _refusal_text(context, lang, refusal, html=False))
        return
    await answer(query.answer, text)


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
    text = chat_render.refusal(lang, "storage")
    if update.callback_query is not None:
        await answer(update.callback_query.answer, text)
        return
    chat = update.effective_chat
    if chat is not None and services.storage.may_tell(chat.id):
        await services.messenger.send(chat.id, text, thread=_thread(update))
