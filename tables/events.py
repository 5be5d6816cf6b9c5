"""What the tables did, as every front-end is told of it: one stream of frozen records.

A change of a table (a press in the chat, a move on the page, a timeout, a computer's move,
a seat taken or left, a table stopped) is one or more commits; the operation that made it
publishes one ``TableEvent`` (built from its own ``Reply`` by ``recorded``) to every listener
(``Stream``) and hands it back to its caller: the game as last committed
and its version, the rules' events of every step in order — each seen by the whole table or
addressed to the one player at its seat (his cards drawn, a card given him) —, the users whose
own view of the table it changed, the announcements, the results of the deals it ended, and
whether it dealt a new deal or closed the table. Nothing in it is a front-end's: the chat
words it for the group and each private chat, the page for each seat.

The same stream carries what the tables' own time does besides the changes: a chat's evening
ended (``EveningEnded``, from ``tables.evenings``) and, after a restart, a game whose results
no front-end marked posted (``ResultsDue``, from ``tables.runner``). A ``Record`` is any of
the three. The front-ends only listen: none publishes, none calls another.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Concatenate, ParamSpec, Protocol, TypeVar, overload

from game.core import Event
from storage.records import Game
from tables.records import DealResult, Notice, Reply

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Seen:
    """One of the rules' events as the table's people see it: by everyone (``user`` None), or
    by the one user at the seat it is addressed to (it carries a secret)."""

    event: Event
    user: int | None = None


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One change of a table, whoever made it, for every front-end."""

    game: Game
    #: the rules' events of the change's steps, in order
    events: tuple[Seen, ...]
    #: the users whose own view of the table the change concerns: whoever moved or was moved
    #: for first (his view is the one to refresh first), then every seat when the table itself
    #: changed (a look concerns only the looker)
    hands: tuple[int, ...]
    notices: tuple[Notice, ...]
    results: tuple[DealResult, ...]
    lobby_changed: bool
    table_changed: bool
    new_deal: bool  # a new deal was dealt: new hands
    closed: bool  # the table ended (stopped, or its game is over)
    #: it closed because its group cannot be shown it any more, and why: ``bot_removed``,
    #: ``topic_closed`` (``Stopping.close_lost``): the chat shows it no more, no evening takes
    #: it; the page still hears it
    lost: str | None = None

    @property
    def version(self) -> int:
        """The version of the game the change committed last."""
        return self.game.version

    @property
    def public(self) -> tuple[Event, ...]:
        """The events the whole table sees."""
        return tuple(seen.event for seen in self.events if seen.user is None)

    @property
    def private(self) -> Mapping[int, tuple[Event, ...]]:
        """The events addressed to each user, by user."""
        addressed: dict[int, list[Event]] = {}
        for seen in self.events:
            if seen.user is not None:
                addressed.setdefault(seen.user, []).append(seen.event)
        return MappingProxyType({user: tuple(events) for user, events in addressed.items()})

    def seen_by(self, user: int) -> tuple[Event, ...]:
        """The events ``user`` may see, in order: the public ones and the ones to him."""
        return tuple(seen.event for seen in self.events if seen.user in (None, user))

    @staticmethod
    def of(reply: Reply) -> TableEvent:
        """The record of what ``reply``'s change did (every change reads its game back)."""
        game = reply.game
        if game is None:
            raise ValueError("a change that committed no game")
        hands = dict.fromkeys(sorted(reply.hands))
        if reply.table_changed and not reply.closed and game.status == "active":
            hands |= dict.fromkeys(game.seats)
        return TableEvent(
            game=game,
            events=tuple(Seen(event, user) for event, user in reply.events),
            hands=tuple(hands),
            notices=tuple(reply.notices),
            results=tuple(reply.results),
            lobby_changed=reply.lobby_changed,
            table_changed=reply.table_changed,
            new_deal=reply.new_deal,
            closed=reply.closed,
            lost=reply.lost,
        )


@dataclass(frozen=True, slots=True)
class EveningEnded:
    """A chat has ended evenings whose summary is not posted yet (``tables.evenings``): post
    them, after the table messages of ``after_game`` (the stopped table whose end ended the
    evening), if any."""

    chat_id: int
    after_game: int | None = None


@dataclass(frozen=True, slots=True)
class ResultsDue:
    """After a restart (``Runner.recover``): ``game`` has results of ended deals
    (``TableMeta.due``) that no front-end marked posted (``DealSteps.results_posted``): post
    them, once."""

    game: Game


#: what the tables publish to their listeners
Record = TableEvent | EveningEnded | ResultsDue


class Listener(Protocol):
    """A front-end, or any part that follows the tables (``listener.TableListener``)."""

    async def took(self, record: Record) -> None: ...


class Unshown(Exception):
    """A listener failed to take ``record`` (the others took it): the change it tells of is
    committed all the same."""

    def __init__(self, record: Record) -> None:
        super().__init__(f"a listener failed to take {type(record).__name__}")
        self.record = record


class Stream:
    """Where every record of the tables goes out: each listener takes it in turn, in the
    order they were added (the chat, then the page), then the ones that follow the
    front-ends (``after``: the evenings, which a deal's end or a table's close concerns)."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self.after: list[Listener] = []

    async def publish(self, record: Record) -> None:
        """Every listener takes ``record``, even if one before it failed; then ``Unshown``
        (from the first failure) if any did."""
        failed: list[Exception] = []
        for listener in [*self.listeners, *self.after]:
            try:
                await listener.took(record)
            except Exception as error:
                if failed:
                    log.exception("a listener failed to take a record too")
                failed.append(error)
        if failed:
            raise Unshown(record) from failed[0]


class Publishing(Protocol):
    """A unit of the table service whose operations publish their records."""

    stream: Stream


U = TypeVar("U", bound=Publishing)
P = ParamSpec("P")


@overload
def recorded(
    op: Callable[Concatenate[U, P], Awaitable[Reply]],
) -> Callable[Concatenate[U, P], Awaitable[TableEvent]]: ...


@overload
def recorded(
    op: Callable[Concatenate[U, P], Awaitable[Reply | None]],
) -> Callable[Concatenate[U, P], Awaitable[TableEvent | None]]: ...


def recorded(
    op: Callable[Concatenate[U, P], Awaitable[Reply | None]],
) -> Callable[Concatenate[U, P], Awaitable[TableEvent | None]]:
    """An operation of the tables as its callers see it: the change it made published to
    every listener (its unit's ``stream``) and handed back as the frozen ``TableEvent``
    (None where it made none), never the ``Reply`` it builds the change in. The operation's
    locks are let go first: a listener may read the table, or make the next move."""

    @functools.wraps(op)
    async def recording(unit: U, /, *args: P.args, **kwargs: P.kwargs) -> TableEvent | None:
        reply = await op(unit, *args, **kwargs)
        if reply is None:
            return None
        event = TableEvent.of(reply)
        await unit.stream.publish(event)
        return event

    return recording


__all__ = [
    "EveningEnded",
    "Listener",
    "Record",
    "ResultsDue",
    "Seen",
    "Stream",
    "TableEvent",
    "Unshown",
    "recorded",
]
