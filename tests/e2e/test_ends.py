"""End to end: how a table's end reads in the group — the stop notice kept in sight above
the notices that follow it, a second /stop answered instead of said twice — and the lobby
that stops taking presses as the game begins."""

from __future__ import annotations

from pathlib import Path

from bot import callback as cb

from .fake_telegram import FakeTelegram
from .players import Table, start_bot_for
from .test_games import open_table

STOP = "⏹ Игра остановится после этой сдачи."
STOP_NOW = "⏹ Игра останавливается: бот доигрывает"


def _void(table: Table, data: list[str]) -> str:
    return next(d for d in data if isinstance(cb.decode(d), cb.Void))


async def _board(table: Table) -> str:
    game = await table.services.db.active_game(table.group.id)
    assert game is not None and game.table_message_id is not None
    return table.fake.message(table.group, game.table_message_id).text or ""


async def test_the_stop_notice_stays_above_the_votes_and_a_second_stop_is_answered(
    tmp_path: Path,
) -> None:
    """Four players, /stop, three of them vote to void the deal (the fourth does not): the
    table still says it stops, above the three votes; a second /stop is answered once and
    says nothing twice; /stop now then says the bot plays the deal out, once."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "stukolka", 12)
        alice = table.users[0]
        await table.say(alice, "/stop")
        board = await _board(table)
        assert board.count(STOP) == 1, board
        game = await table.services.db.active_game(table.group.id)
        assert game is not None and game.table_message_id is not None
        for user in table.users[:3]:
            message = fake.message(table.group, game.table_message_id)
            await table.press(user, message, _void(table, message.callback_data))
        board = await _board(table)
        votes = [line for line in board.splitlines() if line.startswith("✋")]
        assert len(votes) == 3, board
        assert board.count(STOP) == 1, board
        assert board.index(STOP) < board.index(votes[0]), board
        # a second /stop: a reply saying it is stopping already, nothing more on the table
        await table.say(alice, "/stop")
        answer = table.group_messages()[-1]
        assert answer.reply_to is not None and answer.reply_to.text == "/stop"
        assert "уже останавливается" in (answer.text or ""), answer.text
        assert (await _board(table)).count(STOP) == 1
        # /stop now after /stop: the bot plays the deal out, said once
        await table.say(alice, "/stop now")
        await table.settle()
        shown = [text for m in table.group_messages() for text in _revisions(m)]
        assert not any(text.count(STOP_NOW) > 1 for text in shown)
        result = fake.message(table.group, game.table_message_id).text or ""
        assert result.count("бот доиграл сдачу") == 1 and STOP not in result, result
        assert await table.services.db.active_game(table.group.id) is None
        assert not bot.handler_errors


def _revisions(message: object) -> list[str]:
    return [r.text or "" for r in [*message.history, message]]  # type: ignore[attr-defined]
