"""End to end: what someone just added to a group with the bot sees first — the commands menu
Telegram shows, /help, /rules with the chat's own options, and the first /start in private."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot import callback as cb
from bot.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.render.menus import option_token
from locales import LANGUAGES, listed
from tests.library import GAMES, WORDS

from .fake_telegram import FakeTelegram, Message, ServerError, User
from .players import Table, start_bot_for

GROUP_SCOPE = {"type": "all_group_chats"}
PRIVATE_SCOPE = {"type": "all_private_chats"}
#: "short enough to read on a phone" (/help: how to play, a line per game, every command)
PHONE_LIMIT = 1600


def expected_menu(names: tuple[str, ...], lang: str) -> list[tuple[str, str]]:
    """The menu's commands in ``lang``: /new's description names each game by its title."""
    titles = listed(lang, [WORDS.t(lang, f"game.{game.choices[0].name}") for game in GAMES], "or")
    return [(name, WORDS.t(lang, f"commands.{name}", games=titles)) for name in names]


async def group_table(fake: FakeTelegram, bot: Any, language_code: str = "ru") -> Table:
    """A group whose creator has started the bot, and a friend."""
    alice = fake.add_user("Alice", language_code=language_code)
    bob = fake.add_user("Bob", language_code=language_code)
    group = fake.add_group("Картёжники", [alice, bob], creator=alice)
    table = Table(fake, bot, group, [alice, bob], random.Random(7))
    await table.settle()
    return table


async def set_option(table: Table, user: User, game: str, option: str, value: object) -> None:
    """Change a table option the way an admin does: /settings, then its buttons."""
    token = option_token(value)
    path = [cb.Settings(game), cb.Settings(game, option), cb.Settings(game, option, token)]
    await table.say(user, "/settings")
    for step in path:
        message = table.fake.last_message(table.group)
        query = table.fake.user_presses(user, message, table.codec.encode(step))
        await table.settle()
    assert query.answer is not None and query.answer.text, "the option was not set"


def text_of(message: Message) -> str:
    assert message.text is not None
    return message.text


def texts_since(table: Table, count: int) -> list[str]:
    """The texts of the bot's group messages after the first ``count``."""
    return [text_of(message) for message in table.group_messages()[count:]]


# ---------------------------------------------------------------- the commands menu


async def test_commands_menus_are_published_in_both_languages(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3"):
        for lang in LANGUAGES:
            assert fake.commands(GROUP_SCOPE, lang) == expected_menu(GROUP_COMMANDS, lang)
            assert fake.commands(PRIVATE_SCOPE, lang) == expected_menu(PRIVATE_COMMANDS, lang)
        # clients in any other language get the bot's default language
        assert fake.commands(GROUP_SCOPE) == expected_menu(GROUP_COMMANDS, "ru")
        assert fake.commands(PRIVATE_SCOPE) == expected_menu(PRIVATE_COMMANDS, "ru")
        assert fake.commands(GROUP_SCOPE, "ru") != fake.commands(GROUP_SCOPE, "en")
        assert ("new", "Открыть стол: Стуколка или Старшина") in fake.commands(GROUP_SCOPE, "ru")
        assert ("new", "Open a table: Stukolka or Starshina") in fake.commands(PRIVATE_SCOPE, "en")
        for lang in LANGUAGES:
            for _, description in fake.commands(GROUP_SCOPE, lang):
                assert len(description) <= 40, description


async def test_default_menu_follows_the_default_language(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with FakeTelegram() as fake, start_bot_for(fake, path, default_language="en"):
        assert fake.commands(GROUP_SCOPE) == expected_menu(GROUP_COMMANDS, "en")
        assert fake.commands(PRIVATE_SCOPE) == expected_menu(PRIVATE_COMMANDS, "en")


async def test_a_failing_set_my_commands_does_not_stop_the_bot(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        fake.faults.add(ServerError(500), method="setMyCommands", times=100)
        async with start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
            assert fake.count_requests("setMyCommands") == 6
            assert fake.commands(GROUP_SCOPE, "ru") == []
            table = await group_table(fake, bot)
            await table.say(table.users[0], "/help")
            assert "/new" in text_of(fake.last_message(table.group))


# ---------------------------------------------------------------- /help


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_help_lists_every_command_of_the_menus(tmp_path: Path, lang: str) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await group_table(fake, bot, language_code=lang)
        await table.say(table.users[0], f"/lang {lang}")
        await table.say(table.users[0], "/help")
        text = text_of(fake.last_message(table.group))
        for name in (*GROUP_COMMANDS, *PRIVATE_COMMANDS):
            assert f"/{name}" in text, name
        assert len(text) < PHONE_LIMIT
        # in private too, in the user's language
        alice = table.users[0]
        fake.user_starts_bot(alice)
        await table.settle()
        fake.user_sends(alice, fake.private_chat(alice), "/help")
        await table.settle()
        assert text_of(fake.last_message(fake.private_chat(alice))) == text


# ---------------------------------------------------------------- /rules


async def test_rules_show_a_message_per_game_with_the_chats_options(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await group_table(fake, bot)
        alice = table.users[0]
        await set_option(table, alice, "stukolka", "stake", 30)
        await set_option(table, alice, "stukolka", "dark_in_classic", True)
        await set_option(table, alice, "starshina", "targets", "9-5-2")

        before = len(table.group_messages())
        await table.say(alice, "/rules")
        classic, shleif, starshina = texts_since(table, before)
        for text in (classic, shleif, starshina):
            assert len(text) < PHONE_LIMIT, len(text)
        assert classic.startswith("📖 Стуколка\n")
        assert shleif.startswith("📖 Стуколка со шлейфом\n")
        assert starshina.startswith("📖 Старшина\n")
        assert "ставит в кон 30" in classic and "ставит в кон 30" in shleif
        assert "/settings" in classic  # «Правила» list rules; the options are /settings'
        assert WORDS.t("ru", "rules.classic.dark") in classic
        assert "Втёмную в классике" not in shleif  # a classic-only option
        assert "Нормы взяток 9-5-2" in starshina
        assert "Ставка: 30" not in starshina

        # an open table: only its game
        await table.say(alice, "/new shleif")
        before = len(table.group_messages())
        await table.say(alice, "/rules")
        (only,) = texts_since(table, before)
        assert only.startswith("📖 Стуколка со шлейфом\n") and "ставит в кон 30" in only

        # a game asked for by name, in the chat's language
        await table.say(alice, "/lang en")
        before = len(table.group_messages())
        await table.say(alice, "/rules starshina")
        (english,) = texts_since(table, before)
        assert english.startswith("📖 Starshina\n")
        assert "Trick targets 9-5-2" in english
        assert len(english) < PHONE_LIMIT


# ---------------------------------------------------------------- /start in private


@pytest.mark.parametrize(("lang", "words"), [("ru", "в группу"), ("en", "to a group")])
async def test_first_start_explains_the_bot_and_offers_to_add_it_to_a_group(
    tmp_path: Path, lang: str, words: str
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        newcomer = fake.add_user("Newcomer", language_code=lang)
        fake.user_starts_bot(newcomer)
        await bot.settle(timeout=20)
        (welcome,) = fake.messages(fake.private_chat(newcomer), from_bot=True)
        text = text_of(welcome)
        assert text.startswith("👋")
        assert "/help" in text and words in text
        assert len(text) < PHONE_LIMIT
        links = [e["url"] for e in welcome.entities if e["type"] == "text_link"]
        links += [b["url"] for row in welcome.inline_keyboard for b in row if "url" in b]
        assert f"https://t.me/{fake.bot.username}?startgroup=true" in links
