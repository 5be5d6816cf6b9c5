"""What each seat, and the group, may see of a Стуколка deal (docs/rules.md §1.2, §3;
docs/architecture.md, "Views hide what a seat may not see").

Views are built field by field from what the viewer may know; nothing is copied from the
state and then deleted. Other hands, the stock, discards and the шлейф card (until the deal
ends) cannot be reached from a view.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core import Legal, Transfer
from game.stukolka import rules
from game.stukolka.options import StukolkaOptions
from game.stukolka.state import Outcome, Phase, Role, StukolkaState


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """What the table knows of one seat."""

    seat: int
    role: Role
    cards: int  # cards in hand (a passer's dead cards included)
    bought: int | None
    tricks: int
    looked: bool


@dataclass(frozen=True, slots=True)
class PublicView:
    """What the whole group may see."""

    deal_no: int
    players: int
    dealer: int
    phase: Phase
    to_act: int | None
    pot_in: int
    pot: int
    shleif: bool | None
    trump: str | None
    trump_card: str | None  # face up (classic, opened deal), or the шлейф card once revealed
    trump_card_on_stock: bool
    stock_count: int
    seats: tuple[SeatSummary, ...]
    trick: tuple[tuple[int, str], ...]
    leader: int | None
    trick_winners: tuple[int, ...]
    last_trick: tuple[tuple[int, str], ...]
    outcome: Outcome | None
    pot_after: int | None
    transfers: tuple[Transfer, ...]
    # what the table heard and saw in order, which the computer players reason from
    options: StukolkaOptions
    knock_order: tuple[int, ...]  # seats that knocked or went dark, in order
    queue: tuple[int, ...]  # seats still to be asked in this phase after ``to_act``
    razrez_last: int | None
    played: tuple[tuple[tuple[int, str], ...], ...]  # every completed trick of the deal
    trump_card_taker: int | None  # who drew the face-up trump card from the stock
    remiz: int = 0  # what a remiz costs in this deal: the pot, capped by ``remiz_cap`` (§1.3)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: the table plus his own cards (once he has looked)."""

    seat: int
    table: PublicView
    hand: tuple[str, ...] | None  # None until he has looked
    hand_count: int
    shleif_card: str | None  # the dealer of a шлейф deal sees it
    discards: tuple[str, ...]
    legal: tuple[Legal, ...]
    may_look: bool
    #: why he may not play every card of his hand now (a reason code of §1.5), or None
    restriction: str | None = None


def public_view(state: StukolkaState) -> PublicView:
    over = state.phase is Phase.DEAL_OVER
    shown_trump = state.trump_card if (state.shleif is False or over) else None
    return PublicView(
        deal_no=state.deal_no,
        players=state.players,
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        pot_in=state.pot_in,
        pot=state.pot,
        shleif=state.shleif,
        trump=state.trump,
        trump_card=shown_trump,
        trump_card_on_stock=bool(
            state.shleif is False and state.stock and state.stock[0] == state.trump_card
        ),
        stock_count=len(state.stock) if state.shleif is not None else 0,
        seats=tuple(
            SeatSummary(
                seat=seat,
                role=state.roles[seat],
                cards=len(state.hands[seat]),
                bought=state.bought[seat],
                tricks=state.tricks[seat],
                looked=state.looked[seat],
            )
            for seat in range(state.players)
        ),
        trick=tuple(state.trick),
        leader=state.leader,
        trick_winners=tuple(state.trick_winners),
        last_trick=tuple(state.played[-1]) if state.played else (),
        outcome=state.outcome,
        pot_after=state.pot_after,
        transfers=tuple(state.transfers),
        options=state.options,
        knock_order=tuple(state.knock_order),
        queue=tuple(state.queue),
        razrez_last=state.razrez_last,
        played=tuple(tuple(trick) for trick in state.played),
        trump_card_taker=_trump_card_taker(state),
        remiz=state.pot
        if state.options.remiz_cap is None
        else min(state.pot, state.options.remiz_cap),
    )


def _trump_card_taker(state: StukolkaState) -> int | None:
    """The seat that drew the face-up trump card (classic and opened deals): everyone saw it
    leave the stock. None while it lies there, and in a шлейф deal."""
    card = state.trump_card
    if state.shleif is not False or card is None or card in state.stock:
        return None
    for seat in range(state.players):
        if card in state.hands[seat] or card in state.discards[seat]:
            return seat
    for trick in [*state.played, state.trick]:
        for seat, played in trick:
            if played == card:
                return seat
    return None


def seat_view(state: StukolkaState, seat: int) -> SeatView:
    if not 0 <= seat < state.players:
        raise ValueError("no such seat")
    looked = state.looked[seat]
    shleif_dealer = state.roles[seat] is Role.SHLEIF_DEALER and state.shleif_card_held
    return SeatView(
        seat=seat,
        table=public_view(state),
        hand=tuple(state.hands[seat]) if looked else None,
        hand_count=len(state.hands[seat]),
        shleif_card=state.trump_card if shleif_dealer else None,
        discards=tuple(state.discards[seat]),
        legal=tuple(rules.legal_actions(state)) if state.to_act == seat else (),
        may_look=not looked
        and not rules.dark_blind(state, seat)
        and state.phase not in (Phase.CHOOSE, Phase.DEAL_OVER),
        restriction=rules.play_restriction(state, seat)
        if state.phase is Phase.PLAY and state.to_act == seat
        else None,
    )
