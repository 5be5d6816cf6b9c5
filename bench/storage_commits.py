"""Benchmark: action commits per second through ``storage.Database.games.commit_action``.

Each commit is what the bot does for one button press: compare-and-set on the version, a
state JSON of realistic size (~3 KB), one action log row, 0-3 ledger transfers and, every
16th commit, a deal record. Within a chat, commits are awaited one after another, as the
bot's per-chat lock makes them: the first figure is one chat alone (so it is the inverse of
a commit's latency), the second several chats at once (what the bot sustains). Beside each
rate, the process's CPU time per commit (both threads), which a busy machine disturbs less
than the wall-clock rate. Runs with
``synchronous=NORMAL`` and ``FULL``, WAL both, each on a fresh file:

    .venv/bin/python bench/storage_commits.py [--commits N] [--repeat R] [--chats C]

Not a test: it prints figures and checks nothing but the ledger's zero sum.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from storage import GAME_POT, POT, Database, DealPlayer, DealRecord, Party, Synchronous, Transfer

USERS = (1001, 1002, 1003, 1004, 1005, 1006)
RANKS = "23456789TJQKA"
SUITS = "SHDC"


def initial_state(rng: random.Random) -> dict[str, Any]:
    """A state shaped like the engine's: hands, stock, trick history, options, view caches."""
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    rng.shuffle(deck)
    return {
        "schema": 1,
        "phase": "play",
        "deal": 1,
        "dealer": 0,
        "to_act": 1,
        "trump": "H",
        "pot": 18,
        "hands": [deck[i * 3 : i * 3 + 3] for i in range(6)],
        "stock": deck[18:],
        "dead": [],
        "tricks": [],
        "seats": [
            {"user": user, "knocked": True, "looked": True, "dark": False, "won": 0}
            for user in USERS
        ],
        "options": {
            "variant": "shleif",
            "stake": 3,
            "ante_mode": "dealer",
            "lone_player": "takes_pot",
            "void_rule": "must_trump",
            "compulsory_lead": "first_lead",
            "remiz_cap": None,
            "dark_in_classic": False,
        },
        "history": [
            {"seat": seat, "verb": "knock", "at": 1_700_000_000 + seat} for seat in range(6)
        ],
        "events": [{"kind": "card_played", "seat": s % 6, "card": deck[s]} for s in range(36)],
    }


def random_transfers(rng: random.Random, deal: int) -> list[Transfer]:
    parties: list[Party] = [*USERS, POT, GAME_POT]
    transfers = []
    for _ in range(rng.randint(0, 3)):
        src, dst = rng.sample(parties, 2)
        reason = rng.choice(("ante", "trick", "remiz", "diff"))
        transfers.append(Transfer(src, dst, rng.randint(1, 12), reason, deal))
    return transfers


async def play(db: Database, chat: int, commits: int, rng: random.Random) -> None:
    """One game in ``chat``: ``commits`` commits, each awaited before the next."""
    await db.chats.upsert_chat(chat, "bench", now=time.time())
    state = initial_state(rng)
    game = await db.games.create_game(
        chat, "stukolka", state, created_by=USERS[0], seats=USERS, now=time.time()
    )
    version = game.version
    for number in range(commits):
        state["to_act"] = (state["to_act"] + 1) % 6
        state["events"][number % len(state["events"])]["seat"] = state["to_act"]
        deal = state["deal"]
        record = None
        if number % 16 == 15:
            players = tuple(
                DealPlayer(user, seat, rng.randint(0, 3)) for seat, user in enumerate(USERS)
            )
            record = DealRecord(deal, players, {"trump": state["trump"]})
            state["deal"] += 1
        version = await db.games.commit_action(
            game.game_id,
            version,
            state,
            [state["to_act"], "play", "AS"],
            seat=state["to_act"],
            user_id=USERS[state["to_act"]],
            transfers=random_transfers(rng, deal),
            deal=record,
            turn_deadline=time.time() + 60,
            now=time.time(),
        )


async def run(
    path: Path, synchronous: Synchronous, chats: int, commits: int
) -> tuple[float, float]:
    """Commits per second of ``chats`` games played at once on a fresh file, and the CPU time
    of this process (every thread: the event loop's and the connection's) per commit, in µs."""
    rng = random.Random(4)
    async with await Database.open(path, synchronous=synchronous) as db:
        for user in USERS:
            await db.chats.upsert_player(user, f"player {user}", now=time.time())
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(
            *(
                play(db, -1000 - n, commits // chats, random.Random(rng.random()))
                for n in range(chats)
            )
        )
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        for n in range(chats):
            assert (await db.ledger.balances(-1000 - n)).total == 0
    done = commits // chats * chats
    return done / elapsed, cpu / done * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=4000, help="commits per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="measurements; the median is shown")
    parser.add_argument("--chats", type=int, default=8, help="games played at once, 2nd figure")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the files")
    args = parser.parse_args()
    state_bytes = len(json.dumps(initial_state(random.Random(4)), separators=(",", ":")))
    print(
        f"{args.commits} commits, state {state_bytes} bytes of JSON, 0-3 transfers each,"
        f" a deal record every 16th; median of {args.repeat}"
    )
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for synchronous in ("NORMAL", "FULL"):
            figures = []
            for chats in sorted({1, args.chats}):
                rates, cpus = [], []
                for attempt in range(args.repeat):
                    path = Path(folder) / f"{synchronous}-{chats}-{attempt}.sqlite3"
                    rate, cpu = await run(path, synchronous, chats, args.commits)
                    rates.append(rate)
                    cpus.append(cpu)
                figures.append(
                    f"{statistics.median(rates):6.0f}/s ({statistics.median(cpus):4.0f} µs CPU"
                    f" each) with {chats} chat(s)"
                )
            print(f"WAL synchronous={synchronous:<6}  " + "   ".join(figures))


if __name__ == "__main__":
    asyncio.run(main())
