"""Who is asking: Telegram's signed ``initData``, checked as Telegram documents it
(core.telegram.org/bots/webapps, "Validating data received via the Mini App").

The page sends ``Telegram.WebApp.initData`` as received, a query string. Its ``hash`` is
HMAC-SHA256 of the data-check-string (every other field, ``signature`` included, as
``key=value`` with the value URL-decoded, sorted by key, joined by ``\\n``) under the secret
HMAC-SHA256(key ``"WebAppData"``, message: the bot token). Only a string that passes says who the
user is; ``initDataUnsafe`` never does.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

#: how old an ``auth_date`` may be, by default (seconds)
DEFAULT_MAX_AGE = 3600
#: how far in the future an ``auth_date`` may lie (clocks differ a little)
CLOCK_SKEW = 60


class InitDataError(ValueError):
    """``initData`` that does not prove who the user is; ``reason`` says why, in one word."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """What a valid ``initData`` says: the Telegram user, the language of the app, the
    ``startapp`` payload of the link that opened it, and when Telegram signed it."""

    user_id: int
    language: str | None
    start_param: str | None
    auth_date: int


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def check_string(fields: dict[str, str]) -> str:
    """The data-check-string of the fields (``hash`` left out, everything else kept)."""
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def validate(
    init_data: str, token: str, *, max_age: int = DEFAULT_MAX_AGE, now: float | None = None
) -> WebAppUser:
    """The user ``init_data`` speaks for, or ``InitDataError``."""
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True, errors="strict")
    except (ValueError, UnicodeDecodeError):
        raise InitDataError("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataError("duplicate")
    received = fields.get("hash")
    if received is None:
        raise InitDataError("unsigned")
    expected = hmac.new(
        secret_key(token), check_string(fields).encode(), hashlib.sha256
    ).hexdigest()
    if not hmac.compare_digest(expected, received):
        raise InitDataError("forged")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = user["id"]
    except (KeyError, ValueError, TypeError):
        raise InitDataError("malformed") from None
    if isinstance(user_id, bool) or not isinstance(user_id, int):
        raise InitDataError("malformed")
    clock = time.time() if now is None else now
    if auth_date < clock - max_age:
        raise InitDataError("expired")
    if auth_date > clock + CLOCK_SKEW:
        raise InitDataError("future")
    language = user.get("language_code")
    return WebAppUser(
        user_id=user_id,
        language=language if isinstance(language, str) else None,
        start_param=fields.get("start_param"),
        auth_date=auth_date,
    )
