"""The Mini App server's parts without a bot: the per-user rate, a move's idempotency, the
move's argument from JSON, the settings of its address, and the boundaries between the two
front-ends (``web`` reaches the table service, never the chat's handlers; ``bot`` knows
``web`` only where the application is assembled)."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings
from tables.commands import Blind, Card, Cards, Decide, Look, Suit
from tests.clock import ManualClock
from web.limits import Once, RateLimit
from web.tables import BadMove, game_of, move_of, payload

ROOT = Path(__file__).resolve().parents[2]


def test_the_rate_lets_a_burst_through_then_a_steady_rate_per_user() -> None:
    clock = ManualClock(now=0.0)
    rate = RateLimit(burst=3, rate=2, clock=clock)
    assert [rate.allow(1) for _ in range(4)] == [True, True, True, False]
    assert rate.allow(2)  # another user has his own bucket
    clock.advance(0.5)  # one token back
    assert rate.allow(1) and not rate.allow(1)
    clock.advance(100)
    assert [rate.allow(1) for _ in range(4)] == [True, True, True, False]


def test_the_rate_forgets_the_users_seen_longest_ago() -> None:
    rate = RateLimit(burst=1, rate=0, clock=ManualClock(), kept=2)
    assert rate.allow(1) and rate.allow(2) and rate.allow(3)
    assert not rate.allow(3)
    assert rate.allow(1)  # forgotten: a full bucket again


async def test_a_key_runs_once_even_when_the_retry_comes_while_the_first_runs() -> None:
    once: Once[int] = Once()
    runs = []
    gate = asyncio.Event()

    async def make() -> int:
        runs.append(1)
        await gate.wait()
        return len(runs)

    first = asyncio.ensure_future(once.run(7, "k", make))
    second = asyncio.ensure_future(once.run(7, "k", make))
    await asyncio.sleep(0)
    gate.set()
    assert await first == await second == 1
    assert await once.run(7, "k", make) == 1
    assert await once.run(8, "k", make) == 2  # the key is the user's own
    assert runs == [1, 1]


async def test_a_failed_move_may_be_tried_again_with_its_key() -> None:
    once: Once[int] = Once()

    async def fail() -> int:
        raise OSError("disk full")

    async def work() -> int:
        return 5

    with pytest.raises(OSError):
        await once.run(1, "k", fail)
    assert await once.run(1, "k", work) == 5


def test_a_move_from_the_page_takes_only_the_shapes_the_rules_use() -> None:
    assert move_of("pass", None) == Decide("pass") and move_of("trump", "S") == Suit("trump", "S")
    assert move_of("play", "TH") == Card("play", "TH")
    assert move_of("discard", ["TH", "2C"]) == Cards("discard", ("TH", "2C"))
    assert move_of("discard", 2) == Blind("discard", 2)
    assert move_of("look", None) == Look()
    for bad in ("XX", ["TH", "TH"], ["TH"] * 17, [1], True, -1, 17, {"a": 1}, 1.5):
        with pytest.raises(BadMove):
            move_of("play", bad)
    with pytest.raises(BadMove):
        move_of("look", "TH")


def test_a_tables_payload_names_a_game_and_nothing_else() -> None:
    assert payload(42) == "g42" and game_of("g42") == 42
    for bad in (None, "", "g", "g0", "g-1", "42", "g1x", "g" + "9" * 20, "G42"):
        assert game_of(bad) is None


def _settings(**values: object) -> Settings:
    return Settings(bot_token="1:x", **values)  # type: ignore[arg-type]


def test_the_page_address_is_https_or_local_http() -> None:
    assert _settings().webapp_url is None
    assert _settings(webapp_url="").webapp_url is None
    assert _settings(webapp_url="https://cards.example.org").webapp_url == (
        "https://cards.example.org/"
    )
    assert _settings(webapp_url="https://x.org/app/").webapp_url == "https://x.org/app/"
    assert _settings(webapp_url="http://127.0.0.1:8080/").webapp_url == "http://127.0.0.1:8080/"
    assert _settings(webapp_url="http://localhost/").webapp_url == "http://localhost/"
    for bad in (
        "http://cards.example.org/",
        "ftp://x.org/",
        "https://",
        "x.org",
        "https://x.org/?a=1",
    ):
        with pytest.raises(ValidationError):
            _settings(webapp_url=bad)
    with pytest.raises(ValidationError):
        _settings(webapp_short_name="no spaces")
    assert _settings(webapp_short_name="table").webapp_short_name == "table"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_the_front_ends_know_each_other_only_where_the_bot_is_assembled() -> None:
    for path in (ROOT / "web").rglob("*.py"):
        for name in _imports(path):
            if name.split(".")[0] == "bot":
                assert name.startswith("tables"), f"{path.name} imports {name}"
            assert name.split(".")[0] != "telegram", f"{path.name} imports {name}"
    for path in (ROOT / "bot").rglob("*.py"):
        if path.name == "assembly.py":  # the one module that knows both front-ends
            continue
        for name in _imports(path):
            assert name.split(".")[0] != "web", f"{path} imports {name}"
    for path in (ROOT / "bot" / "service").rglob("*.py"):
        assert not any(name.split(".")[0] == "web" for name in _imports(path)), path


def test_a_session_names_its_user_until_it_ends_and_cannot_be_forged() -> None:
    from web.auth import InitDataError, WebAppUser
    from web.session import check, issue, session_key

    user = WebAppUser(user_id=42, language="en", start_param="g7", auth_date=1000)
    key = session_key("1:token")
    token = issue(user, key, 3600)
    back = check(token, key, now=4599)
    assert (back.user_id, back.language, back.start_param) == (42, "en", "g7")
    assert back.auth_date == 1000
    with pytest.raises(InitDataError, match="expired"):
        check(token, key, now=4601)
    with pytest.raises(InitDataError, match="forged"):
        check(token, session_key("2:another-bot"), now=1000)
    payload, signature = token.split(".")
    other = issue(WebAppUser(43, "en", "g7", 1000), key, 3600).split(".")[0]
    for bad in (f"{other}.{signature}", payload, f"{payload}.", "", "x.y"):
        with pytest.raises(InitDataError):
            check(bad, key, now=1000)


def test_a_session_is_bounded_from_its_initdata_however_often_it_is_renewed() -> None:
    """A session issued again from itself (each state read) is the same token with the same
    end: a chain of renewals, or a token copied from a log, ends with the initData's age."""
    from web.auth import InitDataError, WebAppUser
    from web.session import check, issue, session_key

    key = session_key("1:token")
    token = issue(WebAppUser(42, "en", None, auth_date=1000), key, 8)
    for moment in range(1000, 1009):
        again = issue(check(token, key, now=moment), key, 8)
        assert again == token
    with pytest.raises(InitDataError, match="expired"):
        check(token, key, now=1009)


def test_a_stream_ticket_is_short_lived_and_no_session() -> None:
    from web.auth import InitDataError, WebAppUser
    from web.session import STREAM_TICKET_SECONDS, check, issue, session_key, ticket

    key = session_key("1:token")
    user = WebAppUser(42, "ru", "g7", auth_date=1000)
    made = ticket(user, key, now=2000)
    assert check(made, key, "ticket", now=2000 + STREAM_TICKET_SECONDS).user_id == 42
    with pytest.raises(InitDataError, match="expired"):
        check(made, key, "ticket", now=2001 + STREAM_TICKET_SECONDS)
    with pytest.raises(InitDataError):
        check(made, key, now=2000)  # a ticket is not a session
    with pytest.raises(InitDataError):
        check(issue(user, key, 10**6), key, "ticket", now=2000)  # nor a session a ticket
