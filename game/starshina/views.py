"""What each seat, and the group, may see of a game of Старшина (docs/rules.md §4.3;
docs/architecture.md, "Views hide what a seat may not see").

Views are built field by field from what the viewer may know; nothing is copied from the state
and then deleted. Other hands, the kitty, the dealer's discards and the cards of an exchange
the viewer took no part in cannot be reached from a view: the table sees how many cards
passed, every card played and the trick counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core import Legal, Transfer
from game.starshina import rules
from game.starshina.options import StarshinaOptions
from game.starshina.state import DealRecord, EndReason, Exchanged, Phase, StarshinaState


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """What the table knows of one seat in the current deal."""

    seat: int
    cards: int  # cards in hand
    target: int
    tricks: int
    total_diff: int  # the sum of diffs over the game's finished deals


@dataclass(frozen=True, slots=True)
class Passed:
    """How many cards went from ``giver`` to ``receiver`` in this deal's exchange (each came
    with one back)."""

    giver: int
    receiver: int
    count: int


@dataclass(frozen=True, slots=True)
class PublicView:
    """What the whole group may see."""

    deal_no: int
    dealer: int
    phase: Phase
    to_act: int | None
    trump: str | None
    game_pot: int
    seats: tuple[SeatSummary, ...]
    passed: tuple[Passed, ...]
    exchange_left: tuple[tuple[int, int], ...]  # (giver, receiver) of the cards still to give
    kitty_count: int
    discard_count: int
    trick: tuple[tuple[int, str], ...]
    leader: int | None
    trick_winners: tuple[int, ...]
    last_trick: tuple[tuple[int, str], ...]
    history: tuple[DealRecord, ...]
    winner: int | None
    end_reason: EndReason | None
    transfers: tuple[Transfer, ...]
    options: StarshinaOptions
    played: tuple[tuple[tuple[int, str], ...], ...]  # every completed trick of the deal


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: the table, his hand, the exchanges he took part in, and (the
    dealer) his discards and the cards the kitty gave him."""

    seat: int
    table: PublicView
    hand: tuple[str, ...]
    exchanged: tuple[Exchanged, ...]
    discards: tuple[str, ...]
    legal: tuple[Legal, ...]
    from_kitty: tuple[str, ...] = ()


def _passed(state: StarshinaState) -> tuple[Passed, ...]:
    counts: dict[tuple[int, int], int] = {}
    for item in state.exchanged:
        pair = (item.giver, item.receiver)
        counts[pair] = counts.get(pair, 0) + 1
    return tuple(Passed(giver, receiver, count) for (giver, receiver), count in counts.items())


def public_view(state: StarshinaState) -> PublicView:
    """What the group sees (§4.3): counts, the trump, played cards, tricks and money."""
    target = rules.targets(state.options, state.dealer)
    return PublicView(
        deal_no=state.deal_no,
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        trump=state.trump,
        game_pot=state.game_pot,
        seats=tuple(
            SeatSummary(
                seat=seat,
                cards=len(state.hands[seat]),
                target=target[seat],
                tricks=state.tricks[seat],
                total_diff=sum(record.diffs[seat] for record in state.history),
            )
            for seat in range(len(state.hands))
        ),
        passed=_passed(state),
        exchange_left=tuple(state.queue),
        kitty_count=len(state.kitty),
        discard_count=len(state.discards),
        trick=tuple(state.trick),
        leader=state.leader,
        trick_winners=tuple(state.trick_winners),
        last_trick=tuple(state.played[-1]) if state.played else (),
        history=tuple(state.history),
        winner=state.winner,
        end_reason=state.end_reason,
        transfers=tuple(state.transfers),
        options=state.options,
        played=tuple(tuple(trick) for trick in state.played),
    )


def seat_view(state: StarshinaState, seat: int) -> SeatView:
    """What ``seat`` sees (§4.3): the table, his own cards, his exchanges and, as dealer, his
    discards; his legal actions when it is his turn."""
    if not 0 <= seat < len(state.hands):
        raise ValueError("no such seat")
    return SeatView(
        seat=seat,
        table=public_view(state),
        hand=tuple(state.hands[seat]),
        exchanged=tuple(item for item in state.exchanged if seat in (item.giver, item.receiver)),
        discards=tuple(state.discards) if seat == state.dealer else (),
        legal=tuple(rules.legal_actions(state)) if state.to_act == seat else (),
        from_kitty=tuple(state.kitty_taken) if seat == state.dealer else (),
    )


#: the game-end transfers, which come last in a game's transfer list (§4.4)
GAME_END_REASONS = frozenset({"game_pot", "missed_target"})


def last_deal_money(view: PublicView) -> tuple[list[Transfer], list[Transfer]]:
    """The money of the deal just settled, from the game's transfer list: its ``diff``
    transfers and the game-end ones. The game-end transfers (``game_pot``, ``missed_target``)
    come last, and before them the deal's ``per_trick`` transfers — with three players, one
    fewer than the seats whose diff is not zero (§4.4), so they can be counted off the end."""
    if not view.history:
        return [], []
    transfers = list(view.transfers)
    final: list[Transfer] = []
    while transfers and transfers[-1].reason in GAME_END_REASONS:
        final.insert(0, transfers.pop())
    count = max(0, sum(1 for diff in view.history[-1].diffs if diff) - 1)
    deal = [x for x in transfers[len(transfers) - count :] if x.reason == "diff"] if count else []
    return deal, final
