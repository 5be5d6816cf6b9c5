"""The fake Telegram a test talks to: server, world, and the driving API of simulated users.

A test creates users and groups, makes users write, press Start and press buttons (which
become updates the bot polls), and reads back what the bot really sent: messages with their
current text and keyboard, edit history, callback answers, and a log of every API request.
Everything runs in the test's own event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

from .errors import NoSuchButton, SimulationError
from .faults import FaultInjector
from .formatting import utf16_length
from .methods import BotApi, BotSettings
from .model import (
    CallbackQuery,
    Chat,
    ChatType,
    MemberStatus,
    Message,
    Topic,
    User,
    World,
)
from .serialize import callback_query_json, message_json, my_chat_member_json
from .server import ApiRequest, FakeBotApiServer
from .update_queue import UpdateQueue
from .webhook import WebhookDelivery

DEFAULT_TOKEN = "5000000001:AAFakeTokenForTestsOnly-0123456789abcd"
_COMMAND = re.compile(r"/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{3,}))?")

ChatRef = Chat | int


class FakeTelegram:
    """A fake Telegram for one bot: start it, point python-telegram-bot at ``base_url``.

    ``privacy_mode`` is the bot's group privacy setting; ``callback_query_ttl`` (seconds) makes
    late ``answerCallbackQuery`` calls fail; ``fault_seed`` seeds probabilistic faults;
    ``clock`` gives the Unix time used in message dates.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "stukolka_test_bot",
        bot_name: str = "Stukolka",
        privacy_mode: bool = True,
        callback_query_ttl: float | None = None,
        fault_seed: int = 0,
        clock: Callable[[], float] = time.time,
        port: int = 0,
    ) -> None:
        """``port``: where to listen on 127.0.0.1 (0: a free port the OS picks)."""
        bot_id = int(token.split(":", 1)[0])
        self.token = token
        self.world = World(
            User(id=bot_id, first_name=bot_name, username=bot_username, is_bot=True), clock
        )
        self.updates = UpdateQueue()
        self.settings = BotSettings(
            privacy_mode=privacy_mode, callback_query_ttl=callback_query_ttl
        )
        self.api = BotApi(self.world, self.updates, self.settings, self._loop_time)
        self.faults = FaultInjector(fault_seed)
        self.server = FakeBotApiServer(self.api, self.faults, token, self._touch, port=port)
        self.webhook = WebhookDelivery(lambda: self.api.webhook, self.updates, self.api.closing)
        self.api.on_webhook_change = self.webhook.webhook_changed
        self._changed = asyncio.Event()
        self._last_activity = 0.0

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving on 127.0.0.1 (at a free port unless one was given)."""
        await self.server.start()
        self._touch()

    async def stop(self) -> None:
        """End pending long polls and webhook delivery, and stop the server."""
        await self.webhook.stop()
        await self.server.stop()

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """``ApplicationBuilder().base_url(...)`` value."""
        return self.server.base_url

    @property
    def base_file_url(self) -> str:
        """``ApplicationBuilder().base_file_url(...)`` value."""
        return self.server.base_file_url

    @property
    def bot(self) -> User:
        """The bot's own user."""
        return self.world.bot

    @property
    def log(self) -> list[ApiRequest]:
        """Every API request so far, in arrival order."""
        return self.server.log

    def now(self) -> float:
        """The event loop clock that ``ApiRequest.time`` uses; pass it as ``since=``."""
        return self._loop_time()

    @property
    def last_activity(self) -> float:
        """Loop time of the latest request start or end, or update queued."""
        return self._last_activity

    def _loop_time(self) -> float:
        return asyncio.get_running_loop().time()

    def _touch(self) -> None:
        self._last_activity = self._loop_time()
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    # --- building the world ---------------------------------------------------------------

    def add_user(
        self,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
        started: bool = False,
    ) -> User:
        """A new user; ``started=True`` lets the bot write to them without a ``/start``."""
        return self.world.add_user(
            first_name,
            last_name=last_name,
            username=username,
            language_code=language_code,
            started=started,
        )

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
        bot_is_admin: bool = False,
        forum: bool = False,
    ) -> Chat:
        """A group (or supergroup) holding ``members`` and the bot; a ``forum`` is a
        supergroup with topics (``create_topic``).

        The creator defaults to the first member; ``anonymous_admins`` post as the group.
        """
        return self.world.add_group(
            title,
            members,
            creator=creator,
            admins=admins,
            anonymous_admins=anonymous_admins,
            supergroup=supergroup,
            username=username,
            bot_status=MemberStatus.ADMINISTRATOR if bot_is_admin else MemberStatus.MEMBER,
            forum=forum,
        )

    def private_chat(self, user: User) -> Chat:
        """The user's private chat with the bot."""
        return self.world.private_chat(user)

    def chat(self, chat: ChatRef) -> Chat:
        """A chat by id (or the chat itself)."""
        if isinstance(chat, Chat):
            return chat
        found = self.world.find_chat(chat)
        if found is None:
            raise LookupError(f"no chat {chat}")
        return found

    # --- simulated users ------------------------------------------------------------------

    def _queue(self, kind: str, payload: dict[str, Any]) -> int | None:
        """Queue an update; its id, or ``None`` if the bot's ``allowed_updates`` exclude it."""
        update = self.updates.put(kind, payload)
        self._touch()
        return update.update_id if update else None

    def _bot_sees(self, chat: Chat, message: Message, addressee: str | None) -> bool:
        """Whether Telegram delivers a user's message to the bot (group privacy rules)."""
        if chat.type is ChatType.PRIVATE:
            return True
        if not chat.bot_status.is_present:
            return False
        if not self.settings.privacy_mode or chat.bot_status.is_admin:
            return True
        if message.entities and message.entities[0]["type"] == "bot_command":
            return addressee is None or addressee.lower() == (self.bot.username or "").lower()
        return message.reply_to is not None and message.reply_to.from_bot

    def user_sends(
        self,
        user: User,
        chat: ChatRef,
        text: str,
        *,
        reply_to: Message | None = None,
        as_anonymous_admin: bool = False,
        topic: Topic | None = None,
    ) -> Message:
        """``user`` writes ``text`` in ``chat``; queues a ``message`` update if the bot sees it.

        In a supergroup with topics, ``topic`` is the topic written in (None: General, or the
        topic of the message replied to).

        A leading ``/command`` or ``/command@botname`` gets a ``bot_command`` entity so
        ``CommandHandler`` matches. In groups with privacy mode on (the default), the bot only
        sees commands meant for it and replies to its messages; ``Message.update_id`` is set
        when the message reached the bot.
        """
        target = self.chat(chat)
        if target.migrated_to is not None:
            raise SimulationError(f"{target!r} was migrated to {target.migrated_to!r}")
        if target.type is ChatType.PRIVATE:
            if target.user is not user:
                raise SimulationError(f"{user.full_name} cannot write in {target!r}")
            if not user.started or user.blocked:
                raise SimulationError(
                    f"{user.full_name} must press Start first: use user_starts_bot()"
                )
        elif not target.status_of(user).is_present:
            raise SimulationError(f"{user.full_name} is not a member of {target!r}")
        sender, sender_chat = user, None
        if as_anonymous_admin:
            membership = target.members.get(user.id)
            if membership is None or not membership.is_anonymous:
                raise SimulationError(f"{user.full_name} is not an anonymous admin of {target!r}")
            sender, sender_chat = self.world.anonymous_admin, target
        thread = topic.thread_id if topic is not None else None
        if thread is None and reply_to is not None:
            thread = reply_to.thread_id
        if thread is not None:
            found = target.topics.get(thread)
            if found is None or found.deleted:
                raise SimulationError(f"{target!r} has no topic {thread}")
            if found.closed and not target.status_of(user).is_admin:
                raise SimulationError(f"topic {found.name!r} is closed")
        entities = []
        addressee = None
        command = _COMMAND.match(text)
        if command:
            length = utf16_length(command.group(0))
            entities.append({"type": "bot_command", "offset": 0, "length": length})
            addressee = command.group(2)
        message = self.world.add_message(
            target,
            sender,
            text=text,
            entities=entities,
            reply_to=reply_to,
            sender_chat=sender_chat,
            thread_id=thread,
        )
        if self._bot_sees(target, message, addressee):
            message.update_id = self._queue("message", message_json(message))
        return message

    def user_edits(self, user: User, message: Message, text: str) -> None:
        """``user`` edits his ``message`` into ``text``; queues an ``edited_message`` update
        (commands included: Telegram marks a command in an edited text as one)."""
        if message.sender is not user:
            raise SimulationError(f"{user.full_name} cannot edit {message!r}")
        command = _COMMAND.match(text)
        message.text = text
        message.entities = (
            ({"type": "bot_command", "offset": 0, "length": utf16_length(command.group(0))},)
            if command
            else ()
        )
        message.edit_date = int(self.world.now())
        self._queue("edited_message", message_json(message))

    def user_starts_bot(self, user: User, payload: str | None = None) -> Message:
        """``user`` presses Start (or Restart after blocking): sends ``/start [payload]``."""
        if user.blocked:
            self.user_unblocks_bot(user)
        user.started = True
        text = "/start" if payload is None else f"/start {payload}"
        return self.user_sends(user, self.private_chat(user), text)

    def user_blocks_bot(self, user: User) -> None:
        """``user`` blocks the bot; the bot gets a ``my_chat_member`` update (member→kicked)."""
        user.blocked = True
        self._queue(
            "my_chat_member",
            my_chat_member_json(
                self.private_chat(user),
                user,
                self.bot,
                MemberStatus.MEMBER,
                MemberStatus.KICKED,
                self.world.now(),
            ),
        )

    def user_unblocks_bot(self, user: User) -> None:
        """``user`` unblocks the bot; the bot gets ``my_chat_member`` (kicked→member)."""
        user.blocked = False
        self._queue(
            "my_chat_member",
            my_chat_member_json(
                self.private_chat(user),
                user,
                self.bot,
                MemberStatus.KICKED,
                MemberStatus.MEMBER,
                self.world.now(),
            ),
        )

    def user_removes_bot(self, user: User, chat: ChatRef) -> None:
        """An admin removes the bot from a group; it gets ``my_chat_member`` (→kicked), and
        later requests to the group fail with 403."""
        group = self.chat(chat)
        if not group.is_group or not group.status_of(user).is_admin:
            raise SimulationError(f"{user.full_name} cannot remove the bot from {group!r}")
        old, group.bot_status = group.bot_status, MemberStatus.KICKED
        self._queue(
            "my_chat_member",
            my_chat_member_json(group, user, self.bot, old, MemberStatus.KICKED, self.world.now()),
        )

    def user_presses(
        self,
        user: User,
        message: Message,
        callback_data: str | None = None,
        *,
        text: str | None = None,
    ) -> CallbackQuery:
        """``user`` presses the button with ``callback_data`` (or with label ``text``).

        Raises :class:`NoSuchButton` unless such a button is on the message right now, and
        :class:`SimulationError` if the user cannot see the message. Queues a
        ``callback_query`` update; the bot is expected to answer it.
        """
        if (callback_data is None) == (text is None):
            raise TypeError("give exactly one of callback_data and text")
        chat = message.chat
        if not chat.status_of(user).is_present:
            raise SimulationError(f"{user.full_name} cannot see messages in {chat!r}")
        if message.deleted:
            raise NoSuchButton(f"{message!r} was deleted")
        if text is not None:
            labelled = [data for row in message.buttons for label, data in row if label == text]
            if not labelled or labelled[0] is None:
                raise NoSuchButton(f"no callback button {text!r} on {message!r}")
            callback_data = labelled[0]
        assert callback_data is not None
        if callback_data not in message.callback_data:
            raise NoSuchButton(f"no button with data {callback_data!r} on {message!r}")
        query = self.world.add_callback_query(user, message, callback_data, self._loop_time())
        self._queue("callback_query", callback_query_json(query))
        return query

    def migrate_to_supergroup(self, chat: ChatRef, *, by: User | None = None) -> Chat:
        """Upgrade a group to a supergroup, as Telegram does.

        The old group gets a service message with ``migrate_to_chat_id`` and the new supergroup
        one with ``migrate_from_chat_id`` (both delivered to the bot); afterwards requests to
        the old id fail with 400 and ``parameters.migrate_to_chat_id`` (PTB's ``ChatMigrated``).
        """
        group = self.chat(chat)
        if group.type is not ChatType.GROUP or group.migrated_to is not None:
            raise SimulationError(f"{group!r} is not a group that can be migrated")
        actor = by or next(
            self.world.users[user_id]
            for user_id, membership in group.members.items()
            if membership.status is MemberStatus.CREATOR
        )
        supergroup = Chat(
            id=self.world.new_group_id(supergroup=True),
            type=ChatType.SUPERGROUP,
            title=group.title,
            members={user_id: m for user_id, m in group.members.items()},
            bot_status=group.bot_status,
            migrated_from=group,
        )
        self.world.chats[supergroup.id] = supergroup
        group.migrated_to = supergroup
        farewell = self.world.add_message(
            group, actor, service={"migrate_to_chat_id": supergroup.id}
        )
        farewell.update_id = self._queue("message", message_json(farewell))
        welcome = self.world.add_message(
            supergroup, actor, service={"migrate_from_chat_id": group.id}
        )
        welcome.update_id = self._queue("message", message_json(welcome))
        return supergroup

    # --- forum topics -----------------------------------------------------------------------

    def _topic_event(self, chat: Chat, topic: Topic, by: User | None, service: str) -> Message:
        """A topic's service message (created, edited, closed, reopened), sent in the topic and
        delivered to the bot as Telegram delivers service messages, privacy mode or not."""
        actor = by or next(
            self.world.users[user_id]
            for user_id, membership in chat.members.items()
            if membership.status is MemberStatus.CREATOR
        )
        payload: dict[str, Any] = {}
        if service == "forum_topic_created":
            payload = {"name": topic.name, "icon_color": 7322096}
        elif service == "forum_topic_edited":
            payload = {"name": topic.name}
        message = self.world.add_message(
            chat, actor, service={service: payload}, thread_id=topic.thread_id
        )
        if chat.bot_status.is_present:
            message.update_id = self._queue("message", message_json(message))
        return message

    def create_topic(self, chat: ChatRef, name: str, *, by: User | None = None) -> Topic:
        """A new topic in a supergroup with topics; its thread id is the id of the service
        message that opens it, as in Telegram."""
        group = self.chat(chat)
        if not group.is_forum:
            raise SimulationError(f"{group!r} has no topics")
        topic = Topic(thread_id=group.next_message_id, name=name)
        group.topics[topic.thread_id] = topic
        created = self._topic_event(group, topic, by, "forum_topic_created")
        assert created.message_id == topic.thread_id
        return topic

    def rename_topic(
        self, chat: ChatRef, topic: Topic, name: str, *, by: User | None = None
    ) -> Message:
        """An admin renames a topic: the bot gets ``forum_topic_edited`` with the new name
        (the topic's opening message keeps the old one)."""
        group = self.chat(chat)
        topic.name = name
        return self._topic_event(group, topic, by, "forum_topic_edited")

    def close_topic(self, chat: ChatRef, topic: Topic, *, by: User | None = None) -> Message:
        """An admin closes a topic: it takes no new messages (TOPIC_CLOSED), and the bot gets
        the ``forum_topic_closed`` service message."""
        group = self.chat(chat)
        topic.closed = True
        return self._topic_event(group, topic, by, "forum_topic_closed")

    def reopen_topic(self, chat: ChatRef, topic: Topic, *, by: User | None = None) -> Message:
        """An admin reopens a closed topic (``forum_topic_reopened``)."""
        group = self.chat(chat)
        topic.closed = False
        return self._topic_event(group, topic, by, "forum_topic_reopened")

    def delete_topic(self, chat: ChatRef, topic: Topic) -> None:
        """An admin deletes a topic with all its messages. Telegram tells the bot nothing:
        its next message there is refused with "message thread not found"."""
        group = self.chat(chat)
        topic.deleted = True
        for message in group.messages.values():
            if message.thread_id == topic.thread_id:
                message.deleted = True

    def topic_messages(
        self, chat: ChatRef, topic: Topic | None, *, from_bot: bool | None = True
    ) -> list[Message]:
        """The (not deleted) messages of one topic (None: General), by default the bot's."""
        thread = topic.thread_id if topic is not None else None
        return [m for m in self.messages(chat, from_bot=from_bot) if m.thread_id == thread]

    # --- reading what the bot did ---------------------------------------------------------

    def messages(
        self, chat: ChatRef, *, from_bot: bool | None = None, include_deleted: bool = False
    ) -> list[Message]:
        """Messages in ``chat`` in order; ``from_bot`` filters by sender."""
        found = self.chat(chat).messages.values()
        return [
            message
            for message in found
            if (include_deleted or not message.deleted)
            and (from_bot is None or message.from_bot == from_bot)
        ]

    def last_message(self, chat: ChatRef, *, from_bot: bool | None = True) -> Message:
        """The latest (not deleted) message in ``chat``, by default the bot's latest."""
        found = self.messages(chat, from_bot=from_bot)
        if not found:
            raise LookupError(f"no matching message in {self.chat(chat)!r}")
        return found[-1]

    def message(self, chat: ChatRef, message_id: int) -> Message:
        """A message by chat and id (deleted ones included)."""
        return self.chat(chat).messages[message_id]

    def requests(
        self,
        method: str | None = None,
        *,
        chat: ChatRef | None = None,
        since: float | None = None,
        ok: bool | None = None,
    ) -> list[ApiRequest]:
        """Logged API requests, filtered by method (any case), chat, start time and outcome."""
        chat_id = self.chat(chat).id if isinstance(chat, Chat) else chat
        return [
            entry
            for entry in self.server.log
            if (method is None or entry.method.lower() == method.lower())
            and (chat_id is None or entry.chat_id == chat_id)
            and (since is None or entry.time >= since)
            and (ok is None or entry.ok == ok)
        ]

    def count_requests(
        self, method: str | None = None, *, chat: ChatRef | None = None, since: float | None = None
    ) -> int:
        """How many requests match, as :meth:`requests` filters them."""
        return len(self.requests(method, chat=chat, since=since))

    def busiest_window(
        self,
        chat: ChatRef,
        window: float = 60.0,
        methods: Iterable[str] = ("sendMessage", "editMessageText", "editMessageReplyMarkup"),
    ) -> int:
        """The most ``methods`` requests to ``chat`` (failed ones too) within any ``window``
        seconds, e.g. to check the bot keeps under Telegram's 20 messages a minute in a group."""
        wanted = {name.lower() for name in methods}
        times = [e.time for e in self.requests(chat=chat) if e.method.lower() in wanted]
        best, start = 0, 0
        for end, moment in enumerate(times):
            while moment - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def unanswered_callback_queries(self) -> list[CallbackQuery]:
        """Presses the bot has not answered yet."""
        return [q for q in self.world.callback_queries.values() if q.answer is None]

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[tuple[str, str]]:
        """The bot's ``setMyCommands`` list for a scope and language as (command, description)."""
        key = (json.dumps(scope or {"type": "default"}, sort_keys=True), language_code)
        return [(c["command"], c["description"]) for c in self.settings.commands.get(key, [])]

    # --- waiting --------------------------------------------------------------------------

    def is_idle(self, *, require_answers: bool = True) -> bool:
        """No update waits for the bot, no request is being served (long polls aside), and,
        with ``require_answers``, every press has been answered."""
        busy = any(entry.method != "getUpdates" for entry in self.server.in_flight)
        unanswered = require_answers and bool(self.unanswered_callback_queries())
        return not self.updates.pending and not busy and not unanswered

    def describe_state(self) -> str:
        """A one-line summary of what the fake waits for, for timeout messages."""
        return (
            f"pending updates={[u.update_id for u in self.updates.pending]}, "
            f"in flight={sorted(e.method for e in self.server.in_flight)}, "
            f"unanswered queries={[q.data for q in self.unanswered_callback_queries()]}"
        )

    async def _changed_or(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)

    async def wait_until(
        self, predicate: Callable[[], object], timeout: float = 5.0, *, message: str = ""
    ) -> None:
        """Wait until ``predicate()`` is truthy, re-checking on every request and update.

        Raises ``TimeoutError`` after ``timeout`` seconds.
        """
        deadline = self._loop_time() + timeout
        while not predicate():
            remaining = deadline - self._loop_time()
            if remaining <= 0:
                raise TimeoutError(
                    f"{message or 'condition'} not met within {timeout}s; {self.describe_state()}"
                )
            await self._changed_or(min(remaining, 0.02))

    async def wait_idle(
        self, timeout: float = 5.0, *, quiet: float = 0.05, require_answers: bool = True
    ) -> None:
        """Wait until :meth:`is_idle` has held for ``quiet`` seconds with no request at all.

        The quiet period covers the bot's work between fetching an update and its first
        request; :class:`~.ptb.RunningApplication.settle` adds a precise check of the
        application's own queue.
        """
        deadline = self._loop_time() + timeout
        while True:
            now = self._loop_time()
            idle_for = now - self._last_activity
            if self.is_idle(require_answers=require_answers) and idle_for >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"not idle within {timeout}s; {self.describe_state()}")
            wait = quiet - idle_for if idle_for < quiet else 0.02
            await self._changed_or(max(min(wait, deadline - now), 0.001))
