"""The running program: the table service, and over it the Telegram chat (``bot``) and, when
``WEBAPP_URL`` is set, the Mini App (``web``) as peers, in one process
(``server.program.Program``, the composition root). The one package that knows both
front-ends; ``python -m server`` starts it.

A move made on a page is published by the table service, which the chat shows as it shows a
button press, and every commit reaches the pages open at that table; neither front-end calls
the other. A bot without ``WEBAPP_URL`` never loads the Mini App's code (about 2 MB of memory).
"""

from __future__ import annotations

from telegram.ext import Application

from bot.app import build_application as build_chat
from bot.settings import Settings
from server.games import LIBRARY, Library
from server.program import Program


def build_application(
    settings: Settings, *, tune_gc: bool = False, library: Library = LIBRARY
) -> Application:  # type: ignore[type-arg]
    """The program as configured by ``settings``, offering the games of ``library`` (a test
    offers its own), run by the chat's application (its start and stop); not yet running."""
    return build_chat(settings, Program(settings, library), tune_gc=tune_gc)
