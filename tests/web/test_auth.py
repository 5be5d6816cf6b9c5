"""``web.auth`` against a signer written from Telegram's documentation alone
(core.telegram.org/bots/webapps, "Validating data received via the Mini App"), not from
``web.auth``'s own helpers."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import quote, urlencode

import pytest

from web.auth import CLOCK_SKEW, DEFAULT_MAX_AGE, InitDataError, validate

TOKEN = "123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
OTHER_TOKEN = "654321:BBHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
NOW = 1_760_000_000
USER = {"id": 279058397, "first_name": "Алиса", "language_code": "ru", "allows_write_to_pm": True}


def sign(fields: dict[str, str], token: str = TOKEN) -> str:
    """The query string Telegram would hand the page: ``fields`` and their ``hash``."""
    secret = hmac.new(key=b"WebAppData", msg=token.encode("utf-8"), digestmod=hashlib.sha256)
    lines = [f"{key}={value}" for key, value in sorted(fields.items())]
    digest = hmac.new(
        key=secret.digest(), msg="\n".join(lines).encode("utf-8"), digestmod=hashlib.sha256
    ).hexdigest()
    return urlencode({**fields, "hash": digest}, quote_via=quote)


def fields(**extra: str) -> dict[str, str]:
    return {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(USER, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(NOW),
        "signature": "6fbdaab833d39f54518bd5c3eb3f511d035e68cb",
        **extra,
    }


def reason(init_data: str, *, now: float = NOW, max_age: int = DEFAULT_MAX_AGE) -> str:
    with pytest.raises(InitDataError) as caught:
        validate(init_data, TOKEN, now=now, max_age=max_age)
    return caught.value.reason


def test_valid_init_data_names_the_user_language_and_start_param() -> None:
    user = validate(sign(fields(start_param="t42s1")), TOKEN, now=NOW + 10)
    assert (user.user_id, user.language, user.start_param, user.auth_date) == (
        279058397,
        "ru",
        "t42s1",
        NOW,
    )


def test_no_start_param_and_no_language_are_none() -> None:
    plain = dict(fields(), user=json.dumps({"id": 7, "first_name": "Bob"}))
    user = validate(sign(plain), TOKEN, now=NOW)
    assert (user.user_id, user.language, user.start_param) == (7, None, None)


def test_a_forged_hash_is_refused() -> None:
    data = sign(fields())
    head, _, digest = data.rpartition("hash=")
    forged = head + "hash=" + ("0" if digest[0] != "0" else "1") + digest[1:]
    assert reason(forged) == "forged"


def test_an_altered_field_is_refused() -> None:
    data = sign(fields())
    altered = data.replace("279058397", "279058398")
    assert altered != data
    assert reason(altered) == "forged"


def test_an_added_field_is_refused() -> None:
    assert reason(sign(fields()) + "&start_param=t1s0") == "forged"


def test_expired_and_future_auth_dates_are_refused() -> None:
    data = sign(fields())
    assert reason(data, now=NOW + DEFAULT_MAX_AGE + 1) == "expired"
    validate(data, TOKEN, now=NOW + DEFAULT_MAX_AGE)
    assert reason(data, now=NOW + 120, max_age=60) == "expired"
    assert reason(data, now=NOW - CLOCK_SKEW - 1) == "future"
    validate(data, TOKEN, now=NOW - CLOCK_SKEW)


def test_another_bots_token_is_refused() -> None:
    assert reason(sign(fields(), token=OTHER_TOKEN)) == "forged"


def test_missing_hash_is_refused() -> None:
    assert reason(urlencode(fields())) == "unsigned"


def test_duplicated_keys_are_refused() -> None:
    data = sign(fields())
    assert reason(data + "&auth_date=" + str(NOW)) == "duplicate"
    assert reason(data + "&hash=00") == "duplicate"


def test_non_utf8_is_refused() -> None:
    assert reason(sign(fields()) + "&x=%FF%FE") == "malformed"
    assert reason("user=%C3%28&hash=00") == "malformed"


def test_the_signature_field_is_kept_in_the_check_string() -> None:
    with_signature = fields()
    # signed without ``signature`` in the check string, then sent with it: refused
    without = {key: value for key, value in with_signature.items() if key != "signature"}
    digest = sign(without).rpartition("hash=")[2]
    sent = urlencode(with_signature, quote_via=quote) + "&hash=" + digest
    assert reason(sent) == "forged"
    # and signed with it, accepted
    validate(sign(with_signature), TOKEN, now=NOW)


def test_values_are_checked_url_decoded() -> None:
    # the user field is percent-encoded on the wire (Cyrillic, quotes, braces); the check
    # string holds it decoded, as the signer saw it
    data = sign(fields())
    assert "%D0%90" in data
    assert validate(data, TOKEN, now=NOW).user_id == USER["id"]


@pytest.mark.parametrize(
    "user",
    ['{"id":"7"}', '{"id":true}', "[7]", "not json", '{"first_name":"x"}'],
)
def test_a_signed_but_unusable_user_is_refused(user: str) -> None:
    assert reason(sign(dict(fields(), user=user))) == "malformed"


def test_a_signed_string_without_auth_date_is_refused() -> None:
    data = {key: value for key, value in fields().items() if key != "auth_date"}
    assert reason(sign(data)) == "malformed"
