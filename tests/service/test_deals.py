"""Finished deals read back (``tables.deals``): only a deal that is over, its states from the
log up to its end and who sat where; and the game a player last played a deal at, within a
window of the service's clock."""

from __future__ import annotations

import random

from storage.database import Database
from tests.clock import ManualClock
from tests.service.life import START, advance, play_until_deal_ends, service_on, table
from tests.service.test_table_life import USERS, opened


async def test_only_a_deal_that_is_over_reads_back(db: Database) -> None:
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    game = (await opened(service, -1, USERS)).game
    assert await service.deals.deal(game, 0) is None  # in play
    await play_until_deal_ends(service, -1, random.Random(4))
    loaded = await table(service)
    deal = await service.deals.deal(loaded.game, 0)
    assert deal is not None and deal.seats == USERS
    assert deal.tables[-1].deal_over and all(t.deal_no == 0 for t in deal.tables)
    assert not any(t.deal_over for t in deal.tables[:-1])
    assert await service.deals.deal(loaded.game, 1) is None  # the next one, in play
    assert await service.deals.deal(loaded.game, 0) is deal  # kept: it never changes
    await service.halt()


async def test_the_last_game_played_is_found_within_its_window(db: Database) -> None:
    clock = ManualClock(now=START)
    service = service_on(db, clock)
    game_id = (await opened(service, -1, USERS)).game.game_id
    assert await service.deals.last_game(USERS[0], 60) is None  # no deal ended yet
    await play_until_deal_ends(service, -1, random.Random(4))
    await service.stopping.close_lost(-1, None, "bot_removed")
    assert await service.deals.last_game(USERS[0], 60) == game_id
    await advance(service, clock, 61)  # on the service's clock, not the wall's
    assert await service.deals.last_game(USERS[0], 60) is None
    assert await service.deals.last_game(USERS[0], 120) == game_id
    await service.halt()
