"""The simulated Telegram world: users, chats, memberships, messages and callback queries.

Plain synchronous data with no HTTP and no asyncio, so it can be read directly from a test.
The Bot API methods (``methods.py``) and the test's driving API (``fake.py``) both change it;
every object here is the live one, so a ``Message`` a test holds always shows the message's
current text and keyboard, and ``history`` keeps what it showed before each edit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .formatting import Entity

GROUP_ANONYMOUS_BOT_ID = 1087968824
"""The user Telegram puts in ``from`` of a message an anonymous group admin sends."""


class ChatType(StrEnum):
    """The ``type`` of a chat."""

    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"


class MemberStatus(StrEnum):
    """The ``status`` of a chat member."""

    CREATOR = "creator"
    ADMINISTRATOR = "administrator"
    MEMBER = "member"
    LEFT = "left"
    KICKED = "kicked"

    @property
    def is_present(self) -> bool:
        """Whether a member with this status is in the chat."""
        return self in (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR, MemberStatus.MEMBER)

    @property
    def is_admin(self) -> bool:
        """Whether the status is the creator's or an administrator's."""
        return self in (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR)


@dataclass(eq=False)
class User:
    """A Telegram account; ``started`` and ``blocked`` describe its private chat with the bot.

    ``started`` means the user has pressed Start, so the bot may write to them; ``blocked``
    means they have blocked the bot since.
    """

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    @property
    def full_name(self) -> str:
        """First and last name, as Telegram clients show them."""
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass
class Membership:
    """A user's standing in a group: status, and whether they post as the anonymous admin."""

    status: MemberStatus
    is_anonymous: bool = False
    custom_title: str | None = None


@dataclass(frozen=True)
class Revision:
    """What a message showed at one moment: the original send or the state after an edit."""

    text: str | None
    entities: tuple[Entity, ...]
    source: str | None
    parse_mode: str | None
    reply_markup: dict[str, Any] | None
    date: int


@dataclass(frozen=True)
class Media:
    """An uploaded file: ``kind`` is ``photo`` or ``document``; ``width``/``height`` for a
    photo (read from the image), the file's name for a document."""

    kind: str
    data: bytes
    file_id: str
    file_name: str | None = None
    width: int = 0
    height: int = 0


@dataclass(eq=False, repr=False)
class Message:
    """A message in a chat, with its current content and its edit history.

    ``text`` is the plain text a reader sees (markup parsed away) and ``entities`` its
    formatting; ``source`` and ``parse_mode`` are what the bot sent. ``history`` holds the
    earlier revisions, oldest first, and ``edit_date`` is set once the message was edited.
    ``service`` holds the fields of a service message (``migrate_to_chat_id``...).
    """

    chat: Chat
    message_id: int
    date: int
    sender: User | None
    sender_chat: Chat | None = None
    text: str | None = None
    entities: tuple[Entity, ...] = ()
    source: str | None = None
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to: Message | None = None
    service: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    edit_date: int | None = None
    history: list[Revision] = field(default_factory=list)
    deleted: bool = False
    update_id: int | None = None
    """The update that brought this message to the bot, if it reached the bot."""
    media: Media | None = None
    """The photo or document the message carries (its ``text`` is then its caption)."""
    thread_id: int | None = None
    """The forum topic the message is in (None: a chat without topics, or General)."""

    def __repr__(self) -> str:
        keyboard = f" buttons={self.buttons}" if self.inline_keyboard else ""
        deleted = " deleted" if self.deleted else ""
        return f"<Message {self.chat.id}/{self.message_id}{deleted} {self.text!r}{keyboard}>"

    @property
    def from_bot(self) -> bool:
        """Whether the bot under test sent this message."""
        return self.sender is not None and self.sender.is_bot and self.sender_chat is None

    @property
    def inline_keyboard(self) -> list[list[dict[str, Any]]]:
        """The rows of inline buttons currently on the message (empty if none)."""
        if not self.reply_markup:
            return []
        rows: list[list[dict[str, Any]]] = self.reply_markup.get("inline_keyboard", [])
        return rows

    @property
    def buttons(self) -> list[list[tuple[str, str | None]]]:
        """The inline keyboard as rows of ``(text, callback_data)``; ``None`` for URL buttons."""
        return [
            [(button["text"], button.get("callback_data")) for button in row]
            for row in self.inline_keyboard
        ]

    @property
    def callback_data(self) -> list[str]:
        """The callback data of every button on the message, row by row."""
        return [data for row in self.buttons for _, data in row if data is not None]

    def revision(self) -> Revision:
        """The message's current content as a :class:`Revision`."""
        return Revision(
            text=self.text,
            entities=self.entities,
            source=self.source,
            parse_mode=self.parse_mode,
            reply_markup=self.reply_markup,
            date=self.edit_date or self.date,
        )


@dataclass(eq=False)
class Topic:
    """A forum topic of a supergroup with topics: ``thread_id`` is the id of the service
    message that created it (Telegram's ``message_thread_id``). A closed topic takes no new
    messages but keeps its own; a deleted one is gone with its messages."""

    thread_id: int
    name: str
    closed: bool = False
    deleted: bool = False


@dataclass(eq=False, repr=False)
class Chat:
    """A private chat (id = the user's id), a group (negative id) or a supergroup (-100...).

    ``members`` maps user ids to memberships and ``bot_status`` is the bot's own standing in a
    group. After a migration the old group's ``migrated_to`` names the supergroup.
    """

    id: int
    type: ChatType
    title: str | None = None
    username: str | None = None
    user: User | None = None
    members: dict[int, Membership] = field(default_factory=dict)
    bot_status: MemberStatus = MemberStatus.MEMBER
    migrated_to: Chat | None = None
    migrated_from: Chat | None = None
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    is_forum: bool = False
    """A supergroup with topics (``topics``, by thread id; General has none)."""
    topics: dict[int, Topic] = field(default_factory=dict)

    def __repr__(self) -> str:
        name = self.title if self.title is not None else (self.user and self.user.full_name)
        return f"<Chat {self.id} {self.type.value} {name!r}>"

    @property
    def is_group(self) -> bool:
        """Whether the chat is a group or a supergroup."""
        return self.type in (ChatType.GROUP, ChatType.SUPERGROUP)

    def status_of(self, user: User) -> MemberStatus:
        """The user's member status here (``left`` if they never joined)."""
        if self.type is ChatType.PRIVATE:
            return MemberStatus.MEMBER if user is self.user else MemberStatus.LEFT
        membership = self.members.get(user.id)
        return membership.status if membership else MemberStatus.LEFT


@dataclass(frozen=True)
class CallbackAnswer:
    """The bot's ``answerCallbackQuery`` to one press."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None
    answered_at: float


@dataclass(eq=False)
class CallbackQuery:
    """One button press, and the bot's answer once it came."""

    id: str
    user: User
    message: Message
    data: str
    created_at: float
    answer: CallbackAnswer | None = None


class World:
    """Every user and chat the fake knows, and the allocation of their ids.

    ``clock`` gives the Unix time put in message dates; tests may pass a fake one.
    """

    def __init__(self, bot: User, clock: Callable[[], float] = time.time) -> None:
        self.bot = bot
        self.clock = clock
        self.users: dict[int, User] = {bot.id: bot}
        self.chats: dict[int, Chat] = {}
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.anonymous_admin = User(
            id=GROUP_ANONYMOUS_BOT_ID,
            first_name="Group",
            username="GroupAnonymousBot",
            is_bot=True,
        )
        self._next_user_id = 100_000_001
        self._next_group_id = 4_000_000_001
        self._next_query_id = 1

    def now(self) -> int:
        """The current Unix time, in whole seconds as in Bot API dates."""
        return int(self.clock())

    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
        user_id: int | None = None,
        started: bool = False,
    ) -> User:
        """Create a user; ids are allocated unless ``user_id`` is given."""
        if user_id is None:
            user_id = self._next_user_id
            self._next_user_id += 1
        if user_id in self.users:
            raise ValueError(f"user id {user_id} is taken")
        user = User(
            id=user_id,
            first_name=first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
            started=started,
        )
        self.users[user_id] = user
        return user

    def add_group(
        self,
        title: str,
        members: Iterable[User],
        *,
        creator: User | None = None,
        admins: Iterable[User] = (),
        anonymous_admins: Iterable[User] = (),
        supergroup: bool = False,
        username: str | None = None,
        bot_status: MemberStatus = MemberStatus.MEMBER,
        forum: bool = False,
    ) -> Chat:
        """Create a group with the bot in it; the creator defaults to the first member. A
        ``forum`` is a supergroup with topics."""
        if forum and not supergroup:
            raise ValueError("only a supergroup can have topics")
        chat_id = self.new_group_id(supergroup)
        chat = Chat(
            id=chat_id,
            type=ChatType.SUPERGROUP if supergroup else ChatType.GROUP,
            title=title,
            username=username,
            bot_status=bot_status,
            is_forum=forum,
        )
        member_list = list(members)
        anonymous = {user.id for user in anonymous_admins}
        for user in member_list:
            chat.members[user.id] = Membership(MemberStatus.MEMBER)
        for user in [*admins, *anonymous_admins]:
            chat.members[user.id] = Membership(
                MemberStatus.ADMINISTRATOR, is_anonymous=user.id in anonymous
            )
        owner = creator or (member_list[0] if member_list else None)
        if owner is not None:
            chat.members[owner.id] = Membership(
                MemberStatus.CREATOR, is_anonymous=owner.id in anonymous
            )
        self.chats[chat_id] = chat
        return chat

    def new_group_id(self, supergroup: bool) -> int:
        """A fresh negative id: ``-4...`` for a group, ``-100...`` for a supergroup."""
        number = self._next_group_id
        self._next_group_id += 1
        return -(1_000_000_000_000 + number) if supergroup else -number

    def private_chat(self, user: User) -> Chat:
        """The user's private chat with the bot (its id is the user's id)."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = Chat(id=user.id, type=ChatType.PRIVATE, user=user)
            self.chats[user.id] = chat
        return chat

    def find_chat(self, chat_id: int | str) -> Chat | None:
        """The chat with this id or ``@username``; a known user's private chat is implied."""
        if isinstance(chat_id, str):
            name = chat_id.removeprefix("@").lower()
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == name:
                    return chat
            return None
        if chat_id in self.chats:
            return self.chats[chat_id]
        user = self.users.get(chat_id)
        if user is not None and not user.is_bot:
            return self.private_chat(user)
        return None

    def add_message(
        self,
        chat: Chat,
        sender: User | None,
        *,
        text: str | None = None,
        entities: Iterable[Entity] = (),
        source: str | None = None,
        parse_mode: str | None = None,
        reply_markup: dict[str, Any] | None = None,
        reply_to: Message | None = None,
        sender_chat: Chat | None = None,
        service: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        media: Media | None = None,
        thread_id: int | None = None,
    ) -> Message:
        """Append a message to ``chat`` (in its topic ``thread_id``, if given) with the chat's
        next message id."""
        message = Message(
            chat=chat,
            message_id=chat.next_message_id,
            date=self.now(),
            sender=sender,
            sender_chat=sender_chat,
            text=text,
            entities=tuple(entities),
            source=source if source is not None else text,
            parse_mode=parse_mode,
            reply_markup=reply_markup,
            reply_to=reply_to,
            service=service or {},
            options=options or {},
            media=media,
            thread_id=thread_id,
        )
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        return message

    def add_callback_query(
        self, user: User, message: Message, data: str, created_at: float
    ) -> CallbackQuery:
        """Record a press of a button, with a fresh query id."""
        query_id = f"{self.bot.id}{self._next_query_id:010d}"
        self._next_query_id += 1
        query = CallbackQuery(
            id=query_id, user=user, message=message, data=data, created_at=created_at
        )
        self.callback_queries[query_id] = query
        return query
