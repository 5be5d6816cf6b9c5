"""Settling up: who pays whom so that the players' balances are squared in few payments.

Balances are virtual chips per player (``player → int``); with the chat's pot (the carried
«ремиз») and any open Старшина game pot they sum to zero, so the players' balances sum to
``-pot``. **The pot is not a person and stays on the table**: its chips were paid in by players
who are down, and they are won back by whoever takes tricks in later deals. So every creditor
is paid in full, and the debtors are left owing exactly ``pot`` between them — the chips lying
in the pot. With an empty pot everybody ends at zero.

The method is the usual greedy one: the largest debtor pays the largest creditor as much as
one of them needs, and again, until no creditor is left. Each payment squares at least one of
the two, so there are at most ``n - 1`` payments for ``n`` players with a non-zero balance.
(Finding the true minimum is NP-hard; the greedy list is minimal in the common cases.)

``settle`` is what a front-end shows: the people's payments, whose chips the pot holds, and
where the computers stand (nobody pays or is paid by one); ``evening_money`` the same for one
evening's nets, with its pots.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from storage.evenings import EveningSummary
from tables.computers import is_computer

K = TypeVar("K", bound=Hashable)


class Payment(NamedTuple, Generic[K]):
    payer: K
    payee: K
    amount: int


def settle_up(balances: Mapping[K, int]) -> list[Payment[K]]:
    """The payments that square every creditor, largest first. ``balances`` must sum to
    ``-pot`` for a pot ≥ 0 (see the module docstring); a positive sum raises ``ValueError``.
    Ties are broken by the order of ``balances``, so the result is deterministic."""
    total = sum(balances.values())
    if total > 0:
        raise ValueError("balances sum to more than zero: the pot cannot be negative")
    order = {key: index for index, key in enumerate(balances)}
    creditors = [(-amount, order[key], key) for key, amount in balances.items() if amount > 0]
    debtors = [(amount, order[key], key) for key, amount in balances.items() if amount < 0]
    heapq.heapify(creditors)
    heapq.heapify(debtors)
    payments: list[Payment[K]] = []
    while creditors:
        credit, credit_order, payee = heapq.heappop(creditors)
        debt, debt_order, payer = heapq.heappop(debtors)
        amount = min(-credit, -debt)
        payments.append(Payment(payer, payee, amount))
        if -credit > amount:
            heapq.heappush(creditors, (credit + amount, credit_order, payee))
        if -debt > amount:
            heapq.heappush(debtors, (debt + amount, debt_order, payer))
    return payments


def settle_people(balances: Mapping[K, int]) -> list[Payment[K]]:
    """Like ``settle_up``, among people whose balances need not sum to ``-pot``: computers
    (``tables.computers``) hold the rest, and nobody pays or is paid by a computer. While the
    people are down in sum, every creditor is paid in full and the debtors are left owing the
    pot and what the computers are up; once they are up in sum (the computers lost to them),
    every debtor pays in full and the creditors are left short by what the computers lost."""
    if sum(balances.values()) <= 0:
        return settle_up(balances)
    mirrored = settle_up({key: -amount for key, amount in balances.items()})
    return [Payment(payee, payer, amount) for payer, payee, amount in mirrored]


def left_in_pot(balances: Mapping[K, int], payments: list[Payment[K]]) -> dict[K, int]:
    """What each debtor still owes once ``payments`` are made, largest first: the chips of
    his that lie in the pot (with no computer up, together exactly the pot), which nobody
    pays to anyone and the next deals play for."""
    left = {key: -amount for key, amount in after(balances, payments).items() if amount < 0}
    return dict(sorted(left.items(), key=lambda item: -item[1]))


def after(balances: Mapping[K, int], payments: list[Payment[K]]) -> dict[K, int]:
    """The balances once ``payments`` are made (for tests and for showing what is left)."""
    result = dict(balances)
    for payer, payee, amount in payments:
        result[payer] += amount
        result[payee] -= amount
    return result


@dataclass(frozen=True, slots=True)
class Settlement:
    """Who pays whom among the people of some balances (a chat's, or one evening's nets).

    ``people``: the people's balances, in the order given; ``payments``: ``settle_people`` of
    them; ``left_in_pot``: what each debtor still owes once they are made (``left_in_pot``);
    ``computers``: each computer that is up or down, by its balance, best first."""

    people: dict[int, int]
    payments: list[Payment[int]]
    left_in_pot: dict[int, int]
    computers: list[tuple[int, int]]

    @property
    def square(self) -> bool:
        """Every person at zero: nobody owes, nothing of theirs lies in the pot."""
        return not any(self.people.values())

    def pot_share(self, pot: int) -> dict[int, int]:
        """Whose chips a pot of ``pot`` holds: what each debtor still owes once the payments
        are made, when that is the whole pot (else nothing: computers, or chips that were
        there before, hold some of it)."""
        left = self.left_in_pot
        return dict(left) if pot > 0 and sum(left.values()) == pot else {}


@dataclass(frozen=True, slots=True)
class EveningMoney:
    """What an evening comes to in money, as every front-end says it.

    ``settled``: the people's payments for the evening alone (the pot stays on the table,
    the computers apart); ``chat_pot``: what the chat's pot gained over it, and ``game_pot``
    what the own pots of games still going gained (theirs, not the chat's); ``pot_share``:
    whose chips the chat's pot holds (``Settlement.pot_share``; nothing while a game's own
    pot holds some of the evening's chips); ``from_pot``: what the winners took from a pot
    that was there before the evening (nobody owes those)."""

    settled: Settlement
    chat_pot: int
    game_pot: int
    pot_share: dict[int, int]
    from_pot: int


def evening_money(summary: EveningSummary, name: Callable[[int], str]) -> EveningMoney:
    """``summary``'s money, the people taken in the order of their ``name`` (which breaks the
    ties among the payments: the chat and the page name the same ones)."""
    settled = settle(dict(sorted(summary.nets.items(), key=lambda item: name(item[0]))))
    chat_pot = summary.pot_change - summary.game_pot_change
    return EveningMoney(
        settled,
        chat_pot,
        summary.game_pot_change,
        {} if summary.game_pot_change else settled.pot_share(chat_pot),
        max(0, sum(summary.nets.values())),
    )


def settle(balances: Mapping[int, int]) -> Settlement:
    """The ``Settlement`` of ``balances`` (people and computers together; their order breaks
    the ties among the payments)."""
    people = {user: amount for user, amount in balances.items() if not is_computer(user)}
    payments = settle_people(people)
    computers = sorted(
        ((user, amount) for user, amount in balances.items() if is_computer(user) and amount),
        key=lambda item: -item[1],
    )
    return Settlement(people, payments, left_in_pot(people, payments), computers)
