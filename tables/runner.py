"""The runner: the tables' own time. A table with no front-end attached still times out its
turns, and its computers and away players still move.

Every commit tells the runner (``TableStore.committed``) the game's turn and its stored turn
deadline, and the runner arms that game's timer for it (``Timers``, on the service's clock); a
game that closes loses its timer. When a timer fires, the runner makes the move that is due
(``Turns.timeout``: the default move of a player out of time, or a computer's or an away
player's move once its pause is over), whose operation publishes its record (``events.Stream``:
every front-end shows it as a press's).

After a restart every table resumes, front-end or none: ``recover`` deals on a table an older
version left frozen between a deal's end and the next deal (its record published) and
publishes, once, the results of ended deals that no front-end marked posted (``ResultsDue``);
then ``start`` arms every open game's timer again from its
stored deadline: the time that was left, not a fresh turn.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from storage.database_games import Games
from storage.records import Game
from tables.events import Record, ResultsDue, TableEvent
from tables.timers import Timers
from tables.turns import Turns

#: how a record made by the tables themselves reaches the front-ends (``events.Stream``)
Publish = Callable[[Record], Awaitable[None]]
#: a frozen table dealt on (``Stopping.unfreeze``): its change, None if it was not frozen
Unfreeze = Callable[[int], Awaitable[TableEvent | None]]


def turn_of(game: Game) -> int:
    """The turn number a stored game is at (what its buttons carry)."""
    table: Any = game.state.get("table") or {}
    turn = table.get("turn", 0)
    return turn if isinstance(turn, int) else 0


class Runner:
    """Arms each open game's timer from its commits, makes the moves that come due, and
    publishes their records."""

    def __init__(
        self,
        games: Games,
        turns: Turns,
        unfreeze: Unfreeze,
        clock: Callable[[], float],
        publish: Publish,
        *,
        stepped: bool = False,
    ) -> None:
        self.games = games
        self.unfreeze = unfreeze
        self.publish = publish
        #: each game's turn timer; when it fires, the move that is due (its record goes out
        #: with it)
        self.timers = Timers(turns.timeout, clock, stepped=stepped)

    # ------------------------------------------------------------------ the commits

    def committed(self, game: Game) -> None:
        """A commit: the game's timer runs for its turn to its stored deadline, or stops."""
        if game.status == "active" and game.turn_deadline is not None:
            self.timers.arm(game.game_id, turn_of(game), game.turn_deadline)
        else:
            self.timers.cancel(game.game_id)

    # ------------------------------------------------------------------ life

    async def recover(self) -> None:
        """After a restart, before any timer runs: the frozen tables dealt on, the results
        still due published."""
        unfrozen: set[int] = set()
        for game in await self.games.open_games():
            if game.status == "active" and game.turn_deadline is None:
                # frozen by an older version between a deal's end and the next deal: its
                # result is published with the next deal (or the table's end)
                event = await self.unfreeze(game.game_id)  # (published with its result)
                if event is not None and event.results:
                    unfrozen.add(game.game_id)
        for game in await self.games.games_with_results_due():
            if game.game_id not in unfrozen:  # its results went out with its change
                await self.publish(ResultsDue(game))

    async def start(self) -> None:
        """Every open game's timer, with the time that was left (after a restart)."""
        for game in await self.games.open_games():
            self.committed(game)
