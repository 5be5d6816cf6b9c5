"""The scorekeeping and money the table service hands the front-ends (``tables.scores``,
``tables.money``): /history a page at a time, one deal and everyone it names, /top, /stats
for the month of the service's clock, the export's day, a group's balances with its seated
players at zero."""

from __future__ import annotations

from storage.database import Database
from storage.records import POT, DealPlayer, DealRecord, Transfer
from tables.money import Money
from tables.scores import Scores
from tests.clock import ManualClock
from tests.library import GAMES

A, B, C = 101, 102, 103
CHAT = -1
MAY = 1_780_000_000.0  # 2026-05-28, UTC
#: the clock the deals are committed on: not the month the service reads (``MAY``)
CLOCK = ManualClock()


async def _deals(db: Database, count: int) -> list[int]:
    """``count`` finished Стуколка deals in the chat, each won by B from A (C sits out), and
    their ``deal_id``s, oldest first."""
    game = await db.games.create_game(
        CHAT, "stukolka", {}, seats=[A, B, C], status="active", now=CLOCK()
    )
    version = 0
    for deal in range(1, count + 1):
        version = await db.games.commit_action(
            game.game_id,
            version,
            {"deal": deal},
            ["end"],
            transfers=[Transfer(A, POT, 3, "ante", deal), Transfer(POT, B, 3, "trick", deal)],
            deal=DealRecord(deal, (DealPlayer(A, 0, 0), DealPlayer(B, 1, 1))),
            now=CLOCK(),
        )
    return [deal.deal_id for deal in reversed(await db.history.last_deals(CHAT, count))]


async def test_history_pages_count_from_the_newest_and_link_both_ways(db: Database) -> None:
    ids = await _deals(db, 7)
    scores = Scores(db.history, db.stats, lambda: MAY)
    first = await scores.history(CHAT, 0, 3)
    assert [d.deal_id for d in first.deals] == ids[::-1][:3]
    assert (first.page, first.pages, first.newer, first.older) == (1, 3, None, True)
    second = await scores.history(CHAT, first.deals[-1].deal_id, 3)
    assert [d.deal_id for d in second.deals] == ids[::-1][3:6]
    assert (second.page, second.newer, second.older) == (2, 0, True)
    last = await scores.history(CHAT, second.deals[-1].deal_id, 3)
    assert [d.deal_id for d in last.deals] == [ids[0]]
    assert (last.page, last.newer, last.older) == (3, first.deals[-1].deal_id, False)


async def test_a_deal_names_its_players_and_every_other_party(db: Database) -> None:
    ids = await _deals(db, 1)
    scores = Scores(db.history, db.stats, lambda: MAY)
    found = await scores.deal(CHAT, ids[0])
    assert found is not None
    deal, users = found
    assert deal.deal_id == ids[0] and users == [A, B]
    assert await scores.deal(CHAT, ids[0] + 1) is None


async def test_top_stats_and_export_read_the_services_month_and_day(db: Database) -> None:
    await _deals(db, 2)
    scores = Scores(db.history, db.stats, lambda: MAY)
    top = await scores.top(CHAT)
    assert [(s.user_id, s.net) for s in top.all_time] == [(B, 6), (A, -6)]
    assert [kind for kind, _, _ in top.by_kind] == ["stukolka"]
    export = await scores.export(CHAT)
    assert len(export.rows) == 4
    stats = await scores.stats(B, CHAT)
    # the month is the service clock's (the deals were committed in another: ``CLOCK``'s)
    assert stats.month == "2026-05" and stats.all_time
    assert export.day == "2026-05-28"
    groups, practice = await scores.own_stats(B)
    assert groups.all_time and not practice.all_time


def _money(db: Database) -> Money:
    return Money(db.ledger, db.games, db.history, db.stats, db.chats, GAMES)


async def test_a_groups_money_counts_the_seated_at_zero(db: Database) -> None:
    await _deals(db, 1)
    await db.chats.upsert_player(104, "user104", started=True, now=CLOCK())
    money = await _money(db).group(CHAT)
    assert money.balances == {A: -3, B: 3, C: 0}
    assert (money.pot, money.game_pot, money.has_pot) == (0, 0, True)
    assert await _money(db).chips(CHAT, [C, B, 104]) == [0, 3, 0]
    assert await _money(db).own(B) == [("group", 3)]
