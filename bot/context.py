"""The typed context the handlers get: ``context.services`` is the assembled application
(``bot.assembly.Services``), built once in ``post_init``."""

from __future__ import annotations

from typing import Any

from telegram.ext import CallbackContext, ExtBot

from bot.assembly import Services
from bot.startup import BotApplication


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    """The handlers' context: ``context.services`` is the one ``Services`` object."""

    @property
    def services(self) -> Services:
        application = self.application
        assert isinstance(application, BotApplication)
        return application.services
