"""End to end: a Старшина deal's 🔎 view (/history) says what its table said — who played
which card in each trick, the game's pot by its own name («банк партии», not Стуколка's
«кон»), and the same money with the same parts as the deal's result on the table, the game's
money included for the deal that won the game."""

from __future__ import annotations

from pathlib import Path

from bot import callback as cb
from tests.library import WORDS

from .fake_telegram import FakeTelegram
from .fake_telegram.model import Message
from .players import Table, start_bot_for
from .test_games import open_table


def _block(text: str, heading: str) -> list[str]:
    """The lines under ``heading`` up to the next empty line (or a pot line)."""
    lines = text.splitlines()
    start = lines.index(heading) + 1
    found = []
    for line in lines[start:]:
        if not line or line.startswith(("Банк партии:", "Кон:")):
            break
        found.append(line)
    return found


def _plain(key: str) -> str:
    return WORDS.t("ru", key).replace("<b>", "").replace("</b>", "")


async def _deal_views(table: Table) -> list[str]:
    """Every deal's 🔎 view, the newest first."""
    user = table.users[0]
    await table.say(user, "/history")
    page = table.group_messages()[-1]
    views = []
    opens = [d for d in page.callback_data if isinstance(table.codec.decode(d), cb.DealInfo)]
    for data in opens:
        await table.press(user, page, data)
        page = table.fake.message(table.group, page.message_id)
        views.append(page.text or "")
        back = next(d for d in page.callback_data if isinstance(table.codec.decode(d), cb.History))
        await table.press(user, page, back)
        page = table.fake.message(table.group, page.message_id)
    return views


def _results(table: Table) -> list[Message]:
    return [m for m in table.group_messages() if (m.text or "").startswith("🏁")]


async def test_a_starshina_deal_view_says_what_the_table_said(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "starshina", 5, options={"max_deals": 2})
        db = table.db
        while await db.history.deal_count(table.group.id) < 2:
            assert await table.step()
        results = _results(table)
        assert len(results) == 2
        views = list(reversed(await _deal_views(table)))
        names = [u.first_name for u in table.users]
        deal_money, game_money = _plain("deal.money"), _plain("deal.game_money")
        for number, (result, view) in enumerate(zip(results, views, strict=True), start=1):
            text = result.text or ""
            assert f"сдача {number}" in view
            # each of the 16 tricks names who played which card
            tricks = [line for line in view.splitlines() if line.startswith("Взятка ")]
            assert len(tricks) == 16
            for line in tricks:
                cards = line.split(": ", 1)[1].split(" · ")
                assert len(cards) == 3, line
                assert all(card.rsplit(" ", 1)[0] in names for card in cards), line
            # the game's pot by its name
            assert "Кон:" not in view and "Банк партии: был" in view, view
            # the money as the table gave it, figures and parts
            if WORDS.t("ru", "starshina.game_money").replace("<b>", "").replace("</b>", "") in text:
                shown = _block(text, "Итог партии:")
                assert sorted(_block(view, game_money)) == sorted(shown), (view, text)
                assert any("ставка" in line for line in shown)
            else:
                shown = _block(text, "Расчёт за сдачу:")
                assert sorted(_block(view, deal_money)) == sorted(shown), (view, text)
        assert "Итог партии" in views[-1]
        assert not bot.handler_errors
