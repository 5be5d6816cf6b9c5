"""End to end: an evening of several deals ends by the gap (a clock the test moves)
and by /evening, its summary's figures equal the ledger's and its chart arrives as a PNG
photo; /stats, /top, /history with its pages and a deal's details, and /export, in ru and en."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot import callback as cb
from locales import signed
from tests.clock import ManualClock
from tests.library import CODEC, WORDS

from .fake_telegram import FakeTelegram
from .fake_telegram.model import Message, User
from .players import Table, start_bot_for
from .test_fuzz import forge_press
from .test_games import open_table

PNG = b"\x89PNG\r\n\x1a\n"


def buttons(message: object) -> list[tuple[str, str]]:
    return [button for row in message.buttons for button in row]  # type: ignore[attr-defined]


async def _play_deals(table: Table, count: int) -> None:
    """Press until ``count`` more deals have ended."""
    db = table.db
    target = await db.history.deal_count(table.group.id) + count
    while await db.history.deal_count(table.group.id) < target:
        assert await table.step()


def _photos(table: Table) -> list[Message]:
    return [m for m in table.group_messages() if m.media is not None and m.media.kind == "photo"]


async def _ledger_nets(table: Table, evening_id: int, *, posted: bool = True) -> dict[str, int]:
    """Each player's net over the evening's deals (so far, unless ``posted``), summed here
    from the ledger's rows."""
    db = table.db
    if posted:
        assert not [e for e in await db.evenings.unposted_evenings() if e.evening_id == evening_id]
    conn = sqlite3.connect(db.path)  # the file itself, behind the API's back
    started, last = conn.execute(
        "SELECT started_at, last_at FROM evenings WHERE evening_id = ?", (evening_id,)
    ).fetchone()
    deals = conn.execute(
        "SELECT game_id, deal FROM deals WHERE chat_id = ? AND ended_at BETWEEN ? AND ?",
        (table.group.id, started, last),
    ).fetchall()
    conn.close()
    nets: dict[int, int] = {}
    for game_id, deal in deals:
        for entry in await db.ledger.transfers(table.group.id, game_id=game_id, deal=deal):
            if isinstance(entry.src, int):
                nets[entry.src] = nets.get(entry.src, 0) - entry.amount
            if isinstance(entry.dst, int):
                nets[entry.dst] = nets.get(entry.dst, 0) + entry.amount
    players = await db.chats.players(list(nets))
    return {players[user].name: net for user, net in nets.items()}


def _summary_nets(text: str, names: list[str]) -> dict[str, int]:
    nets = {}
    for name in names:
        match = re.search(rf"{re.escape(name)}: ([+−]?\d+)", text)
        assert match, (name, text)
        nets[name] = int(match.group(1).replace("−", "-").replace("+", ""))
    return nets


async def test_an_evening_ends_by_the_gap_and_by_evening_with_the_ledgers_figures(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 16)
        services = table.services
        names = [user.first_name for user in table.users]
        clock = ManualClock(now=time.time())
        services.evenings.timers.clock = clock
        await _play_deals(table, 4)
        await table.settle()
        evening = await table.db.evenings.open_evening(table.group.id)
        assert evening is not None and evening.deals >= 4
        assert not _photos(table)
        # the gap passes with nobody playing: the summary and the chart come by themselves
        clock.advance_to(evening.due + 60)
        services.evenings.timers.clock_moved()
        for _ in range(200):
            await table.settle()
            if _photos(table):
                break
            await asyncio.sleep(0.05)
        [photo] = _photos(table)
        summary = next(
            m for m in reversed(table.group_messages()) if m.text and "Итоги вечера" in m.text
        )
        assert summary.message_id < photo.message_id
        text = summary.text or ""
        assert _summary_nets(text, names) == await _ledger_nets(table, evening.evening_id)
        assert "Кто кому платит за вечер" in text
        # never edited, so the messenger does not keep it (a long run would fill its memory)
        assert services.messenger.shown(table.group.id, summary.message_id) is None
        media = photo.media
        assert media is not None
        assert media.data.startswith(PNG) and 20_000 < len(media.data) < 1_000_000
        assert (media.width, media.height) == (1200, 800)
        assert (await table.db.evenings.unposted_evenings()) == []
        # a new evening with the next deals (a clock at now again); /evening during play
        # shows it so far, as a reply, and ends nothing: the closing summary, at /stop now,
        # covers the whole evening, once
        services.evenings.timers.clock = ManualClock(now=time.time())
        await table.say(table.users[0], "/lang en")
        await _play_deals(table, 3)
        await table.settle()
        second = await table.db.evenings.open_evening(table.group.id)
        assert second is not None and second.evening_id != evening.evening_id
        await table.say(table.users[1], "/evening")
        so_far = table.group_messages()[-1]
        assert (so_far.text or "").startswith("🌙 The evening so far · 3 deals"), so_far.text
        assert so_far.reply_to is not None and so_far.reply_to.text == "/evening"
        assert "Who pays whom" not in (so_far.text or "")
        assert _summary_nets(so_far.text or "", names) == await _ledger_nets(
            table, second.evening_id, posted=False
        )
        going_on = await table.db.evenings.open_evening(table.group.id)
        assert going_on is not None and going_on.evening_id == second.evening_id
        assert await table.db.evenings.unposted_evenings() == [] and len(_photos(table)) == 1
        await _play_deals(table, 1)
        await table.say(table.users[0], "/stop now")
        for _ in range(200):
            if len(_photos(table)) == 2:
                break
            await table.settle()
            await asyncio.sleep(0.05)
        assert len(_photos(table)) == 2
        closing = [
            m for m in table.group_messages() if m.text and "The evening's summary" in m.text
        ]
        assert len(closing) == 1, [m.text for m in closing]
        text = closing[0].text or ""
        # the whole evening: the three deals before /evening, the one after, the one /stop
        # now played out
        assert text.startswith("🌙 The evening's summary · 5 deals"), text
        assert _summary_nets(text, names) == await _ledger_nets(table, second.evening_id)
        assert "Who pays whom for the evening" in text
        # nothing left to post: /evening says so
        await table.say(table.users[1], "/evening")
        assert "No evening yet" in (table.group_messages()[-1].text or "")
        assert not bot.handler_errors


@dataclass(frozen=True)
class HistoryWords:
    """What /history's screens say in one language."""

    first: str
    second: str
    deal: str
    money: str
    tricks: tuple[str, str]  # a played deal's first trick, or a deal without play


HISTORY_WORDS = {
    "ru": HistoryWords(
        "Страница 1 из 2", "Страница 2 из 2", "сдача", "Расчёт", ("Взятка 1 →", "Без розыгрыша.")
    ),
    "en": HistoryWords(
        "Page 1 of 2",
        "Page 2 of 2",
        "deal",
        "The deal's money",
        ("Trick 1 →", "No tricks were played."),
    ),
}


async def _walk_history(table: Table, user: User, words: HistoryWords) -> tuple[Message, str, str]:
    """/history, its older page, a deal's details and back, the newer page again: each screen
    in the chat's language. Returns the page message, its older-page and details buttons."""
    fake = table.fake
    await table.say(user, "/history")
    page = table.group_messages()[-1]
    assert words.first in (page.text or "")
    older = next(d for label, d in buttons(page) if isinstance(CODEC.decode(d), cb.History))
    await table.press(user, page, older)
    page = fake.message(table.group, page.message_id)
    assert words.second in (page.text or "")
    newer = next(d for label, d in buttons(page) if isinstance(CODEC.decode(d), cb.History))
    details = next(d for label, d in buttons(page) if isinstance(CODEC.decode(d), cb.DealInfo))
    await table.press(user, page, details)
    shown = fake.message(table.group, page.message_id).text or ""
    assert words.deal in shown and words.money in shown, shown
    assert any(line in shown for line in words.tricks), shown
    back = next(
        d
        for label, d in buttons(fake.message(table.group, page.message_id))
        if isinstance(CODEC.decode(d), cb.History)
    )
    await table.press(user, fake.message(table.group, page.message_id), back)
    page = fake.message(table.group, page.message_id)
    assert words.second in (page.text or "")
    await table.press(user, page, newer)
    assert words.first in (fake.message(table.group, page.message_id).text or "")
    return page, older, details


async def test_stats_top_history_pages_and_export_in_both_languages(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 23)
        db = table.db
        chat = table.group.id
        await _play_deals(table, 8)
        await table.settle()
        alice, bob, carol = table.users
        balances = await db.ledger.balances(chat)
        for lang, words in (
            ("ru", ("Статистика", "Итог", "Лидеры")),
            ("en", ("Statistics", "Net", "Leaderboard")),
        ):
            await table.say(alice, f"/lang {lang}")
            await table.say(alice, "/stats")
            text = table.group_messages()[-1].text or ""
            assert words[0] in text and alice.first_name in text
            assert f"{words[1]}: {signed(balances.players[alice.id])}" in text
            # another player's figures, by replying to his message
            fake.user_sends(bob, table.group, "я тут")
            reply_to = fake.messages(table.group)[-1]
            fake.user_sends(alice, table.group, "/stats", reply_to=reply_to)
            await table.settle()
            text = table.group_messages()[-1].text or ""
            assert bob.first_name in text and signed(balances.players[bob.id]) in text
            await table.say(carol, "/top")
            text = table.group_messages()[-1].text or ""
            assert words[2] in text
            best = max(balances.players, key=lambda u: balances.players[u])
            first_line = next(
                line for line in text.splitlines() if signed(balances.players[best]) in line
            )
            assert next(u.first_name for u in table.users if u.id == best) in first_line
        # private /stats: across the chats
        fake.user_sends(alice, fake.private_chat(alice), "/stats")
        await table.settle()
        private = fake.messages(fake.private_chat(alice), from_bot=True)[-1].text or ""
        assert "1 chat" in private or "1 чат" in private
        # /history: a page of six, the older page, a deal's details, back; in both languages
        for lang, screen in HISTORY_WORDS.items():
            await table.say(alice, f"/lang {lang}")
            page, older, details = await _walk_history(table, bob, screen)
        # the same buttons forged onto the table's other messages change nothing
        table_message = next(
            m for m in table.group_messages() if m.text and m.message_id != page.message_id
        )
        before_text = fake.message(table.group, table_message.message_id).text
        forge_press(fake, bob, table_message, details)
        # his hand message, buttons or not (a waiting hand and a deal's outcome have none)
        hand = fake.messages(fake.private_chat(bob), from_bot=True)[-1]
        hand_text = hand.text
        forge_press(fake, bob, hand, older)
        await table.settle()
        assert fake.message(table.group, table_message.message_id).text == before_text
        assert fake.message(fake.private_chat(bob), hand.message_id).text == hand_text
        assert not fake.unanswered_callback_queries()
        # /export: admins only (the creator of the group is one); in both languages
        for lang, caption in (("ru", "Касса чата"), ("en", "The ledger of")):
            await table.say(alice, f"/lang {lang}")
            await table.say(bob, "/export")
            assert table.group_messages()[-1].media is None
            await table.say(alice, "/export")
            document = table.group_messages()[-1]
            assert document.media is not None and document.media.kind == "document"
            rows = list(csv.reader(io.StringIO(document.media.data.decode("utf-8-sig"))))
            assert rows[0][0] == "entry_id"
            entries = await db.ledger.transfers(chat)
            assert len(rows) - 1 == len(entries)
            assert caption in (document.text or "")
            assert WORDS.tn(lang, "export.rows", len(entries)) in (document.text or "")
            total: dict[str, int] = {}
            for row in rows[1:]:
                amount = int(row[9])
                total[row[5]] = total.get(row[5], 0) - amount
                total[row[7]] = total.get(row[7], 0) + amount
            for user in table.users:
                assert total.get(user.first_name, 0) == balances.players.get(user.id, 0)
        assert not bot.handler_errors


def _button(message: object, wanted: object) -> str:
    for _, data in buttons(message):
        if CODEC.decode(data) == wanted:
            return data
    raise AssertionError(f"no button {wanted} on the message")


async def test_the_evenings_gap_is_a_settings_choice_that_ends_the_evening(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 31)
        services = table.services
        chat = table.group.id
        alice, bob, carol = table.users  # alice created the group and the table
        clock = ManualClock(now=time.time())
        services.evenings.timers.clock = clock
        await table.say(alice, "/settings")
        menu = table.group_messages()[-1]
        assert "Итоги вечера: после 3 ч без игры" in (menu.text or "")
        # anyone may open the choice; only an admin or the table's creator may change it
        fake.user_presses(carol, menu, _button(menu, cb.EveningGap(0)))
        await table.settle()
        menu = fake.message(table.group, menu.message_id)
        assert "🌙 Итоги вечера: после 3 ч без игры" in (menu.text or "")
        labels = [label for label, _ in buttons(menu)]
        assert "✓ 3 ч" in labels and "6 ч" in labels and "⬅️ Назад" in labels
        refused = fake.user_presses(carol, menu, _button(menu, cb.EveningGap(6)))
        await table.settle()
        assert refused.answer is not None and "тот, кто открыл стол" in (refused.answer.text or "")
        assert await table.db.evenings.evening_gap(chat) == 3 * 3600
        # a press forged onto another message of the group is outdated, and changes nothing
        forge_press(fake, alice, table.group_messages()[0], cb.encode(cb.EveningGap(8)))
        await table.settle()
        assert await table.db.evenings.evening_gap(chat) == 3 * 3600
        chosen = fake.user_presses(alice, menu, _button(menu, cb.EveningGap(6)))
        await table.settle()
        assert chosen.answer is not None
        assert chosen.answer.text == "Готово: вечер заканчивается после 6 ч без игры."
        assert await table.db.evenings.evening_gap(chat) == 6 * 3600
        menu = fake.message(table.group, menu.message_id)
        labels = [label for label, _ in buttons(menu)]
        assert "✓ 6 ч" in labels and "3 ч" in labels
        fake.user_presses(alice, menu, _button(menu, cb.Settings()))
        await table.settle()
        menu = fake.message(table.group, menu.message_id)
        assert "Итоги вечера: после 6 ч без игры" in (menu.text or "")
        # the evening then ends after six hours without play, not after the old three
        await _play_deals(table, 2)
        await table.settle()
        evening = await table.db.evenings.open_evening(chat)
        assert evening is not None and evening.gap == 6 * 3600
        clock.advance_to(evening.last_at + 3 * 3600 + 60)
        services.evenings.timers.clock_moved()
        await asyncio.sleep(0.3)
        await table.settle()
        assert not _photos(table) and await table.db.evenings.open_evening(chat) is not None
        clock.advance_to(evening.last_at + 6 * 3600 + 60)
        services.evenings.timers.clock_moved()
        for _ in range(200):
            await table.settle()
            if _photos(table):
                break
            await asyncio.sleep(0.05)
        assert len(_photos(table)) == 1
        # in English the menu says the same
        await table.say(alice, "/lang en")
        await table.say(alice, "/settings")
        menu = table.group_messages()[-1]
        assert "Evening summary: after 6 h without play" in (menu.text or "")
        fake.user_presses(bob, menu, _button(menu, cb.EveningGap(0)))
        await table.settle()
        menu = fake.message(table.group, menu.message_id)
        assert "An evening ends when nobody plays" in (menu.text or "")
        assert "✓ 6 h" in [label for label, _ in buttons(menu)]
        assert not fake.unanswered_callback_queries()
        assert not bot.handler_errors


async def test_a_one_deal_evening_is_summed_up_without_a_chart(tmp_path: Path) -> None:
    """A chart of one point says nothing: an evening of a single deal gets its summary (a
    reply to nothing: the table's end posted it) and no photo."""
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 41)
        db = table.db
        await table.say(table.users[0], "/stop")
        for _ in range(500):
            if await db.games.active_game(table.group.id) is None:
                break
            assert await table.step()
        await table.settle()
        await table.services.presenter.coalescer.drain()
        summaries = [m for m in table.group_messages() if "Итоги вечера" in (m.text or "")]
        assert len(summaries) == 1
        assert (summaries[0].text or "").startswith("🌙 Итоги вечера · 1 сдача")
        assert not _photos(table)
        assert await db.evenings.unposted_evenings() == []
        assert not bot.handler_errors
