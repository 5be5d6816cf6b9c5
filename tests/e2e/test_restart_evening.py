"""End to end: an evening's summary goes out at most once (``bot.evenings.Evenings._post``
says why not at least once), and is not lost to a send that surely failed.

The bot killed with SIGKILL while it posts a summary — the summary has reached the group, its
chart is on its way, nothing has answered yet: after the restart the summary is not posted a
second time. A summary whose send fails with 5xx replies past the retries (so it surely did
not go out) is posted once, a moment later. A summary whose group becomes a supergroup as it
goes out is posted once, in the supergroup."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.database import Database

from .child_bot import Bot, Players, read
from .fake_telegram import FakeTelegram, Message
from .fake_telegram.faults import Before, Delay, ServerError
from .fake_telegram.model import Chat
from .players import start_bot_for
from .resilience import check_books
from .test_games import open_table

TURN = 30.0  # nobody times out: every move is a press
TITLE = "🌙 The evening's summary"


def summaries(messages: list[Message]) -> list[Message]:
    return [m for m in messages if (m.text or "").startswith(TITLE)]


def charts(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.media is not None and m.media.kind == "photo"]


@pytest.mark.timeout(240)
async def test_a_summary_being_posted_when_the_bot_was_killed_is_not_posted_twice(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(f"P{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Evenings", users)
        bot = Bot(fake, tmp_path, turn=TURN)
        players = Players(fake, users, seed=17)
        await bot.start()
        try:
            game_id = await players.seat(group, "stukolka")
            # the chart, which follows the summary, is shown at once but answered late
            fake.faults.add(Delay(5, after_processing=True), method="sendPhoto", times=None)
            stopped = False
            for _ in range(1000):
                status = read(bot.database, "SELECT status FROM games WHERE game_id = ?", game_id)
                if status[0][0] not in ("lobby", "active"):
                    break
                deals = read(bot.database, "SELECT COUNT(*) FROM deals")[0][0]
                if deals and not stopped:
                    # two deals (an evening of one has no chart): it ends with the second
                    fake.user_sends(users[0], group, "/stop")
                    await fake.wait_idle(timeout=15, quiet=0.1, require_answers=False)
                    stopped = True
                choice = players.pick()
                if choice is None:
                    await asyncio.sleep(0.05)
                    continue
                query = players.press(choice)
                if query is not None:
                    await players.answered(query)
            await fake.wait_until(
                lambda: charts(fake.messages(group, from_bot=True)), timeout=30, message="chart"
            )
            assert len(summaries(fake.messages(group, from_bot=True))) == 1
            await bot.kill()
            # claimed before it went out: what keeps the restart from posting it again
            assert read(bot.database, "SELECT posted FROM evenings") == [(1,)]

            fake.faults.clear()
            # the restart hands out the evenings still due before it polls, and a repost would
            # go at once (no turn or gap to wait for): up, polling, and then quiet for a while
            await bot.start()
            await fake.wait_idle(timeout=20, quiet=0.5, require_answers=False)
            posted = summaries(fake.messages(group, from_bot=True, include_deleted=True))
            assert len(posted) == 1, [m.text for m in posted]
            assert len(charts(fake.messages(group, from_bot=True))) == 1
            assert read(bot.database, "SELECT posted FROM evenings") == [(1,)]
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        assert "Traceback" not in bot.output(), bot.output()[-3000:]

        async with await Database.open(bot.database) as db:
            await check_books(db, group.id, [game_id])


async def test_a_summary_whose_send_surely_failed_is_posted_once_after_all(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 31)
        db = table.db
        group = table.group
        await table.say(table.users[0], "/lang en")
        await table.say(table.users[0], "/stop")  # one deal: the evening ends with it
        # the deal's table is edited, never sent again: the next message is the summary, and
        # its sends fail with 500 more times than the rate limiter tries
        failing = fake.faults.add(ServerError(500), method="sendMessage", chat_id=group.id, times=6)
        game = await db.games.active_game(group.id)
        assert game is not None
        await table.play_until(lambda: failing.fired > 0)

        async def posted() -> bool:
            return not await db.evenings.unposted_evenings() and bool(
                await db.history.last_deals(group.id, 1)
            )

        for _ in range(200):
            if failing.times == 0 and await posted():
                break
            await asyncio.sleep(0.1)
        await table.settle()
        assert failing.fired == 6
        sent = summaries(table.group_messages())
        assert len(sent) == 1, [m.text for m in table.group_messages()]
        assert not charts(table.group_messages())  # an evening of one deal has none
        assert (await db.games.game(game.game_id)).status in ("finished", "stopped")
        assert not bot.handler_errors


async def test_a_summary_whose_group_became_a_supergroup_as_it_went_out_is_posted_there(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 37)
        db = table.db
        group = table.group
        await table.say(table.users[0], "/lang en")
        await table.play_until(
            lambda: any("deal 1 is over" in (m.text or "") for m in table.group_messages())
        )
        await table.settle()
        # the group becomes a supergroup just as the summary's send arrives: the send is
        # refused with migrate_to_chat_id, and the bot learns of the move from it first
        moved: list[Chat] = []
        fake.faults.add(
            Before(lambda: moved.append(fake.migrate_to_supergroup(group))),
            method="sendMessage",
            chat_id=group.id,
        )
        # the second deal, played out at once, ends the table and so the evening
        fake.user_sends(table.users[0], group, "/stop now")
        for _ in range(200):
            await table.settle()
            if moved and summaries(fake.messages(moved[0], from_bot=True)):
                break
            await asyncio.sleep(0.05)
        assert moved, "the summary was sent to the group"
        supergroup = moved[0]
        await table.settle()
        assert not summaries(fake.messages(group, from_bot=True, include_deleted=True))
        posted = summaries(fake.messages(supergroup, from_bot=True))
        assert len(posted) == 1, [m.text for m in fake.messages(supergroup, from_bot=True)]
        assert len(charts(fake.messages(supergroup, from_bot=True))) == 1
        assert not await db.evenings.unposted_evenings()
        assert not bot.handler_errors
