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
from web.limits import Once, RateLimit
from web.tables import BadMove, game_of, move_argument, payload

ROOT = Path(__file__).resolve().parents[2]


def test_the_rate_lets_a_burst_through_then_a_steady_rate_per_user() -> None:
    now = [0.0]
    rate = RateLimit(burst=3, rate=2, clock=lambda: now[0])
    assert [rate.allow(1) for _ in range(4)] == [True, True, True, False]
    assert rate.allow(2)  # another user has his own bucket
    now[0] += 0.5  # one token back
    assert rate.allow(1) and not rate.allow(1)
    now[0] += 100
    assert [rate.allow(1) for _ in range(4)] == [True, True, True, False]


def test_the_rate_forgets_the_users_seen_longest_ago() -> None:
    rate = RateLimit(burst=1, rate=0, clock=lambda: 0.0, kept=2)
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


def test_a_moves_argument_takes_only_the_shapes_the_rules_use() -> None:
    assert move_argument(None) is None
    assert move_argument("TH") == "TH" and move_argument("S") == "S"
    assert move_argument(["TH", "2C"]) == ("TH", "2C")
    for bad in ("XX", ["TH", "TH"], ["TH"] * 17, [1], True, -1, 17, {"a": 1}, 1.5):
        with pytest.raises(BadMove):
            move_argument(bad)

    class Held:
        cards = ("2C", "3D", "4H")

    class Table:
        def holding(self, seat: int) -> Held:
            return Held()

    blind = move_argument(2)
    assert blind(Table(), 0) == ("2C", "3D")
    with pytest.raises(ValueError):
        move_argument(4)(Table(), 0)


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

    user = WebAppUser(user_id=42, language="en", start_param="g7", auth_date=0)
    key = session_key("1:token")
    token = issue(user, key, 3600, now=1000)
    back = check(token, key, now=4599)
    assert (back.user_id, back.language, back.start_param) == (42, "en", "g7")
    with pytest.raises(InitDataError, match="expired"):
        check(token, key, now=4601)
    with pytest.raises(InitDataError, match="forged"):
        check(token, session_key("2:another-bot"), now=1000)
    payload, signature = token.split(".")
    other = issue(WebAppUser(43, "en", "g7", 0), key, 3600, now=1000).split(".")[0]
    for bad in (f"{other}.{signature}", payload, f"{payload}.", "", "x.y"):
        with pytest.raises(InitDataError):
            check(bad, key, now=1000)
