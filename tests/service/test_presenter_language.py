"""The language a user is answered in: his own if the bot speaks it, else DEFAULT_LANGUAGE."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.pacing import Coalescer
from bot.presenter import Presenter
from storage.database import Database
from tables import TableService


async def test_unknown_languages_fall_back_to_the_configured_default(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        none: Any = None
        presenter = Presenter(
            db=db,
            tables=TableService(db, turn_timeout=60),
            messenger=none,
            coalescer=Coalescer(),
            default_language="en",
        )
        await db.upsert_player(1, "Hans", language="de")
        await db.upsert_player(2, "Иван", language="ru-RU")
        assert await presenter.people.user_language(1, "de") == "en"
        assert await presenter.people.user_language(2, "de") == "ru"
        assert await presenter.people.user_language(3, None) == "en"
        assert await presenter.people.user_language(3, "en-GB") == "en"
        assert await presenter.people.chat_language(1) == "en"
    finally:
        await db.close()
