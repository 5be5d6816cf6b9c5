"""The error handler says which update failed (its id, kind, chat and
user), and /start with a lobby link no longer swallows every exception — only the one that
means the linked game is gone."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from telegram import Update

from bot.handlers import on_error
from bot.pacing import Coalescer
from bot.presenter import Presenter
from storage.chat_display import ChatDisplay
from storage.database import Database
from tables import TableService
from tests.library import CHAT, GAMES


class Sent:
    """A messenger that records what it was asked to send."""

    def __init__(self) -> None:
        self.texts: list[tuple[int, str]] = []

    async def send(self, chat_id: int, text: str, *args: Any, **kwargs: Any) -> int:
        self.texts.append((chat_id, text))
        return len(self.texts)


async def test_the_error_handler_logs_the_update_chat_and_user(
    caplog: pytest.LogCaptureFixture,
) -> None:
    update = Update.de_json(
        {
            "update_id": 4242,
            "message": {
                "message_id": 5,
                "date": 0,
                "chat": {"id": -100777, "type": "group", "title": "Картёжники"},
                "from": {"id": 31337, "is_bot": False, "first_name": "Вера"},
                "text": "/join",
            },
        },
        None,
    )
    context: Any = SimpleNamespace(error=RuntimeError("boom"))
    with caplog.at_level(logging.ERROR, logger="bot.handlers"):
        await on_error(update, context)
    (record,) = [r for r in caplog.records if r.name == "bot.handlers"]
    line = record.getMessage()
    assert "4242" in line and "message" in line
    assert "-100777" in line and "31337" in line
    assert "Вера" not in line and "/join" not in line  # ids only
    assert record.exc_info is not None and record.exc_info[1] is context.error


async def test_start_with_a_link_to_a_gone_game_welcomes_and_a_failing_database_raises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        sent = Sent()
        messenger: Any = sent
        presenter = Presenter(
            display=ChatDisplay(db),
            tables=TableService(db, games=GAMES, turn_timeout=60, default_language="en"),
            games=CHAT,
            messenger=messenger,
            coalescer=Coalescer(),
        )
        await presenter.started(7, "Вера", "ru", "g999")
        assert [chat for chat, _ in sent.texts] == [7]

        async def broken(game_id: int) -> Any:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(db.games, "game", broken)
        with pytest.raises(sqlite3.OperationalError):
            await presenter.started(7, "Вера", "ru", "g1")
    finally:
        await db.close()
