"""A game's own pot that is won in the middle of the game and filled again («Копилка»,
``tests/plugin/kopilka.py``), at a table stopped with chips in it: the pot goes back to who
paid into it since it was last taken, and no chip more (docs/rules.md §5 "Stopping")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.cards import FULL_DECK
from game.core import Action
from server.games import Library
from storage.database import Database
from tables import TableService
from tests.e2e.test_kopilka import chosen
from tests.library import library_with
from tests.moves import press
from tests.plugin import kopilka

USERS = [101, 102, 103]

#: each deal's hands, seat by seat: the first a pair of aces takes the копилка, the second has
#: no pair, so its taker does not and the копилка carries on
HANDS = [
    [["AS", "AH", "2C"], ["KS", "QS", "3C"], ["4D", "5D", "6D"]],
    [["2S", "3S", "4S"], ["5H", "7H", "9H"], ["JC", "QC", "KC"]],
]


def rigged(hands: list[list[str]]) -> list[str]:
    dealt = [card for hand in hands for card in hand]
    return dealt + [card for card in FULL_DECK if card not in dealt]


@pytest.fixture
def library() -> Iterator[Library]:
    games = library_with(kopilka.OFFERED)
    yield games


async def test_a_stopped_table_gives_back_what_its_pot_holds_since_it_was_taken(
    db: Database, library: Library
) -> None:
    service = TableService(db, games=library.games, turn_timeout=30)
    decks = iter(rigged(hands) for hands in HANDS)
    service.steps.deck = lambda: next(decks)  # type: ignore[method-assign]
    await service.lobby.new_table(-1, USERS[0], kopilka.KIND)
    for user in USERS[1:]:
        await service.lobby.join(-1, user)
    await service.lobby.begin(-1, USERS[0], lambda user: True)
    for deal, hands in enumerate(HANDS):
        if deal == 1:
            await service.stopping.stop(-1, USERS[0], is_admin=False)  # after this deal
        for _ in USERS:
            loaded = await service.store.active(-1)
            assert loaded is not None and loaded.table is not None
            seat = loaded.table.to_act
            assert seat is not None
            action = Action(seat, "lay", tuple(chosen(hands[seat])))
            game_id, user = loaded.game.game_id, loaded.seats[seat]
            await press(service, game_id, user, loaded.meta.turn, action, loaded.table)
    game = await db.games.game(game_id)
    assert game.status == "finished"
    seats = list(game.seats)
    balances = await db.ledger.balances(-1)
    assert balances.total == 0 and not balances.game_pots, balances
    # deal 1: seat 0's aces take the stakes (2) and the копилка (3), each ante 1; deal 2:
    # seat 2 takes the stakes, and the копилка of deal 2's antes goes back to who paid them
    nets = [-1 + 2 + 3 - 1 - 1 + 1, -1 - 1 - 1 - 1 + 1, -1 - 1 - 1 + 2 + 1]
    assert nets == [3, -3, 0]
    assert {seats[seat]: net for seat, net in enumerate(nets)} == dict(balances.players)
