"""The bot's settings: one typed object read from the environment (and an optional ``.env``).

Nothing else in the project reads the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.request import check_proxy_url


class Settings(BaseSettings):
    """Every environment variable the bot reads, with its default."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    #: a SecretStr: shown as ********** in a repr, a log line or an error
    bot_token: SecretStr = Field(min_length=1)
    database_path: Path = Path("data") / "bot.sqlite3"
    telegram_api_base_url: str = "https://api.telegram.org/bot"
    #: every Bot API request goes through this proxy: http://, https://, socks5://, socks5h://
    #: or socks4://, with credentials in it if the proxy wants them (user:password@host:port)
    proxy_url: SecretStr | None = None
    default_language: Literal["ru", "en"] = "ru"
    turn_timeout_seconds: float = Field(default=60.0, gt=0)
    #: a computer's pause before its move, so the people at the table can follow it
    computer_pause_seconds: float = Field(default=1.5, ge=0)
    #: worker processes for the strong computer's search (0: the easy rules on the loop)
    computer_workers: int = Field(default=1, ge=0)
    log_level: str = "INFO"
    rate_limiter: bool = True
    webhook_url: str | None = None
    #: what Telegram accepts as a secret token: 1–256 of A–Z, a–z, 0–9, _ and -
    webhook_secret: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,256}$")
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    #: the Mini App page's public address (https; http only on 127.0.0.1/localhost, for
    #: tests); unset: no Mini App button anywhere and no web server
    webapp_url: str | None = None
    #: the app's short name as registered with BotFather /newapp (t.me/<bot>/<short name>):
    #: the group's table message links to it; unset: no link in groups
    webapp_short_name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_]{3,30}$")
    #: where the bot's web server listens (a reverse proxy with TLS in front of it)
    webapp_host: str = "127.0.0.1"
    webapp_port: int = Field(default=8080, ge=0, le=65535)
    #: how old a page's signed initData may be (seconds)
    webapp_auth_max_age: int = Field(default=3600, gt=0)
    #: how long a page's session lasts from the initData that started it (seconds), however
    #: often it is used: a long evening
    webapp_session_max_age: int = Field(default=12 * 3600, gt=0)
    #: open connections the Mini App's server takes at most, all together (kept below half
    #: the process's open-file limit, whatever this says) and from one address (a reverse
    #: proxy on this machine, a loopback address, counts only towards the total)
    webapp_max_connections: int = Field(default=512, ge=8)
    webapp_max_connections_per_address: int = Field(default=32, ge=1)

    @field_validator(
        "webhook_url",
        "webhook_secret",
        "proxy_url",
        "webapp_url",
        "webapp_short_name",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # `docker run -e WEBHOOK_URL=` and an empty line in .env mean "not set"
        return None if value == "" else value

    @field_validator("proxy_url")
    @classmethod
    def _usable_proxy(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            check_proxy_url(value.get_secret_value())
        return value

    @field_validator("webapp_url")
    @classmethod
    def _page_address(cls, value: str | None) -> str | None:
        return None if value is None else check_webapp_url(value)

    @field_validator("log_level")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()

    @property
    def telegram_file_base_url(self) -> str:
        """The file endpoint that goes with ``telegram_api_base_url`` (…/bot → …/file/bot)."""
        base = self.telegram_api_base_url
        return base[: -len("bot")] + "file/bot" if base.endswith("/bot") else base


LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})


def check_webapp_url(url: str) -> str:
    """``WEBAPP_URL`` as the page's base address (ending in ``/``, so the page's relative
    addresses stay under it): https, or http on 127.0.0.1/localhost only (Telegram opens
    only https pages; plain http is for tests on this machine)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an https:// address")
    if parts.scheme == "http" and parts.hostname not in LOCAL_HOSTS:
        raise ValueError("must be https:// (http:// only for 127.0.0.1 or localhost)")
    if parts.query or parts.fragment:
        raise ValueError("must have no query or fragment")
    return url if parts.path.endswith("/") else url + "/"


class SettingsMissing(SystemExit):
    """The one-line error the bot exits with when a required setting is missing."""


def load_settings() -> Settings:
    """Read the settings; exit with one clear line if ``BOT_TOKEN`` is missing or a value is bad."""
    from pydantic import ValidationError

    try:
        return Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        fields = {str(item["loc"][0]).upper() for item in error.errors() if item["loc"]}
        if "BOT_TOKEN" in fields:
            raise SettingsMissing(
                "BOT_TOKEN is not set: get a token from @BotFather and run with BOT_TOKEN=<token>"
            ) from None
        problems = "; ".join(
            f"{str(item['loc'][0]).upper()}: {item['msg']}" for item in error.errors()
        )
        raise SettingsMissing(f"bad settings: {problems}") from None
