"""The other way Telegram tells the bot it was removed: no
``my_chat_member`` reaches it (it was down, or the update was lost), and the first request to
the group is refused with 403 «bot was kicked». The table closes as cleanly as on the notice."""

from __future__ import annotations

from pathlib import Path

from storage.database import Database

from .fake_telegram import FakeTelegram
from .fake_telegram.model import MemberStatus
from .resilience import check_books, seat_table, step_for
from .test_resilience import active_game_id


async def test_a_group_refusing_the_bot_with_403_kicked_closes_its_table(tmp_path: Path) -> None:
    from .players import start_bot_for

    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        group = fake.add_group("Картёжники", users, admins=[users[0]])
        table = await seat_table(fake, bot, group, users, "stukolka", seed=43)
        db: Database = table.db
        game_id = await active_game_id(table)
        for _ in range(3):
            await step_for(table, users)
        kicked_before = len(fake.requests(chat=group, ok=False))
        # removed without the notice: only the group's answer to the next table edit tells
        fake.chat(group).bot_status = MemberStatus.KICKED
        for _ in range(20):
            if (await db.games.game(game_id)).status not in ("lobby", "active"):
                break
            if not await step_for(table, users):
                await table.settle()
        game = await db.games.game(game_id)
        assert len(fake.requests(chat=group, ok=False)) > kicked_before, "a 403 was seen"
        assert game.status in ("finished", "stopped")
        assert game.turn_deadline is None
        deals = len(await db.history.last_deals(group.id))
        await table.settle()
        assert len(await db.history.last_deals(group.id)) == deals, "nothing is played on"
        for user in users:
            hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
            assert not hand.callback_data, "the hand is closed"
            text = hand.text or ""
            assert "no longer in the group" in text or "Бота больше нет в группе" in text
        # the refused requests stop with the table: no stream of 403s
        refused = len(fake.requests(chat=group, ok=False)) - kicked_before
        assert refused <= 3
        await check_books(db, group.id, [game_id])
        assert not bot.handler_errors
