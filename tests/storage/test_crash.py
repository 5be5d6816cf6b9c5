"""Crash safety for real: a child commits in a loop and is killed with SIGKILL, many times.

After every kill the file must open and hold together: each game's log replays to its stored
state, every acknowledged commit is there, every commit has exactly the transfers and deal
record its action implies (nothing half-written), and each chat's money sums to zero —
with the kept balances and monthly figures equal to the ledger's sums (``check_integrity``).
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from storage import GAME_POT, POT, Database, Transfer, replay
from tests.storage import toy_counter_game as toy
from tests.storage.storage_support import raw

CHILD = Path(__file__).with_name("crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 32
MAX_RUN_SECONDS = 0.12
READY_TIMEOUT = 120.0

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


def test_sigkill_at_random_moments(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    rng = random.Random(20261129)
    acknowledged: dict[int, int] = {}
    rounds_with_commits = 0
    # the children are forked by one process that has imported the storage: each round's
    # child is a process of its own, killed with SIGKILL, without starting Python again
    forks = subprocess.Popen(
        [sys.executable, str(CHILD), "--fork"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        for number in range(ROUNDS):
            synchronous = "FULL" if number % 4 == 3 else "NORMAL"
            out = tmp_path / f"child-{number}.out"
            run_seconds = rng.uniform(0, MAX_RUN_SECONDS)
            commits = _run_and_kill(forks, path, out, number, synchronous, run_seconds)
            for game_id, version in commits:
                acknowledged[game_id] = max(version, acknowledged.get(game_id, 0))
            rounds_with_commits += bool(commits)
            asyncio.run(_check(path, acknowledged))
    finally:
        assert forks.stdin is not None and forks.stdout is not None
        forks.stdin.close()
        forks.wait(timeout=60)
        forks.stdout.close()
    # The kills landed while the child was busy committing, not before it started.
    assert rounds_with_commits == ROUNDS
    assert sum(acknowledged.values()) > ROUNDS * 10


def _run_and_kill(
    forks: subprocess.Popen[bytes],
    path: Path,
    out: Path,
    seed: int,
    synchronous: str,
    run_seconds: float,
) -> list[tuple[int, int]]:
    """Fork a child, let it commit for ``run_seconds``, SIGKILL it; its acknowledged commits."""
    errors = out.with_suffix(".err")
    assert forks.stdin is not None and forks.stdout is not None
    forks.stdin.write(f"{path} {seed} {synchronous} {out} {errors}\n".encode())
    pid = int(forks.stdout.readline())
    gone = False
    try:
        started = time.monotonic()
        # ready and committing (its first commit acknowledged), then killed at a random moment
        # of its run: under any load the kill lands while it commits, not before it started
        while not (out.exists() and "committed" in out.read_text()):
            # the forking process says when its child is gone: it must not be, yet
            gone = bool(select.select([forks.stdout], [], [], 0)[0])
            assert not gone, errors.read_text() if errors.exists() else "no child"
            # a hang guard, not a timing: a loaded machine may take long to start a Python
            assert time.monotonic() - started < READY_TIMEOUT, "the child never got ready"
            time.sleep(0.002)
        time.sleep(run_seconds)
    finally:
        if not gone:
            os.kill(pid, signal.SIGKILL)
    exited = forks.stdout.readline().decode().split()
    assert exited == ["exited", str(-signal.SIGKILL)], (exited, errors.read_text())
    commits = []
    for line in out.read_text().splitlines(keepends=True):
        # A line cut short by the kill has no newline yet; only whole lines count.
        words = line.split()
        if line.endswith("\n") and words[0] == "committed":
            commits.append((int(words[1]), int(words[2])))
    return commits


async def _check(path: Path, acknowledged: dict[int, int]) -> None:
    conn = raw(path)
    game_ids = [row[0] for row in conn.execute("SELECT game_id FROM games ORDER BY game_id")]
    deal_rows = Counter(conn.execute("SELECT game_id, version, deal FROM deals").fetchall())
    conn.close()
    expected_money: dict[int, Counter[Any]] = {}
    expected_deals: Counter[tuple[int, int, int]] = Counter()
    async with await Database.open(path) as db:
        assert await db.check_integrity() == []
        ledger: Counter[tuple[Any, ...]] = Counter()
        chats: set[int] = set()
        for game_id in game_ids:
            game = await db.games.game(game_id)
            chats.add(game.chat_id)
            log = await db.games.action_log(game_id)
            assert replay(log, toy.apply) == game.state
            assert log[-1].version == game.version >= acknowledged.get(game_id, 0)
            assert game.status == ("finished" if game.state["finished"] else "active")
            money = expected_money.setdefault(game.chat_id, Counter())
            state = log[0].state
            assert state is not None
            for entry in log[1:]:
                if entry.action is not None:
                    transfers = toy.action_transfers(state, entry.action)
                    state = toy.apply(state, entry.action)
                    if toy.deal_ends(state):
                        expected_deals[(game_id, entry.version, state["deal"])] += 1
                else:
                    assert entry.state is not None
                    state = entry.state
                    transfers = toy.deal_antes(state)
                for transfer in transfers:
                    ledger[_row(game.chat_id, game_id, entry.version, transfer)] += 1
                    _move(money, game_id, transfer)
        for chat in chats:
            stored = Counter(
                (e.chat_id, e.game_id, e.version, e.src, e.dst, e.amount, e.reason, e.deal)
                for e in await db.ledger.transfers(chat)
            )
            assert stored == Counter({k: n for k, n in ledger.items() if k[0] == chat})
            balances = await db.ledger.balances(chat)
            assert balances.total == 0
            expected = expected_money[chat]
            assert {u: n for u, n in balances.players.items() if n} == {
                k: n for k, n in expected.items() if isinstance(k, int) and n
            }
            assert balances.pot == expected[POT]
            assert dict(balances.game_pots) == {
                k[1]: n for k, n in expected.items() if isinstance(k, tuple) and n
            }
    assert deal_rows == expected_deals


def _row(chat: int, game: int, version: int, transfer: Transfer) -> tuple[Any, ...]:
    return (
        chat,
        game,
        version,
        transfer.src,
        transfer.dst,
        transfer.amount,
        transfer.reason,
        transfer.deal,
    )


def _move(money: Counter[Any], game_id: int, transfer: Transfer) -> None:
    for party, sign in ((transfer.src, -1), (transfer.dst, 1)):
        key = (GAME_POT, game_id) if party == GAME_POT else party
        money[key] += sign * transfer.amount
