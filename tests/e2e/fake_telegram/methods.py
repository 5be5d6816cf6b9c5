"""The Bot API methods the fake implements, with the checks and errors of the real server.

Each method takes the request's :class:`Params` and returns the ``result`` of the reply, or
raises :class:`ApiError`. ``getUpdates`` is the only coroutine: it long-polls. Method names are
matched case-insensitively, as Telegram does.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import errors
from .errors import ApiError, bad_request, forbidden
from .formatting import Entity, parse_text, utf16_length
from .model import CallbackAnswer, Chat, ChatType, Media, Membership, MemberStatus, Message, World
from .params import Params
from .serialize import (
    JSON,
    bot_user_json,
    chat_full_info_json,
    chat_member_json,
    message_json,
)
from .update_queue import UpdateQueue
from .webhook import Webhook, is_loopback_url

MAX_MESSAGE_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_INLINE_BUTTONS = 100
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)

Method = Callable[[Params], Any]


@dataclass
class BotSettings:
    """How the simulated bot account is configured in @BotFather and Telegram."""

    privacy_mode: bool = True
    """Group privacy: in groups the bot only gets commands, replies to it and service messages
    (unless it is an admin)."""
    callback_query_ttl: float | None = None
    """Seconds after which a press can no longer be answered; ``None`` never expires."""
    commands: dict[tuple[str, str], list[dict[str, str]]] = field(default_factory=dict)
    """``setMyCommands`` lists by (canonical scope JSON, language code)."""
    menu_buttons: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    """``setChatMenuButton`` by chat id (None: the bot's default for private chats)."""


class BotApi:
    """The Bot API over a :class:`World` and an :class:`UpdateQueue`.

    ``loop_time`` is the monotonic clock used for callback query expiry.
    """

    def __init__(
        self,
        world: World,
        updates: UpdateQueue,
        settings: BotSettings,
        loop_time: Callable[[], float],
    ) -> None:
        self.world = world
        self.updates = updates
        self.settings = settings
        self.webhook = Webhook()
        self.loop_time = loop_time
        self.closing = asyncio.Event()
        self.on_webhook_change: Callable[[], None] = lambda: None
        self._poll_interrupt: asyncio.Event | None = None
        self._file_ids = 0
        self.methods: dict[str, tuple[str, Method]] = {
            name.lower(): (name, method)
            for name, method in {
                "getMe": self.get_me,
                "getUpdates": self.get_updates,
                "setWebhook": self.set_webhook,
                "deleteWebhook": self.delete_webhook,
                "getWebhookInfo": self.get_webhook_info,
                "setMyCommands": self.set_my_commands,
                "getMyCommands": self.get_my_commands,
                "deleteMyCommands": self.delete_my_commands,
                "setChatMenuButton": self.set_chat_menu_button,
                "getChatMenuButton": self.get_chat_menu_button,
                "sendMessage": self.send_message,
                "sendPhoto": self.send_photo,
                "sendDocument": self.send_document,
                "editMessageText": self.edit_message_text,
                "editMessageReplyMarkup": self.edit_message_reply_markup,
                "deleteMessage": self.delete_message,
                "answerCallbackQuery": self.answer_callback_query,
                "getChat": self.get_chat,
                "getChatMember": self.get_chat_member,
                "getChatAdministrators": self.get_chat_administrators,
                "getChatMemberCount": self.get_chat_member_count,
                "sendChatAction": self.send_chat_action,
            }.items()
        }

    def lookup(self, method: str) -> tuple[str, Method] | None:
        """The canonical name and implementation of a method, if the fake has it."""
        return self.methods.get(method.lower())

    def chat_id_of(self, params: Params) -> int | None:
        """The id of the chat a request names in ``chat_id``, if it names a known one."""
        try:
            chat_id = params.chat_id() if "chat_id" in params else None
        except ApiError:
            return None
        if isinstance(chat_id, str):
            chat = self.world.find_chat(chat_id)
            return chat.id if chat else None
        return chat_id

    # --- connection and updates -----------------------------------------------------------

    @property
    def polling(self) -> bool:
        """Whether a ``getUpdates`` long poll is waiting here now."""
        return self._poll_interrupt is not None

    def get_me(self, params: Params) -> JSON:
        """``getMe``: the bot's own user."""
        return bot_user_json(self.world.bot, privacy_mode=self.settings.privacy_mode)

    async def get_updates(self, params: Params) -> list[JSON]:
        """``getUpdates``: confirm below ``offset``, then long-poll up to ``timeout`` seconds.

        A newer ``getUpdates`` ends a pending one with 409 Conflict, as on Telegram; this also
        frees the server-side wait of a poll the client abandoned on shutdown.
        """
        if self.webhook.url:
            raise ApiError(409, errors.WEBHOOK_ACTIVE)
        if self._poll_interrupt is not None:
            self._poll_interrupt.set()
        interrupt = asyncio.Event()
        self._poll_interrupt = interrupt
        try:
            offset = params.optional_int("offset")
            limit = min(max(params.optional_int("limit") or 100, 1), 100)
            timeout = max(params.optional_float("timeout") or 0.0, 0.0)
            self.updates.set_allowed_updates(params.optional_list("allowed_updates"))
            if offset:
                self.updates.confirm(offset)
            if not self.updates.pending and timeout > 0 and not self.closing.is_set():
                await self.updates.wait(timeout, interrupt, self.closing)
            if interrupt.is_set():
                raise ApiError(409, errors.TERMINATED_BY_OTHER_GET_UPDATES)
            return [update.to_json() for update in self.updates.take(limit)]
        finally:
            if self._poll_interrupt is interrupt:
                self._poll_interrupt = None

    def set_webhook(self, params: Params) -> bool:
        """``setWebhook``; only loopback URLs, where the fake then delivers updates."""
        url = params.optional_str("url") or ""
        if url and not is_loopback_url(url):
            raise bad_request(
                "Bad Request: bad webhook: the fake Bot API only delivers to loopback addresses"
            )
        self.webhook = Webhook(
            url=url,
            secret_token=params.optional_str("secret_token"),
            max_connections=params.optional_int("max_connections") or 40,
            allowed_updates=params.optional_list("allowed_updates"),
        )
        self.updates.set_allowed_updates(self.webhook.allowed_updates)
        if params.flag("drop_pending_updates"):
            self.updates.clear()
        self.on_webhook_change()
        return True

    def delete_webhook(self, params: Params) -> bool:
        """``deleteWebhook``, optionally dropping pending updates."""
        self.webhook = Webhook()
        if params.flag("drop_pending_updates"):
            self.updates.clear()
        self.on_webhook_change()
        return True

    def get_webhook_info(self, params: Params) -> JSON:
        """``getWebhookInfo``."""
        info: JSON = {
            "url": self.webhook.url,
            "has_custom_certificate": False,
            "pending_update_count": len(self.updates.pending),
        }
        if self.webhook.url:
            info["max_connections"] = self.webhook.max_connections
            if self.webhook.allowed_updates is not None:
                info["allowed_updates"] = self.webhook.allowed_updates
            if self.webhook.last_error_message is not None:
                info["last_error_message"] = self.webhook.last_error_message
        return info

    # --- commands -------------------------------------------------------------------------

    def _commands_key(self, params: Params) -> tuple[str, str]:
        scope = params.optional_object("scope") or {"type": "default"}
        if "chat_id" in scope:
            chat = self.world.find_chat(scope["chat_id"])
            if chat is None:
                raise bad_request(errors.CHAT_NOT_FOUND)
            scope = {**scope, "chat_id": chat.id}
        return json.dumps(scope, sort_keys=True), params.optional_str("language_code") or ""

    def set_my_commands(self, params: Params) -> bool:
        """``setMyCommands``: store the list for its scope and language."""
        commands = params.optional_list("commands")
        if commands is None:
            raise bad_request("Bad Request: parameter commands is required")
        if len(commands) > 100:
            raise bad_request("Bad Request: too many commands")
        for command in commands:
            if not isinstance(command, dict):
                raise bad_request("Bad Request: can't parse BotCommand")
            if not _COMMAND_NAME.fullmatch(str(command.get("command", ""))):
                raise bad_request("Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", ""))) <= 256:
                raise bad_request("Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._commands_key(params)
        if commands:
            self.settings.commands[key] = [
                {"command": str(c["command"]), "description": str(c["description"])}
                for c in commands
            ]
        else:
            self.settings.commands.pop(key, None)
        return True

    def get_my_commands(self, params: Params) -> list[dict[str, str]]:
        """``getMyCommands`` for a scope and language (an empty list if none were set)."""
        return self.settings.commands.get(self._commands_key(params), [])

    def delete_my_commands(self, params: Params) -> bool:
        """``deleteMyCommands``."""
        self.settings.commands.pop(self._commands_key(params), None)
        return True

    def _menu_chat(self, params: Params) -> int | None:
        if "chat_id" not in params:
            return None
        chat = self.world.find_chat(params.chat_id())
        if chat is None:
            raise bad_request(errors.CHAT_NOT_FOUND)
        if chat.type is not ChatType.PRIVATE:
            raise bad_request("Bad Request: the menu button can be set only in private chats")
        return chat.id

    def set_chat_menu_button(self, params: Params) -> bool:
        """``setChatMenuButton``: a private chat's menu button (or the default one): the
        commands, a Mini App (``web_app`` with a text and an https address) or the default."""
        chat = self._menu_chat(params)
        button = params.optional_object("menu_button") or {"type": "default"}
        kind = button.get("type")
        if kind == "web_app":
            text = button.get("text")
            if not isinstance(text, str) or not text.strip():
                raise bad_request(errors.BUTTON_TEXT_INVALID)
            _check_web_app(button.get("web_app"))
        elif kind not in ("commands", "default"):
            raise bad_request("Bad Request: unsupported menu button type")
        self.settings.menu_buttons[chat] = dict(button)
        return True

    def get_chat_menu_button(self, params: Params) -> dict[str, Any]:
        """``getChatMenuButton``: the chat's own, else the default one, else the commands."""
        chat = self._menu_chat(params)
        buttons = self.settings.menu_buttons
        return buttons.get(chat) or buttons.get(None) or {"type": "commands"}

    # --- chats ----------------------------------------------------------------------------

    def _chat(self, params: Params) -> Chat:
        chat = self.world.find_chat(params.chat_id())
        if chat is None:
            raise bad_request(errors.CHAT_NOT_FOUND)
        return chat

    def _writable_chat(self, params: Params) -> Chat:
        """The chat named by ``chat_id``, if the bot may act in it; else Telegram's error."""
        chat = self._chat(params)
        if chat.migrated_to is not None:
            raise bad_request(errors.GROUP_UPGRADED, {"migrate_to_chat_id": chat.migrated_to.id})
        if chat.type is ChatType.PRIVATE:
            assert chat.user is not None
            if chat.user.blocked:
                raise forbidden(errors.BOT_BLOCKED)
            if not chat.user.started:
                raise forbidden(errors.CANT_INITIATE)
        else:
            kind = chat.type.value
            if chat.bot_status is MemberStatus.KICKED:
                raise forbidden(errors.BOT_KICKED.format(kind=kind))
            if not chat.bot_status.is_present:
                raise forbidden(errors.BOT_NOT_MEMBER.format(kind=kind))
        return chat

    def get_chat(self, params: Params) -> JSON:
        """``getChat``."""
        chat = self._chat(params)
        if chat.is_group and not chat.bot_status.is_present:
            raise bad_request(errors.CHAT_NOT_FOUND)
        return chat_full_info_json(chat)

    def get_chat_member(self, params: Params) -> JSON:
        """``getChatMember``: ``left`` for a known user who is not in the chat."""
        chat = self._chat(params)
        user = self.world.users.get(params.required_int("user_id"))
        if user is None:
            raise bad_request(errors.USER_NOT_FOUND)
        if user is self.world.bot:
            status = MemberStatus.MEMBER if chat.type is ChatType.PRIVATE else chat.bot_status
            return chat_member_json(user, status)
        membership = chat.members.get(user.id) or Membership(chat.status_of(user))
        return chat_member_json(user, membership)

    def get_chat_administrators(self, params: Params) -> list[JSON]:
        """``getChatAdministrators``: the creator first, then admins (the bot too if one)."""
        chat = self._chat(params)
        if not chat.is_group:
            raise bad_request("Bad Request: there are no administrators in the private chat")
        admins = sorted(
            (
                (membership, self.world.users[user_id])
                for user_id, membership in chat.members.items()
                if membership.status.is_admin
            ),
            key=lambda pair: pair[0].status is not MemberStatus.CREATOR,
        )
        result = [chat_member_json(user, membership) for membership, user in admins]
        if chat.bot_status is MemberStatus.ADMINISTRATOR:
            result.append(chat_member_json(self.world.bot, chat.bot_status))
        return result

    def get_chat_member_count(self, params: Params) -> int:
        """``getChatMemberCount``, counting the bot."""
        chat = self._chat(params)
        if not chat.is_group:
            return 2
        members = sum(1 for m in chat.members.values() if m.status.is_present)
        return members + (1 if chat.bot_status.is_present else 0)

    def send_chat_action(self, params: Params) -> bool:
        """``sendChatAction``: checked and accepted, with no visible effect."""
        self._writable_chat(params)
        if params.required_str("action") not in CHAT_ACTIONS:
            raise bad_request("Bad Request: wrong parameter action in request")
        return True

    # --- messages -------------------------------------------------------------------------

    def _text(self, params: Params) -> tuple[str, tuple[Entity, ...], str, str | None]:
        """Plain text, entities, source text and parse mode of the ``text`` parameter."""
        source = params.optional_str("text")
        if not source:
            raise bad_request(errors.MESSAGE_TEXT_EMPTY)
        explicit_entities = params.optional_list("entities")
        parse_mode = None if explicit_entities is not None else params.optional_str("parse_mode")
        text, entities = parse_text(source, parse_mode)
        if explicit_entities is not None:
            entities = explicit_entities
        if not text.strip():
            raise bad_request(errors.MESSAGE_TEXT_EMPTY)
        if utf16_length(text) > MAX_MESSAGE_LENGTH:
            raise bad_request(errors.MESSAGE_TOO_LONG)
        return text, tuple(entities), source, parse_mode

    def _reply_markup(
        self, params: Params, *, inline_only: bool, chat: Chat | None = None
    ) -> dict[str, Any] | None:
        """The ``reply_markup`` parameter, validated; an empty inline keyboard reads as none.
        A ``web_app`` button only in a private chat (``chat``), as on Telegram."""
        markup = params.optional_object("reply_markup")
        if markup is None:
            return None
        if "inline_keyboard" not in markup:
            if inline_only:
                raise bad_request("Bad Request: inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request("Bad Request: can't parse inline keyboard: rows must be arrays")
        if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS:
            raise bad_request(errors.REPLY_MARKUP_TOO_LONG)
        for row in rows:
            for button in row:
                _check_button(button)
                if "web_app" in button and (chat is None or chat.type is not ChatType.PRIVATE):
                    raise bad_request(errors.BUTTON_TYPE_INVALID)
        rows = [row for row in rows if row]
        return {"inline_keyboard": rows} if rows else None

    def _bot_message(self, chat: Chat, params: Params, *, for_edit: bool) -> Message:
        if params.optional_str("inline_message_id"):
            raise bad_request("Bad Request: the fake Bot API does not support inline messages")
        message = chat.messages.get(params.required_int("message_id"))
        if message is None or message.deleted:
            raise bad_request(errors.MESSAGE_TO_EDIT_NOT_FOUND)
        if for_edit and not message.from_bot:
            raise bad_request(errors.MESSAGE_CANT_BE_EDITED)
        return message

    def _replied_message(self, chat: Chat, params: Params) -> Message | None:
        reply = params.optional_object("reply_parameters") or {}
        message_id = reply.get("message_id", params.optional_int("reply_to_message_id"))
        if message_id is None:
            return None
        allow_missing = bool(reply.get("allow_sending_without_reply")) or params.flag(
            "allow_sending_without_reply"
        )
        message = chat.messages.get(int(message_id))
        if message is None or message.deleted:
            if allow_missing:
                return None
            raise bad_request(errors.MESSAGE_TO_REPLY_NOT_FOUND)
        return message

    def _thread(self, chat: Chat, params: Params, reply_to: Message | None) -> int | None:
        """The forum topic a new message goes to: ``message_thread_id``, else the topic of
        the message it replies to; None (General, or a chat without topics) if neither. A
        deleted topic is "message thread not found", a closed one takes nothing new."""
        thread = params.optional_int("message_thread_id")
        if thread is None and reply_to is not None:
            thread = reply_to.thread_id
        if thread is None or not chat.is_forum:
            return None
        topic = chat.topics.get(thread)
        if topic is None or topic.deleted:
            raise bad_request(errors.THREAD_NOT_FOUND)
        if topic.closed:
            raise bad_request(errors.TOPIC_CLOSED)
        return thread

    def send_message(self, params: Params) -> JSON:
        """``sendMessage`` (to a forum topic with ``message_thread_id``)."""
        chat = self._writable_chat(params)
        text, entities, source, parse_mode = self._text(params)
        markup = self._reply_markup(params, inline_only=False, chat=chat)
        reply_to = self._replied_message(chat, params)
        thread = self._thread(chat, params, reply_to)
        consumed = {
            "chat_id",
            "text",
            "parse_mode",
            "entities",
            "reply_markup",
            "message_thread_id",
        }
        message = self.world.add_message(
            chat,
            self.world.bot,
            text=text,
            entities=entities,
            source=source,
            parse_mode=parse_mode,
            reply_markup=markup,
            reply_to=reply_to,
            options={k: v for k, v in params.values.items() if k not in consumed},
            thread_id=thread,
        )
        return message_json(message)

    def _send_media(self, params: Params, kind: str) -> JSON:
        """``sendPhoto`` / ``sendDocument`` with an uploaded file (multipart/form-data) and an
        optional caption, checked as Telegram checks them."""
        chat = self._writable_chat(params)
        reply_to = self._replied_message(chat, params)
        thread = self._thread(chat, params, reply_to)
        upload = params.values.get(kind)
        if not isinstance(upload, bytes) or not upload:
            raise bad_request(f"Bad Request: there is no {kind} in the request")
        name = params.values.get(f"{kind}_filename") or f"{kind}"
        width = height = 0
        if kind == "photo":
            if len(upload) > MAX_PHOTO_BYTES:
                raise bad_request("Bad Request: PHOTO_TOO_BIG")
            size = image_size(upload)
            if size is None:
                raise bad_request("Bad Request: IMAGE_PROCESS_FAILED")
            width, height = size
            if width + height > 10000 or max(width, height) > 20 * min(width, height):
                raise bad_request("Bad Request: PHOTO_INVALID_DIMENSIONS")
        elif len(upload) > MAX_DOCUMENT_BYTES:
            raise bad_request("Bad Request: file is too big")
        text: str | None = None
        entities: tuple[Entity, ...] = ()
        source: str | None = None
        parse_mode: str | None = None
        if params.optional_str("caption"):
            caption = params.optional_str("caption") or ""
            parse_mode = params.optional_str("parse_mode")
            text, parsed = parse_text(caption, parse_mode)
            entities, source = tuple(parsed), caption
            if utf16_length(text) > MAX_CAPTION_LENGTH:
                raise bad_request("Bad Request: message caption is too long")
        self._file_ids += 1
        media = Media(
            kind=kind,
            data=upload,
            file_id=f"AgAC{self._file_ids:08d}fakefile{kind}",
            file_name=str(name),
            width=width,
            height=height,
        )
        message = self.world.add_message(
            chat,
            self.world.bot,
            text=text,
            entities=entities,
            source=source,
            parse_mode=parse_mode,
            media=media,
            reply_to=reply_to,
            thread_id=thread,
        )
        return message_json(message)

    def send_photo(self, params: Params) -> JSON:
        """``sendPhoto`` (an upload; file ids and URLs are not supported by the fake)."""
        return self._send_media(params, "photo")

    def send_document(self, params: Params) -> JSON:
        """``sendDocument`` (an upload)."""
        return self._send_media(params, "document")

    def _edit(
        self,
        message: Message,
        *,
        text: str | None,
        entities: tuple[Entity, ...],
        source: str | None,
        parse_mode: str | None,
        markup: dict[str, Any] | None,
    ) -> JSON:
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise bad_request(errors.MESSAGE_NOT_MODIFIED)
        message.history.append(message.revision())
        message.text, message.entities = text, entities
        message.source, message.parse_mode = source, parse_mode
        message.reply_markup = markup
        message.edit_date = self.world.now()
        return message_json(message)

    def edit_message_text(self, params: Params) -> JSON:
        """``editMessageText``; as on Telegram, omitting ``reply_markup`` removes the keyboard."""
        chat = self._writable_chat(params)
        message = self._bot_message(chat, params, for_edit=True)
        text, entities, source, parse_mode = self._text(params)
        markup = self._reply_markup(params, inline_only=True, chat=chat)
        return self._edit(
            message,
            text=text,
            entities=entities,
            source=source,
            parse_mode=parse_mode,
            markup=markup,
        )

    def edit_message_reply_markup(self, params: Params) -> JSON:
        """``editMessageReplyMarkup``; omitting ``reply_markup`` removes the keyboard."""
        chat = self._writable_chat(params)
        message = self._bot_message(chat, params, for_edit=True)
        markup = self._reply_markup(params, inline_only=True, chat=chat)
        return self._edit(
            message,
            text=message.text,
            entities=message.entities,
            source=message.source,
            parse_mode=message.parse_mode,
            markup=markup,
        )

    def delete_message(self, params: Params) -> bool:
        """``deleteMessage``; in groups others' messages need the bot to be an admin."""
        chat = self._writable_chat(params)
        message = chat.messages.get(params.required_int("message_id"))
        if message is None or message.deleted:
            raise bad_request(errors.MESSAGE_TO_DELETE_NOT_FOUND)
        if chat.is_group and not message.from_bot and not chat.bot_status.is_admin:
            raise bad_request(errors.MESSAGE_CANT_BE_DELETED)
        message.deleted = True
        return True

    def answer_callback_query(self, params: Params) -> bool:
        """``answerCallbackQuery``: each press can be answered once, within the TTL if any."""
        query = self.world.callback_queries.get(params.required_str("callback_query_id"))
        ttl = self.settings.callback_query_ttl
        if (
            query is None
            or query.answer is not None
            or (ttl is not None and self.loop_time() - query.created_at > ttl)
        ):
            raise bad_request(errors.QUERY_TOO_OLD)
        text = params.optional_str("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request(errors.ANSWER_TEXT_TOO_LONG)
        query.answer = CallbackAnswer(
            text=text,
            show_alert=params.flag("show_alert"),
            url=params.optional_str("url"),
            cache_time=params.optional_int("cache_time"),
            answered_at=self.loop_time(),
        )
        return True


def _check_button(button: Any) -> None:
    """Reject an inline button Telegram would reject."""
    if not isinstance(button, dict):
        raise bad_request("Bad Request: can't parse inline keyboard button: object expected")
    text = button.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request(errors.BUTTON_TEXT_INVALID)
    actions = [key for key in _BUTTON_ACTIONS if key in button]
    if len(actions) != 1:
        raise bad_request(errors.BUTTON_WITHOUT_ACTION)
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES:
            raise bad_request(errors.BUTTON_DATA_INVALID)
    if "web_app" in button:
        _check_web_app(button["web_app"])


def _check_web_app(web_app: object) -> None:
    """A ``WebAppInfo``: an https address (http only on this machine, for the tests)."""
    url = web_app.get("url") if isinstance(web_app, dict) else None
    if not isinstance(url, str) or not (url.startswith("https://") or is_loopback_url(url)):
        raise bad_request(errors.BUTTON_URL_INVALID)


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or JPEG image, or None if it is neither (or is cut short)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith(b"\xff\xd8"):
        index = 2
        while index + 9 < len(data):
            if data[index] != 0xFF:
                return None
            marker = data[index + 1]
            length = int.from_bytes(data[index + 2 : index + 4], "big")
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height = int.from_bytes(data[index + 5 : index + 7], "big")
                width = int.from_bytes(data[index + 7 : index + 9], "big")
                return width, height
            index += 2 + length
    return None
