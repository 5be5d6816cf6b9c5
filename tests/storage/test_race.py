"""Two writers, two real connections, one file: compare-and-set lets exactly one win."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import POT, Database, StaleVersion, Transfer
from tests.storage.storage_support import CHAT, CLOCK, USERS

A, B, C = USERS
ROUNDS = 25


async def test_two_connections_racing_on_one_version(db_path: Path) -> None:
    first = await Database.open(db_path)
    second = await Database.open(db_path)
    try:
        await first.chats.upsert_chat(CHAT, "race", now=CLOCK())
        for user in USERS:
            await second.chats.upsert_player(user, f"player {user}", now=CLOCK())
        game = await first.games.create_game(
            CHAT, "stukolka", {"winner": None}, seats=USERS, now=CLOCK()
        )
        wins = {"first": 0, "second": 0}
        for _ in range(ROUNDS):
            # Both read the same version, as two button presses handled at once would.
            seen_first = await first.games.game(game.game_id)
            seen_second = await second.games.game(game.game_id)
            assert seen_first.version == seen_second.version
            version = seen_first.version
            commits = [
                first.games.commit_action(
                    game.game_id,
                    version,
                    {"winner": "first"},
                    ["first"],
                    transfers=[Transfer(A, POT, 1, "ante", version)],
                    now=CLOCK(),
                ),
                second.games.commit_action(
                    game.game_id,
                    version,
                    {"winner": "second"},
                    ["second"],
                    transfers=[Transfer(B, POT, 2, "ante", version)],
                    now=CLOCK(),
                ),
            ]
            # each is started first every other round, so that neither can win every round
            # just by being started first (the last assertion wants wins on both sides)
            order = commits if version % 2 == 0 else commits[::-1]
            started = await asyncio.gather(*order, return_exceptions=True)
            results = started if version % 2 == 0 else started[::-1]
            names = ("first", "second")
            winners = [name for name, r in zip(names, results, strict=True) if r == version + 1]
            losers = [r for r in results if isinstance(r, StaleVersion)]
            assert len(winners) == 1 and len(losers) == 1, results
            assert losers[0].actual == version + 1
            wins[winners[0]] += 1

            # Both connections now see the winner's state, its log row and only its money.
            for db in (first, second):
                stored = await db.games.game(game.game_id)
                assert (stored.version, stored.state) == (version + 1, {"winner": winners[0]})
                log = await db.games.action_log(game.game_id)
                assert [e.version for e in log] == list(range(version + 2))
                assert log[-1].action == [winners[0]]
                entries = [e for e in await db.ledger.transfers(CHAT) if e.version == version + 1]
                assert [(e.src, e.amount) for e in entries] == [
                    (A, 1) if winners[0] == "first" else (B, 2)
                ]
        # The two threads really race: each connection wins some rounds.
        assert wins["first"] > 0 and wins["second"] > 0, wins
        balances = await first.ledger.balances(CHAT)
        assert balances.players[A] == -wins["first"]
        assert balances.players.get(B, 0) == -2 * wins["second"]
        assert balances.pot == wins["first"] + 2 * wins["second"]
    finally:
        await first.close()
        await second.close()


async def test_the_loser_reloads_and_commits_next(db_path: Path) -> None:
    async with await Database.open(db_path) as first, await Database.open(db_path) as second:
        await first.chats.upsert_chat(CHAT, "race", now=CLOCK())
        game = await first.games.create_game(CHAT, "stukolka", {"n": 0}, now=CLOCK())
        await first.games.commit_action(game.game_id, 0, {"n": 1}, ["first"], now=CLOCK())
        with pytest.raises(StaleVersion) as stale:
            await second.games.commit_action(game.game_id, 0, {"n": 1}, ["second"], now=CLOCK())
        reloaded = await second.games.game(game.game_id)
        assert reloaded.version == stale.value.actual == 1
        assert (
            await second.games.commit_action(game.game_id, 1, {"n": 2}, ["second"], now=CLOCK())
            == 2
        )
        assert (await first.games.game(game.game_id)).state == {"n": 2}
