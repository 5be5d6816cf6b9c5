"""Storage reads no clock: everything the table service writes is stamped with the service's
own clock. Run on a clock stopped at a moment long past, every stamp in the file is that
moment; a write that read the wall clock would stamp today."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from storage.database import Database
from storage.stats import month_of
from tests.clock import ManualClock
from tests.service.life import play_until_deal_ends, service_on
from tests.service.test_table_life import opened
from tests.storage.storage_support import stamps

#: 1 January 2000, 00:00 UTC: no wall clock reads it any more
FAR_PAST = 946_684_800.0
USERS = [101, 102, 103]


async def test_everything_the_service_writes_is_stamped_on_its_clock(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    try:
        service = service_on(db, ManualClock(now=FAR_PAST))
        people, settings = service.people, service.settings
        await people.saw_chat(-1, "group")
        await people.saw_topic(-1, 5, "cards")
        for user in USERS:
            await people.saw(user, f"user{user}", "ru")
            await people.started(user, f"user{user}")
        await people.blocked(USERS[2])
        await people.started(USERS[2], f"user{USERS[2]}")
        # another group's language: the last write of its row (the moved group's row is
        # written last by its move)
        await people.saw_chat(-2, "other group")
        await people.choose_language(-2, "en", private=False)
        await people.choose_language(USERS[0], "en", private=True)
        await people.set_chat_ranks(-1, "latin")
        await settings.choose_options(-1, "stukolka", {})
        await settings.set_turn_timeout(-1, USERS[0], True, "45")
        await settings.set_away_play(-1, "default")
        await settings.set_hints(-1, True)
        game_id = (await opened(service, -1, USERS)).game.game_id
        await play_until_deal_ends(service, -1, random.Random(4))
        await service.steps.results_sending(game_id, [0])
        await service.steps.results_posted(game_id, [0], table_message_used=True)
        # a practice table: its private chat recorded, a computer seated
        await service.lobby.new_table(USERS[1], USERS[1], "stukolka")
        await service.lobby.add_computer(USERS[1], USERS[1], "easy")
        assert await people.chat_moved(-1, -100)
    finally:
        await db.close()
    found = stamps(path)
    stamped = {column for column, values in found.items() if values}
    assert stamped >= {
        "chats.created_at",
        "chats.updated_at",
        "chat_options.updated_at",
        "players.created_at",
        "players.updated_at",
        "games.created_at",
        "games.updated_at",
        "actions.created_at",
        "ledger.created_at",
        "deals.ended_at",
        "evenings.started_at",
        "evenings.last_at",
    }
    assert {column: values for column, values in found.items() if values - {FAR_PAST}} == {}
    conn = sqlite3.connect(path)
    try:
        months = {month for (month,) in conn.execute("SELECT DISTINCT month FROM player_stats")}
    finally:
        conn.close()
    assert months == {month_of(FAR_PAST)}
