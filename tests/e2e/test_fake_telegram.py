"""Self-test of the fake Bot API: a real python-telegram-bot Application and Bot against it.

Every behaviour the e2e suite relies on is checked here through PTB itself, so a mismatch
between the fake and what PTB sends or expects shows up as a failure of this file.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MenuButtonCommands,
    MenuButtonWebApp,
    Message,
    Update,
    WebAppInfo,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

from bot.ratelimit import retry_seconds

from .conftest import StartApplication
from .fake_telegram import (
    Chat,
    Delay,
    DropConnection,
    FakeTelegram,
    FaultInjector,
    NoSuchButton,
    RunningApplication,
    ServerError,
    SimulationError,
    User,
    application_builder,
    running,
)
from .fake_telegram import RetryAfter as RetryAfterFault
from .fake_telegram.errors import MESSAGE_NOT_MODIFIED

pytestmark = pytest.mark.timeout(15)

Context = ContextTypes.DEFAULT_TYPE


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


DEAL_KEYBOARD = keyboard([("Беру", "take"), ("Пас", "pass")])
AGAIN_KEYBOARD = keyboard([("Ещё", "again")])


# --- a small bot ------------------------------------------------------------------------------


async def on_deal(update: Update, context: Context) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text("Сдача: <b>берёте?</b>", parse_mode="HTML")
    await update.effective_message.reply_text("Ваш ход", reply_markup=DEAL_KEYBOARD)


async def on_press(update: Update, context: Context) -> None:
    query = update.callback_query
    assert query is not None
    if query.data == "take":
        await query.edit_message_text(
            f"{query.from_user.first_name} берёт", reply_markup=AGAIN_KEYBOARD
        )
        await query.answer("Принято")
    elif query.data == "again":
        message = query.message
        assert isinstance(message, Message) and message.text is not None
        try:
            await query.edit_message_text(message.text, reply_markup=message.reply_markup)
        except BadRequest as error:
            context.bot_data["not_modified"] = error.message
        await query.answer("Без изменений")
    else:
        await query.answer()


async def on_notify(update: Update, context: Context) -> None:
    assert context.args
    try:
        await context.bot.send_message(int(context.args[0]), "Ваши карты")
    except Forbidden as error:
        context.bot_data.setdefault("forbidden", []).append(error.message)


async def on_start(update: Update, context: Context) -> None:
    assert update.effective_message is not None
    payload = context.args[0] if context.args else "-"
    await update.effective_message.reply_text(f"Привет, {payload}")


async def on_announce(update: Update, context: Context) -> None:
    chat_id = context.bot_data["table_chat"]
    try:
        await context.bot.send_message(chat_id, "Новая сдача")
    except ChatMigrated as error:
        context.bot_data["table_chat"] = error.new_chat_id
        await context.bot.send_message(error.new_chat_id, "Новая сдача")


async def on_migrate(update: Update, context: Context) -> None:
    assert update.effective_message is not None
    message = update.effective_message
    context.bot_data.setdefault("migrations", []).append(
        (message.chat_id, message.migrate_to_chat_id, message.migrate_from_chat_id)
    )


async def on_text(update: Update, context: Context) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(f"Слышу: {update.effective_message.text}")


async def on_my_chat_member(update: Update, context: Context) -> None:
    assert update.my_chat_member is not None
    change = update.my_chat_member
    context.bot_data.setdefault("my_chat_member", []).append(
        (change.chat.id, change.old_chat_member.status, change.new_chat_member.status)
    )


def build_application(fake: FakeTelegram) -> Application[Any, Any, Any, Any, Any, Any]:
    app = application_builder(fake).build()
    app.add_handler(CommandHandler("deal", on_deal))
    app.add_handler(CommandHandler("notify", on_notify))
    app.add_handler(CommandHandler("start", on_start))
    app.add_handler(CommandHandler("announce", on_announce))
    app.add_handler(CallbackQueryHandler(on_press))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    app.add_handler(ChatMemberHandler(on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    return app


@dataclass
class Table:
    tg: FakeTelegram
    bot: RunningApplication
    alice: User
    bob: User
    carol: User
    group: Chat


@pytest.fixture
async def table(fake_telegram: FakeTelegram, start_application: StartApplication) -> Table:
    tg = fake_telegram
    alice = tg.add_user("Alice", username="alice", started=True)
    bob = tg.add_user("Bob", started=True)
    carol = tg.add_user("Carol")
    group = tg.add_group("Стол", [alice, bob, carol])
    bot = await start_application(build_application(tg))
    bot.app.bot_data["table_chat"] = group.id
    return Table(tg, bot, alice, bob, carol, group)


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> Any:
    async with Bot(
        fake_telegram.token,
        base_url=fake_telegram.base_url,
        base_file_url=fake_telegram.base_file_url,
    ) as plain_bot:
        yield plain_bot


# --- the Application against the fake -------------------------------------------------------


async def test_start_up_calls_are_served(table: Table) -> None:
    await table.tg.wait_until(lambda: table.tg.count_requests("getUpdates") > 0)
    methods = [entry.method for entry in table.tg.log]
    assert methods[:3] == ["getMe", "deleteWebhook", "getUpdates"]
    assert all(entry.ok for entry in table.tg.log if entry.status is not None)
    assert table.bot.app.bot.username == "stukolka_test_bot"
    assert table.bot.polling_errors == []


async def test_command_reply_keyboard_press_edit_and_answer(table: Table) -> None:
    tg = table.tg
    tg.user_sends(table.alice, table.group, "/deal")
    await table.bot.settle()

    intro, prompt = tg.messages(table.group, from_bot=True)
    assert intro.text == "Сдача: берёте?"
    assert intro.entities == ({"type": "bold", "offset": 7, "length": 7},)
    assert prompt.buttons == [[("Беру", "take"), ("Пас", "pass")]]
    assert tg.last_message(table.group) is prompt

    query = tg.user_presses(table.bob, prompt, "take")
    await table.bot.settle()
    assert prompt.text == "Bob берёт"
    assert prompt.buttons == [[("Ещё", "again")]]
    assert [revision.text for revision in prompt.history] == ["Ваш ход"]
    assert prompt.history[0].reply_markup is not None
    assert prompt.edit_date is not None
    assert query.answer is not None and query.answer.text == "Принято"
    assert tg.unanswered_callback_queries() == []


async def test_command_with_bot_mention_and_privacy_mode(table: Table) -> None:
    tg = table.tg
    for_us = tg.user_sends(table.alice, table.group, "/deal@stukolka_test_bot")
    for_other = tg.user_sends(table.alice, table.group, "/deal@other_bot")
    chatter = tg.user_sends(table.alice, table.group, "всем привет")
    await table.bot.settle()
    assert for_us.update_id is not None
    assert for_other.update_id is None and chatter.update_id is None
    assert len(tg.messages(table.group, from_bot=True)) == 2

    reply = tg.user_sends(table.bob, table.group, "беру", reply_to=tg.last_message(table.group))
    await table.bot.settle()
    assert reply.update_id is not None
    assert tg.last_message(table.group).text == "Слышу: беру"


async def test_pressing_a_button_not_on_the_message_raises(table: Table) -> None:
    tg = table.tg
    tg.user_sends(table.alice, table.group, "/deal")
    await table.bot.settle()
    prompt = tg.last_message(table.group)
    with pytest.raises(NoSuchButton):
        tg.user_presses(table.alice, prompt, "double")
    tg.user_presses(table.alice, prompt, text="Беру")
    await table.bot.settle()
    with pytest.raises(NoSuchButton):
        tg.user_presses(table.alice, prompt, "pass")  # gone since the edit
    outsider = tg.add_user("Dave", started=True)
    with pytest.raises(SimulationError):
        tg.user_presses(outsider, prompt, "again")
    with pytest.raises(NoSuchButton):
        tg.user_presses(table.alice, tg.messages(table.group, from_bot=True)[0], "take")


async def test_identical_edit_raises_message_not_modified_in_ptb(table: Table) -> None:
    tg = table.tg
    tg.user_sends(table.alice, table.group, "/deal")
    await table.bot.settle()
    prompt = tg.last_message(table.group)
    tg.user_presses(table.alice, prompt, "take")
    await table.bot.settle()
    tg.user_presses(table.alice, prompt, "again")
    await table.bot.settle()
    # PTB strips "Bad Request: " and capitalises what is left.
    expected = MESSAGE_NOT_MODIFIED.removeprefix("Bad Request: ")
    assert table.bot.app.bot_data["not_modified"] == expected[0].upper() + expected[1:]
    assert len(prompt.history) == 1
    failed = tg.requests("editMessageText", chat=table.group, ok=False)
    assert [entry.status for entry in failed] == [400]


async def test_forbidden_for_users_who_never_started_or_blocked_the_bot(table: Table) -> None:
    tg = table.tg
    tg.user_sends(table.alice, table.group, f"/notify {table.carol.id}")
    tg.user_blocks_bot(table.bob)
    tg.user_sends(table.alice, table.group, f"/notify {table.bob.id}")
    await table.bot.settle()
    assert table.bot.app.bot_data["forbidden"] == [
        "Forbidden: bot can't initiate conversation with a user",
        "Forbidden: bot was blocked by the user",
    ]
    assert table.bot.app.bot_data["my_chat_member"] == [(table.bob.id, "member", "kicked")]

    tg.user_starts_bot(table.carol, "join-42")
    await table.bot.settle()
    assert tg.last_message(tg.private_chat(table.carol)).text == "Привет, join-42"
    tg.user_sends(table.alice, table.group, f"/notify {table.carol.id}")
    await table.bot.settle()
    assert tg.last_message(tg.private_chat(table.carol)).text == "Ваши карты"
    with pytest.raises(SimulationError):
        tg.user_sends(table.bob, tg.private_chat(table.bob), "привет")


async def test_group_migration_makes_ptb_raise_chat_migrated(table: Table) -> None:
    tg = table.tg
    old_id = table.group.id
    supergroup = tg.migrate_to_supergroup(table.group)
    await table.bot.settle()
    assert supergroup.id < -1_000_000_000_000
    assert table.bot.app.bot_data["migrations"] == [
        (old_id, supergroup.id, None),
        (supergroup.id, None, old_id),
    ]

    tg.user_sends(table.alice, tg.private_chat(table.alice), "/announce")
    await table.bot.settle()
    assert table.bot.app.bot_data["table_chat"] == supergroup.id
    assert tg.last_message(supergroup).text == "Новая сдача"
    refused = tg.requests("sendMessage", chat=old_id)
    assert [entry.status for entry in refused] == [400]
    with pytest.raises(SimulationError):
        tg.user_sends(table.alice, old_id, "/deal")


async def test_anonymous_admin_posts_as_the_group(
    fake_telegram: FakeTelegram, start_application: StartApplication
) -> None:
    tg = fake_telegram
    owner = tg.add_user("Owner")
    hidden = tg.add_user("Hidden")
    group = tg.add_group("Anon", [owner], anonymous_admins=[hidden])
    runner = await start_application(build_application(tg))
    message = tg.user_sends(hidden, group, "/deal", as_anonymous_admin=True)
    await runner.settle()
    assert message.sender is not None and message.sender.username == "GroupAnonymousBot"
    assert message.sender_chat is group
    assert len(tg.messages(group, from_bot=True)) == 2
    with pytest.raises(SimulationError):
        tg.user_sends(owner, group, "/deal", as_anonymous_admin=True)


async def test_shutdown_is_prompt_with_a_long_poll_pending(fake_telegram: FakeTelegram) -> None:
    """The poll would last ten minutes: the bot and the fake stop without waiting for it
    (each given 30 s, far less than the poll; no bound on how fast)."""
    async with asyncio.timeout(60):
        async with running(
            build_application(fake_telegram), fake_telegram, poll_timeout=600
        ) as bot:
            await fake_telegram.wait_until(lambda: fake_telegram.count_requests("getUpdates") > 0)
            await asyncio.sleep(0.05)
    assert bot.polling_errors == []
    await asyncio.wait_for(fake_telegram.stop(), 30)


async def test_request_log_counts_per_chat(table: Table) -> None:
    tg = table.tg
    since = asyncio.get_running_loop().time()
    tg.user_sends(table.alice, table.group, "/deal")
    tg.user_sends(table.alice, table.group, "/deal")
    await table.bot.settle()
    assert tg.count_requests("sendMessage", chat=table.group, since=since) == 4
    assert tg.count_requests("sendmessage", chat=table.group.id) == 4
    assert tg.busiest_window(table.group, window=60.0) == 4
    entry = tg.requests("sendMessage")[-1]
    assert entry.params["chat_id"] == str(table.group.id)
    assert entry.ok and entry.result["chat"]["id"] == table.group.id


# --- Bot API behaviour, through a plain Bot -------------------------------------------------


async def test_limits_and_errors_of_messages_and_keyboards(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    tg = fake_telegram
    alice = tg.add_user("Alice", started=True)
    chat_id = alice.id
    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(chat_id, "х" * 4097)
    assert (await bot.send_message(chat_id, "х" * 4096)).text == "х" * 4096
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await bot.send_message(chat_id, "x", reply_markup=keyboard([("a", "d" * 65)]))
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(chat_id, "   ")
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(-42, "x")
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("x", chat_id=chat_id, message_id=999)
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(chat_id, 999)
    tg.user_starts_bot(alice)
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await bot.edit_message_text(
            "x", chat_id=chat_id, message_id=tg.last_message(chat_id, from_bot=False).message_id
        )

    sent = await bot.send_message(chat_id, "Ход", reply_markup=keyboard([("a", "a")]))
    await bot.edit_message_text("Ход 2", chat_id=chat_id, message_id=sent.message_id)
    assert tg.message(chat_id, sent.message_id).buttons == []  # no reply_markup: keyboard gone
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(chat_id=chat_id, message_id=sent.message_id)
    await bot.edit_message_reply_markup(chat_id, sent.message_id, reply_markup=AGAIN_KEYBOARD)
    assert tg.message(chat_id, sent.message_id).callback_data == ["again"]
    assert await bot.delete_message(chat_id, sent.message_id)
    assert tg.message(chat_id, sent.message_id).deleted
    assert tg.last_message(chat_id).text == "х" * 4096


async def test_callback_query_answers(fake_telegram: FakeTelegram, bot: Bot) -> None:
    tg = fake_telegram
    alice = tg.add_user("Alice", started=True)
    sent = await bot.send_message(alice.id, "Ход", reply_markup=keyboard([("a", "a")]))
    query = tg.user_presses(alice, tg.message(alice.id, sent.message_id), "a")
    assert tg.unanswered_callback_queries() == [query]
    with pytest.raises(BadRequest, match="Message_too_long"):
        await bot.answer_callback_query(query.id, "я" * 201)
    assert await bot.answer_callback_query(query.id, "я" * 200, show_alert=True)
    assert query.answer is not None and query.answer.show_alert
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(query.id)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query("nonsense")


async def test_callback_queries_expire_after_the_ttl() -> None:
    async with FakeTelegram(callback_query_ttl=0.05) as tg:
        alice = tg.add_user("Alice")
        group_id = tg.add_group("Стол", [alice]).id
        async with Bot(tg.token, base_url=tg.base_url) as own_bot:
            sent = await own_bot.send_message(group_id, "Ход", reply_markup=AGAIN_KEYBOARD)
            query = tg.user_presses(alice, tg.message(group_id, sent.message_id), "again")
            await asyncio.sleep(0.1)
            with pytest.raises(BadRequest, match="Query is too old"):
                await own_bot.answer_callback_query(query.id)


async def test_parse_modes(fake_telegram: FakeTelegram, bot: Bot) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    html = await bot.send_message(
        alice.id, '<a href="http://x.y">10&#9829;</a> &amp; <i>Q</i>', parse_mode="HTML"
    )
    assert html.text == "10♥ & Q"
    assert [entity.type for entity in html.entities] == ["text_link", "italic"]
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_message(alice.id, "<b>Tom", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await bot.send_message(alice.id, "a < b", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"character '\.' is reserved"):
        await bot.send_message(alice.id, "*Ставка* 1.5", parse_mode="MarkdownV2")
    markdown = await bot.send_message(alice.id, "*Ставка* 1\\.5 ||тайна||", parse_mode="MarkdownV2")
    assert markdown.text == "Ставка 1.5 тайна"
    assert [entity.type for entity in markdown.entities] == ["bold", "spoiler"]
    assert fake_telegram.last_message(alice.id).source == "*Ставка* 1\\.5 ||тайна||"


async def test_chats_members_and_actions(fake_telegram: FakeTelegram, bot: Bot) -> None:
    tg = fake_telegram
    alice, bob, carol = tg.add_user("Alice"), tg.add_user("Bob"), tg.add_user("Carol")
    group = tg.add_group("Стол", [alice, bob], admins=[bob])
    info = await bot.get_chat(group.id)
    assert (info.type, info.title) == ("group", "Стол")
    assert (await bot.get_chat(alice.id)).first_name == "Alice"
    assert (await bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, bob.id)).status == "administrator"
    assert (await bot.get_chat_member(group.id, carol.id)).status == "left"
    assert (await bot.get_chat_member(group.id, bot.id)).status == "member"
    admins = await bot.get_chat_administrators(group.id)
    assert [member.user.id for member in admins] == [alice.id, bob.id]
    assert await bot.get_chat_member_count(group.id) == 3
    assert await bot.send_chat_action(group.id, "typing")
    with pytest.raises(Forbidden):
        await bot.send_chat_action(carol.id, "typing")
    with pytest.raises(SimulationError):
        tg.user_removes_bot(bob, tg.add_group("Чужой", [carol]))
    tg.user_removes_bot(bob, group)
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(group.id, "x")
    assert [u.kind for u in tg.updates.pending] == ["my_chat_member"]


async def test_forum_topics(fake_telegram: FakeTelegram, bot: Bot) -> None:
    """A supergroup with topics: a message goes to the topic named by message_thread_id or to
    the topic of the message it replies to; PTB reads the topic back; a closed topic takes
    nothing new (TOPIC_CLOSED), a deleted one is "message thread not found"; the topic's
    service messages reach the bot. A reply in a supergroup without topics has a thread id
    but is no topic message."""
    tg = fake_telegram
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    forum = tg.add_group("Клуб", [alice, bob], supergroup=True, forum=True)
    assert (await bot.get_chat(forum.id)).is_forum
    topic = tg.create_topic(forum, "Стол 1", by=alice)
    created = Update.de_json(tg.updates.pending[-1].to_json(), bot)
    assert created.message is not None and created.message.forum_topic_created is not None
    assert created.message.message_thread_id == topic.thread_id
    sent = await bot.send_message(forum.id, "в теме", message_thread_id=topic.thread_id)
    assert (sent.message_thread_id, sent.is_topic_message) == (topic.thread_id, True)
    command = tg.user_sends(bob, forum, "/deal", topic=topic)
    reply = await bot.send_message(forum.id, "ответ", reply_to_message_id=command.message_id)
    assert reply.message_thread_id == topic.thread_id
    general = await bot.send_message(forum.id, "в общем")
    assert general.message_thread_id is None and not general.is_topic_message
    assert [m.text for m in tg.topic_messages(forum, topic)] == ["в теме", "ответ"]
    assert [m.text for m in tg.topic_messages(forum, None)] == ["в общем"]

    tg.close_topic(forum, topic, by=alice)
    closed = Update.de_json(tg.updates.pending[-1].to_json(), bot)
    assert closed.message is not None and closed.message.forum_topic_closed is not None
    with pytest.raises(BadRequest, match=r"(?i)topic_closed"):
        await bot.send_message(forum.id, "x", message_thread_id=topic.thread_id)
    with pytest.raises(SimulationError):
        tg.user_sends(bob, forum, "/deal", topic=topic)
    tg.reopen_topic(forum, topic, by=alice)
    await bot.send_message(forum.id, "снова", message_thread_id=topic.thread_id)
    tg.delete_topic(forum, topic)
    assert tg.topic_messages(forum, topic) == []
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=topic.thread_id)

    plain = tg.add_group("Без тем", [alice, bob], supergroup=True)
    first = await bot.send_message(plain.id, "вопрос")
    answer = tg.user_sends(bob, plain, "/deal", reply_to=tg.message(plain, first.message_id))
    parsed = Update.de_json(tg.updates.pending[-1].to_json(), bot).message
    assert parsed is not None and parsed.message_id == answer.message_id
    assert parsed.message_thread_id == first.message_id and not parsed.is_topic_message


async def test_commands_are_stored_per_scope_and_language(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    group = fake_telegram.add_group("Стол", [fake_telegram.add_user("Alice")])
    await bot.set_my_commands([BotCommand("deal", "Сдать")], language_code="ru")
    await bot.set_my_commands(
        [BotCommand("deal", "Deal"), BotCommand("stop", "Stop")],
        scope=BotCommandScopeAllGroupChats(),
    )
    await bot.set_my_commands([BotCommand("kick", "Kick")], scope=BotCommandScopeChat(group.id))
    assert [c.command for c in await bot.get_my_commands(language_code="ru")] == ["deal"]
    assert await bot.get_my_commands() == ()
    assert fake_telegram.commands({"type": "all_group_chats"}) == [
        ("deal", "Deal"),
        ("stop", "Stop"),
    ]
    chat_scope = BotCommandScopeChat(group.id)
    assert [c.command for c in await bot.get_my_commands(scope=chat_scope)] == ["kick"]
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Deal!", "x")])


async def test_mini_app_buttons_only_in_private_and_the_menu_button(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    group = fake_telegram.add_group("Стол", [alice])
    app = InlineKeyboardMarkup(
        [[InlineKeyboardButton("🃏", web_app=WebAppInfo("https://cards.example.org/"))]]
    )
    assert (await bot.send_message(alice.id, "x", reply_markup=app)).reply_markup == app
    with pytest.raises(BadRequest, match="Button_type_invalid"):
        await bot.send_message(group.id, "x", reply_markup=app)
    plain = InlineKeyboardMarkup(
        [[InlineKeyboardButton("🃏", web_app=WebAppInfo("http://cards.example.org/"))]]
    )
    with pytest.raises(BadRequest, match="Button_url_invalid"):
        await bot.send_message(alice.id, "x", reply_markup=plain)
    assert isinstance(await bot.get_chat_menu_button(alice.id), MenuButtonCommands)
    button = MenuButtonWebApp("🃏 Стол", WebAppInfo("https://cards.example.org/"))
    assert await bot.set_chat_menu_button(chat_id=alice.id, menu_button=button)
    assert await bot.get_chat_menu_button(alice.id) == button
    with pytest.raises(BadRequest, match="only in private chats"):
        await bot.set_chat_menu_button(chat_id=group.id, menu_button=button)


async def test_unknown_method_and_wrong_token(fake_telegram: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendTarotCard", api_kwargs={"chat_id": 1})
    assert fake_telegram.requests("sendTarotCard")[0].status == 404
    request = HTTPXRequest()
    stranger = Bot("1:wrong", base_url=fake_telegram.base_url, request=request)
    try:
        with pytest.raises(InvalidToken):
            await stranger.initialize()
    finally:
        # a bot that failed to initialize does not shut down: its connection is closed here
        await request.shutdown()


async def test_json_form_and_query_string_bodies(fake_telegram: FakeTelegram) -> None:
    alice = fake_telegram.add_user("Alice", started=True)
    url = f"{fake_telegram.base_url}{fake_telegram.token}"
    markup = {"inline_keyboard": [[{"text": "a", "callback_data": "a"}]]}
    async with aiohttp.ClientSession() as session:
        as_json = {"chat_id": alice.id, "text": "json", "reply_markup": markup}
        async with session.post(f"{url}/sendMessage", json=as_json) as response:
            body = await response.json()
        assert body["ok"] and body["result"]["reply_markup"] == markup
        as_form = {"chat_id": str(alice.id), "text": "form", "reply_markup": str(markup)}
        async with session.post(f"{url}/sendMessage", data=as_form) as response:
            assert response.status == 400  # Python repr is not JSON
        as_form["reply_markup"] = '{"inline_keyboard": [[{"text": "b", "callback_data": "b"}]]}'
        async with session.post(f"{url}/sendMessage", data=as_form) as response:
            assert (await response.json())["result"]["text"] == "form"
        query = {"chat_id": str(alice.id), "text": "query"}
        async with session.get(f"{url}/sendMessage", params=query) as response:
            assert (await response.json())["result"]["text"] == "query"
        multipart = aiohttp.FormData({"chat_id": str(alice.id), "text": "multipart"})
        multipart.add_field("document", b"ignored", filename="a.txt")
        async with session.post(f"{url}/sendMessage", data=multipart) as response:
            assert (await response.json())["result"]["text"] == "multipart"
    texts = [m.text for m in fake_telegram.messages(alice.id)]
    assert texts == ["json", "form", "query", "multipart"]
    assert fake_telegram.messages(alice.id)[1].buttons == [[("b", "b")]]


async def test_long_poll_wakes_at_once_and_honours_offset(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    tg = fake_telegram
    alice = tg.add_user("Alice", started=True)
    poll = asyncio.create_task(bot.get_updates(timeout=600))
    await asyncio.sleep(0.05)
    tg.user_sends(alice, tg.private_chat(alice), "/deal")
    updates = await asyncio.wait_for(poll, 30)  # woken by the update: the poll lasts 600 s
    assert [u.message.text for u in updates if u.message] == ["/deal"]
    again = await bot.get_updates(timeout=0)
    assert [u.update_id for u in again] == [updates[0].update_id]  # not yet confirmed
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()
    assert tg.is_idle()


async def test_newer_get_updates_ends_the_pending_one(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    for _ in range(1000):  # until the first poll waits at the fake (a loaded machine is slow)
        if fake_telegram.api.polling:
            break
        await asyncio.sleep(0.01)
    assert fake_telegram.api.polling
    url = f"{fake_telegram.base_url}{fake_telegram.token}/getUpdates"
    async with aiohttp.ClientSession() as session, session.post(url) as response:
        assert (await response.json()) == {"ok": True, "result": []}
    with pytest.raises(Conflict, match="terminated by other getUpdates request"):
        await first


# --- fault injection --------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_injected_faults(fake_telegram: FakeTelegram, bot: Bot) -> None:
    tg = fake_telegram
    alice, bob = tg.add_user("Alice", started=True), tg.add_user("Bob", started=True)
    tg.faults.add(RetryAfterFault(7), method="sendMessage", chat_id=alice.id)
    with pytest.raises(RetryAfter) as retry:
        await bot.send_message(alice.id, "1")
    assert retry_seconds(retry.value) == 7  # (PTB words it by PTB_TIMEDELTA, the bot's opt-in)
    assert tg.requests("sendMessage")[-1].status == 429
    tg.faults.add(ServerError(502, "Bad Gateway"), chat_id=alice.id, times=2)
    await bot.send_message(bob.id, "not hit: other chat")
    for _ in range(2):
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await bot.send_message(alice.id, "2")
    tg.faults.add(DropConnection(), method="sendMessage")
    with pytest.raises(NetworkError):
        await bot.send_message(alice.id, "lost")
    tg.faults.add(DropConnection(after_processing=True), method="sendMessage")
    with pytest.raises(NetworkError):
        await bot.send_message(alice.id, "sent but unconfirmed")
    await bot.send_message(alice.id, "3")
    assert [m.text for m in tg.messages(alice.id)] == ["sent but unconfirmed", "3"]
    assert [entry.fault is not None for entry in tg.requests(chat=alice.id)] == [
        True,
        True,
        True,
        True,
        True,
        False,
    ]


async def test_delay_times_out_the_client_but_is_performed(fake_telegram: FakeTelegram) -> None:
    tg = fake_telegram
    alice = tg.add_user("Alice", started=True)
    impatient = Bot(tg.token, base_url=tg.base_url, request=HTTPXRequest(read_timeout=0.2))
    async with impatient:
        tg.faults.add(Delay(0.5), method="sendMessage")
        with pytest.raises(TimedOut):
            await impatient.send_message(alice.id, "late")
        assert tg.messages(alice.id) == []
        await tg.wait_until(lambda: tg.messages(alice.id), timeout=2.0)


def test_probabilistic_faults_are_reproducible_from_the_seed() -> None:
    def run(seed: int) -> list[bool]:
        injector = FaultInjector(seed)
        injector.add(ServerError(), probability=0.5, times=None)
        return [injector.pick("sendMessage", 1) is not None for _ in range(50)]

    assert run(7) == run(7)
    assert run(7) != run(8)
    assert 10 < sum(run(7)) < 40


async def test_polling_survives_faults_on_get_updates(
    fake_telegram: FakeTelegram, start_application: StartApplication
) -> None:
    tg = fake_telegram
    alice = tg.add_user("Alice", started=True)
    runner = await start_application(build_application(tg))
    tg.faults.add(ServerError(500), method="getUpdates", times=1)
    tg.user_sends(alice, tg.private_chat(alice), "/start")
    await runner.settle(timeout=5.0)
    assert tg.last_message(alice.id).text == "Привет, -"
    assert len(runner.polling_errors) == 1


# --- webhook mode -----------------------------------------------------------------------------


async def test_webhook_delivery_to_a_loopback_receiver(
    fake_telegram: FakeTelegram, bot: Bot
) -> None:
    tg = fake_telegram
    alice = tg.add_user("Alice", started=True)
    received: list[tuple[str | None, dict[str, Any]]] = []
    refuse_first = [True]

    async def receive(request: web.Request) -> web.Response:
        if refuse_first:
            refuse_first.pop()
            return web.Response(status=500)
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        return web.Response()

    receiver = web.Application()
    receiver.router.add_post("/hook", receive)
    runner = web.AppRunner(receiver, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
        with pytest.raises(BadRequest, match="loopback"):
            await bot.set_webhook("https://example.org/hook")
        assert await bot.set_webhook(url, secret_token="s3cret")
        with pytest.raises(Conflict, match="webhook is active"):
            await bot.get_updates()
        message = tg.user_sends(alice, tg.private_chat(alice), "/deal")
        await tg.wait_idle()
        assert [secret for secret, _ in received] == ["s3cret"]
        update = Update.de_json(received[0][1], bot)
        assert update.message is not None and update.message.text == "/deal"
        assert update.update_id == message.update_id
        info = await bot.get_webhook_info()
        assert info.url == url and info.pending_update_count == 0
        assert info.last_error_message == "Wrong response from the webhook: 500"
        assert await bot.delete_webhook()
        tg.user_sends(alice, tg.private_chat(alice), "/deal")
        assert len(await bot.get_updates()) == 1
        assert len(received) == 1
    finally:
        await runner.cleanup()
