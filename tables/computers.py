"""Computer players at a table: who they are, and thinking off the event loop.

A computer seat is a player like any other for storage and the ledger: a row in ``players``
with a negative id (Telegram user ids are positive, so the two never meet), seated by its id,
paying and receiving chips like anyone. Its level lives in the table's ``TableMeta.computers``.

The strong player is a Monte-Carlo search that takes tens to hundreds of milliseconds of CPU
per decision. It runs in a separate process (``Thinker``), so a table of computers cannot
hold up the event loop, and with it every other group: a thread would not do, the search is
pure Python and would hold the GIL. The pool has a bounded number of workers and a bounded
queue: when more decisions wait than the bound, the next one is made by the easy rules of
thumb at once, so one busy table cannot starve the others and no table waits for long.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from game.ai import Advice, Budget, Seated
from game.core import Action
from locales import t

log = logging.getLogger(__name__)

#: the ids of computer seats, by level: -1 is «🤖 Компьютер 1» (strong), -11 «🤖 Новичок 1»
#: (easy). Each keeps its balance in a chat across games, like a person.
STRONG_IDS = tuple(range(-1, -10, -1))
EASY_IDS = tuple(range(-11, -20, -1))
COMPUTER_IDS = STRONG_IDS + EASY_IDS
LEVELS = ("strong", "easy")
#: decisions that may wait for a worker before further ones are made by the easy level
MAX_WAITING = 8
WORKER_NICENESS = 10
#: a hint (💡) is the strong search given more time than a computer's move: up to this many
#: worlds, for at most this many milliseconds (at least the least number, however busy), in
#: the worker; on the bot's own thread (no worker, or too many waiting) a short search only
HINT_SAMPLES = 400
HINT_MILLISECONDS = 1500.0
HINT_MIN_SAMPLES = 40
HINT_ON_THREAD_MILLISECONDS = 150.0


def is_computer(user_id: int) -> bool:
    return user_id in COMPUTER_IDS


def computer_level(user_id: int) -> str:
    return "strong" if user_id in STRONG_IDS else "easy"


def computer_name(user_id: int, lang: str = "ru") -> str:
    """A computer seat's name in ``lang``: the robot mark, its level and its number («🤖
    Компьютер 1», «🤖 Computer 1»). The players table stores the Russian one; every screen
    shows the name in its reader's language."""
    if user_id in STRONG_IDS:
        return t(lang, "computer.strong", n=-user_id)
    return t(lang, "computer.easy", n=-user_id - 10)


def _worker_start(parent: int) -> None:
    """A worker's initializer. It yields the CPU to the bot (``nice``): on a small machine the
    event loop, which answers every group, comes before a computer's thinking, which only
    makes one table wait a little longer. And it ends itself once the bot is gone: a bot
    killed with SIGKILL cannot stop its pool, and a worker blocked on its queue would live on."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except OSError:  # gone (or its pid already another user's process)
                os._exit(0)

    threading.Thread(target=watch, name="watch-bot", daemon=True).start()


def _preload() -> list[str]:
    """What the worker processes' server imports before it starts them: the computers' common
    part and every module of the games' rules and computers the bot has loaded (each game's
    plugin imports its own), so that no worker imports one at its first decision."""
    return sorted({"game.ai", *(name for name in sys.modules if name.startswith("game."))})


def _decide(seated: Seated, level: str, seed: int, milliseconds: float, min_samples: int) -> Action:
    """One decision, in a worker process: the strong search stops at its time budget."""
    deadline = time.perf_counter() + milliseconds / 1000
    budget = Budget(stop=lambda: time.perf_counter() > deadline, min_samples=min_samples)
    return seated.choose(level, random.Random(seed), budget)


def _advise(seated: Seated, seed: int, milliseconds: float, min_samples: int) -> Advice:
    """A hint, in a worker process (or a thread): the strong search's choice with the mean
    value of every candidate it played out, stopped at its time budget."""
    deadline = time.perf_counter() + milliseconds / 1000
    budget = Budget(
        samples=HINT_SAMPLES,
        stop=lambda: time.perf_counter() > deadline,
        min_samples=min_samples,
    )
    return seated.advise(random.Random(seed), budget)


class Thinker:
    """Makes computer decisions: the strong ones in a small process pool, the easy ones (and
    any beyond ``MAX_WAITING`` waiting ones) at once on the caller's thread."""

    def __init__(self, workers: int = 1, *, seed: int | None = None) -> None:
        self.workers = workers
        self._pool: Executor | None = None
        self._waiting = 0
        self._rng = random.Random(seed)
        self.decisions = 0  # made by the pool (for the benches)
        self.fallbacks = 0  # made by the easy rules because the pool was busy or broken

    def _executor(self) -> Executor:
        if self._pool is None:
            # forkserver: a worker is not a fork of this process and its threads
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_preload())
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def decide(self, seated: Seated, level: str) -> Action:
        """The action of the computer ``seated`` (in the seat whose turn it is): the game's
        own, with the time its game gives a strong decision. It goes to the worker whole, so
        its game's computer and view must pickle (module-level functions, plain data)."""
        seed = self._rng.getrandbits(32)
        if level != "strong" or self.workers <= 0 or self._waiting >= MAX_WAITING:
            if level == "strong":
                self.fallbacks += 1
            return seated.choose("easy", random.Random(seed))
        milliseconds, min_samples = seated.milliseconds, seated.min_samples
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            action: Action = await loop.run_in_executor(
                self._executor(), _decide, seated, level, seed, milliseconds, min_samples
            )
            self.decisions += 1
            return action
        except BrokenProcessPool:
            log.warning("the computer players' worker died; a new one starts")
            self.close()
            self.fallbacks += 1
            return seated.choose("easy", random.Random(seed))
        finally:
            self._waiting -= 1

    async def _advise_on_thread(self, seated: Seated, seed: int) -> Advice:
        """A short hint search in a thread: it shares the interpreter with the event loop,
        which still runs between its slices, so it gets little time and the least samples a
        computer's move takes."""
        least = seated.min_samples
        return await asyncio.to_thread(_advise, seated, seed, HINT_ON_THREAD_MILLISECONDS, least)

    async def advise(self, seated: Seated) -> Advice:
        """The strong computer's advice in the seat of ``seated`` (a hint for the person there):
        thought out in the worker like a computer's move; with no worker free, in a thread
        for a short while, so the event loop is never held for long."""
        seed = self._rng.getrandbits(32)
        if self.workers <= 0 or self._waiting >= MAX_WAITING:
            return await self._advise_on_thread(seated, seed)
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            advice: Advice = await loop.run_in_executor(
                self._executor(), _advise, seated, seed, HINT_MILLISECONDS, HINT_MIN_SAMPLES
            )
            return advice
        except BrokenProcessPool:
            log.warning("the computer players' worker died; a new one starts")
            self.close()
            return await self._advise_on_thread(seated, seed)
        finally:
            self._waiting -= 1

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
