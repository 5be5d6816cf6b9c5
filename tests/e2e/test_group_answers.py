"""End to end: in a group, what answers a player goes before the table.

- «Начать»: the lobby's buttons («Сесть за стол», «Начать», «🤖 Добавить…») come off before the
  deal's table is posted, so nobody presses them under the table;
- with the group paced (20 requests a minute, on a clock the test moves): a reply to a command
  waits a second after the group's last request, not behind the table edits queued before it;
  the table edit waits for it (it skips a frame) and then shows the latest state.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.render.common import use_ranks
from tests.clock import ManualClock
from tests.library import CODEC

from .fake_telegram import FakeTelegram
from .fake_telegram.formatting import parse_text
from .players import Table, start_bot_for
from .resilience import eventually
from .test_games import open_table


async def advance(clock: ManualClock, seconds: float, table: Table) -> None:
    """Move the pacer's clock, then let whatever it let go go."""
    clock.advance(seconds)
    await _quiet(table)


async def test_the_lobby_loses_its_buttons_before_the_first_table(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 2)
        group = fake.chat(table.group)
        lobby = table.group_messages()[0]
        assert not lobby.callback_data
        requests = [r for r in fake.requests(chat=group) if r.ok]
        retired = next(
            i
            for i, r in enumerate(requests)
            if r.method == "editMessageText"
            and int(r.params["message_id"]) == lobby.message_id
            and "reply_markup" not in r.params
        )
        first_table = next(
            i
            for i, r in enumerate(requests)
            if r.method == "sendMessage" and "сдача 1" in str(r.params.get("text"))
        )
        assert retired < first_table, "the lobby's buttons stayed live under the table"
        assert not bot.handler_errors


async def test_a_reply_goes_before_the_table_edits_queued_in_a_paced_group(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", rate_limiter=True) as bot,
    ):
        pacer = bot.app.bot.rate_limiter.pacer
        spacing, pacer.spacing = pacer.spacing, 0.0  # the lobby unpaced, as a setup
        table = await open_table(fake, bot, 4, "stukolka", 6)
        services: Any = table.services
        services.presenter.hands.pacer.spacing = 0.0
        await table.settle()
        clock = ManualClock()
        pacer.clock, pacer.sleep, pacer.spacing = clock, clock.sleep, spacing
        try:
            group = fake.chat(table.group)

            def edits() -> int:
                return len(fake.requests("editMessageText", chat=group, ok=True))

            async def move() -> None:
                user, message, data = table.actionable((cb.Act,))[0]
                fake.user_presses(user, message, next(d for d in data if _is_act(d)))
                await table.bot.settle(timeout=20, quiet=0.05)

            before = edits()
            await move()  # its table edit goes at once: the group's last request is now
            assert edits() == before + 1
            await advance(clock, 0.5, table)
            await move()  # its table edit waits for the group's next slot, 3 s on
            shown = edits()
            command = fake.user_sends(table.users[2], table.group, "/balance")
            await _quiet(table)
            await advance(clock, 0.6, table)  # a second after the last request

            async def replied() -> bool:
                return any(m.reply_to is command for m in table.group_messages())

            await eventually(replied, 10, "the reply waited behind the table's edit")
            assert edits() == shown, "the table went first"
            await advance(clock, 2.0, table)  # the table's slot was 3 s after the first edit …
            assert edits() == shown, "… and moved to 3 s after the reply: a frame skipped"
            await advance(clock, 1.5, table)

            async def table_edited() -> bool:
                return edits() > shown

            # what it goes after (a read of the table from the database) may outlast a quiet
            # moment of the fake under load
            await eventually(table_edited, 10, "the table's edit at its moved slot")
            await _quiet(table)
            assert edits() == shown + 1
            # the edit that went shows the table as it is now, both moves in it
            game = await table.db.games.active_game(table.group.id)
            assert game is not None and game.table_message_id is not None
            use_ranks("ru", await services.people.chat_ranks(game.chat_id))
            text, _ = await services.presenter.table.content(game)
            shown_text = fake.message(group, game.table_message_id).text
            assert shown_text == parse_text(text, "HTML")[0]
        finally:  # nothing waits on the clock any more
            pacer.spacing = 0.0
            clock.wake(everyone=True)
        assert not bot.handler_errors


async def _quiet(table: Table) -> None:
    """Whatever can go now has gone (a request waiting for the clock is not in flight)."""
    await asyncio.sleep(0.1)  # a task just woken gets to its request
    await table.fake.wait_idle(timeout=20, quiet=0.2, require_answers=False)


def _is_act(data: str) -> bool:
    return isinstance(CODEC.decode(data), cb.Act)
