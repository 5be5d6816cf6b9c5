"""Games, commits and the action log on a real file."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from storage import (
    DEFAULT_PATH,
    GAME_POT,
    LATEST_VERSION,
    POT,
    ActiveGameExists,
    Database,
    DealPlayer,
    DealRecord,
    GameClosed,
    GameNotFound,
    ReplayError,
    StaleVersion,
    StorageError,
    Transfer,
    UnknownChat,
    UnknownPlayer,
    replay,
)
from storage.chat_display import ChatDisplay
from tests.storage import toy_counter_game as toy
from tests.storage.storage_support import CHAT, CLOCK, USERS, count, raw

A, B, C = USERS


async def test_open_creates_the_folder_and_sets_the_durable_pragmas(db_path: Path) -> None:
    assert not db_path.parent.exists()
    async with await Database.open(db_path) as db:
        assert db.path == db_path
    conn = raw(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    assert Path("data/bot.sqlite3") == DEFAULT_PATH


async def test_a_closed_database_refuses_work(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    await db.close()
    with pytest.raises(StorageError):
        await db.chats.chat(CHAT)


async def test_create_game_logs_the_initial_state(table: Database) -> None:
    game = await table.games.create_game(
        CHAT,
        "stukolka",
        {"phase": "lobby"},
        created_by=A,
        seats=[A],
        options={"stake": 3},
        now=CLOCK(),
    )
    assert (game.version, game.status, game.seats, game.options) == (0, "lobby", (A,), {"stake": 3})
    assert await table.games.active_game(CHAT) == game
    [entry] = await table.games.action_log(game.game_id)
    assert (entry.version, entry.kind, entry.state) == (0, "init", {"phase": "lobby"})


async def test_one_open_game_per_chat(table: Database) -> None:
    first = await table.games.create_game(CHAT, "stukolka", {}, created_by=A, now=CLOCK())
    with pytest.raises(ActiveGameExists) as error:
        await table.games.create_game(CHAT, "starshina", {}, created_by=B, now=CLOCK())
    assert error.value.game_id == first.game_id
    await table.games.commit_action(first.game_id, 0, {}, ["stop"], status="stopped", now=CLOCK())
    second = await table.games.create_game(CHAT, "starshina", {}, created_by=B, now=CLOCK())
    assert (await table.games.active_game(CHAT)) == second


async def test_one_open_game_per_forum_topic(table: Database) -> None:
    """A supergroup with topics holds a table per topic (thread id), and its General topic
    (no thread id) one more; the money stays the chat's."""
    general = await table.games.create_game(CHAT, "stukolka", {}, created_by=A, now=CLOCK())
    first = await table.games.create_game(
        CHAT, "stukolka", {}, created_by=A, thread_id=7, now=CLOCK()
    )
    second = await table.games.create_game(
        CHAT, "starshina", {}, created_by=B, thread_id=9, now=CLOCK()
    )
    with pytest.raises(ActiveGameExists) as error:
        await table.games.create_game(CHAT, "starshina", {}, created_by=C, thread_id=7, now=CLOCK())
    assert error.value.game_id == first.game_id
    assert (first.thread_id, second.thread_id, general.thread_id) == (7, 9, None)
    assert await table.games.active_game(CHAT, 7) == first
    assert await table.games.active_game(CHAT, 9) == second
    assert await table.games.active_game(CHAT) == general
    assert await table.games.active_game(CHAT, 8) is None
    assert await table.games.chat_open_games(CHAT) == [general, first, second]
    transfer = Transfer(A, POT, 3, "ante", deal=0)
    await table.games.commit_action(
        first.game_id, 0, {}, ["ante"], transfers=[transfer], now=CLOCK()
    )
    await table.games.commit_action(
        second.game_id, 0, {}, ["ante"], transfers=[transfer], now=CLOCK()
    )
    balances = await table.ledger.balances(CHAT)
    assert (balances.players[A], balances.pot) == (-6, 6)
    await table.games.commit_action(first.game_id, 1, {}, ["stop"], status="stopped", now=CLOCK())
    assert await table.games.chat_open_games(CHAT) == [
        general,
        await table.games.game(second.game_id),
    ]
    again = await table.games.create_game(
        CHAT, "stukolka", {}, created_by=C, thread_id=7, now=CLOCK()
    )
    assert await table.games.active_game(CHAT, 7) == again


async def test_unknown_chat_and_players_are_refused(table: Database) -> None:
    with pytest.raises(UnknownChat):
        await table.games.create_game(-5, "stukolka", {}, now=CLOCK())
    with pytest.raises(UnknownPlayer) as error:
        await table.games.create_game(CHAT, "stukolka", {}, seats=[A, 2], now=CLOCK())
    assert error.value.user_ids == [2]


async def test_commit_writes_state_log_and_transfers(table: Database, db_path: Path) -> None:
    game = await table.games.create_game(
        CHAT, "stukolka", {"n": 0}, seats=USERS, status="active", now=CLOCK()
    )
    version = await table.games.commit_action(
        game.game_id,
        0,
        {"n": 1},
        [1, "knock"],
        seat=1,
        user_id=B,
        transfers=[Transfer(A, POT, 3, "ante", 1), Transfer(POT, B, 1, "trick", 1)],
        turn_deadline=123.5,
        now=CLOCK(),
    )
    assert version == 1
    stored = await table.games.game(game.game_id)
    assert (stored.version, stored.state, stored.turn_deadline) == (1, {"n": 1}, 123.5)
    log = await table.games.action_log(game.game_id)
    assert [(e.version, e.kind, e.seat, e.user_id, e.action) for e in log] == [
        (0, "init", None, None, None),
        (1, "action", 1, B, [1, "knock"]),
    ]
    entries = await table.ledger.transfers(CHAT)
    assert [(e.version, e.deal, e.src, e.dst, e.amount, e.reason) for e in entries] == [
        (1, 1, A, POT, 3, "ante"),
        (1, 1, POT, B, 1, "trick"),
    ]
    assert count(db_path, "ledger") == 2


async def test_stale_commit_raises_and_writes_nothing(table: Database, db_path: Path) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
    await table.games.commit_action(game.game_id, 0, {"n": 1}, ["a"], now=CLOCK())
    with pytest.raises(StaleVersion) as error:
        await table.games.commit_action(
            game.game_id,
            0,
            {"n": 99},
            ["b"],
            transfers=[Transfer(A, POT, 3, "ante", 1)],
            now=CLOCK(),
        )
    assert (error.value.expected, error.value.actual) == (0, 1)
    assert (await table.games.game(game.game_id)).state == {"n": 1}
    assert count(db_path, "ledger") == 0
    assert count(db_path, "actions") == 2


async def test_commit_to_a_missing_or_closed_game(table: Database) -> None:
    with pytest.raises(GameNotFound):
        await table.games.commit_action(404, 0, {}, ["a"], now=CLOCK())
    game = await table.games.create_game(CHAT, "stukolka", {}, now=CLOCK())
    await table.games.commit_action(
        game.game_id, 0, {"over": True}, ["last"], status="finished", now=CLOCK()
    )
    with pytest.raises(GameClosed) as error:
        await table.games.commit_action(game.game_id, 1, {}, ["late"], now=CLOCK())
    assert error.value.status == "finished"
    assert await table.games.active_game(CHAT) is None


async def test_a_seat_number_for_a_user_id_is_caught(table: Database, db_path: Path) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {}, seats=USERS, now=CLOCK())
    with pytest.raises(UnknownPlayer) as error:
        await table.games.commit_action(
            game.game_id,
            0,
            {"n": 1},
            ["a"],
            transfers=[Transfer(1, POT, 3, "ante", 1)],
            now=CLOCK(),
        )
    assert error.value.user_ids == [1]
    with pytest.raises(UnknownPlayer):
        await table.games.commit_action(game.game_id, 0, {"n": 1}, ["a"], user_id=2, now=CLOCK())
    with pytest.raises(UnknownPlayer):
        await table.games.commit_action(game.game_id, 0, {"n": 1}, None, seats=[A, 0], now=CLOCK())
    assert (await table.games.game(game.game_id)).version == 0
    assert count(db_path, "actions") == 1


async def test_a_failure_late_in_the_commit_rolls_back_all_of_it(
    table: Database, db_path: Path
) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {"n": 0}, seats=USERS, now=CLOCK())
    broken = DealRecord(1, (DealPlayer(A, 0, tricks=-1),))
    with pytest.raises(sqlite3.IntegrityError):
        await table.games.commit_action(
            game.game_id,
            0,
            {"n": 1},
            ["a"],
            transfers=[Transfer(A, POT, 3, "ante", 1)],
            deal=broken,
            now=CLOCK(),
        )
    assert (await table.games.game(game.game_id)).state == {"n": 0}
    assert [count(db_path, name) for name in ("actions", "ledger", "deals")] == [1, 0, 0]
    assert await table.games.commit_action(game.game_id, 0, {"n": 1}, ["a"], now=CLOCK()) == 1


async def test_state_that_is_not_json_is_refused(table: Database) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {}, now=CLOCK())
    with pytest.raises(ValueError):
        await table.games.commit_action(game.game_id, 0, {"x": float("nan")}, ["a"], now=CLOCK())
    assert (await table.games.game(game.game_id)).version == 0


@pytest.mark.parametrize(
    ("src", "dst", "amount", "reason", "deal"),
    [
        (A, POT, 0, "ante", 1),
        (A, POT, -3, "ante", 1),
        (A, POT, 2.0, "ante", 1),
        (A, POT, True, "ante", 1),
        (A, A, 3, "ante", 1),
        (POT, POT, 3, "ante", 1),
        ("u:11", POT, 3, "ante", 1),
        (A, POT, 3, "", 1),
        (A, POT, 3, "ante", -1),
    ],
)
def test_malformed_transfers_are_refused(
    src: object, dst: object, amount: object, reason: str, deal: int
) -> None:
    with pytest.raises(ValueError):
        Transfer(src, dst, amount, reason, deal)  # type: ignore[arg-type]


async def test_system_commits_keep_the_log_replayable(table: Database) -> None:
    state = toy.new_state(list(USERS))
    game = await table.games.create_game(
        CHAT, "toy", state, seats=USERS, status="active", now=CLOCK()
    )
    version = 0
    for add in (1, 4, 7, 9, 6):
        action = {"seat": state["turn"], "add": add}
        transfers = toy.action_transfers(state, action)
        state = toy.apply(state, action)
        deal = toy.deal_record(state) if toy.deal_ends(state) else None
        version = await table.games.commit_action(
            game.game_id, version, state, action, transfers=transfers, deal=deal, now=CLOCK()
        )
    state = toy.next_deal(state)
    version = await table.games.commit_action(
        game.game_id, version, state, None, transfers=toy.deal_antes(state), now=CLOCK()
    )
    log = await table.games.action_log(game.game_id)
    assert [entry.kind for entry in log] == ["init"] + ["action"] * 5 + ["system"]
    assert log[-1].state == state
    assert replay(log, toy.apply) == (await table.games.game(game.game_id)).state == state
    with pytest.raises(ReplayError):
        replay(log[1:], toy.apply)
    with pytest.raises(ReplayError):
        replay(log[:2] + log[3:], toy.apply)


async def test_log_ledger_and_deals_are_append_only(table: Database, db_path: Path) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {}, seats=USERS, now=CLOCK())
    await table.games.commit_action(
        game.game_id,
        0,
        {},
        ["a"],
        transfers=[Transfer(A, GAME_POT, 1, "game_ante", 1)],
        deal=DealRecord(1, (DealPlayer(A, 0, 1),)),
        now=CLOCK(),
    )
    conn = raw(db_path)
    for statement in (
        "UPDATE actions SET action = '[]'",
        "DELETE FROM actions",
        "UPDATE ledger SET amount = 100",
        "UPDATE ledger SET chat_id = -5",
        "DELETE FROM ledger",
        "UPDATE deals SET summary = '{}'",
        "DELETE FROM deals",
        "UPDATE deal_players SET tricks = 9",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(statement)
    conn.close()


async def test_the_display_state_is_one_stored_record_per_game(table: Database) -> None:
    game = await table.games.create_game(
        CHAT, "stukolka", {}, seats=USERS, status="lobby", now=CLOCK()
    )
    await ChatDisplay(table).set_table_message(game.game_id, 70, now=CLOCK())  # the lobby
    # the game began
    await table.games.commit_action(game.game_id, 0, {}, None, status="active", now=CLOCK())
    shown = (await table.games.game(game.game_id)).display
    assert (shown.table_message_id, shown.lobby_message_id, shown.table_deal) == (None, 70, None)

    await ChatDisplay(table).set_table_unknown(
        game.game_id, now=CLOCK()
    )  # the first table's send timed out
    assert (await table.games.game(game.game_id)).display.table_unknown
    await ChatDisplay(table).set_table_message(game.game_id, 71, deal=0, now=CLOCK())
    await ChatDisplay(table).set_lobby_message(
        game.game_id, None, now=CLOCK()
    )  # the lobby's buttons are off
    await ChatDisplay(table).set_hand_message(game.game_id, A, 72)
    shown = (await table.games.game(game.game_id)).display
    assert (shown.table_message_id, shown.table_deal, shown.table_unknown) == (71, 0, False)
    assert (shown.lobby_message_id, dict(shown.hand_messages), shown.results_due) == (
        None,
        {A: 72},
        (),
    )

    # deal 0 ended: its result is due (written by the deal's last commit), then it is posted
    # in the table message, which is forgotten in the same write
    await table.games.commit_action(
        game.game_id, 1, {"table": {"due": [{"deal": 0}]}}, ["end"], now=CLOCK()
    )
    assert (await table.games.game(game.game_id)).display.results_due == (0,)
    await table.games.set_results_due(game.game_id, [], forget_table_message=True, now=CLOCK())
    shown = (await table.games.game(game.game_id)).display
    assert (shown.table_message_id, shown.table_deal, shown.results_due) == (None, None, ())

    # a process that reads the file afresh sees the same record
    async with await Database.open(table.path) as other:
        assert (await other.games.game(game.game_id)).display == shown


async def test_the_commit_that_begins_a_game_retires_its_lobby_message(table: Database) -> None:
    game = await table.games.create_game(
        CHAT, "stukolka", {}, seats=USERS, status="lobby", now=CLOCK()
    )
    await ChatDisplay(table).set_table_message(
        game.game_id, 70, now=CLOCK()
    )  # the lobby shows the table so far
    # someone joined: no begin
    await table.games.commit_action(game.game_id, 0, {"n": 1}, None, now=CLOCK())
    lobby = (await table.games.game(game.game_id)).display
    assert (lobby.table_message_id, lobby.lobby_message_id) == (70, None)

    # refused (an old version) and failed (an unknown player) begins change nothing
    with pytest.raises(StaleVersion):
        await table.games.commit_action(game.game_id, 0, {}, None, status="active", now=CLOCK())
    with pytest.raises(UnknownPlayer):
        await table.games.commit_action(
            game.game_id, 1, {}, None, status="active", seats=[A, 404], now=CLOCK()
        )
    assert (await table.games.game(game.game_id)).display == lobby

    await table.games.commit_action(game.game_id, 1, {}, None, status="active", now=CLOCK())
    began = (await table.games.game(game.game_id)).display
    assert (began.table_message_id, began.table_deal, began.lobby_message_id) == (None, None, 70)
    # the first deal's table is a message of its own; later commits leave the lobby message
    await ChatDisplay(table).set_table_message(game.game_id, 71, deal=0, now=CLOCK())
    await table.games.commit_action(game.game_id, 2, {}, ["knock"], status="active", now=CLOCK())
    shown = (await table.games.game(game.game_id)).display
    assert (shown.table_message_id, shown.lobby_message_id) == (71, 70)


def _commit(state: dict[str, Any], action: object, **given: object) -> dict[str, object]:
    """One of ``commit_actions``' commits: ``commit_action``'s arguments, defaults filled in."""
    defaults: dict[str, object] = {
        "seat": None,
        "user_id": None,
        "transfers": [],
        "deal": None,
        "status": None,
    }
    defaults.update(seats=None, turn_deadline=None, now=CLOCK())
    return {"new_state": state, "action": action, **defaults, **given}


async def test_the_commit_that_ends_a_deal_makes_its_hand_messages_old(table: Database) -> None:
    game = await table.games.create_game(
        CHAT, "stukolka", {"table": {"deals": 0}}, seats=USERS, status="active", now=CLOCK()
    )
    await ChatDisplay(table).set_hand_message(game.game_id, A, 72)
    await ChatDisplay(table).set_hand_message(game.game_id, B, 73)
    playing = await table.games.game(game.game_id)
    assert (playing.deal, dict(playing.hand_messages), playing.old_hands) == (0, {A: 72, B: 73}, ())

    # refused and failed commits of the next deal leave the hands as they were
    next_deal = {"table": {"deals": 1}}
    with pytest.raises(StaleVersion):
        await table.games.commit_action(game.game_id, 5, next_deal, None, now=CLOCK())
    with pytest.raises(UnknownPlayer):
        await table.games.commit_action(
            game.game_id, 0, next_deal, None, seats=[A, B, 404], now=CLOCK()
        )
    with pytest.raises(UnknownPlayer):
        await table.games.commit_actions(
            game.game_id,
            0,
            [
                _commit(next_deal, ["end"]),
                _commit(next_deal, None, seats=[404]),
            ],
        )
    assert (await table.games.game(game.game_id)).display == playing.display
    assert await ChatDisplay(table).games_with_old_hands() == []

    # the deal's last move and the next deal, in one transaction: the old hands are old at once
    await table.games.commit_actions(
        game.game_id,
        0,
        [
            _commit({"table": {"deals": 1}}, ["end"]),
            _commit(next_deal, None),
        ],
    )
    dealt = await table.games.game(game.game_id)
    assert (dealt.deal, dict(dealt.hand_messages)) == (1, {})
    assert [(m.user_id, m.deal, m.message_id) for m in dealt.display.old_hands] == [
        (A, 0, 72),
        (B, 0, 73),
    ]
    assert [g.game_id for g in await ChatDisplay(table).games_with_old_hands()] == [game.game_id]

    # the new deal's hands, and a late render of the old deal, recorded as the old deal's
    await ChatDisplay(table).set_hand_message(game.game_id, A, 80)
    await ChatDisplay(table).set_hand_message(game.game_id, C, 81, deal=0)
    await ChatDisplay(table).forget_hand_message(game.game_id, A, 72)  # retired
    await ChatDisplay(table).forget_hand_message(game.game_id, B, 80)  # not his: nothing
    dealt = await table.games.game(game.game_id)
    assert dict(dealt.hand_messages) == {A: 80}
    assert [(m.user_id, m.message_id) for m in dealt.old_hands] == [(B, 73), (C, 81)]
    await ChatDisplay(table).forget_hand_message(game.game_id, B, 73)
    await ChatDisplay(table).forget_hand_message(game.game_id, C, 81)
    assert await ChatDisplay(table).games_with_old_hands() == []
    with pytest.raises(GameNotFound):
        await ChatDisplay(table).forget_hand_message(404, A, 1)


async def test_messages_and_deadlines_for_resuming(table: Database) -> None:
    game = await table.games.create_game(
        CHAT, "stukolka", {}, seats=USERS, turn_deadline=50.0, now=CLOCK()
    )
    await ChatDisplay(table).set_table_message(game.game_id, 77, now=CLOCK())
    await ChatDisplay(table).set_hand_message(game.game_id, A, 5)
    await ChatDisplay(table).set_hand_message(game.game_id, B, 6)
    await ChatDisplay(table).set_hand_message(game.game_id, A, 8)
    await ChatDisplay(table).forget_hand_message(game.game_id, B, 6)
    stored = await table.games.game(game.game_id)
    assert (stored.table_message_id, dict(stored.hand_messages)) == (77, {A: 8})
    with pytest.raises(UnknownPlayer):
        await ChatDisplay(table).set_hand_message(game.game_id, 3, 9)
    with pytest.raises(GameNotFound):
        await ChatDisplay(table).set_table_message(404, 1, now=CLOCK())

    assert [g.game_id for g in await table.games.games_with_deadline_before(60.0)] == [game.game_id]
    assert await table.games.games_with_deadline_before(50.0) == []
    await table.games.commit_action(game.game_id, 0, {}, ["a"], turn_deadline=90.0, now=CLOCK())
    assert await table.games.games_with_deadline_before(60.0) == []
    await table.games.set_turn_deadline(game.game_id, 10.0, now=CLOCK())
    assert [g.game_id for g in await table.games.games_with_deadline_before(60.0)] == [game.game_id]
    assert [g.game_id for g in await table.games.open_games()] == [game.game_id]

    await table.games.commit_action(
        game.game_id, 1, {}, ["end"], status="finished", turn_deadline=5.0, now=CLOCK()
    )
    assert await table.games.games_with_deadline_before(60.0) == []
    assert await table.games.open_games() == []


async def test_concurrent_commits_on_one_database(table: Database) -> None:
    game = await table.games.create_game(CHAT, "stukolka", {}, seats=USERS, now=CLOCK())
    results = await asyncio.gather(
        *(
            table.games.commit_action(game.game_id, 0, {"by": n}, [n], now=CLOCK())
            for n in range(5)
        ),
        return_exceptions=True,
    )
    assert results.count(1) == 1
    assert all(isinstance(result, StaleVersion) for result in results if result != 1)
    assert (await table.games.game(game.game_id)).state == {"by": results.index(1)}


async def test_chats_and_players_are_upserted(table: Database) -> None:
    chat = await table.chats.upsert_chat(CHAT, None, now=CLOCK())
    assert (chat.title, chat.language) == ("friends", None)
    await table.chats.set_chat_language(CHAT, "en", now=CLOCK())
    assert (await table.chats.upsert_chat(CHAT, "renamed", now=CLOCK())).language == "en"
    assert (await table.chats.chat(CHAT)).title == "renamed"  # type: ignore[union-attr]
    assert await table.chats.chat(-5) is None
    with pytest.raises(UnknownChat):
        await table.chats.set_chat_language(-5, "ru", now=CLOCK())

    assert await table.chats.chat_options(CHAT, "stukolka") is None
    await table.chats.set_chat_options(
        CHAT, "stukolka", {"variant": "shleif", "stake": 6}, now=CLOCK()
    )
    await table.chats.set_chat_options(CHAT, "starshina", {"targets": "9-5-2"}, now=CLOCK())
    assert await table.chats.chat_options(CHAT, "stukolka") == {"variant": "shleif", "stake": 6}
    with pytest.raises(UnknownChat):
        await table.chats.set_chat_options(-5, "stukolka", {}, now=CLOCK())

    player = await table.chats.upsert_player(A, "Вася", language="ru", started=True, now=CLOCK())
    assert (player.name, player.language, player.started) == ("Вася", "ru", True)
    player = await table.chats.upsert_player(A, "Василий", now=CLOCK())
    assert (player.name, player.language, player.started) == ("Василий", "ru", True)
    assert (
        await table.chats.upsert_player(A, "Василий", started=False, now=CLOCK())
    ).started is False
    players = await table.chats.players([A, B, 999])
    assert sorted(players) == [A, B]
