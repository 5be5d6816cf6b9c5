"""End to end: after /stop now the group's result shows the tricks the bot played for the
players, and says in the past tense what happened, in Russian and English."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fake_telegram import FakeTelegram
from .players import start_bot_for
from .test_games import open_table

TEXTS = {
    "ru": ("Взятки сдачи:", "Взятка {n} →", "бот доиграл сдачу", "доигрывает", "Стол закрыт."),
    "en": (
        "The deal's tricks:",
        "Trick {n} →",
        "the bot played the deal out",
        "plays this deal out",
        "The table is closed.",
    ),
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_stop_now_shows_the_tricks_the_bot_played_and_ends_in_the_past(
    tmp_path: Path, lang: str
) -> None:
    heading, trick, done, ongoing, closed = TEXTS[lang]
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language=lang) as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", 8)
        for _ in range(4):  # the knocking, and no card played yet
            assert await table.step()
        await table.say(table.users[0], "/stop now")
        deals = await table.db.history.last_deals(table.group.id, 10)
        assert len(deals) == 1
        tricks = deals[0].summary["tricks"]
        assert tricks, "the deal was played out"
        result = next(m.text or "" for m in table.group_messages() if heading in (m.text or ""))
        listed = result[result.index(heading) :]
        for number in range(1, len(tricks) + 1):
            assert trick.format(n=number) in listed, result
        assert done in result and ongoing not in result, result
        assert result.rstrip().endswith(closed), result
        assert not bot.handler_errors
