"""End to end: ``python -m server`` killed with SIGKILL while a computer is to move
(its pause running) and started again: the computer's turn is in the stored deadline, so the
restarted bot re-arms it and the computer moves — once — and the game goes on.

No real time is read: the computer's pause is an hour, so the kill surely comes inside it
whatever the machine's load; while the bot is down its stored deadline is set back to the
moment the pause began (it is due), and the restarted bot pauses a moment only."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot import callback as cb
from storage.database import Database
from tables.computers import STRONG_IDS
from tests.library import CODEC

from .child_bot import Bot, Players, read
from .fake_telegram import FakeTelegram
from .resilience import check_books

PAUSE = 3600.0  # the computer's pause before the kill: the kill comes inside it


def computer_to_move(database: Path, game_id: int) -> float | None:
    """The deadline of the computer's move if a computer is to move now, else None."""
    row = read(
        database,
        "SELECT json_extract(state, '$.table.clock_user'), turn_deadline FROM games"
        " WHERE game_id = ? AND status = 'active'",
        game_id,
    )
    if not row or row[0][0] is None or row[0][1] is None:
        return None
    return float(row[0][1]) if int(row[0][0]) in STRONG_IDS else None


def computer_moves(database: Path, game_id: int, seat: int) -> int:
    """Moves logged for the computer's seat (its looks included)."""
    return int(
        read(
            database,
            "SELECT COUNT(*) FROM actions WHERE game_id = ? AND kind = 'action' AND seat = ?",
            game_id,
            seat,
        )[0][0]
    )


@pytest.mark.timeout(240)
async def test_sigkill_while_a_computer_is_to_move_and_it_moves_after_the_restart(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        user = fake.add_user("P0", language_code="en")
        group = fake.add_group("Computers", [user])
        bot = Bot(fake, tmp_path, turn=60.0)  # the person's turns never run out here
        bot.env.update(COMPUTER_PAUSE_SECONDS=str(PAUSE))
        players = Players(fake, [user], seed=5)
        await bot.start()
        try:
            fake.user_starts_bot(user)
            fake.user_sends(user, group, "/new stukolka")
            await fake.wait_until(lambda: fake.messages(group, from_bot=True), timeout=15)
            lobby = fake.messages(group, from_bot=True)[-1]
            game_id = next(
                d.game_id for d in map(CODEC.decode, lobby.callback_data) if isinstance(d, cb.Lobby)
            )
            for action in ("computer", "begin"):
                query = fake.user_presses(user, lobby, cb.encode(cb.Lobby(game_id, action)))
                await players.answered(query)
                lobby = fake.message(group, lobby.message_id)
            seats = read(bot.database, "SELECT seats FROM games WHERE game_id = ?", game_id)
            assert seats[0][0] == f"[{user.id},{STRONG_IDS[0]}]"
            seat = 1  # the computer, seated after the person who opened the table
            killed = False
            for _ in range(600):
                deadline = computer_to_move(bot.database, game_id)
                if deadline is not None:
                    before = computer_moves(bot.database, game_id, seat)
                    await bot.kill()
                    assert computer_moves(bot.database, game_id, seat) == before
                    killed = True
                    with closing(sqlite3.connect(bot.database)) as conn, conn:
                        conn.execute(
                            "UPDATE games SET turn_deadline = ? WHERE game_id = ?",
                            (deadline - PAUSE, game_id),  # when the pause began: due
                        )
                    bot.env.update(COMPUTER_PAUSE_SECONDS="0.05")
                    await bot.start()
                    for _ in range(300):
                        if computer_moves(bot.database, game_id, seat) > before:
                            break
                        await asyncio.sleep(0.1)
                    assert computer_moves(bot.database, game_id, seat) > before, (
                        "the computer did not move after the restart"
                    )
                    break
                choice = players.pick()
                if choice is None:
                    await asyncio.sleep(0.1)
                    continue
                pressed = players.press(choice)
                if pressed is not None:
                    await players.answered(pressed)
            assert killed, "the computer was never to move"
            # the game goes on: the person gets a move to make again
            for _ in range(200):
                if players.pick() is not None:
                    break
                await asyncio.sleep(0.1)
            assert players.pick() is not None
        finally:
            code = await bot.stop()
        assert code == 0, bot.output()[-3000:]
        log = bot.output()
        assert "handler error" not in log and "Traceback" not in log, log[-3000:]
        async with await Database.open(bot.database) as db:
            await check_books(db, group.id, [game_id])
            assert await db.check_integrity() == []
