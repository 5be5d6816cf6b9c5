"""Bot API JSON shapes of the world's objects, and the update dicts built from them.

These are pure functions of the model, so they also serve tests that POST updates to the bot's
webhook: ``message_update(update_id, message)`` is exactly what ``getUpdates`` would return.
"""

from __future__ import annotations

from typing import Any

from .model import CallbackQuery, Chat, ChatType, Membership, MemberStatus, Message, User

JSON = dict[str, Any]

_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
)


def user_json(user: User) -> JSON:
    """A ``User`` object."""
    data: JSON = {"id": user.id, "is_bot": user.is_bot, "first_name": user.first_name}
    for key in ("last_name", "username", "language_code"):
        value = getattr(user, key)
        if value is not None:
            data[key] = value
    return data


def bot_user_json(bot: User, *, privacy_mode: bool) -> JSON:
    """The ``User`` that ``getMe`` returns, with the bot-only fields."""
    return {
        **user_json(bot),
        "can_join_groups": True,
        "can_read_all_group_messages": not privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def chat_json(chat: Chat) -> JSON:
    """A ``Chat`` object, as embedded in messages."""
    data: JSON = {"id": chat.id, "type": chat.type.value}
    if chat.type is ChatType.PRIVATE and chat.user is not None:
        data["first_name"] = chat.user.first_name
        if chat.user.last_name is not None:
            data["last_name"] = chat.user.last_name
        if chat.user.username is not None:
            data["username"] = chat.user.username
    else:
        data["title"] = chat.title
        if chat.username is not None:
            data["username"] = chat.username
        if chat.is_forum:
            data["is_forum"] = True
    return data


def chat_full_info_json(chat: Chat) -> JSON:
    """The ``ChatFullInfo`` object ``getChat`` returns."""
    data = {
        **chat_json(chat),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }
    if chat.type is ChatType.PRIVATE and chat.user is not None and chat.user.language_code:
        data["language_code"] = chat.user.language_code
    if chat.migrated_to is None and chat.type is ChatType.SUPERGROUP:
        data["is_forum"] = chat.is_forum
    return data


def chat_member_json(user: User, membership: Membership | MemberStatus) -> JSON:
    """A ``ChatMember`` object of the subclass its status calls for."""
    if isinstance(membership, MemberStatus):
        membership = Membership(membership)
    status = membership.status
    data: JSON = {"status": status.value, "user": user_json(user)}
    if status is MemberStatus.CREATOR:
        data["is_anonymous"] = membership.is_anonymous
    elif status is MemberStatus.ADMINISTRATOR:
        data["can_be_edited"] = False
        data["is_anonymous"] = membership.is_anonymous
        data.update(dict.fromkeys(_ADMIN_RIGHTS, True))
    elif status is MemberStatus.KICKED:
        data["until_date"] = 0
    if membership.custom_title is not None and status.is_admin:
        data["custom_title"] = membership.custom_title
    return data


def message_json(message: Message, *, with_reply: bool = True) -> JSON:
    """A ``Message`` object showing the message's current content."""
    data: JSON = {
        "message_id": message.message_id,
        "date": message.date,
        "chat": chat_json(message.chat),
    }
    if message.sender is not None:
        data["from"] = user_json(message.sender)
    if message.sender_chat is not None:
        data["sender_chat"] = chat_json(message.sender_chat)
    media = message.media
    text_key, entities_key = "text", "entities"
    if media is not None:
        text_key, entities_key = "caption", "caption_entities"
        file = {
            "file_id": media.file_id,
            "file_unique_id": media.file_id[-12:],
            "file_size": len(media.data),
        }
        if media.kind == "photo":
            data["photo"] = [{**file, "width": media.width, "height": media.height}]
        else:
            data["document"] = {**file, "file_name": media.file_name}
    if message.text is not None:
        data[text_key] = message.text
        if message.entities:
            data[entities_key] = [dict(entity) for entity in message.entities]
    if message.reply_markup is not None and message.inline_keyboard:
        data["reply_markup"] = {"inline_keyboard": message.inline_keyboard}
    if message.edit_date is not None:
        data["edit_date"] = message.edit_date
    if message.reply_to is not None and with_reply:
        data["reply_to_message"] = message_json(message.reply_to, with_reply=False)
    elif with_reply and message.thread_id is not None and message.message_id != message.thread_id:
        # as in Telegram: a message in a forum topic that replies to nothing replies to the
        # topic's opening service message (forum_topic_created, with the name it had then)
        root = message.chat.messages.get(message.thread_id)
        if root is not None and "forum_topic_created" in root.service:
            data["reply_to_message"] = message_json(root, with_reply=False)
    if message.thread_id is not None:
        data["message_thread_id"] = message.thread_id
        data["is_topic_message"] = True
    elif message.reply_to is not None and message.chat.type is ChatType.SUPERGROUP:
        # a reply in a supergroup without topics has a thread id too (its reply thread):
        # it is no topic, and says so by lacking is_topic_message
        data["message_thread_id"] = message.reply_to.message_id
    data.update(message.service)
    return data


def message_update(update_id: int, message: Message) -> JSON:
    """An ``Update`` carrying a new ``message``."""
    return {"update_id": update_id, "message": message_json(message)}


def callback_query_json(query: CallbackQuery) -> JSON:
    """A ``CallbackQuery`` object for a press on a message's button."""
    return {
        "id": query.id,
        "from": user_json(query.user),
        "message": message_json(query.message),
        "chat_instance": str(abs(query.message.chat.id) * 7 + 3),
        "data": query.data,
    }


def my_chat_member_json(
    chat: Chat, user: User, bot: User, old: MemberStatus, new: MemberStatus, date: int
) -> JSON:
    """A ``ChatMemberUpdated`` about the bot's own membership, changed by ``user``."""
    return {
        "chat": chat_json(chat),
        "from": user_json(user),
        "date": date,
        "old_chat_member": chat_member_json(bot, old),
        "new_chat_member": chat_member_json(bot, new),
    }
