"""The state of one game of Старшина, across its deals: an explicit phase, whose turn it is,
every card, and the history of finished deals that the exchange and §4.4 need.

The state is mutable; ``rules.apply`` verifies an action completely before it changes anything.
Hidden fields (hands, the kitty, the dealer's discards, the cards exchanged) are ``repr=False``
so that a log line cannot print them; ``views`` builds what each seat may see field by field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final

from game.codec import ABSENT, SHARED_ITEMS, Stored
from game.core import Transfer
from game.starshina.options import StarshinaOptions

SCHEMA = 1


class Phase(StrEnum):
    """Where the game stands (docs/rules.md §4.1, §4.2)."""

    EXCHANGE_GIVE = "exchange_give"  # §4.2: a giver gives one card (updown or ring)
    RING_RETURN = "ring_return"  # §4.2 ring: the receiver returns one card
    NAME_TRUMP = "name_trump"  # §4.1 step 3: the dealer names trump (dealer_names)
    KITTY = "kitty"  # §4.1 step 4: the dealer discards 4, then takes the kitty
    PLAY = "play"  # §4.1 step 5
    DEAL_OVER = "deal_over"  # the deal is settled; the next deal needs a deck
    GAME_OVER = "game_over"  # §4.4: someone won


class Phases:
    """``Phase``'s members as plain class attributes, ``Phases.PLAY is Phase.PLAY``: on
    Python 3.11 the enum class answers ``Phase.PLAY`` through its ``__getattr__`` hook, several
    times slower (3.12 dropped the hook), and the engine and the computer players' playouts test
    the phase at every card."""

    EXCHANGE_GIVE: Final = Phase.EXCHANGE_GIVE
    RING_RETURN: Final = Phase.RING_RETURN
    NAME_TRUMP: Final = Phase.NAME_TRUMP
    KITTY: Final = Phase.KITTY
    PLAY: Final = Phase.PLAY
    DEAL_OVER: Final = Phase.DEAL_OVER
    GAME_OVER: Final = Phase.GAME_OVER


class EndReason(StrEnum):
    """How the game was won (§4.1 step 7, §4.4)."""

    TWELVE = "twelve"  # a player took 12 or more tricks in a deal
    MAX_DEALS = "max_deals"  # the safety stop: the highest sum of diffs


@dataclass(frozen=True, slots=True)
class DealRecord(Stored):
    """A finished deal, public: what the next exchange and the §4.4 rules need."""

    dealer: int
    trump: str | None
    tricks: tuple[int, ...]
    diffs: tuple[int, ...]
    pot_before: int  # the game pot when the deal started
    pot_after: int  # the game pot when it was settled


@dataclass(frozen=True, slots=True)
class Exchanged:
    """One card passed in the exchange and the card that came back (None while a ring receiver
    is choosing). The cards are private to the two seats involved (§4.3)."""

    giver: int
    receiver: int
    card: str = field(repr=False)
    returned: str | None = field(repr=False)

    def to_json(self) -> list[Any]:
        return [self.giver, self.receiver, self.card, self.returned]

    @staticmethod
    def from_json(data: list[Any]) -> Exchanged:
        giver, receiver, card, returned = data
        return Exchanged(giver, receiver, card, returned)


@dataclass(slots=True, eq=True)
class StarshinaState(Stored):
    """A game of Старшина at a table of three (seat 0..2), the current deal in full; its JSON
    and its copy follow from its fields (``game.codec``)."""

    HEADER: ClassVar[Mapping[str, object]] = {"schema": SCHEMA, "game": "starshina"}

    options: StarshinaOptions
    dealer: int
    deal_no: int  # 0 for the game's first deal
    phase: Phase
    to_act: int | None
    trump: str | None  # the named suit (dealer_names), else None
    game_pot: int  # the game's own pot (§4.4 ``pot``): the antes until the game ends
    hands: list[list[str]] = field(repr=False)
    kitty: list[str] = field(repr=False)  # face down; empty once the dealer has taken it
    discards: list[str] = field(repr=False)  # the dealer's four, out of play
    # the kitty's cards once the dealer has them (absent in states stored before)
    kitty_taken: list[str] = field(repr=False, metadata={ABSENT: list})
    queue: list[tuple[int, int]]  # exchange cards still to give, (giver, receiver), next first
    exchanged: list[Exchanged]  # this deal's exchange so far; the cards are repr=False
    trick: list[tuple[int, str]]  # the trick on the table: (seat, card) in play order
    leader: int | None
    trick_winners: list[int]
    played: list[list[tuple[int, str]]] = field(metadata={SHARED_ITEMS: True})  # completed
    tricks: list[int]
    history: list[DealRecord]  # every finished deal of the game, this one once settled
    transfers: list[Transfer]  # every transfer of the game: antes, per-deal and final ones
    winner: int | None = None
    end_reason: EndReason | None = None
