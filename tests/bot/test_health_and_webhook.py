"""The webhook settings as ``python -m server`` passes them to python-telegram-bot, and the
heartbeat check behind the Docker HEALTHCHECK."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings
from server.__main__ import webhook_path, webhook_secret
from server.health import STALE_AFTER, heartbeat_path, problem

SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


def settings(**values: object) -> Settings:
    return Settings(bot_token="1:x", **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("https://bot.example.org/telegram/hook", "telegram/hook"),
        ("https://bot.example.org:8443/hook/", "hook/"),
        ("https://bot.example.org", ""),
        ("http://127.0.0.1:5000/x?ignored=1", "x"),
    ],
)
def test_the_webhook_listens_on_the_urls_path(url: str, path: str) -> None:
    assert webhook_path(url) == path


def test_an_unset_secret_is_a_random_one_telegram_accepts() -> None:
    first = webhook_secret(settings(webhook_url="https://x.org/h"))
    second = webhook_secret(settings(webhook_url="https://x.org/h"))
    assert SECRET.fullmatch(first) and SECRET.fullmatch(second)
    assert first != second and len(first) >= 32
    assert webhook_secret(settings(webhook_secret="mine_0-9")) == "mine_0-9"


def test_empty_webhook_settings_mean_unset_and_a_bad_secret_is_refused() -> None:
    empty = settings(webhook_url="", webhook_secret="")
    assert empty.webhook_url is None and empty.webhook_secret is None
    for bad in ("has space", "ü", "x" * 257):
        with pytest.raises(ValidationError):
            settings(webhook_secret=bad)


def test_the_heartbeat_lies_beside_the_database(tmp_path: Path) -> None:
    config = settings(database_path=tmp_path / "data" / "bot.sqlite3")
    assert heartbeat_path(config) == tmp_path / "data" / "bot.sqlite3.heartbeat"


def test_health_is_a_fresh_heartbeat(tmp_path: Path) -> None:
    config = settings(database_path=tmp_path / "bot.sqlite3")
    missing = problem(config)
    assert missing is not None and "not running" in missing
    beat = heartbeat_path(config)
    beat.touch()
    assert problem(config) is None
    old = time.time() - STALE_AFTER - 5
    os.utime(beat, (old, old))
    stale = problem(config)
    assert stale is not None and "old" in stale


async def test_the_heartbeat_beats_on_its_own_timer_and_survives_a_failed_beat(
    tmp_path: Path,
) -> None:
    """No JobQueue: an asyncio timer beats every interval; a beat that fails is logged and the
    next one comes all the same; after ``stop`` nothing beats."""
    import asyncio

    from server.health import Heartbeat

    config = settings(database_path=tmp_path / "bot.sqlite3")
    beats: list[int] = []

    async def storage() -> str | None:
        beats.append(0)
        if len(beats) == 2:
            raise RuntimeError("one bad beat")
        return None

    heartbeat = Heartbeat(storage, heartbeat_path(config), interval=0.02)
    await heartbeat.start()
    path = heartbeat_path(config)
    assert path.exists() and len(beats) == 1
    os.utime(path, (0, 0))
    for _ in range(200):
        if len(beats) >= 4:
            break
        await asyncio.sleep(0.01)
    assert len(beats) >= 4, "the beats stopped after a failed one"
    assert path.stat().st_mtime > 0
    await heartbeat.stop()
    count = len(beats)
    await asyncio.sleep(0.06)
    assert len(beats) == count
