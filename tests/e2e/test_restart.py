"""End to end: ``python -m server`` as a separate process, polling the fake
Telegram over HTTP, killed with SIGKILL in the middle of a deal (knocking, the purchase, a
trick) and started again: every game goes on from its last committed action, the timers run
with the time that was left, the messages are refreshed, presses after the restart work, and
no action is lost or applied twice (the ledger balances and the action log replays)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from bot import callback as cb
from storage.database import Database

from .child_bot import Bot, Players, deals_done, read, version
from .fake_telegram import FakeTelegram
from .resilience import check_books

TURN = 120.0  # seconds a turn lasts: no turn runs out in play, only the one the test ends
KILL_AT = ("knock", "purchase", "play", "play")
KILL_AFTER = (0.0, 0.004, 0.012, 0.05)  # seconds after the press: not yet seen … committed
DEALS = 3


@pytest.mark.timeout(240)
async def test_sigkill_mid_deal_and_the_game_goes_on_from_its_last_committed_action(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        users = [fake.add_user(f"P{i}", language_code="en") for i in range(3)]
        group = fake.add_group("Restarts", users)
        bot = Bot(fake, tmp_path, turn=TURN)
        players = Players(fake, users, seed=71)
        await bot.start()
        try:
            game_id = await players.seat(group, "stukolka")

            kills = list(KILL_AT)
            killed: list[str] = []
            after_restart, refused = False, 0
            for _ in range(2000):
                if not kills and deals_done(bot.database) >= DEALS:
                    break
                target = kills[0] if kills else None
                choice = players.pick(target) if target else players.pick()
                if choice is None and target is not None:
                    choice = players.pick()  # not in that phase yet: play on
                    target = None
                if choice is None:
                    await asyncio.sleep(0.1)
                    continue
                before = version(bot.database)
                query = players.press(choice)
                if query is None:
                    continue
                if target is None:
                    await players.answered(query)
                    if after_restart and isinstance(choice[3], cb.Act):
                        # moves after a restart are taken like any other (one may meet a
                        # timer that ran out while the bot was down: then the next one)
                        assert query.answer is not None
                        if query.answer.text is None and version(bot.database) > before:
                            after_restart = False
                        else:
                            # a refreshed hand may still be on its way on a busy machine:
                            # let the bot catch up before the next press
                            refused += 1
                            assert refused < 6, query.answer.text
                            await fake.wait_idle(timeout=20, quiet=0.3, require_answers=False)
                    continue
                # kill it while it handles the press: before, during or after the commit
                await asyncio.sleep(KILL_AFTER[len(killed)])
                await bot.kill()
                committed = version(bot.database) > before
                killed.append(f"{kills.pop(0)} ({'after' if committed else 'before'} the commit)")
                await bot.start()
                after_restart, refused = True, 0
            assert not kills and deals_done(bot.database) >= DEALS
            print(f"\nkilled mid-{', mid-'.join(killed)}")

            # a turn's timer after a restart runs with the time that was left, read from the
            # deadline stored before the kill: the test moves that deadline into the past while
            # the bot is down (the turn's time ran out meanwhile), and the restarted bot makes
            # the default move at once, where a whole new turn would wait TURN seconds
            choice = players.pick()
            while choice is None or not isinstance(choice[3], cb.Act):
                await asyncio.sleep(0.1)
                choice = players.pick()
            query = players.press(choice)
            assert query is not None
            await players.answered(query)
            await bot.kill()
            before = version(bot.database)
            with closing(sqlite3.connect(bot.database)) as conn, conn:
                conn.execute(
                    "UPDATE games SET turn_deadline = ? WHERE game_id = ?",
                    (time.time() - 1.0, game_id),
                )
            await bot.start()
            moved: list[tuple[object, ...]] = []
            for _ in range(int(TURN / 4 / 0.1)):
                moved = read(
                    bot.database,
                    "SELECT version FROM actions WHERE game_id = ? AND user_id IS NULL"
                    " AND action IS NOT NULL AND version > ?",
                    game_id,
                    before,
                )
                if moved:
                    break
                await asyncio.sleep(0.1)
            assert moved, "the turn's time ran out before the restart: not a whole new turn"
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        log = bot.output()
        assert "handler error" not in log and "Traceback" not in log, log[-3000:]

        async with await Database.open(bot.database) as db:
            await check_books(db, group.id, [game_id])
            assert await db.check_integrity() == []
