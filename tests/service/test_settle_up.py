"""Settling up: every creditor squared, the pot left with the debtors, at most n − 1 payments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage.evenings import Evening, EveningSummary
from tables.settle_up import Payment, after, evening_money, settle, settle_people, settle_up


@st.composite
def balances_with_pot(draw: st.DrawFn) -> tuple[dict[str, int], int]:
    """Balances of up to 10 players summing to −pot for a pot ≥ 0."""
    players = draw(st.integers(1, 10))
    values = draw(st.lists(st.integers(-500, 500), min_size=players, max_size=players))
    pot = draw(st.integers(0, 300))
    values[-1] -= sum(values) + pot
    return {f"p{index}": value for index, value in enumerate(values)}, pot


@given(balances_with_pot())
def test_payments_square_the_creditors(case: tuple[dict[str, int], int]) -> None:
    balances, pot = case
    payments = settle_up(balances)
    left = after(balances, payments)
    assert all(value <= 0 for value in left.values())
    assert sum(left.values()) == -pot
    for name, value in left.items():
        assert value == 0 or balances[name] < 0  # only debtors keep the pot's share
        assert abs(value) <= abs(balances[name])  # nobody owes more than before
    nonzero = sum(1 for value in balances.values() if value)
    assert len(payments) <= max(0, nonzero - 1)
    for payer, payee, amount in payments:
        assert amount > 0
        assert balances[payer] < 0 < balances[payee]


@given(balances_with_pot())
def test_with_an_empty_pot_everybody_is_square(case: tuple[dict[str, int], int]) -> None:
    balances, pot = case
    balances = dict(balances)
    last = next(reversed(balances))
    balances[last] += pot
    assert sum(balances.values()) == 0
    payments = settle_up(balances)
    assert all(value == 0 for value in after(balances, payments).values())
    assert len(payments) <= max(0, len(balances) - 1)


def test_examples() -> None:
    assert settle_up({"a": -10, "b": 6, "c": 4}) == [Payment("a", "b", 6), Payment("a", "c", 4)]
    assert settle_up({"a": 0, "b": 0}) == []
    assert settle_up({}) == []
    # the pot (3) stays on the table: the smallest debtor keeps owing it
    payments = settle_up({"a": -8, "b": -5, "c": 10})
    assert payments == [Payment("a", "c", 8), Payment("b", "c", 2)]
    assert after({"a": -8, "b": -5, "c": 10}, payments) == {"a": 0, "b": -3, "c": 0}


def test_a_negative_pot_is_refused() -> None:
    with pytest.raises(ValueError):
        settle_up({"a": 5, "b": -2})


@st.composite
def people_and_computers(draw: st.DrawFn) -> tuple[dict[str, int], int]:
    """People's balances with a pot ≥ 0 and computers holding any rest (up or down)."""
    balances, pot = draw(balances_with_pot())
    computers = draw(st.integers(-400, 400))
    first = next(iter(balances))
    balances[first] -= computers  # what the people lost to (or won from) the computers
    return balances, pot + computers


@given(people_and_computers())
def test_people_settle_among_themselves_whatever_the_computers_hold(
    case: tuple[dict[str, int], int],
) -> None:
    balances, held = case  # ``held``: the pot plus what the computers are up
    payments = settle_people(balances)
    left = after(balances, payments)
    assert len(payments) <= max(len(balances) - 1, 0)
    assert all(p.amount > 0 and balances[p.payer] < 0 < balances[p.payee] for p in payments)
    if held >= 0:  # every creditor paid in full; the debtors keep what the others hold
        assert all(value <= 0 for value in left.values())
    else:  # every debtor pays in full; the creditors are short by what the computers lost
        assert all(value >= 0 for value in left.values())
    assert sum(left.values()) == -held


def test_settle_leaves_the_computers_out_and_says_whose_chips_the_pot_holds() -> None:
    # two people down 10 and 4, one up 6, a strong computer up 5 and an easy one down 1: the
    # pot holds 4 (the balances sum to -4)
    settled = settle({1: -10, -1: 5, 2: -4, -11: -1, 3: 6})
    assert settled.people == {1: -10, 2: -4, 3: 6}
    assert settled.payments == [Payment(1, 3, 6)]
    assert settled.left_in_pot == {1: 4, 2: 4}
    assert settled.computers == [(-1, 5), (-11, -1)]
    assert not settled.square
    assert settle({1: 0, 2: 0, -1: 0}).square
    assert settle({1: 0, 2: 0, -1: 0}).computers == []


def _summary(nets: dict[int, int], pot_change: int, game_pot_change: int = 0) -> EveningSummary:
    evening = Evening(1, -100, 1_000.0, 4_000.0, 5, None, False, 3_600)
    return EveningSummary(
        evening=evening,
        deals=5,
        kinds={},
        nets=nets,
        running={},
        figures={},
        biggest_win=None,
        pot_change=pot_change,
        game_pot_change=game_pot_change,
    )


def test_an_evenings_money_is_reckoned_once_for_the_chat_and_the_page() -> None:
    names = {1: "Вика", 2: "Аня", 3: "Борис", 4: "Гена"}
    # Аня and Борис down 5 each, Вика up 4, Гена up 4: the chat's pot gained 2, owed by the
    # two in name order once the ties are broken so
    money = evening_money(_summary({1: 4, 2: -5, 3: -5, 4: 4}, 2), names.__getitem__)
    assert money.settled.payments == [Payment(2, 1, 4), Payment(3, 4, 4)]
    assert (money.chat_pot, money.game_pot, money.from_pot) == (2, 0, 0)
    assert money.pot_share == {2: 1, 3: 1}
    # the same whatever order the nets come in: the names break the ties
    shuffled = evening_money(_summary({4: 4, 3: -5, 2: -5, 1: 4}, 2), names.__getitem__)
    assert shuffled == money
    # a game still going holds part of the evening's chips in its own pot: nobody's share is
    # said, and the chat's pot is what is left of the gain
    held = evening_money(_summary({1: 4, 2: -5, 3: -5, 4: 4}, 2, 2), names.__getitem__)
    assert (held.chat_pot, held.game_pot, held.pot_share) == (0, 2, {})
    # the winners took chips the pot held before the evening: nobody owes those
    took = evening_money(_summary({1: 6, 2: -2}, -4), names.__getitem__)
    assert (took.from_pot, took.pot_share, took.settled.payments) == (4, {}, [Payment(2, 1, 2)])
