"""The commands menu Telegram shows beside the message box (``setMyCommands``).

The bot publishes its own menu at start-up, for group chats and for private chats, in Russian,
in English and for clients in any other language (the default list, in the bot's default
language), so nobody has to type ``/setcommands`` into @BotFather. The descriptions are the
``commands.<name>`` entries of ``locales/``.
"""

from __future__ import annotations

import asyncio
import logging

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import TelegramError

from locales import DEFAULT_LANGUAGE, LANGUAGES, t

log = logging.getLogger(__name__)

GROUP_COMMANDS: tuple[str, ...] = (
    "new",
    "join",
    "leave",
    "begin",
    "stop",
    "balance",
    "stats",
    "top",
    "history",
    "evening",
    "export",
    "settings",
    "rules",
    "help",
    "lang",
    "timeout",
)
"""The group menu, in the order a table uses them."""

PRIVATE_COMMANDS: tuple[str, ...] = (
    "start",
    "new",
    "stop",
    "help",
    "rules",
    "balance",
    "stats",
    "settings",
    "lang",
)
"""The private-chat menu."""


def bot_commands(names: tuple[str, ...], lang: str) -> list[BotCommand]:
    """``names`` with their short descriptions in ``lang``."""
    return [BotCommand(name, t(lang, f"commands.{name}")) for name in names]


async def publish_commands(bot: Bot, *, default_language: str = DEFAULT_LANGUAGE) -> bool:
    """Set the group and private menus for every language the bot speaks and the default one.

    A failure is logged and leaves the menu as it was: the bot works without it, so start-up
    must not fail over it. Returns whether every list was set.
    """
    scopes = (
        (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
        (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
    )
    languages: list[tuple[str, str | None]] = [(lang, lang) for lang in LANGUAGES]
    languages.append((default_language, None))
    calls = [
        bot.set_my_commands(bot_commands(names, lang), scope=scope, language_code=code)
        for scope, names in scopes
        for lang, code in languages
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    ok = True
    for result in results:
        if isinstance(result, TelegramError):
            log.warning("could not set the commands menu: %s", result)
            ok = False
        elif isinstance(result, BaseException):
            raise result
    return ok


__all__ = ["GROUP_COMMANDS", "PRIVATE_COMMANDS", "bot_commands", "publish_commands"]
