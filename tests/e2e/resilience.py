"""Helpers of the resilience tests: pressing for some players only, reading the
table message, waiting on real-time things (timers), and the checks every test ends with."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot import callback as cb
from game.core import Action
from storage.database import Database
from storage.replay import replay
from tests.library import CODEC, rules_for

from .fake_telegram import Chat, FakeTelegram, Message, RunningApplication, User
from .players import Table


async def seat_table(
    fake: FakeTelegram,
    bot: RunningApplication,
    group: Chat,
    users: list[User],
    choice: str,
    seed: int,
) -> Table:
    """``users[0]`` opens a table with ``/new choice`` in ``group``, the others join through the
    lobby's button and the game begins."""
    table = Table(fake, bot, group, users, random.Random(seed))
    for user in users:
        fake.user_starts_bot(user)
    await table.settle()
    await table.say(users[0], f"/new {choice}")
    lobby = table.group_messages()[-1]
    game_id = next(
        d.game_id for d in buttons(lobby) if isinstance(d, cb.Lobby) and d.action == "join"
    )
    for user in users[1:]:
        await table.press(user, lobby, cb.encode(cb.Lobby(game_id, "join")))
    await table.press(users[0], lobby, cb.encode(cb.Lobby(game_id, "begin")))
    return table


async def current_table(table: Table, game_id: int) -> Message | None:
    game = await table.db.games.game(game_id)
    if game.table_message_id is None:
        return None
    chat = table.fake.chat(game.chat_id)
    return chat.messages.get(game.table_message_id)


async def step_for(table: Table, users: Iterable[User], look_chance: float = 0.0) -> bool:
    """One random press by one of ``users`` who has game buttons; False if none has any."""
    wanted = {user.id for user in users}
    candidates = [c for c in table.actionable() if c[0].id in wanted]
    if not candidates:
        # a hand still face down: only «look» is offered until he looks
        candidates = [c for c in table.actionable((cb.Look,)) if c[0].id in wanted]
    if not candidates:
        return False
    user, message, data = table.rng.choice(candidates)
    decoded = {d: table.codec.decode(d) for d in data}
    selects = [d for d, c in decoded.items() if isinstance(c, cb.Select)]
    acts = [d for d, c in decoded.items() if isinstance(c, cb.Act)]
    looks = [d for d, c in decoded.items() if isinstance(c, cb.Look)]
    if selects and (table.rng.random() < 0.4 or not acts):
        choice = table.rng.choice(selects)
    elif acts and (table.rng.random() >= look_chance or not looks):
        choice = table.rng.choice(acts)
    else:
        choice = looks[0]
    await table.press(user, message, choice)
    return True


async def eventually(
    check: Callable[[], Awaitable[bool]], timeout: float, what: str, poll: float = 0.05
) -> None:
    """Wait (real time) until ``await check()`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(poll)


def _apply_engine(kind: str) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    rules = rules_for(kind)

    def apply(state: dict[str, Any], action: Any) -> dict[str, Any]:
        engine = rules.load(state["engine"])
        engine.apply(Action.from_json(action))
        return {"engine": engine.to_json(), "table": state["table"]}

    return apply


async def check_books(db: Database, chat_id: int, game_ids: Iterable[int] = ()) -> None:
    """Money is conserved in the chat, and each game's action log replays to its stored
    engine state (so no action was lost, applied twice or applied outside the log)."""
    balances = await db.ledger.balances(chat_id)
    assert balances.total == 0, balances
    for game_id in game_ids:
        game = await db.games.game(game_id)
        replayed = replay(await db.games.action_log(game_id), _apply_engine(game.kind))
        assert replayed["engine"] == game.state["engine"], f"game {game_id} does not replay"


def texts(message: Message | None) -> list[str]:
    """Every text a message showed, oldest first."""
    if message is None:
        return []
    return [revision.text or "" for revision in message.history] + [message.text or ""]


def buttons(message: Message | None) -> list[cb.Callback]:
    if message is None:
        return []
    found = []
    for data in message.callback_data:
        try:
            found.append(CODEC.decode(data))
        except cb.BadCallback:
            continue
    return found


__all__ = [
    "FakeTelegram",
    "buttons",
    "check_books",
    "current_table",
    "eventually",
    "seat_table",
    "step_for",
    "texts",
]
