"""End to end: turn timers, away players, leaving, stopping, a player who blocks the
bot, and a group that becomes a supergroup — the real Application against the fake Telegram,
with the JobQueue's real timers (turns of a fraction of a second)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot import callback as cb
from tests.clock import ManualClock
from tests.library import CODEC

from .fake_telegram import FakeTelegram, Message, User
from .fake_telegram.model import Membership, MemberStatus
from .players import Table, start_bot_for
from .resilience import (
    buttons,
    check_books,
    current_table,
    eventually,
    seat_table,
    step_for,
    texts,
)
from .test_games import deals_done, open_table

FAST: dict[str, Any] = {"turn_timeout_seconds": 0.6, "default_language": "en"}


async def active_game_id(table: Table) -> int:
    game = await table.db.games.active_game(table.group.id)
    assert game is not None
    return game.game_id


async def test_timeouts_move_for_the_player_mark_him_away_and_he_comes_back(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3", **FAST) as bot:
        table = await open_table(fake, bot, 3, "stukolka", seed=11)
        db = table.db
        game_id = await active_game_id(table)
        sleeper, others = table.users[1], [table.users[0], table.users[2]]
        shown = await current_table(table, game_id)
        assert shown is not None and "⏳" in (shown.text or ""), "the table shows the timer"

        async def sleeper_away() -> bool:
            game = await db.games.game(game_id)
            return sleeper.id in game.state["table"]["away"]

        # the others play as fast as they can; the sleeper never presses
        for _ in range(400):
            if await sleeper_away():
                break
            if not await step_for(table, others):
                await asyncio.sleep(0.05)
        assert await sleeper_away()

        def group_history() -> str:
            return "\n".join(text for m in table.group_messages() for text in texts(m))

        async def announced() -> bool:
            # the timer's job shows its reply on its own, outside the updates settle() follows
            await table.settle()
            return "Игрок1 is away" in group_history()

        await eventually(announced, 5, "the group is told he is away")
        assert "Time is up for Игрок1" in group_history()
        log = await db.games.action_log(game_id)
        timed_out = [e for e in log if e.kind == "action" and e.user_id is None]
        assert len(timed_out) >= 3

        async def offering_back() -> Message:
            """The group's table once it offers «I'm back»: the others' turns run out meanwhile,
            and between two deals the last one's result stands in for it, without the button."""
            found: list[Message] = []

            async def offers() -> bool:
                shown = await current_table(table, game_id)
                found[:] = [shown] if shown and cb.Back(game_id) in buttons(shown) else []
                return bool(found)

            await eventually(offers, 5, "the group table offers «I'm back»")
            return found[0]

        await offering_back()
        # in his own (Russian) chat the button is his own words, right for any player
        hand = table.hand_message(sleeper)
        assert hand is not None
        assert [text for row in hand.buttons for text, _ in row] == ["👋 Я снова за столом"]
        # «I'm back» on the group's table pressed by someone else: a member of the group who
        # does not sit at the table is told so; a player who is not away, that he is seated
        onlooker = fake.add_user("Onlooker", language_code="en")
        table.group.members[onlooker.id] = Membership(MemberStatus.MEMBER)
        back = cb.encode(cb.Back(game_id))
        for someone, expected in (
            (onlooker, "You are not at this table."),
            (others[0], "Вы и так за столом."),
        ):
            query = fake.user_presses(someone, await offering_back(), back)
            await table.settle()
            assert query.answer is not None and query.answer.text == expected
        assert await sleeper_away()
        hand = table.hand_message(sleeper)
        assert hand is not None and cb.Back(game_id) in buttons(hand)

        # away: his turns are played at once, nobody waits for his timer
        deals_before = await deals_done(db, table.group.id)
        for _ in range(400):
            if await deals_done(db, table.group.id) > deals_before:
                break
            if not await step_for(table, others):
                await table.settle()
        assert await deals_done(db, table.group.id) > deals_before

        # he is back: the button in his private chat gives him his seat again
        hand = table.hand_message(sleeper)
        assert hand is not None
        await table.press(sleeper, hand, cb.encode(cb.Back(game_id)))
        assert not await sleeper_away()
        assert "Игрок1 is back" in "\n".join(texts(await current_table(table, game_id)))
        for _ in range(200):
            if any(user.id == sleeper.id for user, _, _ in table.actionable()):
                break
            if not await step_for(table, others):
                await table.settle()
        assert any(user.id == sleeper.id for user, _, _ in table.actionable())
        await check_books(db, table.group.id, [game_id])
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_a_table_where_nobody_presses_ends_instead_of_playing_itself_forever(
    tmp_path: Path,
) -> None:
    """Everyone times out three times and is away: the bot plays the deal to its end and the
    table closes, the money settled (it does not deal to an empty room for ever)."""
    settings = {**FAST, "turn_timeout_seconds": 0.25}
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", **settings) as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=12)
        db = table.db
        game_id = await active_game_id(table)

        async def closed() -> bool:
            return (await db.games.game(game_id)).status != "active"

        await eventually(closed, 30, "the abandoned table closes")
        await table.settle()
        assert await deals_done(db, table.group.id) >= 1
        await check_books(db, table.group.id, [game_id])
        assert not bot.handler_errors


async def play_deals(table: Table, count: int, users: list[User] | None = None) -> None:
    """Press as the given players (default: all) until ``count`` more deals are done. When
    none of them may press (an away player's turn: the computer moves after its pause), wait;
    a stale hand of someone else (a player who blocked the bot keeps his last buttons) does not
    count. Fails after 3,000 presses or 240 s of real time."""
    db = table.db
    target = await deals_done(db, table.group.id) + count
    players = {user.id for user in users or table.users}
    deadline = asyncio.get_running_loop().time() + 240
    presses = 0
    while presses < 3000 and asyncio.get_running_loop().time() < deadline:
        if await deals_done(db, table.group.id) >= target:
            return
        game = await db.games.active_game(table.group.id)
        if game is None or game.status != "active":
            return
        if await step_for(table, users or table.users):
            presses += 1
            continue
        await table.settle()
        waiting = table.actionable((cb.Act, cb.Select, cb.Look))
        if not [found for found in waiting if found[0].id in players]:
            await asyncio.sleep(0.05)
    raise AssertionError(f"the deals did not end within {presses} presses")


async def test_a_player_who_leaves_mid_deal_is_played_to_its_end_then_removed(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=21)
        db = table.db
        game_id = await active_game_id(table)
        leaver = table.users[2]
        for _ in range(2):
            await step_for(table, table.users)
        deals = await deals_done(db, table.group.id)
        await table.say(leaver, "/leave")
        game = await db.games.game(game_id)
        stayers = table.users[:2]
        if await deals_done(db, table.group.id) == deals:
            # the deal goes on, the bot playing his cards; he goes when it ends
            assert leaver.id in game.seats and leaver.id in game.state["table"]["leaving"]
            await play_deals(table, 1, stayers)
        game = await db.games.game(game_id)
        assert game.status == "active" and leaver.id not in game.seats, "removed after the deal"
        history = "\n".join(text for m in table.group_messages() for text in texts(m))
        assert "Игрок2 left the table; the bot plays the remaining cards" in history
        # the table goes on with the two others, and the leaver's chips stay as they were
        owed = (await db.ledger.balances(table.group.id)).players.get(leaver.id, 0)
        await play_deals(table, 1, stayers)
        assert (await db.ledger.balances(table.group.id)).players.get(leaver.id, 0) == owed
        await check_books(db, table.group.id, [game_id])
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_the_creator_or_an_admin_removes_an_away_player_between_deals(
    tmp_path: Path,
) -> None:
    settings = {**FAST, "turn_timeout_seconds": 0.3}
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", **settings) as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=22)
        db = table.db
        game_id = await active_game_id(table)
        sleeper, others = table.users[2], table.users[:2]

        async def away() -> bool:
            return sleeper.id in (await db.games.game(game_id)).state["table"]["away"]

        for _ in range(400):
            if await away():
                break
            if not await step_for(table, others):
                await asyncio.sleep(0.05)
        assert await away()
        await table.say(table.users[1], "/kick 3")
        assert sleeper.id not in (await db.games.game(game_id)).state["table"]["leaving"], (
            "only the creator or an admin may"
        )
        await table.say(table.users[0], "/kick 3")
        game = await db.games.game(game_id)
        assert sleeper.id in game.state["table"]["leaving"] and sleeper.id in game.seats
        await play_deals(table, 1, others)
        assert sleeper.id not in (await db.games.game(game_id)).seats
        await check_books(db, table.group.id, [game_id])
        assert not bot.handler_errors


async def test_stop_after_the_deal_stop_now_plays_it_out_and_a_vote_voids_it(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        users = [fake.add_user(f"Игрок{i}") for i in range(3)]
        boss = fake.add_user("Boss")
        group = fake.add_group("Картёжники", [*users, boss], anonymous_admins=[boss])
        table = await seat_table(fake, bot, group, users, "stukolka", seed=23)
        db = table.db
        chat_id = group.id
        first = await active_game_id(table)
        await step_for(table, table.users)
        await table.say(users[1], "/stop")
        assert not (await db.games.game(first)).state["table"]["stop"], (
            "not the creator nor an admin"
        )
        assert "Only whoever opened the table" in (table.group_messages()[-1].text or "")
        await table.say(users[0], "/stop")
        assert (await db.games.game(first)).state["table"]["stop"]
        await play_deals(table, 1)
        assert (await db.games.game(first)).status == "finished"
        result = next(m for m in table.group_messages() if "deal 1 is over" in (m.text or ""))
        assert "The table is closed." in (result.text or ""), "said under the last result"
        assert await deals_done(db, chat_id) == 1

        # a new table; a chat admin who posts anonymously stops it at once in its second deal
        table = await seat_table(fake, bot, group, users, "stukolka", seed=24)
        second = await active_game_id(table)
        await play_deals(table, 1)
        for _ in range(4):
            await step_for(table, users)
        deal = (await db.games.game(second)).state["table"]["deals"]
        assert await db.ledger.transfers(chat_id, game_id=second, deal=deal), "the deal moved chips"
        fake.user_sends(boss, group, "/stop now", as_anonymous_admin=True)
        await table.settle()
        # docs/rules.md §5 "Stopping": the deal is played out by the default moves and settled
        assert (await db.games.game(second)).status == "finished"
        assert await deals_done(db, chat_id) == 3
        assert not [
            e for e in await db.ledger.transfers(chat_id, game_id=second) if e.reason == "void"
        ]
        said = "\n".join(m.text or "" for m in table.group_messages())
        assert "played the deal out" in said

        # a third table: /stop, then every player agrees to void the deal in progress
        table = await seat_table(fake, bot, group, users, "stukolka", seed=25)
        third = await active_game_id(table)
        for _ in range(3):
            await step_for(table, users)
        await table.say(users[0], "/stop")
        deal = (await db.games.game(third)).state["table"]["deals"]
        for number, user in enumerate(users, 1):
            message = await current_table(table, third)
            assert message is not None
            votes = [d for d in message.callback_data if isinstance(CODEC.decode(d), cb.Void)]
            assert votes, "the table message offers the vote"
            await table.press(user, message, votes[0])
            assert (await db.games.game(third)).status == ("stopped" if number == 3 else "active")
        net: dict[object, int] = {}
        for entry in await db.ledger.transfers(chat_id, game_id=third, deal=deal):
            net[entry.src] = net.get(entry.src, 0) - entry.amount
            net[entry.dst] = net.get(entry.dst, 0) + entry.amount
        assert set(net.values()) == {0}, "every chip of the voided deal went back"
        voided = await current_table(table, third)
        assert "The deal was voided" in "\n".join(texts(voided))
        await check_books(db, chat_id, [first, second, third])
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_a_player_who_blocks_the_bot_is_played_for_and_the_group_is_told(
    tmp_path: Path,
) -> None:
    # the computer plays for him: its pause short, for a test's pace
    async with (
        FakeTelegram() as fake,
        start_bot_for(
            fake, tmp_path / "bot.sqlite3", default_language="en", computer_pause_seconds=0.05
        ) as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=31)
        db = table.db
        game_id = await active_game_id(table)
        blocker, others = table.users[1], [table.users[0], table.users[2]]
        await step_for(table, table.users)
        fake.user_blocks_bot(blocker)
        await table.settle()
        await play_deals(table, 2, others)
        game = await db.games.game(game_id)
        assert game.status == "active" and blocker.id in game.state["table"]["away"]
        history = "\n".join(text for m in table.group_messages() for text in texts(m))
        assert "Игрок1 cannot get cards in private — the 🤖 computer plays instead" in history
        hints = [m for m in table.group_messages() if "press “Start”" in (m.text or "")]
        assert len(hints) == 1, "told once"
        # what to do comes first, then the table saying who plays for him
        said = [str(r.params.get("text", "")) for r in fake.requests(chat=table.group, ok=True)]
        hint = next(i for i, text in enumerate(said) if "press “Start”" in text)
        away = next(i for i, text in enumerate(said) if "cannot get cards in private" in text)
        assert hint < away, said[hint : away + 1]
        failed = fake.requests(chat=fake.private_chat(blocker).id, ok=False)
        assert len(failed) <= 3, "the bot stops writing to him"
        # he comes back: Start in private, then «I'm back»
        fake.user_starts_bot(blocker)
        await table.settle()
        await play_deals(table, 1, others)
        hand = table.hand_message(blocker)
        assert hand is not None and cb.Back(game_id) in buttons(hand)
        await table.press(blocker, hand, cb.encode(cb.Back(game_id)))
        assert blocker.id not in (await db.games.game(game_id)).state["table"]["away"]
        await check_books(db, table.group.id, [game_id])
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_the_game_and_its_money_follow_the_group_into_a_supergroup(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=41)
        db = table.db
        old_chat = table.group.id
        game_id = await active_game_id(table)
        await play_deals(table, 1)
        for _ in range(3):
            await step_for(table, table.users)
        before = await db.ledger.balances(old_chat)
        supergroup = fake.migrate_to_supergroup(table.group)
        table.group = supergroup
        await table.settle()
        assert await db.games.active_game(old_chat) is None
        game = await db.games.game(game_id)
        assert game.chat_id == supergroup.id and game.status == "active"
        after = await db.ledger.balances(supergroup.id)
        assert (dict(after.players), after.pot) == (dict(before.players), before.pot)
        shown = await current_table(table, game_id)
        assert shown is not None and shown.chat.id == supergroup.id, "the table is shown there"
        await play_deals(table, 2)
        assert await deals_done(db, supergroup.id) >= 3
        tables = [m for m in fake.messages(supergroup, from_bot=True) if "deal 2" in (m.text or "")]
        assert len(tables) == 1, "one table message for the deal, in the new chat"
        await table.say(table.users[0], "/balance")
        assert "Игрок0" in (table.group_messages()[-1].text or "")
        await check_books(db, supergroup.id, [game_id])
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_a_chat_sets_its_own_turn_time(tmp_path: Path) -> None:
    """TURN_TIMEOUT is the default; /timeout N by the table's creator (or an admin) is the
    chat's own, from the next decision on, and the table shows it."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3", default_language="en") as bot,
    ):
        table = await open_table(fake, bot, 3, "stukolka", seed=91)
        db = table.db
        game_id = await active_game_id(table)
        await table.say(table.users[0], "/timeout")
        assert "a turn lasts 600 s" in (table.group_messages()[-1].text or "")
        await table.say(table.users[1], "/timeout 30")
        assert "Only whoever opened the table" in (table.group_messages()[-1].text or "")
        await table.say(table.users[0], "/timeout 5")
        assert "Give the seconds" in (table.group_messages()[-1].text or "")
        await table.say(table.users[0], "/timeout 45")
        assert "a turn lasts 45 s" in (table.group_messages()[-1].text or "")
        clock = ManualClock(now=time.time())
        now = clock.now
        table.services.tables.store.clock = clock  # the turns' clock, stopped
        await step_for(table, table.users)
        game = await db.games.game(game_id)
        assert game.turn_deadline == now + 45
        shown = await current_table(table, game_id)
        assert shown is not None
        ends = [e["unix_time"] for e in shown.entities if e["type"] == "date_time"]
        # the time left and the end, both the chat's own turn time
        assert ends == [int(now + 45)] * 2, "the table shows the chat's own turn time ending"
        assert "⏳ 45 s, until" in (shown.text or "")
        assert not bot.handler_errors
