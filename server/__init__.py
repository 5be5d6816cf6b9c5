"""The running program: the Telegram chat (``bot``) and, when ``WEBAPP_URL`` is set, the Mini
App (``web``) over one table service, in one process. The one package that knows both
front-ends; ``python -m server`` starts it.

``build_application`` is ``bot.app.build_application`` with the Mini App's server as the chat's
companion (``server.webapp``): a move made on a page is shown in the chat as a button press
is, and every commit reaches the pages open at that table. A bot without ``WEBAPP_URL`` never
loads the Mini App's code (about 2 MB of memory).
"""

from __future__ import annotations

from telegram.ext import Application

from bot.app import build_application as build_chat
from bot.assembly import CompanionMaker
from bot.settings import Settings


def build_application(settings: Settings, *, tune_gc: bool = False) -> Application:  # type: ignore[type-arg]
    """The bot as configured by ``settings``, with the Mini App's server when ``WEBAPP_URL``
    is set; not yet running."""
    companions: list[CompanionMaker] = []
    if settings.webapp_url:
        from server.webapp import webapp

        companions.append(webapp)
    return build_chat(settings, tune_gc=tune_gc, companions=companions)
