"""A page's session: what keeps a page open for a whole evening working after its ``initData``
has grown too old to accept (``WEBAPP_AUTH_MAX_AGE``).

The page opens with Telegram's signed ``initData``; each answer of the state endpoint gives it a
session token in the ``X-Session`` header, which it sends in place of the ``initData`` from then
on. The token says who the user is (as the ``initData`` did) and until when it holds (that long
again from its issue), signed with a key derived from the bot's token, so it is checked without
storing anything and survives a restart. A page that keeps reading its state keeps a fresh
token; one left closed longer than the age must be opened again from Telegram.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

from web.auth import InitDataError, WebAppUser

#: what the session key is derived under (a key of its own: a session token is no initData)
LABEL = b"MiniAppSession"


def session_key(token: str) -> bytes:
    return hmac.new(LABEL, token.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def issue(user: WebAppUser, key: bytes, lifetime: int, *, now: float | None = None) -> str:
    """A token for ``user`` that holds ``lifetime`` seconds from ``now``."""
    expires = int((time.time() if now is None else now) + lifetime)
    body = {"u": user.user_id, "l": user.language, "s": user.start_param, "e": expires}
    payload = _b64(json.dumps(body, separators=(",", ":")).encode())
    signature = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
    return f"{payload}.{signature}"


def check(token: str, key: bytes, *, now: float | None = None) -> WebAppUser:
    """The user a token speaks for, or ``InitDataError`` (forged, malformed or expired)."""
    payload, _, signature = token.partition(".")
    expected = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
    if not signature or not hmac.compare_digest(expected, signature):
        raise InitDataError("forged")
    try:
        body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        user_id, language, start, expires = body["u"], body["l"], body["s"], body["e"]
    except (ValueError, KeyError, TypeError):
        raise InitDataError("malformed") from None
    if not isinstance(user_id, int) or not isinstance(expires, int):
        raise InitDataError("malformed")
    if expires < (time.time() if now is None else now):
        raise InitDataError("expired")
    return WebAppUser(
        user_id=user_id,
        language=language if isinstance(language, str) else None,
        start_param=start if isinstance(start, str) else None,
        auth_date=expires,  # (a session's: when it ends)
    )
