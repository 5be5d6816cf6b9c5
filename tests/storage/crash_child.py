"""Child process of ``test_crash.py``: plays toy games in three chats until it is killed.

    python crash_child.py DB_PATH SEED SYNCHRONOUS

Prints ``ready`` once the database is open, then ``committed GAME VERSION`` after every
commit that returned, so the parent can check that each acknowledged commit survived.
Resumes whatever games the previous child left open, from their stored state.

    python crash_child.py --fork

starts the children instead, one for each line ``DB_PATH SEED SYNCHRONOUS OUT ERR`` on its
standard input: it forks, the child runs as above with its output in the files OUT and ERR,
and it prints the child's pid, then, once the child is gone, ``exited CODE`` (``-9``: killed
by SIGKILL). Python starts and imports the storage once for all the rounds of the test: a fresh
interpreter for each round spent most of the test's time starting up.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import traceback
from typing import Any

from storage import Database, Game
from tests.storage import toy_counter_game as toy
from tests.storage.storage_support import CLOCK

CHATS = (-1, -2, -3)
USERS = (11, 12, 13, 14, 15, 16)
FINISH_CHANCE = 0.03


def report(game_id: int, version: int) -> None:
    print(f"committed {game_id} {version}", flush=True)


async def play(db: Database, chat: int, rng: random.Random) -> None:
    while True:
        game = await db.games.active_game(chat)
        if game is None:
            seats = rng.sample(USERS, 3)
            game = await db.games.create_game(
                chat,
                "toy",
                toy.new_state(seats),
                seats=seats,
                created_by=seats[0],
                status="active",
                now=CLOCK(),
            )
        await play_game(db, game, rng)


async def play_game(db: Database, game: Game, rng: random.Random) -> None:
    state, version = game.state, game.version
    while True:
        if state["moves"] == toy.MOVES_PER_DEAL:
            state = toy.next_deal(state)
            version = await db.games.commit_action(
                game.game_id, version, state, None, transfers=toy.deal_antes(state), now=CLOCK()
            )
            report(game.game_id, version)
            continue
        finish = rng.random() < FINISH_CHANCE
        action: dict[str, Any] = {"seat": state["turn"], "add": 0 if finish else rng.randint(0, 9)}
        if finish:
            action["finish"] = True
        transfers = toy.action_transfers(state, action)
        state = toy.apply(state, action)
        version = await db.games.commit_action(
            game.game_id,
            version,
            state,
            action,
            seat=action["seat"],
            user_id=state["seats"][action["seat"]],
            transfers=transfers,
            deal=toy.deal_record(state) if toy.deal_ends(state) else None,
            status="finished" if finish else None,
            turn_deadline=None if finish else 1_000_000.0 + version,
            now=CLOCK(),
        )
        report(game.game_id, version)
        if finish:
            return


async def main(path: str, seed: int, synchronous: str) -> None:
    assert synchronous in ("NORMAL", "FULL")
    db = await Database.open(path, synchronous="FULL" if synchronous == "FULL" else "NORMAL")
    for chat in CHATS:
        await db.chats.upsert_chat(chat, f"chat {chat}", now=CLOCK())
    for user in USERS:
        await db.chats.upsert_player(user, f"player {user}", now=CLOCK())
    print("ready", flush=True)
    rng = random.Random(seed)
    await asyncio.gather(*(play(db, chat, random.Random(rng.random())) for chat in CHATS))


def child(path: str, seed: int, synchronous: str, out: str, err: str) -> None:
    """In the forked child: the output to its files, then :func:`main` until it is killed."""
    code = 1
    try:
        sys.stdin.close()
        for name, fd in ((out, 1), (err, 2)):
            target = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        asyncio.run(main(path, seed, synchronous))
        code = 0
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
    finally:
        os._exit(code)


def fork_children() -> None:
    """A child for each request on standard input (see the module's docstring)."""
    for line in sys.stdin:
        path, seed, synchronous, out, err = line.split()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            child(path, int(seed), synchronous, out, err)
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exited {os.waitstatus_to_exitcode(status)}", flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork"]:
        fork_children()
    else:
        asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
