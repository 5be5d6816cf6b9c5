"""The language a user is answered in, by the chat and the page alike (``tables.people``):
his own if the bot speaks it, else DEFAULT_LANGUAGE; and what one front-end stores of a
person the other reads at once."""

from __future__ import annotations

from pathlib import Path

from storage.database import Database
from tables import TableService
from tables.computers import computer_name
from tables.people import MAX_NAME
from tests.library import GAMES


async def test_unknown_languages_fall_back_to_the_configured_default(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        people = TableService(db, games=GAMES, turn_timeout=60, default_language="en").people
        await db.chats.upsert_player(1, "Hans", language="de", now=people.clock())
        await db.chats.upsert_player(2, "Иван", language="ru-RU", now=people.clock())
        assert await people.user_language(1, "de") == "en"
        assert await people.user_language(2, "de") == "ru"
        assert await people.user_language(3, None) == "en"
        assert await people.user_language(3, "en-GB") == "en"
        assert await people.chat_language(1) == "en"
    finally:
        await db.close()


async def test_a_groups_card_style_and_a_players_start_are_read_at_once(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        people = TableService(db, games=GAMES, turn_timeout=60).people
        await db.chats.upsert_chat(-1, "group", now=people.clock())
        assert await people.chat_ranks(-1) is None
        await people.set_chat_ranks(-1, "russian")
        assert await people.chat_ranks(-1) == "russian"
        await people.saw(5, "Вера Длинная-Фамилия-Которая-Не-Влезает-В-Строку", "en")
        (long,) = await people.names([5], "ru")
        assert len(long) == MAX_NAME and long.endswith("…")
        assert not await people.is_reachable(5)
        await people.started(5, "Вера")
        assert await people.is_reachable(5)
        assert await people.names([5, -11], "en") == ["Вера", computer_name(-11, "en")]
        await people.blocked(5)
        assert await people.reachable_of([5, -11]) == {5: False, -11: True}
    finally:
        await db.close()


async def test_a_moved_group_keeps_its_tables_and_nothing_under_its_old_id(
    tmp_path: Path,
) -> None:
    """A group became a supergroup: its open table and its language follow the new id, and
    what the service kept under the old id is forgotten (its language read afresh there)."""
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        service = TableService(db, games=GAMES, turn_timeout=60, default_language="en")
        people = service.people
        await people.saw_chat(-1, "group")
        await people.saw(101, "Вера", "ru")
        await people.choose_language(-1, "ru", private=False)
        assert await people.chat_language(-1) == "ru"
        await service.lobby.new_table(-1, 101, "stukolka")
        (table,) = await service.store.open_games(-1)
        assert await service.store.open_games() == [table]
        assert await people.chat_moved(-1, -1001)
        assert await service.store.open_games(-1) == []
        assert [game.game_id for game in await service.store.open_games(-1001)] == [table.game_id]
        assert await people.chat_language(-1001) == "ru"
        assert await people.chat_language(-1) == "en"  # not the old id's cached «ru»
        assert not await people.chat_moved(-1, -1001)  # nothing left to move
    finally:
        await db.close()
