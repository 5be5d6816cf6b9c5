"""Sending and editing messages, the Telegram way: skip edits that change nothing, never send
a message twice, turn 403s and migrations into events the service understands.

Buttons arrive as plain rows of ``(label, callback_data)`` (``bot.keyboards`` makes them); this
module is where they become the Bot API's ``reply_markup``.

Texts go out through PTB's ``Bot.do_api_request`` with plain JSON parameters and come back as
the plain JSON result: the bot reads nothing of an edit's reply and only the ``message_id`` of
a send's, and building PTB's ``Message`` (every entity of the text, the chat, the buttons) from
each reply, and ``InlineKeyboardMarkup`` objects for each request, cost about a fifth of the
bot's CPU under bench/load.py. The requests still take PTB's whole path below that (the rate
limiter, the request object, errors as ``TelegramError``). Parameters that are objects (the
buttons, the link preview options) are given as their JSON text: PTB sends every parameter that
is not a string as ``json.dumps`` of it, so the request is the same, without PTB encoding each
one twice over (``RequestParameter.json_value``) at every request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import (
    Bot,
    InputFile,
    ReplyParameters,
)
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TelegramError

from bot.chat_events import ChatListener
from bot.pacing import Pacer, RetryLater, answering
from bot.ratelimit import maybe_performed
from tables.bounded import Recent

log = logging.getLogger(__name__)

Rows = Sequence[Sequence[tuple[str, str]]]
#: every message of the bot: HTML, and no link previews (the lobby's links would make one)
MESSAGE_OPTIONS: dict[str, Any] = {
    "parse_mode": "HTML",
    "link_preview_options": json.dumps({"is_disabled": True}),
}
#: the methods the messenger calls through ``do_api_request``, named in lower case: the Bot
#: API's method names are case-insensitive, and PTB warns on every call that names one of its
#: own methods ("sendMessage") through ``do_api_request``
SEND, EDIT_TEXT, EDIT_BUTTONS, DELETE = (
    "sendmessage",
    "editmessagetext",
    "editmessagereplymarkup",
    "deletemessage",
)


@dataclass(frozen=True, slots=True)
class Shown:
    text: str
    rows: tuple[tuple[tuple[str, str], ...], ...]


#: messages whose content the messenger remembers: the tables and hands of some 700 open deals
#: (finished deals' messages are let go as they finish, see ``done_with``)
SHOWN_MESSAGES = 5_000
#: groups whose move to a supergroup is remembered (``Messenger.moved_to``): a group moves
#: once, and its sender asks at once
MOVES_KEPT = 256


#: the messages the messenger remembers: at most ``SHOWN_MESSAGES``, the least recently used
#: forgotten first
ShownCache = Recent[tuple[int, int], Shown]


def markup_json(rows: Rows) -> str:
    """``reply_markup`` as the JSON text PTB would send for ``markup(rows)``."""
    return json.dumps(markup(rows))


def markup(rows: Rows | None) -> dict[str, Any] | None:
    """Inline buttons as the Bot API's ``reply_markup`` (``url:`` data is a link, ``app:``
    data the address of a Mini App page, for private chats only)."""
    if not rows:
        return None
    return {
        "inline_keyboard": [[_button(label, data) for label, data in row] for row in rows if row]
    }


def _button(label: str, data: str) -> dict[str, Any]:
    if data.startswith("url:"):
        return {"text": label, "url": data[4:]}
    if data.startswith("app:"):
        return {"text": label, "web_app": {"url": data[4:]}}
    return {"text": label, "callback_data": data}


def _frozen(rows: Rows | None) -> tuple[tuple[tuple[str, str], ...], ...]:
    return tuple(tuple(row) for row in rows or ())


class _Busy:
    """A message being changed: its lock, and how many hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Undelivered(RetryLater):
    """A request failed for a network reason, after the rate limiter's retries.

    ``maybe_done``: Telegram may have carried it out all the same (a timeout, a connection
    lost mid-request), so sending the message again could show it twice.
    """

    def __init__(self, chat_id: int, maybe_done: bool, error: Exception) -> None:
        super().__init__(f"chat {chat_id}: {error}")
        self.chat_id = chat_id
        self.maybe_done = maybe_done


class Messenger:
    """Sends and edits for the bot. Pacing, flood control and retries happen below, in the
    bot's rate limiter (``bot.ratelimit``); ``pacer`` is the same one, for callers that wait
    for a group's slot before they render."""

    def __init__(
        self,
        bot: Bot,
        pacer: Pacer,
        events: ChatListener,
    ) -> None:
        self.bot = bot
        self.pacer = pacer
        #: told of a blocked user, a group removed or moved, a forum topic the bot cannot write
        #: to any more (closed, or deleted: its table closes)
        self.events = events
        #: what each recent message shows, to skip edits that would change nothing; the
        #: least recently used are forgotten (then an edit is sent and Telegram says "not
        #: modified", which is harmless), so a bot that runs for months does not grow
        self._shown: ShownCache = ShownCache(SHOWN_MESSAGES)
        #: messages being changed
        self._busy: dict[tuple[int, int], _Busy] = {}
        #: groups that became supergroups (old id → new), as a send to them told, for a
        #: caller whose send it was (``moved_to``); the least recently told are forgotten
        self._moved: Recent[int, int] = Recent(MOVES_KEPT)

    async def send(
        self,
        chat_id: int,
        text: str,
        rows: Rows | None = None,
        *,
        strict: bool = False,
        reply_to: int | None = None,
        thread: int | None = None,
        answer: bool = False,
    ) -> int | None:
        """Send a message; the new message id, or None if it cannot be sent (the user blocked
        the bot, the group moved, the topic is closed or gone, Telegram refused it).
        ``reply_to``: the message (a command) this one answers; it is sent all the same if that
        message is gone. ``thread``: the forum topic to send it to (None: the chat itself, or
        the General topic of a chat with topics). A reply, or with ``answer``, goes before the
        group's table (``bot.pacing.answering``).

        A network failure is logged and gives None, or with ``strict`` raises ``Undelivered``
        (whose ``maybe_done`` says whether the message may exist all the same). A message is
        never sent a second time here: the caller decides.
        """
        params: dict[str, Any] = {"chat_id": chat_id, "text": text, **MESSAGE_OPTIONS}
        if thread is not None:
            params["message_thread_id"] = thread
        if rows:
            params["reply_markup"] = markup_json(rows)
        if reply_to is not None:
            params["reply_parameters"] = json.dumps(
                {"message_id": reply_to, "allow_sending_without_reply": True}
            )
        try:
            with _answer(answer or reply_to is not None):
                message = await self.bot.do_api_request(SEND, params)
        except ChatMigrated as error:
            # the game follows the group; whoever shows the table shows it there
            self._moved[chat_id] = error.new_chat_id
            await self.events.chat_migrated(chat_id, error.new_chat_id)
            return None
        except Forbidden as error:
            if chat_id > 0 or _bot_removed(error):
                await self.events.user_blocked(chat_id)
            return None
        except BadRequest as error:
            log.warning("send to %s refused: %s", chat_id, error.message)
            if thread is not None and _topic_lost(error):
                await self.events.topic_lost(chat_id, thread)
            return None
        except NetworkError as error:
            maybe = maybe_performed(error)
            log.warning("send to %s failed (%s; maybe sent: %s)", chat_id, error, maybe)
            if strict:
                raise Undelivered(chat_id, maybe, error) from error
            return None
        message_id = int(message["message_id"])
        self._shown[(chat_id, message_id)] = Shown(text, _frozen(rows))
        return message_id

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        rows: Rows | None = None,
        *,
        answer: bool = False,
    ) -> bool:
        """Edit a message in place unless it already shows exactly this; True if it shows it,
        False if it cannot be edited (gone, too old, the chat moved or blocked the bot). With
        ``answer`` (a menu edited by a player's press) it goes before the group's table.

        Raises ``Undelivered`` on a network failure: the message may or may not show it, and
        a later edit will tell (an edit can safely be repeated).
        """
        async with self._one_at_a_time((chat_id, message_id)):
            return await self._edit(chat_id, message_id, text, rows, answer)

    async def _edit(
        self, chat_id: int, message_id: int, text: str, rows: Rows | None, answer: bool
    ) -> bool:
        wanted = Shown(text, _frozen(rows))
        if self._shown.get((chat_id, message_id)) == wanted:
            return True
        try:
            params: dict[str, Any] = {
                "chat_id": chat_id,
                "message_id": message_id,
                "text": text,
                **MESSAGE_OPTIONS,
            }
            if rows:
                params["reply_markup"] = markup_json(rows)
            with _answer(answer):
                await self.bot.do_api_request(EDIT_TEXT, params)
        except BadRequest as error:
            if "not modified" in error.message.lower():
                self._shown[(chat_id, message_id)] = wanted
                return True
            log.warning("edit of %s/%s failed: %s", chat_id, message_id, error.message)
            self._shown.pop((chat_id, message_id), None)
            return False
        except ChatMigrated as error:
            await self.events.chat_migrated(chat_id, error.new_chat_id)
            return False
        except Forbidden as error:
            if chat_id > 0 or _bot_removed(error):
                await self.events.user_blocked(chat_id)
            return False
        except NetworkError as error:
            self._shown.pop((chat_id, message_id), None)
            raise Undelivered(chat_id, True, error) from error
        self._shown[(chat_id, message_id)] = wanted
        return True

    async def show(
        self,
        chat_id: int,
        message_id: int | None,
        text: str,
        rows: Rows | None = None,
        *,
        strict: bool = False,
        reply_to: int | None = None,
        thread: int | None = None,
        answer: bool = False,
    ) -> int | None:
        """Edit ``message_id`` if there is one and it can be edited, else send a new message
        (``strict``, ``reply_to``, ``thread`` and ``answer`` as for ``send``). A failed edit
        raises ``Undelivered``: it is not replaced by a new message, which would show the same
        thing twice."""
        if message_id is not None and await self.edit(
            chat_id, message_id, text, rows, answer=answer
        ):
            return message_id
        return await self.send(
            chat_id, text, rows, strict=strict, reply_to=reply_to, thread=thread, answer=answer
        )

    async def send_file(
        self,
        chat_id: int,
        kind: str,
        data: bytes,
        filename: str,
        caption: str | None = None,
        *,
        reply_to: int | None = None,
        thread: int | None = None,
        rows: Rows | None = None,
    ) -> int | None:
        """Send a file as a ``photo`` (sendPhoto) or a ``document`` (sendDocument), with an HTML
        caption and the buttons ``rows`` (``reply_to`` and ``thread`` as for ``send``); the new
        message id, or None if
        it could not be sent (logged). Goes through PTB's own method, which uploads it as
        multipart/form-data through the bot's request object and rate limiter."""
        upload = InputFile(data, filename=filename)
        reply = (
            None
            if reply_to is None
            else ReplyParameters(reply_to, allow_sending_without_reply=True)
        )
        send = self.bot.send_photo if kind == "photo" else self.bot.send_document
        try:
            with _answer(reply_to is not None):
                message = await send(
                    chat_id,
                    upload,
                    caption=caption,
                    parse_mode="HTML",
                    reply_parameters=reply,
                    message_thread_id=thread,
                    api_kwargs={"reply_markup": markup_json(rows)} if rows else None,
                )
        except ChatMigrated as error:
            await self.events.chat_migrated(chat_id, error.new_chat_id)
            return None
        except Forbidden:
            if chat_id > 0:
                await self.events.user_blocked(chat_id)
            return None
        except TelegramError as error:
            log.warning("%s to %s not sent: %s", kind, chat_id, error)
            return None
        return message.message_id

    def moved_to(self, chat_id: int) -> int | None:
        """The supergroup a group became, if a send to the group was refused for that (its
        data followed it before the send returned: ``ChatListener.chat_migrated``); else None."""
        moved: int | None = self._moved.get(chat_id)
        return moved

    def shown(self, chat_id: int, message_id: int) -> Shown | None:
        """What a message is known to show (None if not remembered)."""
        shown: Shown | None = self._shown.get((chat_id, message_id))
        return shown

    async def drop_buttons(self, chat_id: int, message_id: int, *, answer: bool = False) -> None:
        """Take the buttons off a message whose moment is over (a finished deal's hand; with
        ``answer``, the lobby a player has just begun the game from)."""
        async with self._one_at_a_time((chat_id, message_id)):
            await self._drop_buttons(chat_id, message_id, answer)

    async def _drop_buttons(self, chat_id: int, message_id: int, answer: bool) -> None:
        shown = self._shown.get((chat_id, message_id))
        if shown is not None and not shown.rows:
            return
        try:
            with _answer(answer):
                await self.bot.do_api_request(
                    EDIT_BUTTONS, {"chat_id": chat_id, "message_id": message_id}
                )
        except (BadRequest, Forbidden, ChatMigrated) as error:
            log.debug("buttons of %s/%s stay: %s", chat_id, message_id, error)
        except NetworkError as error:
            raise Undelivered(chat_id, True, error) from error
        # its moment is over: it is not edited again, so what it shows need not be kept
        self._shown.pop((chat_id, message_id), None)

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message (a hand message replaced by a new one that notifies); False if
        Telegram refused (too old, already gone)."""
        async with self._one_at_a_time((chat_id, message_id)):
            try:
                await self.bot.do_api_request(
                    DELETE, {"chat_id": chat_id, "message_id": message_id}
                )
            except (BadRequest, Forbidden, ChatMigrated) as error:
                log.debug("message %s/%s stays: %s", chat_id, message_id, error)
                return False
            except NetworkError as error:
                raise Undelivered(chat_id, True, error) from error
            finally:
                self._shown.pop((chat_id, message_id), None)
            return True

    @contextlib.asynccontextmanager
    async def _one_at_a_time(self, key: tuple[int, int]) -> AsyncIterator[None]:
        """Changes of one message go one after another, each knowing what the one before left
        (a hand's last edit and the dropping of its buttons came from different jobs: both in
        flight at once, the second was "not modified", and two edits in flight could also
        arrive in the other order)."""
        busy = self._busy.get(key)
        if busy is None:
            busy = self._busy[key] = _Busy()
        busy.users += 1
        try:
            async with busy.lock:
                yield
        finally:
            busy.users -= 1
            if not busy.users:
                del self._busy[key]

    def done_with(self, chat_id: int, message_id: int | None) -> None:
        """A message that will not be edited again (a deal's result): forget what it shows."""
        if message_id is not None:
            self._shown.pop((chat_id, message_id), None)

    def forget(self, chat_id: int) -> None:
        """Drop what is remembered of a chat's messages (after a migration)."""
        for key in [key for key in self._shown if key[0] == chat_id]:
            del self._shown[key]


def _answer(answer: bool) -> contextlib.AbstractContextManager[None]:
    """The request made inside answers a player (``bot.pacing.answering``), or not."""
    return answering() if answer else contextlib.nullcontext()


def _topic_lost(error: BadRequest) -> bool:
    """A send refused because its forum topic is closed or deleted."""
    text = error.message.lower()
    return "thread not found" in text or "topic_closed" in text or "topic_deleted" in text


def _bot_removed(error: Forbidden) -> bool:
    """A group's 403 that means the bot is no longer in it (kicked, or left)."""
    text = error.message.lower()
    return "kicked" in text or "not a member" in text


class Alert(str):
    """A callback answer to be read, not glanced at: Telegram shows it in a box the player
    closes himself (``show_alert``), not as a toast that fades in a moment."""


async def answer(query_answer: Callable[..., Awaitable[bool]], text: str | None) -> None:
    """Answer a callback query (≤ 200 characters), ignoring a query that is too old; an
    ``Alert`` stays on screen until the player closes it."""
    try:
        if isinstance(text, Alert):
            await query_answer(text=text[:200], show_alert=True)
            return
        await query_answer(text=text[:200] if text else None)
    except TelegramError as error:
        log.debug("callback answer failed: %s", error)
