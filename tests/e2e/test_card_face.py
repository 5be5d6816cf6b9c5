"""End to end: one card face everywhere. /history's deal view shows the cards as the chat's
tables do — В Д К Т in a Russian chat by default, J Q K A where the chat chose them, the
suits in emoji presentation — and the trump's suit where only the suit is known."""

from __future__ import annotations

import re
from pathlib import Path

from bot import callback as cb
from bot.render.common import label, ranks_shown
from tests.library import CODEC

from .fake_telegram import FakeTelegram
from .players import Table, start_bot_for
from .test_games import open_table

LATIN_COURT = re.compile(r"(?<![A-Za-z])[JQKA][♠♥♦♣]")
RUSSIAN_COURT = re.compile(r"(?<![А-Яа-яЁё])[ВДКТ][♠♥♦♣]")


def _court_cards(summary: dict[str, object]) -> list[str]:
    tricks = summary.get("tricks")
    assert isinstance(tricks, list)
    return [card for trick in tricks for _, card in trick if card[0] in "JQKA"]


async def _open_deal(table: Table, deal_id: int) -> str:
    """/history, then 🔎 of the deal: the text of its details."""
    user = table.users[1]
    await table.say(user, "/history")
    page = table.group_messages()[-1]
    info = next(
        data
        for row in page.buttons
        for _, data in row
        if data is not None
        and isinstance(decoded := CODEC.decode(data), cb.DealInfo)
        and decoded.deal_id == deal_id
    )
    assert info is not None
    await table.press(user, page, info)
    return table.fake.message(table.group, page.message_id).text or ""


async def test_history_shows_the_chats_card_face(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "stukolka", 41)
        db = table.db
        played = None
        for _ in range(600):
            deals = await db.history.last_deals(table.group.id, 6)
            played = next((d for d in deals if _court_cards(d.summary)), None)
            if played is not None:
                break
            assert await table.step()
        assert played is not None
        text = await _open_deal(table, played.deal_id)
        assert "Расчёт" in text
        with ranks_shown("ru", None):
            shown = [label(card) for card in _court_cards(played.summary)]
        for card in shown:
            assert card in text, (card, text)
        assert RUSSIAN_COURT.search(text) and not LATIN_COURT.search(text), text
        # a chat that chose J Q K A sees them
        await table.services.people.set_chat_ranks(table.group.id, "latin")
        text = await _open_deal(table, played.deal_id)
        with ranks_shown("ru", "latin"):
            shown = [label(card) for card in _court_cards(played.summary)]
        for card in shown:
            assert card in text, (card, text)
        assert not RUSSIAN_COURT.search(text), text
        assert not bot.handler_errors
