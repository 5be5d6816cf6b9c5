"""``python -m server``: start the bot (polling, or a webhook when ``WEBHOOK_URL`` is set), with
the Mini App's server when ``WEBAPP_URL`` is set."""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
from urllib.parse import urlsplit

from telegram import Update

from bot.settings import Settings, load_settings
from server.logs import keep_secrets_out_of_the_log
from server.program import build_application
from storage.database import check_file
from storage.errors import DatabaseDamaged

log = logging.getLogger("bot")


def webhook_path(url: str) -> str:
    """The path the webhook server listens on: the path of the public ``WEBHOOK_URL``
    (a reverse proxy in front must pass it through unchanged)."""
    return urlsplit(url).path.lstrip("/")


def webhook_secret(settings: Settings) -> str:
    """``WEBHOOK_SECRET``, or a random one for this run: the bot hands it to Telegram itself
    in ``setWebhook``, so an unset secret still keeps forged updates out."""
    if settings.webhook_secret:
        return settings.webhook_secret
    log.info("WEBHOOK_SECRET is not set: using a random secret token for this run")
    return secrets.token_urlsafe(32)


def use_uvloop() -> bool:
    """Run the bot on uvloop when it is installed (it is a dependency except on Windows):
    the same asyncio API, with the loop, its sockets and timers in C. Under bench/load.py
    (150 groups, limiter off) it took the bot from about 245 to 270 actions a second.
    PTB's ``run_polling`` and ``bot.webhook.run_webhook`` run on the loop set here."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop(uvloop.new_event_loop())
    return True


def main() -> None:
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    secret = webhook_secret(settings) if settings.webhook_url else None
    keep_secrets_out_of_the_log(settings, [secret] if secret else ())
    try:
        check_file(settings.database_path)
    except DatabaseDamaged as error:
        logging.getLogger("bot").critical("%s", error)
        print(f"not starting: {error}", file=sys.stderr)
        sys.exit(2)
    application = build_application(settings, tune_gc=True)
    use_uvloop()
    if settings.webhook_url and secret:
        # loaded only here: a bot that polls never loads aiohttp's server (about 2 MB)
        from bot.webhook import WebhookConfig, run_webhook

        # post_init runs before the webhook is set and post_shutdown after the server stops,
        # as in polling
        run_webhook(
            application,
            WebhookConfig(
                listen=settings.webhook_listen,
                port=settings.webhook_port,
                path=webhook_path(settings.webhook_url),
                url=settings.webhook_url,
                secret=secret,
            ),
        )
    else:
        # bootstrap_retries=-1: no network yet is retried with backoff (bot.startup)
        application.run_polling(allowed_updates=Update.ALL_TYPES, bootstrap_retries=-1)
    code = application.bot_data.get("exit_code")
    if code:
        raise SystemExit(code)


if __name__ == "__main__":
    main()
