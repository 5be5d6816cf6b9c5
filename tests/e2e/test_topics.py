"""Forum topics. In a supergroup with topics each topic holds a table of its
own: /new in a topic opens that topic's table, every message of the table goes to that topic,
commands in a topic act on its table, and /balance and the pot stay the group's. A topic
closed or deleted mid-game closes its table cleanly, and the group's other table plays on."""

from __future__ import annotations

import itertools
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot import callback as cb
from storage import POT
from storage.database import Database
from tests.library import CODEC

from .fake_telegram import Chat, FakeTelegram, Message, RunningApplication, Topic, User
from .fake_telegram.model import MemberStatus
from .players import Table, start_bot_for
from .resilience import check_books

NAMES_A = ("Вера", "Алиса", "Боря")
NAMES_B = ("Галя", "Дима", "Женя")


class TopicTable(Table):
    """A table in one forum topic: its players write their commands there."""

    topic: Topic

    async def say(self, user: User, text: str) -> None:
        self.fake.user_sends(user, self.group, text, topic=self.topic)
        await self.settle()

    def group_messages(self) -> list[Message]:
        return self.fake.topic_messages(self.group, self.topic)


def _table(
    fake: FakeTelegram, bot: RunningApplication, group: Chat, topic: Topic, users: list[User]
) -> TopicTable:
    table = TopicTable(fake, bot, group, users, random.Random(topic.thread_id))
    table.topic = topic
    return table


async def _begin(table: TopicTable, game_id: int) -> None:
    lobby = next(
        m
        for m in reversed(table.group_messages())
        if cb.encode(cb.Lobby(game_id, "begin")) in m.callback_data
    )
    await table.press(table.users[0], lobby, cb.encode(cb.Lobby(game_id, "begin")))


async def _open(table: TopicTable, choice: str) -> int:
    first, *others = table.users
    await table.say(first, f"/new {choice}")
    lobby = table.group_messages()[-1]
    game_ids = {
        c.game_id for c in map(CODEC.decode, lobby.callback_data) if isinstance(c, cb.Lobby)
    }
    assert len(game_ids) == 1, f"the lobby is in the topic: {lobby!r}"
    [game_id] = game_ids
    for user in others:
        await table.press(user, lobby, cb.encode(cb.Lobby(game_id, "join")))
    await _begin(table, game_id)
    return game_id


async def _world(
    fake: FakeTelegram, bot: RunningApplication
) -> tuple[Chat, TopicTable, TopicTable]:
    users_a = [fake.add_user(name) for name in NAMES_A]
    users_b = [fake.add_user(name) for name in NAMES_B]
    group = fake.add_group(
        "Картёжники", [*users_a, *users_b], admins=[users_a[0]], supergroup=True, forum=True
    )
    for user in [*users_a, *users_b]:
        fake.user_starts_bot(user)
    first = fake.create_topic(group, "Стол у окна", by=users_a[0])
    second = fake.create_topic(group, "Стол у двери", by=users_a[0])
    window = _table(fake, bot, group, first, users_a)
    await window.settle()
    return group, window, _table(fake, bot, group, second, users_b)


async def _deals(db: Database, chat_id: int, game_id: int) -> int:
    return sum(1 for deal in await db.history.last_deals(chat_id, 1000) if deal.game_id == game_id)


async def _play_until(table: TopicTable, done: Callable[[], Awaitable[bool]], limit: int) -> None:
    """Random presses at one table until ``done``."""
    for _ in range(limit):
        if await done():
            return
        if not await table.step(look_chance=0.0):
            await table.settle()
    assert await done(), "the table did not get there"


async def _one_more_deal(table: TopicTable, db: Database, game_id: int) -> None:
    before = await _deals(db, table.group.id, game_id)

    async def done() -> bool:
        return await _deals(db, table.group.id, game_id) > before

    await _play_until(table, done, 600)


def _own_texts(table: TopicTable, others: tuple[str, ...], group_wide: set[int]) -> list[str]:
    """Every text each bot message of the topic showed; none names the other table's players
    (but the group-wide answers with ids ``group_wide``, such as /balance)."""
    found = []
    for message in table.group_messages():
        if message.message_id in group_wide:
            continue
        for text in [r.text or "" for r in message.history] + [message.text or ""]:
            assert not any(name in text for name in others), (table.topic.name, text)
            found.append(text)
    return found


async def _pot_never_negative(db: Database, chat_id: int) -> None:
    """The group's pot, summed over its ledger in order, never went below zero: the two
    tables never paid out the same chips of it."""
    pot = 0
    for transfer in await db.ledger.transfers(chat_id):
        pot += (transfer.dst == POT) * transfer.amount - (transfer.src == POT) * transfer.amount
        assert pot >= 0, transfer


async def test_two_tables_in_two_topics_play_at_once_each_in_its_own_topic(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3") as bot,
    ):
        group, window, door = await _world(fake, bot)
        db: Database = window.db
        game_a, game_b = await _open(window, "stukolka"), await _open(door, "shleif")
        assert (await db.games.game(game_a)).thread_id == window.topic.thread_id
        assert (await db.games.game(game_b)).thread_id == door.topic.thread_id

        # a second /new in a topic meets that topic's table, not the other's
        await window.say(window.users[1], "/new starshina")
        assert "стол" in (window.group_messages()[-1].text or "").lower()
        assert (await db.games.active_game(group.id, window.topic.thread_id)).game_id == game_a  # type: ignore[union-attr]

        # both play at once: presses alternate at random between the two tables
        rng = random.Random(5)
        order: list[int] = []
        for _ in range(3000):
            a, b = await _deals(db, group.id, game_a), await _deals(db, group.id, game_b)
            if a >= 4 and b >= 4:
                break
            tables = [t for t, n in ((window, a), (door, b)) if n < 4] or [window, door]
            table = rng.choice(tables)
            if not await table.step():
                await table.settle()
            order.append(game_a if table is window else game_b)
            statuses = {(await db.games.game(game)).status for game in (game_a, game_b)}
            assert statuses == {"active"}, "both tables are in play all along"
        else:
            raise AssertionError("the tables did not get through four deals each")
        switches = sum(1 for x, y in itertools.pairwise(order) if x != y)
        assert switches >= 4, "the presses went to one table, then the other, and back"

        # /balance in a topic: the group's money, both tables' players and one pot
        await door.say(door.users[0], "/balance")
        balance_message = door.group_messages()[-1]
        balance = balance_message.text or ""
        for name in (*NAMES_A, *NAMES_B):
            assert name in balance, balance
        money = await db.ledger.balances(group.id)
        assert money.total == 0 and money.pot >= 0
        await _pot_never_negative(db, group.id)

        # /stop in the window's topic stops the window's table; the door's plays on
        await window.say(window.users[0], "/stop now")
        assert (await db.games.game(game_a)).status in ("finished", "stopped")
        assert (await db.games.game(game_b)).status == "active"
        await _one_more_deal(door, db, game_b)  # the other table plays on

        # every message of a table is in its own topic, none in General
        assert fake.topic_messages(group, None) == []
        texts_a = _own_texts(window, NAMES_B, set())
        texts_b = _own_texts(door, NAMES_A, {balance_message.message_id})
        assert sum("Вера" in text for text in texts_a) > 4
        assert sum("Галя" in text for text in texts_b) > 4
        for request in fake.requests("sendMessage", chat=group):
            params = request.params
            assert str(params.get("message_thread_id")) in (
                str(window.topic.thread_id),
                str(door.topic.thread_id),
            ) or params.get("reply_parameters"), params
        await check_books(db, group.id, [game_a, game_b])
        assert await db.check_integrity() == []
        assert not bot.handler_errors


async def test_a_closed_topic_and_a_deleted_one_each_close_their_table_cleanly(
    tmp_path: Path,
) -> None:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3") as bot,
    ):
        group, window, door = await _world(fake, bot)
        db: Database = window.db
        game_a, game_b = await _open(window, "stukolka"), await _open(door, "stukolka")
        for _ in range(6):
            await window.step(look_chance=0.0)
            await door.step(look_chance=0.0)
        # (a Стуколка table is always in a deal: the next is dealt in the commit ending one)
        dealt = await _deals(db, group.id, game_a)

        # an admin closes the window's topic mid-deal: Telegram tells the bot
        sent = len(fake.topic_messages(group, window.topic))
        fake.close_topic(group, window.topic, by=window.users[0])
        await window.settle()
        closed = await db.games.game(game_a)
        assert closed.status in ("finished", "stopped")
        assert closed.turn_deadline is None
        assert await _deals(db, group.id, game_a) == dealt + 1, "the deal was played out, settled"
        for user in window.users:
            hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
            assert not hand.callback_data, "the hand is closed"
            assert "Тема группы закрыта" in (hand.text or "")
        assert len(fake.topic_messages(group, window.topic)) == sent, "nothing more there"
        assert not fake.requests("sendMessage", chat=group, ok=False)
        assert (await db.games.game(game_b)).status == "active", "the other topic's table plays on"

        # the door's topic is deleted: no update comes; the next send there is refused and
        # closes its table the same way
        before = await _deals(db, group.id, game_b)
        fake.delete_topic(group, door.topic)

        async def door_closed() -> bool:
            return (await db.games.game(game_b)).status not in ("lobby", "active")

        await _play_until(door, door_closed, 200)
        game = await db.games.game(game_b)
        assert game.status in ("finished", "stopped")
        assert await _deals(db, group.id, game_b) >= before
        refused = [r for r in fake.requests("sendMessage", chat=group, ok=False)]
        assert refused and len(refused) <= 2, "the first refusal closes the table"
        for user in door.users:
            hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
            assert not hand.callback_data
            assert "Тема группы закрыта" in (hand.text or "")

        # nothing lost: the books balance, both logs replay, the pot never went negative
        await check_books(db, group.id, [game_a, game_b])
        await _pot_never_negative(db, group.id)
        assert await db.check_integrity() == []

        # a new table in the reopened topic works again
        fake.reopen_topic(group, window.topic, by=window.users[0])
        await window.say(window.users[0], "/new stukolka")
        reopened = await db.games.active_game(group.id, window.topic.thread_id)
        assert reopened is not None and reopened.game_id not in (game_a, game_b)
        assert not bot.handler_errors


async def test_after_a_restart_each_table_goes_on_in_its_topic_and_removal_closes_both(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    async with FakeTelegram() as fake:
        async with start_bot_for(fake, path) as bot:
            group, window, door = await _world(fake, bot)
            game_a, game_b = await _open(window, "stukolka"), await _open(door, "starshina")
            for _ in range(5):
                await window.step(look_chance=0.0)
                await door.step(look_chance=0.0)

        # the bot restarts: each table's next messages still go to its own topic
        async with start_bot_for(fake, path) as bot:
            window.bot = door.bot = bot
            db: Database = window.db
            await window.settle()
            assert (await db.games.game(game_a)).thread_id == window.topic.thread_id
            await _one_more_deal(window, db, game_a)
            await _one_more_deal(door, db, game_b)
            assert fake.topic_messages(group, None) == [], "nothing went to General"
            _own_texts(window, NAMES_B, set())
            _own_texts(door, NAMES_A, set())

            # the bot is removed from the group: every table of it closes, both topics' (a
            # Старшина game may already have ended: 12 tricks in a deal win it outright)
            still_open = {g for g in (game_a, game_b) if (await db.games.game(g)).is_open}
            assert game_a in still_open
            fake.user_removes_bot(window.users[0], group)
            await window.settle()
            for game_id, table in ((game_a, window), (game_b, door)):
                assert (await db.games.game(game_id)).status in ("finished", "stopped")
                if game_id not in still_open:
                    continue
                for user in table.users:
                    hand = fake.messages(fake.private_chat(user), from_bot=True)[-1]
                    assert not hand.callback_data
                    assert "Бота больше нет в группе" in (hand.text or "")
            await check_books(db, group.id, [game_a, game_b])
            assert await db.check_integrity() == []
            assert not bot.handler_errors


async def test_a_reply_in_a_supergroup_without_topics_is_no_topic(tmp_path: Path) -> None:
    """Telegram gives a reply in a supergroup without topics a thread id too (its reply
    thread), without is_topic_message: a command sent as a reply acts on the group's table."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        users = [fake.add_user(name) for name in NAMES_A]
        group = fake.add_group("Без тем", users, supergroup=True)
        for user in users:
            fake.user_starts_bot(user)
        table = Table(fake, bot, group, users, random.Random(1))
        await table.say(users[0], "/new stukolka")
        lobby = table.group_messages()[-1]
        fake.user_sends(users[1], group, "/join", reply_to=lobby)
        await table.settle()
        game = await table.db.games.active_game(group.id)
        assert game is not None and game.thread_id is None
        assert game.seats == (users[0].id, users[1].id)
        assert not bot.handler_errors


async def test_new_without_a_game_in_a_topic_opens_the_chosen_table_there(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        group, window, _ = await _world(fake, bot)
        await window.say(window.users[0], "/new")
        chooser = window.group_messages()[-1]
        choice = next(
            d for d in chooser.callback_data if CODEC.decode(d) == cb.NewGame("starshina")
        )
        await window.press(window.users[1], chooser, choice)
        game = await window.db.games.active_game(group.id, window.topic.thread_id)
        assert game is not None and game.kind == "starshina"
        assert await window.db.games.active_game(group.id) is None, "not in General"
        lobby = window.group_messages()[-1]
        assert any(isinstance(CODEC.decode(d), cb.Lobby) for d in lobby.callback_data)
        assert fake.topic_messages(group, None) == []
        assert not bot.handler_errors


def _summaries(messages: list[Message], title: str) -> list[Message]:
    return [m for m in messages if (m.text or "").startswith(title)]


def _charts(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.media is not None and m.media.kind == "photo"]


async def test_the_evening_summary_goes_to_the_topic_where_the_evening_was_played(
    tmp_path: Path,
) -> None:
    """The evening is the group's, but its summary and chart go where its games were played:
    the topic of the table whose deal ended last. If that topic is gone, General."""
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3") as bot,
    ):
        group, window, door = await _world(fake, bot)
        db: Database = window.db
        title = "🌙 Итоги вечера"
        game_a = await _open(window, "stukolka")
        await _one_more_deal(window, db, game_a)
        await window.say(window.users[0], "/stop now")  # the group's last table: the evening ends
        assert (await db.games.game(game_a)).status in ("finished", "stopped")
        await window.settle()
        assert len(_summaries(window.group_messages(), title)) == 1
        assert len(_charts(window.group_messages())) == 1
        assert fake.topic_messages(group, None) == [], "nothing in General"
        assert _summaries(door.group_messages(), title) == []

        # the next evening is played at the door's table, whose topic is then deleted: its
        # summary, when its gap passes, goes to General
        game_b = await _open(door, "stukolka")
        await _one_more_deal(door, db, game_b)
        await _one_more_deal(door, db, game_b)
        fake.delete_topic(group, door.topic)
        assert await window.services.evenings.end_now(group.id)
        await window.settle()
        general = fake.topic_messages(group, None)
        assert len(_summaries(general, title)) == 1, [m.text for m in general]
        assert len(_charts(general)) == 1
        assert len(_summaries(window.group_messages(), title)) == 1, "the first one only"
        # the refusal told the bot the topic is gone: its table closed
        assert (await db.games.game(game_b)).status in ("finished", "stopped")
        await check_books(db, group.id, [game_a, game_b])
        assert not bot.handler_errors


def _hands_with(fake: FakeTelegram, user: User, other: str) -> list[Message]:
    """His hand messages (the bot's private messages that show seats) at the table where
    ``other`` sits too."""
    return [
        m
        for m in fake.messages(fake.private_chat(user), from_bot=True)
        if other in (m.text or "") and "🃏" in (m.text or "")
    ]


async def test_a_player_at_several_tables_reads_in_each_hand_which_table_it_is(
    tmp_path: Path,
) -> None:
    """Вера sits at three tables: two topics of one group and another group. Each of her hand
    messages starts with one short line naming its group and topic; a topic whose creation
    the bot did not see is named all the same (from the opening message Telegram attaches to
    a topic's messages), a renamed topic by its new name, and a group that becomes a
    supergroup keeps its name there. A long title is cut to fit a phone's line."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        vera, alice, bob, gleb = (
            fake.add_user("Вера"),
            fake.add_user("Алиса"),
            fake.add_user("Bob", language_code="en"),
            fake.add_user("Глеб"),
        )
        forum = fake.add_group(
            "Картёжники", [vera, alice, bob], admins=[vera], supergroup=True, forum=True
        )
        club = fake.add_group("Клуб любителей Стуколки по четвергам", [vera, gleb])
        for user in (vera, alice, bob, gleb):
            fake.user_starts_bot(user)
        window_topic = fake.create_topic(forum, "Стол у окна", by=vera)
        present, forum.bot_status = forum.bot_status, MemberStatus.LEFT
        door_topic = fake.create_topic(forum, "Стол у двери", by=vera)  # the bot missed it
        forum.bot_status = present
        window = _table(fake, bot, forum, window_topic, [vera, alice])
        door = _table(fake, bot, forum, door_topic, [vera, bob])
        home = Table(fake, bot, club, [vera, gleb], random.Random(3))
        await window.settle()
        games = [await _open(window, "stukolka"), await _open(door, "stukolka")]
        games.append(await _open(home, "stukolka"))  # type: ignore[arg-type]
        db: Database = window.db
        for game_id in games:
            assert vera.id in (await db.games.game(game_id)).seats

        for other, place in (
            ("Алиса", "📍 Картёжники · Стол у окна"),
            ("Bob", "📍 Картёжники · Стол у двери"),
            ("Глеб", "📍 Клуб любителей…"),
        ):
            hands = _hands_with(fake, vera, other)
            assert hands, other
            assert all((m.text or "").split("\n")[0] == place for m in hands), (place, hands)
            assert len(place) <= 41, "one short line"
        assert (_hands_with(fake, bob, "Вера")[-1].text or "").startswith(
            "📍 Картёжники · Стол у двери\n"
        )

        # the door's topic is renamed: her next hand there says so
        fake.rename_topic(forum, door_topic, "Дверь", by=vera)
        await door.settle()
        for _ in range(20):
            if (_hands_with(fake, vera, "Bob")[-1].text or "").startswith("📍 Картёжники · Дверь"):
                break
            await door.step(look_chance=0.0)
        assert (_hands_with(fake, vera, "Bob")[-1].text or "").startswith("📍 Картёжники · Дверь\n")

        # the club's group becomes a supergroup: the table follows it, and so does its name
        hand = _hands_with(fake, vera, "Глеб")[-1]
        edits = len(hand.history)
        home.group = fake.migrate_to_supergroup(club)
        await home.settle()
        for _ in range(20):
            hand = _hands_with(fake, vera, "Глеб")[-1]
            if len(hand.history) > edits + 1:
                break
            await home.step(look_chance=0.0)
        assert (await db.games.game(games[2])).chat_id == home.group.id
        assert len(hand.history) > edits + 1, "her hand was edited after the move"
        assert (hand.text or "").startswith("📍 Клуб любителей…\n")
        assert not bot.handler_errors


async def test_stats_in_a_topic_are_the_senders_not_the_topic_openers(tmp_path: Path) -> None:
    """Telegram attaches a topic's opening message to every message of the topic as the one
    it replies to: /stats there is no reply, and shows the sender's own figures."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        _, window, _ = await _world(fake, bot)
        opener, other = window.users[0], window.users[1]
        await window.say(other, "/stats")
        text = window.group_messages()[-1].text or ""
        assert other.first_name in text and opener.first_name not in text, text
        assert not bot.handler_errors
