"""The one reader of numbers people type after a command or carry in a deep link: ASCII
digits only, no more than the range needs, inside the range; anything else is None, never an
exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.arguments import MAX_GAME_ID, game_link, linked_game, whole_number
from tests.depth import deep

NOT_NUMBERS = (
    "", " ", "²", "¹²", "٣", "۳", "३", "٣٠", "1²", "1_000", "+5", "-5", " 5", "5 ", "5\n", "0x10",
    "1e3", "５", "⑤", "Ⅴ", "5.0", "五", "\x00", "𝟓",
)  # fmt: skip


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_only_ascii_digits_are_a_number(text: str) -> None:
    assert whole_number(text, 0, 10**6) is None


def test_the_range_bounds_the_value_and_the_digits() -> None:
    assert whole_number("1", 1, 12) == 1
    assert whole_number("12", 1, 12) == 12
    assert whole_number("07", 1, 12) == 7
    assert whole_number("0", 1, 12) is None
    assert whole_number("13", 1, 12) is None
    assert whole_number("007", 1, 12) is None  # more digits than 12 has
    assert whole_number("9" * 30, 1, 12) is None
    assert whole_number("9" * 5000, 0, MAX_GAME_ID) is None  # int() would refuse, slowly
    with pytest.raises(ValueError):
        whole_number("1", 5, 1)


def test_a_minus_only_where_the_range_goes_below_zero() -> None:
    assert whole_number("-1", 0, 99) is None
    assert whole_number("-1", -99, 99) == -1
    assert whole_number("-0", -99, 99) == 0
    assert whole_number("-100", -99, 99) is None
    assert whole_number("--1", -99, 99) is None
    assert whole_number("-", -99, 99) is None
    assert whole_number("-²", -99, 99) is None
    assert whole_number("-5", -10, -2) == -5
    assert whole_number("5", -10, -2) is None


@settings(max_examples=deep(400))
@given(st.text(), st.integers(-(10**6), 10**6), st.integers(0, 10**6))
def test_any_text_is_a_number_in_range_or_none(text: str, low: int, span: int) -> None:
    value = whole_number(text, low, low + span)
    if value is not None:
        assert low <= value <= low + span
        digits = text.removeprefix("-")
        assert digits.isascii() and digits.isdigit() and int(text) == value


@given(st.integers(0, 10**30).map(str), st.integers(0, 4000), st.integers(0, 4000))
def test_every_number_in_range_is_read(text: str, low: int, span: int) -> None:
    inside = low <= int(text) <= low + span and len(text) <= len(str(low + span))
    assert (whole_number(text, low, low + span) is not None) == inside


@given(st.integers(1, MAX_GAME_ID))
def test_a_lobby_link_names_its_game(game_id: int) -> None:
    assert linked_game(game_link(game_id)) == game_id


@pytest.mark.parametrize(
    "payload",
    [None, "", "g", "g0", "g²", "g٣", "g-3", "G12", "g 12", "g12 ", "12", "x12", "g" + "9" * 30,
     f"g{MAX_GAME_ID + 1}", "g1_0", "gg1"],
)  # fmt: skip
def test_any_other_payload_names_no_game(payload: str | None) -> None:
    assert linked_game(payload) is None


@settings(max_examples=deep(200))
@given(st.one_of(st.none(), st.text(), st.text().map(lambda text: "g" + text)))
def test_any_payload_is_a_game_or_none(payload: str | None) -> None:
    found = linked_game(payload)
    if found is not None:
        assert payload is not None and 1 <= found <= MAX_GAME_ID
        assert payload.startswith("g") and payload[1:].isascii() and int(payload[1:]) == found
