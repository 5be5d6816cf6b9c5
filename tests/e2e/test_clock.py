"""The chat stores what it shows on the table service's clock, as the service stores its
tables: the bot run on a clock stopped at a moment long past leaves that moment, and no other,
in every stamp of its file (its messages, menus and glossaries as well as the games)."""

from __future__ import annotations

from pathlib import Path

from bot.app import services_of
from tests.clock import ManualClock
from tests.storage.storage_support import stamps

from .fake_telegram import FakeTelegram
from .players import start_bot_for
from .test_games import deals_done, open_table

#: 1 January 2000, 00:00 UTC: no wall clock reads it any more
FAR_PAST = 946_684_800.0


async def test_the_chat_stamps_what_it_stores_on_the_service_clock(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with FakeTelegram() as fake, start_bot_for(fake, path) as bot:
        services = services_of(bot.app)
        clock = ManualClock(now=FAR_PAST)
        services.tables.store.clock = clock
        services.timers.clock = clock
        services.presenter.hands.clock = clock
        table = await open_table(fake, bot, 3, "stukolka", 5)
        while await deals_done(table.db, table.group.id) < 1:
            assert await table.step(), "nobody can move"
        await table.say(table.users[0], "/history")
        await table.say(table.users[0], "/settings")
        assert not bot.handler_errors
    found = stamps(path)
    assert {"history_messages.created_at", "chat_options.updated_at"} <= {
        column for column, values in found.items() if values
    }
    assert {column: values for column, values in found.items() if values - {FAR_PAST}} == {}
