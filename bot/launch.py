"""Where the Mini App opens from the chat: the buttons that launch the page.

Telegram allows a ``web_app`` button only in a private chat: the hand message carries one
(«🃏 Стол») that opens the page at that table (``?t=<payload>``), and the private chat's menu
button opens the player's current table. In a group, the table message carries a plain link
to ``https://t.me/<bot>/<short name>?startapp=<payload>`` (the app registered with BotFather
``/newapp``), which opens the page with the payload in its signed ``initData``. The payload
(``g<game id>``) names no chat; the page's server maps it to the table and lets only a seated
player open it. Without ``WEBAPP_URL`` there is no button at all.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from telegram import MenuButtonWebApp, WebAppInfo
from telegram.error import TelegramError

from locales import t
from tables.arguments import game_link
from tables.bounded import PLAYERS_KEPT, Recent

log = logging.getLogger(__name__)

#: what an inline button's data begins with when it opens a Mini App page (``bot.messenger``)
APP = "app:"
URL = "url:"


@dataclass
class Launch:
    """The page's address (``WEBAPP_URL``), the app's short name (``WEBAPP_SHORT_NAME``) and
    the bot's username (known once the bot has started)."""

    url: str | None = None
    short_name: str | None = None
    bot_username: str = ""
    #: the players whose private chat's menu button opens the page already (this run)
    menus: Recent[int, bool] = field(default_factory=lambda: Recent(PLAYERS_KEPT))

    @property
    def enabled(self) -> bool:
        return bool(self.url)

    def page(self, game_id: int | None = None) -> str | None:
        """The page's address at ``game_id``'s table (None: the current table)."""
        if not self.url:
            return None
        return self.url if game_id is None else f"{self.url}?t={game_link(game_id)}"

    def link(self, game_id: int) -> str | None:
        """The t.me link that opens the page at ``game_id``'s table from a group."""
        if not (self.url and self.short_name and self.bot_username):
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?startapp={game_link(game_id)}"

    def hand_row(self, lang: str, game_id: int) -> list[tuple[str, str]]:
        """The «🃏 Стол» button of a private hand message (none without ``WEBAPP_URL``)."""
        page = self.page(game_id)
        return [] if page is None else [(t(lang, "btn.table"), APP + page)]

    def group_row(self, lang: str, game_id: int) -> list[tuple[str, str]]:
        """The group table message's link to the page (none without the app's short name)."""
        link = self.link(game_id)
        return [] if link is None else [(t(lang, "btn.table"), URL + link)]

    async def menu_button(self, bot: Any, user_id: int, lang: str) -> None:
        """His private chat's menu button opens the page at his current table: set once a
        run, with his first hand message (a failure is tried again with the next one)."""
        page = self.page()
        if page is None or user_id in self.menus:
            return
        button = MenuButtonWebApp(t(lang, "btn.table"), WebAppInfo(page))
        try:
            await bot.set_chat_menu_button(chat_id=user_id, menu_button=button)
        except TelegramError as error:
            log.info("menu button of %s not set: %s", user_id, error)
            return
        self.menus[user_id] = True
