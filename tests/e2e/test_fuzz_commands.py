"""End to end: every command the bot knows, in a group and in private, from an admin and from
a member, with any argument Hypothesis can think of (any Unicode, digits of other scripts,
huge and negative numbers, nothing, thousands of characters), and ``/start`` with any deep-link
payload: the bot answers every one in the chat it was sent in, and nothing fails or logs an
error."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.app import services_of
from bot.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from tests.depth import deep

from .fake_telegram import Chat, FakeTelegram, RunningApplication, User
from .players import start_bot_for

#: every command a handler is registered for (/kick is not in the menus but answers)
COMMANDS = sorted({*GROUP_COMMANDS, *PRIVATE_COMMANDS, "kick"})
#: what the bot sends or changes in a chat: an answer
ANSWERS = {
    "sendmessage",
    "senddocument",
    "sendphoto",
    "editmessagetext",
    "editmessagereplymarkup",
}
#: the words the commands know, so an argument also reaches past the first word
WORDS = ("now", "сейчас", "gap", "пауза", "stukolka", "shleif", "starshina", "ru", "en", "g")
#: digits of every kind str.isdigit() or int() takes, and some neither does
DIGITS = "0123456789²³¹٠١٢٣۴०१੦๑၁５⑤Ⅴ𝟓_-+ "

any_text = st.characters(exclude_categories=["Cs"])  # what JSON and UTF-8 carry
argument = st.one_of(
    st.just(""),
    st.text(any_text, max_size=40),
    st.integers(-(10**40), 10**40).map(str),
    st.text(DIGITS, min_size=1, max_size=40),
    st.text(any_text, min_size=1000, max_size=3900),
)
arguments = st.one_of(
    argument,
    st.tuples(st.sampled_from(WORDS), argument).map(" ".join),
    st.tuples(st.sampled_from(WORDS), argument).map("".join),  # a deep link's g<anything>
)


@dataclass
class World:
    fake: FakeTelegram
    bot: RunningApplication
    group: Chat
    admin: User
    member: User


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with (
        FakeTelegram() as fake,
        start_bot_for(fake, tmp_path / "bot.sqlite3") as bot,
    ):
        admin = fake.add_user("Админ", language_code="ru")
        member = fake.add_user("Member", language_code="en")
        group = fake.add_group("Fuzz", [admin, member], creator=admin)
        for user in (admin, member):
            fake.user_starts_bot(user)
        await bot.settle()
        yield World(fake, bot, group, admin, member)


@settings(
    max_examples=deep(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(COMMANDS),
    in_group=st.booleans(),
    by_admin=st.booleans(),
    text=arguments,
)
@example(name="evening", in_group=True, by_admin=True, text="gap ²")
@example(name="evening", in_group=True, by_admin=False, text="пауза ٣")
@example(name="start", in_group=False, by_admin=False, text="g²")
@example(name="start", in_group=False, by_admin=True, text="g" + "9" * 30)
@example(name="start", in_group=True, by_admin=True, text="true")
@example(name="kick", in_group=True, by_admin=True, text="²")
@example(name="timeout", in_group=True, by_admin=True, text="9" * 4000)
async def test_every_command_with_any_argument_is_answered_without_an_error(
    world: World,
    caplog: pytest.LogCaptureFixture,
    name: str,
    in_group: bool,
    by_admin: bool,
    text: str,
) -> None:
    fake, bot = world.fake, world.bot
    user = world.admin if by_admin else world.member
    chat = world.group if in_group else fake.private_chat(user)
    command = f"/{name} {text}".rstrip()[:4096]
    caplog.set_level(logging.INFO)
    caplog.clear()
    since = fake.now()
    fake.user_sends(user, chat, command)
    await bot.settle(timeout=20, quiet=0.0)
    await services_of(bot.app).presenter.coalescer.drain()
    answers = [
        r for r in fake.requests(chat=chat, since=since, ok=True) if r.method.lower() in ANSWERS
    ]
    assert answers, f"no answer to {command[:80]!r} in {chat!r}"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [r.getMessage() for r in errors]
    assert not bot.handler_errors
