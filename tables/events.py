"""What a change of a table did, as every front-end is told of it: one frozen record.

A change of a table (a press in the chat, a move on the page, a timeout, a computer's move,
a seat taken or left, a table stopped) is one or more commits; when it is done, the table
service publishes one ``TableEvent`` to every listener (``TableService.publish``): the game
as last committed and its version, the rules' events of every step in order — each seen by
the whole table or addressed to the one player at its seat (his cards drawn, a card given
him) —, the users whose own view of the table it changed, the announcements, the results of
the deals it ended, and whether it dealt a new deal or closed the table. Nothing in it is a
front-end's: the chat words it for the group and each private chat, the page for each seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from game.core import Event
from storage.records import Game
from tables.records import DealResult, Notice, Reply


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
    #: it closed because its group cannot be shown it any more (the bot removed, its forum
    #: topic closed): the chat shows it no more, no evening takes it; the page still hears it
    lost: bool = False

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
    def of(reply: Reply) -> TableEvent | None:
        """The record of what ``reply``'s change did (None: it committed nothing)."""
        game = reply.game
        if game is None:
            return None
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


__all__ = ["Seen", "TableEvent"]
