"""The state of one Стуколка deal: an explicit phase, whose turn it is, and every card.

The state is mutable; ``rules.apply`` verifies an action completely before it changes anything.
Hidden fields (hands, stock, discards, the shleif card) are ``repr=False`` so that a log line
cannot print them; ``views`` builds what each seat may see field by field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar, Final

from game.codec import SHARED_ITEMS, Stored
from game.core import Transfer
from game.stukolka.options import StukolkaOptions

SCHEMA = 1


class Phase(StrEnum):
    """Where the deal stands (docs/rules.md §1.2–§1.5, §3)."""

    CHOOSE = "choose"  # shleif variant: the dealer chooses шлейф or open, before dealing
    KNOCK = "knock"  # §1.3
    PURCHASE = "purchase"  # §1.4: discard 0–3 and draw
    PURCHASE_DROP = "purchase_drop"  # shleif dealer or dark player drops 1 of 4
    RAZREZ = "razrez"  # §3: a passer may go в разрез
    RAZREZ_DROP = "razrez_drop"  # the razrez buyer drops 1 of 4
    PLAY = "play"  # §1.5
    DEAL_OVER = "deal_over"


class Role(StrEnum):
    """What a seat does in this deal. Every role but NONE and PASS is active (§1.1)."""

    NONE = "none"  # not asked yet
    KNOCK = "knock"
    PASS = "pass"
    DARK = "dark"
    SHLEIF_DEALER = "shleif_dealer"  # the dealer of a шлейф deal: plays without knocking
    RAZREZ = "razrez"
    DEFENDER = "defender"  # the dealer playing «за кон» (lone_player = dealer_defends)


ACTIVE_ROLES = frozenset({Role.KNOCK, Role.DARK, Role.SHLEIF_DEALER, Role.RAZREZ, Role.DEFENDER})


class Outcome(StrEnum):
    """How a finished deal was decided."""

    NOBODY = "nobody"  # no active player: the pot carries over
    LONE = "lone"  # one active player took the pot without play
    PLAYED = "played"


# On Python 3.11 the enum class answers ``Phase.PLAY`` through its ``__getattr__`` hook, several
# times slower than a plain class answers an attribute (3.12 dropped the hook). The engine and
# the playouts of the computer players test phases and roles millions of times, so they read
# the same members from these plain classes: ``Phases.PLAY is Phase.PLAY``, in a ``match``
# value pattern as in an ``is`` test.


class Phases:
    """``Phase``'s members as plain class attributes (see above)."""

    CHOOSE: Final = Phase.CHOOSE
    KNOCK: Final = Phase.KNOCK
    PURCHASE: Final = Phase.PURCHASE
    PURCHASE_DROP: Final = Phase.PURCHASE_DROP
    RAZREZ: Final = Phase.RAZREZ
    RAZREZ_DROP: Final = Phase.RAZREZ_DROP
    PLAY: Final = Phase.PLAY
    DEAL_OVER: Final = Phase.DEAL_OVER


class Roles:
    """``Role``'s members as plain class attributes (see above)."""

    NONE: Final = Role.NONE
    KNOCK: Final = Role.KNOCK
    PASS: Final = Role.PASS
    DARK: Final = Role.DARK
    SHLEIF_DEALER: Final = Role.SHLEIF_DEALER
    RAZREZ: Final = Role.RAZREZ
    DEFENDER: Final = Role.DEFENDER


class Outcomes:
    """``Outcome``'s members as plain class attributes (see above)."""

    NOBODY: Final = Outcome.NOBODY
    LONE: Final = Outcome.LONE
    PLAYED: Final = Outcome.PLAYED


@dataclass(slots=True, eq=True)
class StukolkaState(Stored):
    """One deal of Стуколка at a table of ``players`` seats (seat 0..players-1); its JSON and
    its copy follow from its fields (``game.codec``)."""

    HEADER: ClassVar[Mapping[str, object]] = {"schema": SCHEMA, "game": "stukolka"}

    options: StukolkaOptions
    players: int
    dealer: int
    deal_no: int
    pot_in: int  # the pot carried into the deal, before the antes
    pot: int  # P: the pot after the antes, fixed for the deal
    phase: Phase
    to_act: int | None
    shleif: bool | None  # None until the shleif-variant dealer has chosen
    trump: str | None  # the trump suit, public once dealt
    trump_card: str | None = field(repr=False)
    hands: list[list[str]] = field(repr=False)
    stock: list[str] = field(
        repr=False
    )  # top first; in classic/open deals stock[0] may be the trump card
    shleif_card_held: bool  # the shleif card lies apart with the dealer, not yet added to his hand
    looked: list[bool]
    roles: list[Role]
    knock_order: list[int]  # seats that knocked or went dark, in order
    queue: list[int]  # seats still to be asked in this phase, after ``to_act``
    bought: list[int | None]  # cards drawn in the purchase (None: did not buy)
    discards: list[list[str]] = field(repr=False)  # dead cards each seat put away, face down
    dead: list[list[str]] = field(repr=False)  # hands thrown in: passers, razrez originals
    razrez_last: int | None
    trick: list[tuple[int, str]]  # the trick on the table: (seat, card) in play order
    leader: int | None
    trick_winners: list[int]
    played: list[list[tuple[int, str]]] = field(metadata={SHARED_ITEMS: True})  # completed tricks
    tricks: list[int]
    transfers: list[Transfer]
    pot_after: int | None = None
    outcome: Outcome | None = None

    @property
    def active(self) -> list[int]:
        """Seats that play this deal, in seat order."""
        return [seat for seat in range(self.players) if self.roles[seat] in ACTIVE_ROLES]
