"""``TableService``: the one object the handlers, screens and timers hold for every table.

It builds the service's units, and its callers ask the unit that does what they want
(``service.lobby.join``, ``service.turns.act``, ``service.settings.chat_options``…); it holds
no logic of its own and forwards nothing. Each unit gets the units and the storage
repositories (``Database.games``, ``.chats``, ``.ledger``…) it needs, and nothing reaches
back:

- ``ChatSettings`` (``chat_settings.py``): game options, turn time, away play per chat;
- ``TableStore`` (``store.py``): the locks, reading and the read cache, one commit under the
  version check;
- ``DealSteps`` (``steps.py``): a rules step committed, then the forced steps, one at a time;
  a deal's end and the next deal;
- ``Lobby`` (``lobby.py``), ``Turns`` (``turns.py``) and ``Stopping`` (``stopping.py``): the
  operations, each given the store, the steps and (lobby, stopping) the chat's settings;
- ``Hints`` (``hints.py``): 💡, the strong computer's advice at a player's turn, once a turn;
- ``Evenings`` (``evenings.py``): when a chat's run of play ends;
- ``People`` (``people.py``): names, languages, card style, places and seats, for every
  front-end;
- ``Money`` (``money.py``) and ``Scores`` (``scores.py``): balances and pots, figures,
  standings and history as the front-ends show them;
- ``FinishedDeals`` (``deals.py``): a finished deal's states read back from the log, for a
  front-end that shows it again;
- ``Runner`` (``runner.py``): the tables' own time: each game's turn timer, armed from its
  commits, and the moves that come due (a timeout, a computer's or an away player's move);
  and every table resumed after a restart (``start``);
- ``StorageHealth`` (``storage_health.py``): how the database is, for a health check.

The front-ends (``stream.listeners``, each a ``listener.TableListener``) are told of every
record the tables make (``events.Record``) by the ``stream``: each change of a table,
whoever made it (a press in the chat, a move on the page, the runner), as the frozen
``TableEvent`` its operation publishes before it hands it back; an evening ended; a result
due after a restart. The evenings take the stream last. A front-end sends commands and
listens; it never publishes, and never calls another.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from storage.database import Database
from tables.chat_settings import ChatSettings
from tables.computers import Thinker
from tables.deals import FinishedDeals
from tables.evenings import Evenings
from tables.events import Stream
from tables.games import Catalogue
from tables.hints import Hints
from tables.lobby import Lobby
from tables.money import Money
from tables.people import People
from tables.presence import Presence
from tables.runner import Runner
from tables.scores import Scores
from tables.steps import DealSteps, new_seed
from tables.stopping import Stopping
from tables.storage_health import StorageHealth
from tables.store import TableStore
from tables.turns import Turns


class TableService:
    """Lobbies, turns, timeouts, deals and money for every chat, on ``clock`` (``stepped``: a
    clock that moves only when its owner says so, with ``clock_moved``, as a test's does; no
    timer then waits in the loop's own time)."""

    def __init__(
        self,
        db: Database,
        *,
        games: Catalogue,
        turn_timeout: float,
        clock: Callable[[], float] = time.time,
        stepped: bool = False,
        seed: Callable[[], str] = new_seed,
        computer_pause: float = 1.5,
        thinker: Thinker | None = None,
        default_language: str = "ru",
    ) -> None:
        #: the games the tables offer, in menu order
        self.games = games
        #: every record of the tables goes out here: the front-ends listen
        #: (``stream.listeners``), then the evenings
        self.stream = Stream()
        self.thinker = thinker or Thinker()
        # every write is stamped on the store's clock, read at each call (a test sets the
        # store's clock to move the service's time)
        self.settings = ChatSettings(
            db.chats, db.games, games, turn_timeout=turn_timeout, clock=lambda: self.store.clock()
        )
        self.store = TableStore(
            db.games, db.ledger, self.settings, clock=clock, computer_pause=computer_pause
        )
        #: names, languages, card style, places and seats, as every front-end shows them
        self.people = People(
            db.chats, db.games, default_language, self.store.active, lambda: self.store.clock()
        )
        self.steps = DealSteps(self.store, self.settings, seed=seed)
        self.lobby = Lobby(self.store, self.steps, self.settings, db.chats, db.history, self.stream)
        self.turns = Turns(
            self.store, self.steps, self.thinker, self.settings.hints_of, self.stream
        )
        self.stopping = Stopping(self.store, self.steps, self.settings, self.stream)
        self.hints = Hints(self.store, self.turns, self.thinker, self.settings.hints_of)
        # on the service's clock, as every commit stamps its deals (an evening's) with it
        self.evenings = Evenings(
            db.evenings,
            db.games,
            games,
            self.stream.publish,
            lambda: self.store.clock(),
            stepped=stepped,
        )
        self.stream.after.append(self.evenings)
        self.money = Money(db.ledger, db.games, db.history, db.stats, db.chats, games)
        self.scores = Scores(db.history, db.stats, lambda: self.store.clock())
        #: finished deals read back (the page's score cards and replays)
        self.deals = FinishedDeals(db.games, db.history, games, lambda: self.store.clock())
        self.runner = Runner(
            db.games,
            self.turns,
            self.stopping.unfreeze,
            clock,
            self.stream.publish,
            stepped=stepped,
        )
        #: who looks at a table on the page now (the chat stands back for him meanwhile)
        self.presence = Presence(clock=clock)
        #: how the database is, for a health check
        self.health = StorageHealth(db)
        self.store.committed.append(self.runner.committed)

    async def start(self) -> None:
        """The tables run again after a restart, with or without a front-end: frozen tables
        dealt on and the results still due handed to the listeners (``Runner.recover``), then
        ``run``. (The program lets its front-ends show their tables again between the two, so
        that no move comes first.)"""
        await self.runner.recover()
        await self.run()

    async def run(self) -> None:
        """Every turn's timer armed for the time that was left (``Runner.start``), every open
        evening's gap timed again and the ended evenings handed out (``Evenings.resume``)."""
        await self.runner.start()
        await self.evenings.resume()

    def clock_moved(self) -> None:
        """The clock jumped (a test's clock): every turn's and evening's timer again for its
        deadline."""
        self.runner.timers.clock_moved()
        self.evenings.timers.clock_moved()

    async def halt(self) -> None:
        """No turn or evening timer fires any more, nor a page's lapse (no front-end is told
        of one once the program stops); the moves being made finish first."""
        self.presence.close()
        await self.runner.timers.stop()
        await self.evenings.timers.stop()

    @property
    def turn_timeout(self) -> float:
        """Seconds a decision may take where the chat chose none (TURN_TIMEOUT)."""
        return self.settings.turn_timeout

    @property
    def clock(self) -> Callable[[], float]:
        return self.store.clock

    @property
    def computer_pause(self) -> float:
        """Seconds a computer waits before its move, so the people can follow the table."""
        return self.store.computer_pause
