"""End to end: Telegram's limits with players pressing as fast as they can.

Two tables play at once with the limits on (``rate_limiter=True``): each group must get at most
20 requests in any 60 seconds, the table must never be more than about 3 seconds behind the
game, and a group that Telegram throttles (429) must not hold up the other one. The limiter
waits on a clock the test moves (``tests.clock.ManualClock``), so every figure is one of the
limiter's arithmetic, not of how fast the machine is. Why the bot has its own rate limiter
instead of python-telegram-bot's ``AIORateLimiter`` is shown first.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import telegram.error
from telegram.ext import AIORateLimiter, BaseRateLimiter

import storage.connection
from bot import callback as cb
from bot.pacing import Pacer
from bot.ratelimit import JSON, Callback, ChatRateLimiter
from tests.clock import ManualClock
from tests.library import CODEC

from .fake_telegram import FakeTelegram, NoSuchButton, RetryAfter, application_builder
from .players import Table, start_bot_for
from .resilience import check_books, seat_table
from .test_games import deals_done

#: seconds of play, on the clock the limiter waits on (the test moves it)
PLAY_SECONDS = 22.0
#: seconds between a player's press being answered and his next: one group as fast as a
#: player can tap, the other a quick human
THINK = (0.1, 0.3)


class Watched(BaseRateLimiter[Any]):
    """A limiter as it is, and the moment it learns of a 429: its request raises
    ``telegram.error.RetryAfter`` into it, and whatever it does about that, before it next
    awaits, is done once ``told_to_wait`` is seen set."""

    def __init__(self, limiter: BaseRateLimiter[Any]) -> None:
        self.limiter = limiter
        self.told_to_wait = asyncio.Event()

    async def initialize(self) -> None:
        await self.limiter.initialize()

    async def shutdown(self) -> None:
        await self.limiter.shutdown()

    async def process_request(
        self,
        callback: Callback,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Any,
    ) -> JSON:
        async def watched(*args: Any, **kwargs: Any) -> JSON:
            try:
                return await callback(*args, **kwargs)
            except telegram.error.RetryAfter:
                self.told_to_wait.set()
                raise

        return await self.limiter.process_request(
            watched, args, kwargs, endpoint, data, rate_limit_args
        )


async def other_group_while_one_is_held(limiter: BaseRateLimiter[Any], *, waits: bool) -> None:
    """Telegram tells group A to wait a minute (429); meanwhile, once the limiter knows it, a
    message goes to group B. With ``waits``, B must still be unsent once everything that could
    go has gone; without, it goes (while A still waits)."""
    async with FakeTelegram() as fake:
        user = fake.add_user("U")
        a, b = fake.add_group("A", [user]), fake.add_group("B", [user])
        fake.faults.add(RetryAfter(60), method="sendMessage", chat_id=a.id, times=1)
        watched = Watched(limiter)
        app = application_builder(fake).rate_limiter(watched).build()
        async with app:
            throttled = asyncio.ensure_future(app.bot.send_message(a.id, "to A"))
            # not the fake's 429 logged: its answer has yet to reach the limiter then
            await asyncio.wait_for(watched.told_to_wait.wait(), 30)
            other = asyncio.ensure_future(app.bot.send_message(b.id, "to B"))
            if waits:
                await fake.wait_idle(quiet=0.3, require_answers=False)
                assert not other.done() and not fake.messages(b), "B went while A was held"
            else:
                await asyncio.wait_for(other, 30)
                assert [m.text for m in fake.messages(b)] == ["to B"]
            assert not throttled.done() and not fake.messages(a), "A waits its minute"
            for task in (other, throttled):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task


# PTB's own limiter reads the 429's retry_after, which PTB itself marks deprecated (an int
# now, a timedelta in its next major version): that warning is PTB's, not ours to fail on
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_429_in_one_group_holds_every_group_with_aioratelimiter_but_not_ours() -> None:
    """python-telegram-bot's AIORateLimiter halts all requests after a RetryAfter (as its
    documentation says); ChatRateLimiter holds only the chat that was told to wait."""
    await other_group_while_one_is_held(AIORateLimiter(max_retries=3), waits=True)
    await other_group_while_one_is_held(ChatRateLimiter(Pacer(3.0)), waits=False)


def test_the_pacer_keeps_any_minute_under_twenty_requests() -> None:
    """The pacing math with a simulated clock: requests as dense as allowed for 10 minutes."""
    clock = ManualClock(now=0.0)

    async def sleep(seconds: float) -> None:  # (a sleep that moves the clock itself)
        clock.advance(seconds)

    pacer = Pacer(3.0, clock=clock, sleep=sleep)
    sent: list[float] = []
    rng = random.Random(5)

    async def run() -> None:
        while clock() < 600:
            await pacer.slot(-1)
            sent.append(clock())
            clock.advance(rng.choice([0.0, 0.01, 0.5]))

    asyncio.run(run())
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert min(gaps) >= 3.0 - 1e-9
    for i, start in enumerate(sent):
        assert sum(1 for t in sent[i:] if t - start < 60.0) <= 20
    assert len(sent) >= 190, "and the pace is not slower than it must be"


@dataclass
class Watch:
    """When each version of each game was committed, and when the group saw which version, on
    the limiter's clock."""

    clock: ManualClock
    commits: dict[int, dict[int, float]] = field(default_factory=lambda: defaultdict(dict))
    shown: dict[int, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))
    results: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))

    def install(self, table: Table) -> None:
        services = table.services
        db, presenter, messenger = table.db, services.presenter, services.messenger
        commit = db.games.commit_action
        rendering: dict[int, tuple[int, int]] = {}

        async def commit_action(
            game_id: int, expected: int, state: Any, action: Any, *args: Any, **kwargs: Any
        ) -> int:
            version = await commit(game_id, expected, state, action, *args, **kwargs)
            if not (action and action[1] == "look"):  # a look shows nothing new
                self.commits[game_id][version] = self.clock()
            return version

        commit_many = db.games.commit_actions

        async def commit_actions(game_id: int, expected: int, commits: Any) -> int:
            # a deal's last move and the next deal, one transaction
            last = await commit_many(game_id, expected, commits)
            now = self.clock()
            for version in range(expected + 1, last + 1):
                self.commits[game_id][version] = now
            return last

        content = presenter.table.content

        async def table_content(game: Any) -> Any:
            rendering[game.chat_id] = (game.game_id, game.version)
            return await content(game)

        def seen(chat_id: int, rendered: tuple[int, int] | None) -> None:
            if rendered is not None:
                game_id, version = rendered
                self.shown[game_id].append((version, self.clock()))
            elif chat_id < 0:
                self.results[chat_id].append(self.clock())  # deals' results

        edit, send = messenger.edit, messenger.send

        async def edited(chat_id: int, message_id: int, *args: Any, **kwargs: Any) -> Any:
            rendered = rendering.pop(chat_id, None)
            result = await edit(chat_id, message_id, *args, **kwargs)
            if result:
                seen(chat_id, rendered)
            return result

        async def sent(chat_id: int, *args: Any, **kwargs: Any) -> Any:
            rendered = rendering.pop(chat_id, None)
            result = await send(chat_id, *args, **kwargs)
            seen(chat_id, rendered)
            return result

        db.games.commit_action = commit_action  # type: ignore[method-assign,assignment]
        db.games.commit_actions = commit_actions  # type: ignore[method-assign,assignment]
        presenter.table.content = table_content  # type: ignore[method-assign]
        messenger.edit = edited  # type: ignore[method-assign]
        messenger.send = sent  # type: ignore[method-assign]

    def lags(self, game_id: int, chat_id: int, deal_ends: list[int]) -> tuple[float, float]:
        """The longest time a committed version waited for the group to see it or a later one
        (a table edit or message, or the result of its deal): within a deal once its table
        is out, and at the start of a deal (its table comes after the last one's result)."""
        shown = self.shown[game_id]
        results = self.results[chat_id]
        ends = sorted(deal_ends)
        within, boundary = 0.0, 0.0
        for version, committed in self.commits[game_id].items():
            times = [t for v, t in shown if v >= version and t >= committed]
            start = max((e for e in ends if e < version), default=0)
            end = next((e for e in ends if e >= version), None)
            if end is not None:
                ended = self.commits[game_id][end]
                times += [t for t in results if t >= ended]
            if not times:
                continue  # the last moments of the run
            lag = min(times) - committed
            table_out = any(start < v and t <= committed for v, t in shown)
            if table_out:
                within = max(within, lag)
            else:
                boundary = max(boundary, lag)
        return within, boundary


PACED = ("sendMessage", "editMessageText", "editMessageReplyMarkup")


def paced_times(fake: FakeTelegram, clock: ManualClock, chat_id: int, since: float) -> list[float]:
    """When the group's messages and edits from ``since`` on (the lobbies were opened unpaced)
    went, on the limiter's clock."""
    return [clock.at(e.time) for e in fake.requests(chat=chat_id, since=since) if e.method in PACED]


def busiest_window(times: list[float]) -> int:
    return max(
        (sum(1 for t in times[i:] if t - start < 60.0) for i, start in enumerate(times)),
        default=0,
    )


class StorageTrips:
    """Counts the trips to the database's thread (``storage.connection.run``): the one thing
    the bot waits for besides the network and the clock."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.running = 0
        self.started = 0
        self.none_running = asyncio.Event()
        self.none_running.set()
        run = storage.connection.run

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.running += 1
            self.started += 1
            self.none_running.clear()
            try:
                return await run(*args, **kwargs)
            finally:
                self.running -= 1
                if not self.running:
                    self.none_running.set()

        monkeypatch.setattr(storage.connection, "run", counted)


#: rounds of the event loop in a row in which nothing is seen to happen before the bot counts
#: as idle: the bot's own work between two things seen (a request, a trip to the database) is
#: a chain of a few rounds (5 at most in this test's runs), never a wait
QUIET_ROUNDS = 20


async def idle(fake: FakeTelegram, trips: StorageTrips) -> None:
    """Whatever can go without the clock moving has gone (a request waiting for the clock is
    not in flight): for ``QUIET_ROUNDS`` rounds of the event loop in a row, no trip to the
    database's thread was on its way or began, and the fake served nothing but long polls, had
    no update to give and took no new request. The bot and the fake talk over the loopback: a
    request or an answer written is readable at once, so between one request or trip and the
    next the bot only runs what the loop has ready, round after round, and never waits."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    seen: tuple[int, int] | None = None
    quiet = 0
    while quiet < QUIET_ROUNDS:
        await asyncio.sleep(0)
        if trips.running:
            await trips.none_running.wait()
            seen = None
        now = (len(fake.log), trips.started)
        if now != seen or not fake.is_idle(require_answers=False):
            seen, quiet = now, 0
        else:
            quiet += 1
        if loop.time() > deadline:
            raise TimeoutError(f"the bot does not go idle; {fake.describe_state()}")


@dataclass
class Player:
    """The players of one table, pressing as the simulated time allows."""

    table: Table
    game_id: int
    think: float
    next_press: float
    waiting: Any = None  # the press whose answer and new hands they wait for
    presses: int = 0

    def hands_pending(self) -> bool:
        coalescer = self.table.services.presenter.coalescer
        return any(
            isinstance(key, tuple) and key[:2] == ("hand", self.game_id)
            for key in coalescer.pending_keys()
        )

    def act(self, now: float) -> None:
        """Press when it is time: a random game button of someone who has one."""
        if self.waiting is not None:
            if self.waiting.answer is None or self.hands_pending():
                return
            self.waiting = None
            self.presses += 1
            self.next_press = now + self.think
        if now < self.next_press:
            return
        table = self.table
        candidates = table.actionable() or table.actionable((cb.Look,))
        if not candidates:
            self.next_press = now + self.think  # between deals: look again in a moment
            return
        user, message, data = table.rng.choice(candidates)
        acts = [d for d in data if isinstance(CODEC.decode(d), (cb.Act, cb.Select))]
        with contextlib.suppress(NoSuchButton):
            self.waiting = table.fake.user_presses(user, message, table.rng.choice(acts or data))

    def due(self) -> float | None:
        return None if self.waiting is not None else self.next_press


async def test_two_fast_tables_keep_the_group_limits_and_a_throttled_one_holds_up_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables played fast with the limits on, on the limiter's clock moved by the test
    (everything else the bot does takes no time on it): each group gets at most 20 requests
    in any 60 s, the tables stay within a slot or two of the game, and a 429 to one group
    holds up only that group."""
    trips = StorageTrips(monkeypatch)
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", rate_limiter=True, default_language="en"
        ) as bot,
    ):
        groups = []
        for name in ("A", "B"):
            users = [fake.add_user(f"{name}{i}") for i in range(3)]
            group = fake.add_group(f"Table {name}", users)
            groups.append((group, users))
        # the lobbies at full pace would take a minute of slots: open them unpaced
        limiter = bot.app.bot.rate_limiter
        assert isinstance(limiter, ChatRateLimiter)
        pacer = limiter.pacer
        spacing, pacer.spacing = pacer.spacing, 0.0
        tables = [
            await seat_table(fake, bot, group, users, "stukolka", seed=50 + i)
            for i, (group, users) in enumerate(groups)
        ]
        services = tables[0].services
        await tables[0].settle()
        clock = ManualClock()
        limiter.use_clock(clock, clock.sleep)
        pacer.spacing = spacing
        # the players here wait for every hand refresh of their game before the next press:
        # waiting players' hands (paced, tests/e2e/test_hand.py) would make them slow
        services.presenter.hands.pacer.spacing = 0.0
        game_ids = [(await tables[0].db.games.active_game(t.group.id)).game_id for t in tables]  # type: ignore[union-attr]
        watch = Watch(clock)
        watch.install(tables[0])
        started = clock()
        throttled, other = tables[0].group.id, tables[1].group.id
        since = fake.now()
        # Telegram tells group A to wait twice: 5 s, and later 4 s
        throttles = [(started + 6, 5), (started + 14, 4)]
        players = [
            Player(table, game_id, think, started)
            for table, game_id, think in zip(tables, game_ids, THINK, strict=True)
        ]
        try:
            while clock() < started + PLAY_SECONDS:
                while throttles and throttles[0][0] <= clock():
                    fake.faults.add(RetryAfter(throttles.pop(0)[1]), chat_id=throttled)
                for player in players:
                    player.act(clock())
                await idle(fake, trips)
                moments = [p.due() for p in players] + [clock.next_wake()]
                moments += [throttles[0][0]] if throttles else []
                soonest = min((m for m in moments if m is not None), default=clock() + 0.1)
                # never far at once: a press waiting for its answer is looked at again
                clock.advance_to(min(max(soonest, clock()), clock() + 0.25))
                await idle(fake, trips)
            # the players stop; what the bot still has to show goes, on the clock as it comes
            while services.presenter.coalescer.pending and clock() < started + 120:
                clock.advance_to((clock.next_wake() or clock()) + 0.001)
                await idle(fake, trips)
            await services.presenter.coalescer.drain()
        finally:
            pacer.spacing = 0.0
            clock.wake(everyone=True)
        presses = [p.presses for p in players]
        times = [paced_times(fake, clock, t.group.id, since) for t in tables]
        busiest = [busiest_window(t) for t in times]
        ends = [
            [d.version for d in await tables[0].db.history.last_deals(t.group.id, 100)]
            for t in tables
        ]
        throttled_within, throttled_boundary = watch.lags(game_ids[0], throttled, ends[0])
        within, boundary = watch.lags(game_ids[1], other, ends[1])
        result_lags: list[list[float]] = []
        for game_id, table in zip(game_ids, tables, strict=True):
            lags = []
            for deal in await tables[0].db.history.last_deals(table.group.id, 100):
                ended = watch.commits[game_id][deal.version]
                done = next((t for t in watch.results[table.group.id] if t >= ended), None)
                if done is not None:
                    lags.append(done - ended)
            result_lags.append(lags)
        gaps = [b - a for a, b in itertools.pairwise(times[1])]
        deals_played = [await deals_done(tables[0].db, t.group.id) for t in tables]
        held = [r for r in fake.requests(chat=throttled, since=since) if r.status == 429]
        print(
            f"\npresses {presses}, deals {deals_played}, busiest 60 s per group {busiest}"
            f"\nB ({THINK[1]} s a press): max lag within a deal {within:.2f} s, new deal's table"
            f" {boundary:.2f} s, results after {max(result_lags[1], default=0):.2f} s;"
            f" longest gap between its requests {max(gaps, default=0):.2f} s"
            f"\nA ({THINK[0]} s a press, two 429s): max lag within a deal {throttled_within:.2f}"
            f" s, new deal's table {throttled_boundary:.2f} s,"
            f" results after {max(result_lags[0], default=0):.2f} s"
        )
        assert len(held) == 2, "Telegram told A to wait twice"
        assert all(count <= 20 for count in busiest)
        assert min(presses) >= 40, "the players did press fast"
        assert min(deals_played) >= 2
        # The pace is one request every 3 s: the table stays about one slot behind
        assert within <= 6.0, "the table stays about one slot behind at most"
        # a deal's end: the result takes a slot, the new table the next one; a third when a
        # table edit was already on its way as the deal ended
        assert boundary <= 9.0, "a new deal shown within a few slots"
        assert max(result_lags[1], default=0) <= 6.0, "a deal's result within about a slot"
        assert max(gaps, default=0) <= 6.0, "group B kept its pace while A was held"
        for table in tables:
            await check_books(tables[0].db, table.group.id, game_ids)
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors
