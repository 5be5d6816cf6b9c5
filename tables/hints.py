"""💡: the strong computer's advice for a player's seat at his turn, whichever front-end asks
(the chat's «💡 Подсказка», the page's 💡). It is thought out from his seat's view
(``Turns.hint_view``: it knows no card he cannot see) off the event loop, once a turn: asked
again at the same turn — from the chat or the page —, the same answer without thinking twice.
Only at his turn, at a table whose chat allows hints (always a practice table), in a game the
computers play. The words are ``tables.hint_words``'."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from game.ai import Advice
from tables.bounded import Recent
from tables.computers import Thinker
from tables.records import Loaded, Refused
from tables.store import TableStore
from tables.turns import Turns

log = logging.getLogger(__name__)

#: the hints kept, one a player's latest turn (the least recently asked go first)
KEPT = 1024


@dataclass(frozen=True, slots=True)
class Advised:
    """A hint: the ``advice`` for ``seat`` of the table as it stands (``loaded``: still the
    turn it was asked at)."""

    advice: Advice
    loaded: Loaded
    seat: int


class Hints:
    """The hints of every table, one thinking a player's turn."""

    def __init__(
        self,
        store: TableStore,
        turns: Turns,
        thinker: Thinker,
        hints_of: Callable[[int], Awaitable[bool]],
    ) -> None:
        self.store = store
        self.turns = turns
        self.thinker = thinker
        self.hints_of = hints_of
        #: (game, user) → ((turn, whether he had looked at his cards), its thinking)
        self._kept: Recent[tuple[int, int], tuple[tuple[int, bool], asyncio.Future[Advice]]] = (
            Recent(KEPT)
        )

    async def offered(self, loaded: Loaded) -> bool:
        """Whether a turn at this table offers 💡: a game the computers play, at a table whose
        chat allows hints."""
        return loaded.plugin.has_computers and await self.hints_of(loaded.game.chat_id)

    async def advise(self, game_id: int, user_id: int, turn: int) -> Advised:
        """The advice for ``user_id`` at his turn ``turn``. Refused: ``no_hints``, not his
        turn (``outdated``, as ``Turns.hint_view`` refuses), ``outdated`` if he moved or
        looked meanwhile, ``hint_failed`` if it could not be worked out (logged)."""
        seated = await self.turns.hint_view(game_id, user_id, turn)
        loaded = await self.store.snapshot(await self.store.games.game(game_id))
        seat = loaded.seat_of(user_id)
        if loaded.table is None or seat is None:
            raise Refused("outdated")
        # a look changes what he may do at the same turn: the hint is thought out again
        stamp = (turn, loaded.table.holding(seat).looked)
        key = (game_id, user_id)
        kept = self._kept.get(key)
        if kept is None or kept[0] != stamp:
            kept = (stamp, asyncio.ensure_future(self.thinker.advise(seated)))
            self._kept[key] = kept
        try:
            advice = await asyncio.shield(kept[1])
        except Exception:
            self._kept.pop(key, None)
            log.exception("a hint failed: game %s, user %s", game_id, user_id)
            raise Refused("hint_failed") from None
        loaded = await self.store.snapshot(await self.store.games.game(game_id))
        if loaded.table is None or (loaded.meta.turn, loaded.table.holding(seat).looked) != stamp:
            raise Refused("outdated")  # he moved or looked (or the clock moved) meanwhile
        return Advised(advice, loaded, seat)
