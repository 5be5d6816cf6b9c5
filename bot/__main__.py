"""``python -m bot``: start the bot (polling, or a webhook when ``WEBHOOK_URL`` is set)."""

from __future__ import annotations

import logging

from telegram import Update

from bot.app import build_application
from bot.settings import load_settings


def main() -> None:
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    application = build_application(settings)
    if settings.webhook_url:
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            webhook_url=settings.webhook_url,
            secret_token=settings.webhook_secret,
            allowed_updates=Update.ALL_TYPES,
        )
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES)


if __name__ == "__main__":
    main()
