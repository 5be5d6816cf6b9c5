"""End to end: a group command is answered as a reply to it, a
press with a toast; «start the bot first» names exactly who has not; /balance lists every
player of the table; /balance and /rules in private."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot import callback as cb
from bot.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from tests.library import CODEC

from .fake_telegram import FakeTelegram
from .fake_telegram.model import Message
from .players import Table, start_bot_for
from .test_games import open_table


def _data(message: Message, wanted: object) -> str:
    for data in message.callback_data:
        if CODEC.decode(data) == wanted:
            return data
    raise AssertionError(f"no button {wanted} on the message")


def _answer_to(table: Table, command: Message) -> Message:
    """The bot's message that replies to ``command`` (exactly one)."""
    replies = [m for m in table.group_messages() if m.reply_to is command]
    assert len(replies) == 1, [m.text for m in replies]
    return replies[0]


async def _say(table: Table, user: object, text: str) -> Message:
    command = table.fake.user_sends(user, table.group, text)  # type: ignore[arg-type]
    await table.settle()
    return command


async def test_commands_are_answered_as_replies_and_start_bot_first_names_who(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        alice, bob, vera, gleb = (fake.add_user(n) for n in ("Алиса", "Боб", "Вера", "Глеб"))
        group = fake.add_group("Друзья", [alice, bob, vera, gleb])
        table = Table(fake, bot, group, [alice, bob, vera], random.Random(1))
        fake.user_starts_bot(alice)
        fake.user_starts_bot(gleb)  # started, but never sits down: never named
        await table.settle()
        await _say(table, alice, "/new starshina")
        lobby = table.group_messages()[-1]
        await _say(table, bob, "/join")
        await _say(table, vera, "/join")

        again = await _say(table, bob, "/join")
        assert _answer_to(table, again).text == "Вы уже за столом."

        begin = await _say(table, alice, "/begin")
        refusal = _answer_to(table, begin).text or ""
        assert "Боб" in refusal and "Вера" in refusal
        assert "Алиса" not in refusal and "Глеб" not in refusal

        # once Вера has started the bot, only Боб is named (the lobby shows «Начать» only
        # when everyone has, so the refusal comes from the command)
        fake.user_starts_bot(vera)
        await table.settle()
        begin = await _say(table, alice, "/begin")
        refusal = _answer_to(table, begin).text or ""
        assert "Боб" in refusal and "Вера" not in refusal and "Алиса" not in refusal
        lobby = fake.message(group, lobby.message_id)
        assert all(
            not (isinstance(d, cb.Lobby) and d.action == "begin")
            for d in map(CODEC.decode, lobby.callback_data)
        )

        # every command that answers in the group answers as a reply
        for text in (
            "/balance",
            "/history",
            "/settings",
            "/rules",
            "/help",
            "/timeout",
            "/new",
            "/stats",
            "/top",
            "/export",
            "/evening",
            "/evening gap",
        ):
            command = await _say(table, alice, text)
            _answer_to(table, command)
        # a refusal for someone who is not the creator, as a reply too
        stop = await _say(table, gleb, "/stop")
        assert "открыл стол" in (_answer_to(table, stop).text or "")

        # /balance lists every player of the table, nobody has money yet: zeros
        command = await _say(table, bob, "/balance")
        balance = _answer_to(table, command).text or ""
        for name in ("Алиса", "Боб", "Вера"):
            assert f"{name}: 0" in balance, balance
        assert "Глеб" not in balance
        assert not bot.handler_errors


async def test_private_balance_and_rules(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 4)
        db = table.db
        while len(await db.history.last_deals(table.group.id, 10)) < 2:
            assert await table.step()
        player = table.users[1]
        private = fake.private_chat(player)

        fake.user_sends(player, private, "/balance")
        await table.settle()
        text = fake.last_message(private).text or ""
        own = (await db.ledger.balances(table.group.id)).players.get(player.id, 0)
        amount = f"+{own}" if own > 0 else ("0" if own == 0 else f"−{-own}")
        assert f"{table.group.title}: {amount}" in text, text

        # /rules in private asks which game, then shows it in the same message
        fake.user_sends(player, private, "/rules")
        await table.settle()
        chooser = fake.last_message(private)
        assert len(chooser.callback_data) == 3
        await table.press(player, chooser, _data(chooser, cb.RulesOf("starshina")))
        shown = fake.message(private, chooser.message_id)
        assert (shown.text or "").startswith("📖 Старшина")
        assert "Нормы взяток" in (shown.text or "")
        assert not bot.handler_errors


async def test_private_balance_with_no_money_says_so(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        newcomer = fake.add_user("Newcomer", language_code="en")
        fake.user_starts_bot(newcomer)
        await bot.settle(timeout=20)
        fake.user_sends(newcomer, fake.private_chat(newcomer), "/balance")
        await bot.settle(timeout=20)
        text = fake.last_message(fake.private_chat(newcomer)).text or ""
        assert "no money in any group" in text
        assert not bot.handler_errors


SUIT_WITHOUT_EMOJI = re.compile("[♠♥♦♣](?!\ufe0f)")
# a court card as «K♠️», or as a rank in a hand's suit row «♠️ A Q 10»
LATIN_COURT = re.compile("[JQKA][♠♥♦♣]|^[♠♥♦♣]\ufe0f?(?: \\S+)* [JQKA](?: |$)", re.M)
RUSSIAN_COURT = re.compile("[ВДКТ][♠♥♦♣]|^[♠♥♦♣]\ufe0f?(?: \\S+)* [ВДКТ](?: |$)", re.M)


def _all_texts(table: Table) -> list[str]:
    """Every text and button label the bot has shown in the group and the private chats."""
    chats = [table.group, *(table.fake.private_chat(user) for user in table.users)]
    texts = []
    for chat in chats:
        for message in table.fake.messages(chat, from_bot=True):
            texts.append(message.text or "")
            texts += [revision.text or "" for revision in message.history]
            texts += [label for row in message.buttons for label, _ in row]
    return texts


async def test_russian_rank_letters_by_default_latin_by_setting_and_emoji_suits(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "starshina", 8)
        db = table.db
        for _ in range(60):
            assert await table.step()
        texts = _all_texts(table)
        joined = "\n".join(texts)
        assert RUSSIAN_COURT.search(joined), "В Д К Т by default in Russian"
        assert not LATIN_COURT.search(joined)
        assert not SUIT_WITHOUT_EMOJI.search(joined), "every suit in emoji presentation"

        # the creator switches the group to J Q K A in /settings
        creator = table.users[0]
        command = await _say(table, creator, "/settings")
        menu = _answer_to(table, command)
        assert "Карты: В Д К Т" in (menu.text or "")
        await table.press(creator, menu, _data(menu, cb.CardRanks("latin")))
        assert "Карты: J Q K A" in (fake.message(table.group, menu.message_id).text or "")
        assert (await db.chats.chat_options(table.group.id, "display")) == {"ranks": "latin"}
        seen = len(texts)
        for _ in range(30):
            assert await table.step()
        hands = [table.hand_message(user) for user in table.users]
        now = "\n".join(h.text or "" for h in hands if h is not None)
        assert LATIN_COURT.search(now) and not RUSSIAN_COURT.search(now)
        assert len(_all_texts(table)) > seen
        assert not bot.handler_errors


async def test_group_commands_in_private_say_where_they_work(tmp_path: Path) -> None:
    """Every group command sent to the bot in private gets one line, in the sender's language:
    it belongs to a group, and what to send there (/top also points to /stats, which works
    here); /lang keeps its private meaning."""
    own = {
        "top": ("/top показывает лидеров группы", "/top shows a group's leaders"),
        "history": ("/history показывает сдачи группы", "/history shows a group's deals"),
        "export": ("/export присылает кассу группы", "/export sends a group's ledger"),
        "evening": ("/evening подводит итоги вечера", "/evening sums up a group's evening"),
    }
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        users = {"ru": fake.add_user("Аня"), "en": fake.add_user("Ann", language_code="en")}
        for user in users.values():
            fake.user_starts_bot(user)
        await bot.settle()
        for index, lang in enumerate(("ru", "en")):
            user = users[lang]
            private = fake.private_chat(user)
            for name in [*(c for c in GROUP_COMMANDS if c not in PRIVATE_COMMANDS), "kick"]:
                before = len(fake.messages(private, from_bot=True))
                fake.user_sends(user, private, f"/{name}")
                await bot.settle()
                answers = fake.messages(private, from_bot=True)[before:]
                assert len(answers) == 1, (name, [m.text for m in answers])
                text = answers[0].text or ""
                assert "\n" not in text, text
                if name in own:
                    assert text.startswith(own[name][index]), text
                    if name == "top":
                        assert "/stats" in text
                else:
                    group = "команда для группы" if lang == "ru" else "is a group command"
                    assert text.startswith(f"/{name}") and group in text, text
        assert not bot.handler_errors
