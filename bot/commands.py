"""The commands menu Telegram shows beside the message box (``setMyCommands``).

The bot publishes its own menu at start-up, for group chats and for private chats, in Russian,
in English and for clients in any other language (the default list, in the bot's default
language), so nobody has to type ``/setcommands`` into @BotFather. The descriptions are the
``commands.<name>`` entries of ``locales/`` (/new's names each game by its title).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from telegram.error import TelegramError

from bot.render.common import game_title
from locales import DEFAULT_LANGUAGE, LANGUAGES, listed, t
from tables.games import Plugin

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


def bot_commands(names: tuple[str, ...], lang: str, games: Iterable[Plugin]) -> list[BotCommand]:
    """``names`` with their short descriptions in ``lang`` (/new's lists ``games``)."""
    titles = listed(
        lang, [game_title(game.words, lang, game.choices[0].name) for game in games], "or"
    )
    return [BotCommand(name, t(lang, f"commands.{name}", games=titles)) for name in names]


async def publish_commands(
    bot: Bot, games: Sequence[Plugin], *, default_language: str = DEFAULT_LANGUAGE
) -> bool:
    """Set the group and private menus for every language the bot speaks and the default one
    (/new's description names ``games``).

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
        bot.set_my_commands(bot_commands(names, lang, games), scope=scope, language_code=code)
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
