"""A page's session, and the ticket that opens its live stream.

The page opens with Telegram's signed ``initData``, valid for ``WEBAPP_AUTH_MAX_AGE``. The
first state answer gives it a session token (the ``X-Session`` header), which it sends in the
``Authorization`` header in place of the ``initData`` from then on, so that a page open all
evening keeps working once its ``initData`` is too old to accept. A session's life is bounded
from the ``initData`` that started it (``auth_date`` + ``WEBAPP_SESSION_MAX_AGE``): using it
never lengthens it, and a session cannot start another that lasts longer. Once it ends, the
page must be opened again from Telegram.

A browser's ``EventSource`` sends no header, so the live stream is opened with a ticket in its
address instead: asked for with the session (or ``initData``) in the header, good for
``STREAM_TICKET_SECONDS``, and only for opening a stream (it is no session). An address lands
in a proxy's access log; a ticket found there opens nothing a minute later, and a stream only
ever says "your view changed".

Both are signed with a key derived from the bot's token, so they are checked without storing
anything and survive a restart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Final, Literal

from web.auth import InitDataError, WebAppUser

#: what the key is derived under (a key of its own: a session token is no initData)
LABEL: Final = b"MiniAppSession"
#: how long a stream ticket may wait before it opens its stream (seconds)
STREAM_TICKET_SECONDS: Final = 30

Kind = Literal["session", "ticket"]


def session_key(token: str) -> bytes:
    return hmac.new(LABEL, token.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _sign(user: WebAppUser, key: bytes, kind: Kind, ends: int) -> str:
    body = {
        "k": kind,
        "u": user.user_id,
        "l": user.language,
        "s": user.start_param,
        "a": user.auth_date,
        "e": ends,
    }
    payload = _b64(json.dumps(body, separators=(",", ":")).encode())
    signature = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
    return f"{payload}.{signature}"


def issue(user: WebAppUser, key: bytes, max_age: int) -> str:
    """A session for ``user`` that ends ``max_age`` seconds after his ``initData`` was signed
    (``user.auth_date``): the same token whether it is issued from the ``initData`` or from a
    session that came of it."""
    return _sign(user, key, "session", user.auth_date + max_age)


def ticket(user: WebAppUser, key: bytes, *, now: float | None = None) -> str:
    """A ticket that opens one live stream for ``user`` within ``STREAM_TICKET_SECONDS``."""
    moment = time.time() if now is None else now
    return _sign(user, key, "ticket", int(moment) + STREAM_TICKET_SECONDS)


def check(
    token: str, key: bytes, kind: Kind = "session", *, now: float | None = None
) -> WebAppUser:
    """The user a token of ``kind`` speaks for, or ``InitDataError`` (forged, malformed,
    another kind or ended)."""
    payload, _, signature = token.partition(".")
    expected = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
    if not signature or not hmac.compare_digest(expected, signature):
        raise InitDataError("forged")
    try:
        body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        found, user_id, language, start = body["k"], body["u"], body["l"], body["s"]
        signed, ends = body["a"], body["e"]
    except (ValueError, KeyError, TypeError):
        raise InitDataError("malformed") from None
    if found != kind:
        raise InitDataError("malformed")
    if not all(isinstance(value, int) for value in (user_id, signed, ends)):
        raise InitDataError("malformed")
    if ends < (time.time() if now is None else now):
        raise InitDataError("expired")
    return WebAppUser(
        user_id=user_id,
        language=language if isinstance(language, str) else None,
        start_param=start if isinstance(start, str) else None,
        auth_date=signed,
    )
