"""End to end: Telegram fails at random — 429s, 5xx, replies too late, dropped
connections, on sends, edits, answers and polling — and the games still finish, no chip and no
move is lost, and the group never sees a message twice (a send that timed out may have been
carried out all the same, so the bot does not blindly send it again)."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path

from .fake_telegram import Delay, DropConnection, FakeTelegram, RetryAfter, ServerError
from .players import start_bot_for
from .resilience import check_books, texts
from .test_games import deals_done, open_table

DEALS = 4


async def test_games_finish_through_random_faults_and_nothing_reaches_a_group_twice(
    tmp_path: Path,
) -> None:
    async with FakeTelegram(fault_seed=6) as fake:
        faults = [
            fake.faults.add(fault, method=method, times=None, probability=probability)
            for method in ("sendMessage", "editMessageText", "answerCallbackQuery")
            for fault, probability in (
                (RetryAfter(1), 0.02),
                (ServerError(502, "Bad Gateway"), 0.02),
                (DropConnection(), 0.015),
                (DropConnection(after_processing=True), 0.015),
            )
        ]
        # replies later than the bot's read timeout (5 s): it gives up, Telegram carries on
        faults += [
            fake.faults.add(Delay(5.5), method=method, times=1, probability=0.05)
            for method in ("answerCallbackQuery",)
        ]
        faults += [
            fake.faults.add(ServerError(500), method="getUpdates", times=None, probability=0.05),
            fake.faults.add(DropConnection(), method="getUpdates", times=None, probability=0.03),
        ]
        async with start_bot_for(
            fake, tmp_path / "bot.sqlite3", default_language="en", turn_timeout_seconds=3
        ) as bot:
            table = await open_table(fake, bot, 3, "stukolka", seed=61)
            db = table.db
            chat_id = table.group.id
            game = await db.games.active_game(chat_id)
            assert game is not None
            late = None
            for _ in range(3000):
                done = await deals_done(db, chat_id)
                if done >= DEALS:
                    break
                if done == 1 and late is None:
                    # the next message to the group (a new deal's table) times out but is
                    # carried out: sending it again would show it twice
                    late = fake.faults.add(Delay(5.5), method="sendMessage", chat_id=chat_id)
                    faults.append(late)
                    # and one poll fails for sure: the random ones above fire on about 8% of
                    # some 40 polls, so in about one run in twenty none did
                    faults.append(fake.faults.add(ServerError(500), method="getUpdates"))
                if not await table.step():
                    # a hand lost for now: its refresh is retried, or the turn times out
                    await asyncio.sleep(0.2)
                    await table.settle()
            assert await deals_done(db, chat_id) >= DEALS
            await table.settle()
            for rule in faults:
                rule.times = 0
            await table.settle()
            fired = Counter(type(rule.fault).__name__ for rule in faults for _ in range(rule.fired))
            print(f"\nfaults fired: {dict(fired)}; presses {table.presses}")
            assert sum(fired.values()) >= 10, "the faults did happen"
            assert late is not None and late.fired == 1

            # nothing lost: the money and the action log agree, every press was answered
            await check_books(db, chat_id, [game.game_id])
            assert not fake.unanswered_callback_queries()
            # nothing twice: every message the group got (even one the bot thought failed)
            # is a different one; each deal had one table message at most
            group = fake.messages(table.group, from_bot=True)
            first = [texts(m)[0] for m in group]
            assert len(first) == len(set(first)), "the group never got the same message twice"
            per_deal = Counter(
                int(found.group(1))
                for m in group
                for found in [re.search(r"Stukolka · deal (\d+)\n", texts(m)[0])]
                if found
            )
            assert per_deal and max(per_deal.values()) == 1, per_deal
            results = Counter(
                int(found.group(1))
                for m in group
                for text in texts(m)
                for found in re.finditer(r"deal (\d+) is over", text)
            )
            shown = sum(1 for n in range(1, DEALS + 1) if n in results)
            print(f"table messages per deal {dict(per_deal)}; results shown {shown}/{DEALS}")
            assert bot.polling_errors, "polling failed now and then, and went on"
