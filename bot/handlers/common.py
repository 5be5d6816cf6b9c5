"""What every handler shares: who and where an update comes from, whether its sender
administers the chat, and how a refusal or a service's reply is shown."""

from __future__ import annotations

from collections.abc import Awaitable

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.context import BotContext
from bot.render import chat as chat_render
from tables import Refused
from tables.events import TableEvent
from tables.people import People

#: Telegram's user that stands for an anonymous group admin
ANONYMOUS_ADMIN_ID = 1087968824


def game_choice(context: BotContext, argument: str) -> str | None:
    """The /new or /rules choice a word names (its name or an alias, ``tables.games``)."""
    found = context.services.tables.games.choice(argument) if argument else None
    return None if found is None else found[1].name


async def track(update: Update, context: BotContext) -> None:
    """Record every chat and user the bot sees (names for the table, languages)."""
    services = context.services
    user = update.effective_user
    if user is not None and not user.is_bot:
        await services.tables.people.saw(user.id, player_name(user), user.language_code)
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
    if chat.type == Chat.PRIVATE:
        return chat.id == user.id  # his own chat, where his practice table is his
    if user.id == ANONYMOUS_ADMIN_ID:
        return True
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def chat_and_user(update: Update) -> tuple[int, int] | None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return None
    return chat.id, user.id


def topic_of(update: Update) -> int | None:
    """The forum topic the update's message is in: each topic of a supergroup with topics
    holds a table of its own. None for a chat without topics and for the General topic (a
    reply in a group without topics has a ``message_thread_id`` too: it is not a topic)."""
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def command_message(update: Update) -> int | None:
    """The group command message to answer as a reply (None in private, where every answer
    follows its command anyway)."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None or chat.type == Chat.PRIVATE:
        return None
    return message.message_id


async def refusal_text(
    context: BotContext, lang: str, refusal: Refused | str, *, html: bool
) -> str:
    games = context.services.tables.games
    choices = [item.name for game in games for item in game.choices]
    if isinstance(refusal, str):
        return chat_render.refusal(games.words, lang, refusal, choices=choices)
    names = await context.services.people.names(refusal.users, lang) if refusal.users else []
    return chat_render.refusal(games.words, lang, refusal.reason, names, html=html, choices=choices)


async def refuse_in_chat(update: Update, context: BotContext, refusal: Refused | str) -> None:
    """Say why a command was refused, as a reply to it."""
    chat = update.effective_chat
    if chat is None:
        return
    lang = await context.services.people.chat_language(chat.id)
    text = await refusal_text(context, lang, refusal, html=True)
    await context.services.messenger.send(chat.id, text, reply_to=command_message(update))


async def run_and_show(update: Update, context: BotContext, change: Awaitable[TableEvent]) -> None:
    """Await a service call (the change it made goes out to every front-end, the chat's
    presenter among them), or say why it was refused."""
    try:
        await change
    except Refused as refusal:
        await refuse_in_chat(update, context, refusal)
