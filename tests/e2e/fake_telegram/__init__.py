"""A fake Telegram Bot API server for end-to-end tests of the bot.

The real python-telegram-bot ``Application`` polls it over HTTP on 127.0.0.1, while the test
plays users in the same event loop through :class:`FakeTelegram`::

    async with FakeTelegram() as tg, running(application_builder(tg).build(), tg) as bot:
        alice = tg.add_user("Alice", started=True)
        tg.user_sends(alice, tg.private_chat(alice), "/start")
        await bot.settle()
        assert tg.last_message(tg.private_chat(alice)).text == "..."

Modules: ``fake`` (driving API), ``server`` (HTTP), ``methods`` (Bot API methods), ``model``
(users, chats, messages), ``serialize`` (Bot API JSON and update dicts), ``formatting``
(parse modes), ``faults`` (fault injection), ``update_queue``, ``params``, ``errors``, ``ptb``
(running an ``Application`` against the fake). ``tests/e2e/README.md`` lists the driving API,
the waits and the fault hooks.
"""

from .errors import ApiError, NoSuchButton, SimulationError
from .fake import DEFAULT_TOKEN, FakeTelegram
from .faults import Delay, DropConnection, FaultInjector, FaultRule, RetryAfter, ServerError
from .model import (
    CallbackAnswer,
    CallbackQuery,
    Chat,
    ChatType,
    Membership,
    MemberStatus,
    Message,
    Revision,
    Topic,
    User,
)
from .ptb import RunningApplication, application_builder, running
from .server import ApiRequest

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "ApiRequest",
    "CallbackAnswer",
    "CallbackQuery",
    "Chat",
    "ChatType",
    "Delay",
    "DropConnection",
    "FakeTelegram",
    "FaultInjector",
    "FaultRule",
    "MemberStatus",
    "Membership",
    "Message",
    "NoSuchButton",
    "RetryAfter",
    "Revision",
    "RunningApplication",
    "ServerError",
    "SimulationError",
    "Topic",
    "User",
    "application_builder",
    "running",
]
