"""End to end: the private chat is the player's whole table and every deal ends in
every chat. Played against the fake Bot API with the buttons the bot really sent:

- each deal's hand message becomes the player's outcome, without buttons, and the net it shows
  equals his balance change over the deal (and the deal's ledger), for every deal of a long
  random game; the group result names the final trick;
- no message of an earlier deal (or of a closed table) keeps a live button;
- a turn that comes after a wait comes as a new hand message (which notifies), the old one
  deleted; quick turns do not;
- a dark player sees no card face and has no look button from his declaration to the end of
  his purchase;
- /stop now leaves no live button and no «Ход: …»; /new during a game offers no game picker;
  nobody gets «Стол закрыт.» in private while the lobby fills.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from pathlib import Path
from typing import Any

from bot import callback as cb
from bot.app import services_of
from bot.pacing import is_answer
from game.stukolka.state import Phase, Role
from storage.database import Database
from tests.clock import ManualClock
from tests.library import CODEC

from .fake_telegram import FakeTelegram, Message
from .players import Table, cards_in, start_bot_for
from .test_games import open_table

GAME_BUTTONS = (cb.Act, cb.Select, cb.Look)
NET = re.compile(r"Ваш итог: (?:\d+ взят\w* · )?([+−]?\d+)")
BALANCE = re.compile(r"Ваш баланс: ([+−]?\d+)")


def _number(text: str) -> int:
    return int(text.replace("−", "-"))


def _live(message: Message) -> bool:
    """Whether a message offers a button that acts on a game (a callback, not a link)."""
    return any(isinstance(CODEC.decode(data), GAME_BUTTONS) for data in message.callback_data)


async def _current_hands(db: Database, chat_id: int) -> set[tuple[int, int]]:
    game = await db.games.active_game(chat_id)
    if game is None:
        return set()
    return {(user, mid) for user, mid in game.hand_messages.items() if mid}


async def _check_only_current_hands_live(table: Table) -> None:
    current = await _current_hands(table.db, table.group.id)
    for user in table.users:
        for message in table.fake.messages(table.fake.private_chat(user), from_bot=True):
            if _live(message):
                assert (user.id, message.message_id) in current, message.text


async def run_clock(clock: ManualClock, table: Table) -> None:
    """Move the hands' clock from wake to wake until no hand edit waits any more."""
    coalescer = table.services.presenter.coalescer
    for _ in range(5000):
        await table.bot.settle(timeout=20, quiet=0.0)
        wake = clock.next_wake()
        if wake is not None:
            clock.advance_to(wake)
        elif not coalescer.pending:
            return
        else:
            await asyncio.sleep(0.005)  # a refresh just woken is on its way to its request
    raise AssertionError("hand edits still waiting on the clock")


async def _to_act(table: Table) -> tuple[Any, Message, list[str]]:
    """The player to act and his hand's buttons, once they are shown (the clock held still)."""
    await table.fake.wait_until(table.actionable, timeout=10, message="nobody's buttons")
    return table.actionable()[0]


async def test_every_deal_ends_in_every_chat_and_the_money_adds_up(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "shleif", 17)
        db = table.db
        chat_id = table.group.id
        game = await db.games.active_game(chat_id)
        assert game is not None
        for _ in range(3000):
            if len(await db.history.last_deals(chat_id, 100)) >= 10:
                break
            assert await table.step()
            await _check_only_current_hands_live(table)
        await table.say(table.users[0], "/stop")
        await table.play_until(lambda: not table.actionable((*GAME_BUTTONS,)))
        assert await db.games.active_game(chat_id) is None
        deals = sorted(await db.history.last_deals(chat_id, 100), key=lambda d: d.deal)
        assert len(deals) >= 10
        ledger = await db.ledger.transfers(chat_id, game_id=game.game_id)
        # every private chat: one outcome per deal, no buttons, net = balance change = ledger
        for user in table.users:
            messages = fake.messages(fake.private_chat(user), from_bot=True)
            outcomes = [m for m in messages if m.text and "Ваш итог" in m.text]
            assert len(outcomes) == len(deals), [m.text for m in outcomes]
            before = 0
            for deal, message in zip(deals, outcomes, strict=True):
                assert not message.buttons
                assert f"сдача {deal.deal + 1} окончена" in (message.text or "")
                net = _number(NET.search(message.text or "").group(1))  # type: ignore[union-attr]
                balance = _number(BALANCE.search(message.text or "").group(1))  # type: ignore[union-attr]
                assert net == balance - before, message.text
                moved = sum(
                    (e.amount if e.dst == user.id else 0) - (e.amount if e.src == user.id else 0)
                    for e in ledger
                    if e.deal == deal.deal
                )
                assert net == moved, message.text
                before = balance
        # the group: each played deal's result names its final trick and who took it
        results = [m.text or "" for m in table.group_messages() if "окончена" in (m.text or "")]
        played = [d for d in deals if d.summary.get("outcome") == "played"]
        assert played and sum("Взятка 3 —" in text for text in results) == len(played)
        # a closed table: no live button anywhere
        for chat in [table.group, *(fake.private_chat(u) for u in table.users)]:
            assert not any(_live(m) for m in fake.messages(chat, from_bot=True))
        assert not bot.handler_errors


async def test_a_turn_after_a_wait_comes_as_a_new_message(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        clock = ManualClock()  # the hands' clock: when a turn comes after a wait
        services_of(bot.app).presenter.hands.clock = clock
        table = await open_table(fake, bot, 3, "stukolka", 4)
        presenter = table.services.presenter
        db = table.db
        chat_id = table.group.id
        # quick turns: nobody waited long, every hand stays one message
        presenter.hands.ping_after = 3600
        for _ in range(3):
            assert await table.step()
        counts = {
            u.id: len(fake.messages(fake.private_chat(u), from_bot=True)) for u in table.users
        }
        # now each turn comes after a wait (and after the player last pressed on his hand)
        presenter.hands.ping_after = 0.2
        presenter.hands.looking = 0.2
        pinged = 0
        for _ in range(6):
            game = await db.games.active_game(chat_id)
            if game is None or not table.actionable():
                break
            before = dict(game.hand_messages)
            clock.advance(0.3)
            user, message, data = table.actionable()[0]
            acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
            await table.press(user, message, acts[0])
            after = await db.games.active_game(chat_id)
            if after is None or after.state["table"]["deals"] != game.state["table"]["deals"]:
                break
            for other in table.users:
                old, new = before.get(other.id), after.hand_messages.get(other.id)
                if other.id != user.id and old and new and old != new:
                    # a new message (it notifies), the old one deleted
                    assert fake.message(fake.private_chat(other), old).deleted
                    assert _live(fake.message(fake.private_chat(other), new))
                    pinged += 1
        assert pinged
        assert all(
            len(fake.messages(fake.private_chat(u), from_bot=True)) >= counts[u.id]
            for u in table.users
        )
        assert not bot.handler_errors


async def test_a_dark_player_sees_no_card_until_his_purchase_is_done(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "shleif", 23)
        db = table.db
        chat_id = table.group.id
        rng = random.Random(5)
        blind_checks = 0
        for _ in range(600):
            if len(await db.history.last_deals(chat_id, 100)) >= 6:
                break
            candidates = table.actionable() or table.actionable((cb.Look,))
            assert candidates
            user, message, data = rng.choice(candidates)
            darks = [d for d in data if getattr(CODEC.decode(d), "verb", None) == "dark"]
            acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
            choice = darks[0] if darks and rng.random() < 0.8 else rng.choice(acts or data)
            await table.press(user, message, choice)
            game = await db.games.active_game(chat_id)
            assert game is not None
            loaded = await table.services.tables.store.snapshot(game)
            assert loaded.table is not None
            state: Any = loaded.table
            for seat, player in enumerate(loaded.seats):
                if state.roles[seat] is not Role.DARK or state.bought[seat] is not None:
                    continue
                if state.phase is Phase.DEAL_OVER:
                    continue
                hand = fake.message(
                    fake.private_chat(fake.world.users[player]), game.hand_messages[player]
                )
                public = {state.trump_card} if state.shleif is False else set()
                revisions: list[Any] = [*hand.history, hand]
                for revision in revisions:
                    assert not cards_in(revision.text or "") - public, revision.text
                decoded = [CODEC.decode(d) for d in hand.callback_data]
                assert not any(isinstance(c, cb.Look | cb.Select) for c in decoded)
                assert not any(isinstance(c, cb.Act) and c.verb == "play" for c in decoded)
                blind_checks += 1
        assert blind_checks
        assert not bot.handler_errors


async def test_stop_now_new_and_lobby_leave_no_dead_controls(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 8)
        group = table.group
        # while the lobby filled nobody was told in private that a table is closed
        for user in table.users:
            texts = [m.text or "" for m in fake.messages(fake.private_chat(user), from_bot=True)]
            assert not any("Стол закрыт" in text for text in texts)
        for _ in range(4):
            assert await table.step()
        # /new during a game: a refusal, not a game picker whose buttons could not work
        before = len(table.group_messages())
        await table.say(table.users[1], "/new")
        new = table.group_messages()[before:]
        assert new and not any(m.callback_data for m in new)
        await table.say(table.users[0], "/stop now")
        # the bot plays the deal out (RULES §5): every message ends without a live button, the
        # table says nobody's turn, each hand shows its outcome
        for chat in [group, *(fake.private_chat(u) for u in table.users)]:
            for message in fake.messages(chat, from_bot=True):
                assert not _live(message), message.text
        assert not any("Ход:" in (m.text or "") for m in table.group_messages()[-2:])
        for user in table.users:
            texts = [m.text or "" for m in fake.messages(fake.private_chat(user), from_bot=True)]
            hand = [text for text in texts if "сдача 1" in text]
            assert hand and "👉" not in hand[-1] and "Ваш итог" in hand[-1]
        assert not bot.handler_errors


async def test_waiting_hands_are_paced_and_the_one_to_act_is_not(tmp_path: Path) -> None:
    """Private edits: the player to act gets his at once (the game moves at the speed of the
    presses), and so does one whose message shows buttons that no longer work; a waiting
    player's message is edited at most once every ``spacing`` seconds. The pacer runs on a
    clock the test moves: the ten presses are made with it standing still."""
    spacing = 2.0
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "stukolka", 12)
        clock = ManualClock()
        pacer = table.services.presenter.hands.pacer
        pacer.clock, pacer.sleep, pacer.spacing = clock, clock.sleep, spacing
        start = fake.now()
        for _ in range(10):
            # the one to act has his buttons at once: the clock has not moved
            user, message, data = await _to_act(table)
            acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
            fake.user_presses(user, message, acts[0] if acts else data[0])
            await bot.settle(timeout=20, quiet=0.0)
        assert clock.now == 1000.0
        await run_clock(clock, table)
        for user in table.users:
            chat = fake.private_chat(user)
            edits = [r for r in fake.requests("editMessageText", chat=chat, since=start) if r.ok]
            waiting = [
                (before, after)
                for before, after in itertools.pairwise(edits)
                if "callback_data" not in str(after.params.get("reply_markup"))
                and "callback_data" not in str(before.params.get("reply_markup"))
            ]
            for before, after in waiting:
                gap = clock.at(after.time) - clock.at(before.time)
                assert gap >= spacing - 1e-6, (before.params, after.params)
        assert not bot.handler_errors


async def test_a_waiting_hand_shows_moves_made_close_together_in_one_edit(
    tmp_path: Path,
) -> None:
    """A waiting player's edit waits ``delay`` after the change that asked for it, and shows
    every change made meanwhile: two moves a moment apart reach him as one edit (the one to
    act still gets his at once). The pacer runs on a clock the test moves: both moves are made
    with it standing still, inside the delay."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "stukolka", 12)
        hands = table.services.presenter.hands
        clock = ManualClock()
        hands.pacer.clock, hands.pacer.sleep, hands.pacer.spacing = clock, clock.sleep, 0.3
        hands.delay = 4.0
        start = fake.now()
        pressed = set()
        for _ in range(2):
            user, message, data = await _to_act(table)  # the next to act has his at once
            acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
            fake.user_presses(user, message, acts[0] if acts else data[0])
            pressed.add(user.id)
            await bot.settle(timeout=20, quiet=0.0)
        assert clock.now == 1000.0
        await run_clock(clock, table)
        waiting = 0
        for user in table.users:
            chat = fake.private_chat(user)
            edits = [r for r in fake.requests("editMessageText", chat=chat, since=start) if r.ok]
            if user.id in pressed or any(
                "callback_data" in str(r.params.get("reply_markup")) for r in edits
            ):
                continue
            waiting += 1
            assert len(edits) == 1, [r.params.get("text") for r in edits]
        assert waiting >= 1
        assert not bot.handler_errors


async def test_the_pressers_own_hand_is_the_first_request_after_his_move(tmp_path: Path) -> None:
    """What a presser waits for is his own hand: after each move its edit is the bot's first
    message request, before the other players' hands and the group's table."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "stukolka", 12)
        checked = set()
        for _ in range(8):
            found = table.actionable((cb.Act,))
            if not found:
                break
            user, message, data = found[0]
            acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
            since = fake.now()
            await table.press(user, message, acts[0])
            sent = [
                r
                for r in fake.requests(since=since)
                if r.method in ("editMessageText", "sendMessage") and r.ok
            ]
            assert sent and sent[0].chat_id == fake.private_chat(user).id, [r.chat_id for r in sent]
            checked.add(user.id)
        assert len(checked) >= 2  # not only the first of the seats
        assert not bot.handler_errors


async def test_with_the_limiter_the_pressers_hand_goes_first_and_waiting_hands_wait(
    tmp_path: Path,
) -> None:
    """Under the bot-wide 30 a second, the presser's own hand edit and the next player's turn
    are answers (they go before the waiting players' edits); a waiting player's is not."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", rate_limiter=True) as bot,
    ):
        limiter = bot.app.bot.rate_limiter
        pacer = limiter.pacer
        spacing, pacer.spacing = pacer.spacing, 0.0  # the lobby unpaced
        table = await open_table(fake, bot, 4, "stukolka", 12)
        pacer.spacing = spacing
        hands = table.services.presenter.hands
        hands.pacer.spacing, hands.delay = 0.2, 0.2
        seen: list[tuple[int, bool]] = []
        process = limiter.process_request

        async def recording(*args: Any, **kwargs: Any) -> Any:
            endpoint, data = kwargs["endpoint"], kwargs["data"]
            chat = int(data.get("chat_id", 0))
            if chat > 0 and endpoint.lower() in ("editmessagetext", "sendmessage"):
                seen.append((chat, is_answer()))
            return await process(*args, **kwargs)

        limiter.process_request = recording
        user, message, data = table.actionable((cb.Act,))[0]
        acts = [d for d in data if isinstance(CODEC.decode(d), cb.Act)]
        fake.user_presses(user, message, acts[0])
        await bot.settle(timeout=20, quiet=0.0)
        await table.services.presenter.coalescer.drain()
        mover = fake.private_chat(user).id
        after = {u.id for u, _, _ in table.actionable((cb.Act,))}
        assert (mover, True) in seen
        assert after and all((u, True) in seen for u in after)
        others = [chat for chat, _ in seen if chat != mover and chat not in after]
        assert others and all((chat, False) in seen for chat in others)
        assert not bot.handler_errors
