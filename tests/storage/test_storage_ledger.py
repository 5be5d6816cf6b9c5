"""Balances and pots are sums over the ledger; history and totals are queries over it."""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import GAME_POT, POT, Database, DealPlayer, DealRecord, LedgerEntry, Party, Transfer
from tests.storage.storage_support import CHAT, CLOCK, USERS

A, B, C = USERS
OTHER_CHAT = -2002

parties: st.SearchStrategy[Party] = st.sampled_from([*USERS, POT, GAME_POT])
transfer_lists = st.lists(
    st.lists(
        st.tuples(parties, parties, st.integers(1, 50)).filter(lambda t: t[0] != t[1]),
        max_size=4,
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commits=transfer_lists, second_game=st.booleans())
def test_balances_are_the_ledger_sums(
    commits: list[list[tuple[Party, Party, int]]], second_game: bool
) -> None:
    asyncio.run(_check_balances(commits, second_game))


async def _check_balances(commits: list[list[tuple[Party, Party, int]]], second_game: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with await Database.open(Path(folder) / "ledger.sqlite3") as db:
            for chat in (CHAT, OTHER_CHAT):
                await db.chats.upsert_chat(chat, None, now=CLOCK())
            for user in USERS:
                await db.chats.upsert_player(user, str(user), now=CLOCK())
            noise = await db.games.create_game(OTHER_CHAT, "stukolka", {}, now=CLOCK())
            await db.games.commit_action(
                noise.game_id, 0, {}, ["x"], transfers=[Transfer(A, POT, 7, "ante", 1)], now=CLOCK()
            )

            expected_players: Counter[int] = Counter()
            expected_pot = 0
            expected_game_pots: Counter[int] = Counter()
            game = await db.games.create_game(CHAT, "starshina", {}, now=CLOCK())
            for number, commit in enumerate(commits):
                if second_game and number == len(commits) // 2:
                    await db.games.commit_action(
                        game.game_id, game.version, {}, None, status="finished", now=CLOCK()
                    )
                    game = await db.games.create_game(CHAT, "starshina", {}, now=CLOCK())
                transfers = [Transfer(src, dst, amount, "diff", 1) for src, dst, amount in commit]
                version = await db.games.commit_action(
                    game.game_id,
                    game.version,
                    {"n": number},
                    None,
                    transfers=transfers,
                    now=CLOCK(),
                )
                game = await db.games.game(game.game_id)
                assert game.version == version
                for transfer in transfers:
                    for party, sign in ((transfer.src, -1), (transfer.dst, 1)):
                        if party == POT:
                            expected_pot += sign * transfer.amount
                        elif party == GAME_POT:
                            expected_game_pots[game.game_id] += sign * transfer.amount
                        else:
                            assert isinstance(party, int)
                            expected_players[party] += sign * transfer.amount

            balances = await db.ledger.balances(CHAT)
            assert balances.total == 0
            assert balances.pot == expected_pot
            assert dict(balances.game_pots) == {g: n for g, n in expected_game_pots.items() if n}
            assert {u: n for u, n in balances.players.items() if n} == {
                u: n for u, n in expected_players.items() if n
            }
            for user in balances.players:
                assert (await db.stats.player_totals(CHAT, user)).net == balances.players[user]
            assert (await db.ledger.balances(OTHER_CHAT)).players == {A: -7}
            assert await db.check_integrity() == []


async def test_an_unknown_chat_has_no_money(db: Database) -> None:
    balances = await db.ledger.balances(-5)
    assert (dict(balances.players), balances.pot, dict(balances.game_pots)) == ({}, 0, {})


async def test_last_deals_with_their_transfers(table: Database) -> None:
    game = await table.games.create_game(
        CHAT, "stukolka", {}, seats=USERS, status="active", now=CLOCK()
    )
    version = 0
    for deal in (1, 2, 3):
        # Antes at the start of the deal, money at its end: both belong to the deal.
        version = await table.games.commit_action(
            game.game_id,
            version,
            {"deal": deal},
            None,
            transfers=[Transfer(A, POT, 3, "ante", deal)],
            now=CLOCK(),
        )
        version = await table.games.commit_action(
            game.game_id,
            version,
            {"deal": deal, "over": True},
            [1, "play", "AS"],
            transfers=[Transfer(POT, B, 1, "trick", deal), Transfer(C, POT, 3, "remiz", deal)],
            deal=DealRecord(
                deal,
                (DealPlayer(A, 0, 0, active=False), DealPlayer(B, 1, 1), DealPlayer(C, 2, 0)),
                {"trump": "H", "deal": deal},
            ),
            now=CLOCK(),
        )
    history = await table.history.last_deals(CHAT, 2)
    assert [(h.deal, h.kind, h.game_id, h.summary["deal"]) for h in history] == [
        (3, "stukolka", game.game_id, 3),
        (2, "stukolka", game.game_id, 2),
    ]
    newest = history[0]
    assert newest.version == version
    assert [(p.user_id, p.seat, p.tricks, p.active) for p in newest.players] == [
        (A, 0, 0, False),
        (B, 1, 1, True),
        (C, 2, 0, True),
    ]
    assert [(t.src, t.dst, t.amount, t.reason) for t in newest.transfers] == [
        (A, POT, 3, "ante"),
        (POT, B, 1, "trick"),
        (C, POT, 3, "remiz"),
    ]
    assert len(await table.history.last_deals(CHAT, 10)) == 3
    assert await table.history.last_deals(OTHER_CHAT, 10) == []


async def test_player_totals(table: Database) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {}, seats=USERS, now=CLOCK())
    version = 0
    for deal, (tricks_b, remiz_c) in enumerate([(3, 3), (2, 6), (0, 0)], start=1):
        transfers = [
            Transfer(A, POT, 3, "ante", deal),
            Transfer(POT, B, tricks_b or 1, "trick", deal),
        ]
        if remiz_c:
            transfers.append(Transfer(C, POT, remiz_c, "remiz", deal))
        version = await table.games.commit_action(
            game.game_id,
            version,
            {},
            ["end"],
            transfers=transfers,
            deal=DealRecord(
                deal, (DealPlayer(B, 1, tricks_b), DealPlayer(C, 2, 0, active=deal != 3))
            ),
            now=CLOCK(),
        )
    totals_b = await table.stats.player_totals(CHAT, B)
    assert (totals_b.deals, totals_b.deals_active, totals_b.tricks) == (3, 3, 5)
    assert totals_b.net == 6
    totals_c = await table.stats.player_totals(CHAT, C)
    assert (totals_c.deals, totals_c.deals_active, totals_c.tricks) == (3, 2, 0)
    assert totals_c.net == -9
    totals_a = await table.stats.player_totals(CHAT, A)
    assert (totals_a.deals, totals_a.net) == (0, -9)
    assert (await table.stats.player_totals(OTHER_CHAT, B)).deals == 0
    balances = await table.ledger.balances(CHAT)
    assert balances.players == {A: -9, B: 6, C: -9} and balances.pot == 12


async def test_transfers_of_a_game_or_a_deal(table: Database) -> None:
    first = await table.games.create_game(CHAT, "stukolka", {}, now=CLOCK())
    await table.games.commit_action(
        first.game_id, 0, {}, ["a"], transfers=[Transfer(A, POT, 1, "ante", 1)], now=CLOCK()
    )
    await table.games.commit_action(
        first.game_id,
        1,
        {},
        ["b"],
        status="finished",
        transfers=[Transfer(A, POT, 2, "ante", 2)],
        now=CLOCK(),
    )
    second = await table.games.create_game(CHAT, "stukolka", {}, now=CLOCK())
    await table.games.commit_action(
        second.game_id, 0, {}, ["a"], transfers=[Transfer(B, POT, 3, "ante", 1)], now=CLOCK()
    )

    def amounts(entries: list[LedgerEntry]) -> list[int]:
        return [entry.amount for entry in entries]

    assert amounts(await table.ledger.transfers(CHAT)) == [1, 2, 3]
    assert amounts(await table.ledger.transfers(CHAT, game_id=first.game_id)) == [1, 2]
    assert amounts(await table.ledger.transfers(CHAT, game_id=first.game_id, deal=2)) == [2]
    assert amounts(await table.ledger.transfers(OTHER_CHAT, game_id=first.game_id)) == []
    with pytest.raises(ValueError):
        await table.ledger.transfers(CHAT, deal=1)


async def test_an_evenings_own_figures_are_what_the_callers_count_makes_of_each_deal(
    table: Database,
) -> None:
    """Storage counts no figure of a game's own: the evening's summary hands each deal's
    transfers and record to the caller's count, as committed, and adds up what it says by
    game, figure and player, players in the order each first had the figure."""
    game = await table.games.create_game(CHAT, "stukolka", {}, seats=USERS, now=CLOCK())
    deals = [
        [Transfer(B, POT, 2, "fine", 0), Transfer(POT, C, 1, "trick", 0)],
        [Transfer(C, POT, 4, "fine", 1), Transfer(B, POT, 3, "fine", 1)],
    ]
    version = 0
    for deal, transfers in enumerate(deals):
        record = DealRecord(deal, (DealPlayer(B, 0, 0), DealPlayer(C, 1, deal)), {"n": deal})
        version = await table.games.commit_action(
            game.game_id, version, {}, ["end"], transfers=transfers, deal=record, now=CLOCK()
        )
    seen: list[tuple[str, list[Transfer], DealRecord]] = []

    def count(
        kind: str, transfers: Sequence[Transfer], record: DealRecord
    ) -> dict[int, dict[str, int]]:
        seen.append((kind, list(transfers), record))
        fined: dict[int, dict[str, int]] = {}
        for transfer in transfers:
            if transfer.reason == "fine" and isinstance(transfer.src, int):
                fined.setdefault(transfer.src, {"fines": 0})["fines"] += transfer.amount
        return fined

    evening = await table.evenings.open_evening(CHAT)
    assert evening is not None
    summary = await table.evenings.evening_summary(evening, count)
    assert [(kind, transfers) for kind, transfers, _ in seen] == [
        ("stukolka", deals[0]),
        ("stukolka", deals[1]),
    ]
    assert [record.summary for _, _, record in seen] == [{"n": 0}, {"n": 1}]
    assert seen[1][2].players == (DealPlayer(B, 0, 0), DealPlayer(C, 1, 1))
    assert summary.figures == {"stukolka": {"fines": {B: 5, C: 4}}}
    assert list(summary.figures["stukolka"]["fines"]) == [B, C]
    assert (await table.evenings.evening_summary(evening)).figures == {}


async def test_an_evening_tells_the_games_own_pots_from_the_chats(table: Database) -> None:
    """What the evening's deals put into the chat's pot and into their games' own pots grows
    ``pot_change``; the own pots' part is ``game_pot_change`` (theirs, not the chat's)."""
    game = await table.games.create_game(CHAT, "starshina", {}, seats=USERS, now=CLOCK())
    deals = [
        # antes into the game's pot, one taking them back out, a fine into the chat's pot
        [Transfer(A, GAME_POT, 2, "ante", 0), Transfer(B, GAME_POT, 2, "ante", 0)],
        [Transfer(GAME_POT, A, 4, "pot", 1), Transfer(C, GAME_POT, 3, "ante", 1)],
        [Transfer(B, POT, 5, "fine", 2)],
    ]
    version = 0
    for deal, transfers in enumerate(deals):
        record = DealRecord(deal, (DealPlayer(A, 0, 0), DealPlayer(B, 1, 0), DealPlayer(C, 2, 0)))
        version = await table.games.commit_action(
            game.game_id, version, {}, ["end"], transfers=transfers, deal=record, now=CLOCK()
        )
    evening = await table.evenings.open_evening(CHAT)
    assert evening is not None
    summary = await table.evenings.evening_summary(evening)
    assert summary.pot_change == 3 + 5 == -sum(summary.nets.values())
    assert summary.game_pot_change == 3
