"""The callback_data codec: exact round trips, at most 64 ASCII bytes for the largest ids, and
nothing but ``BadCallback`` for anything else (fuzzed)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.callback import (
    GAP_CHOICES,
    MAX_BYTES,
    MAX_ID,
    MAX_MASK,
    VERBS,
    Act,
    ArgKind,
    Back,
    BadCallback,
    Callback,
    CardRanks,
    EveningGap,
    Lobby,
    Look,
    NewGame,
    Page,
    RulesOf,
    Select,
    Settings,
    decode,
    encode,
    mask_indices,
    mask_of,
)
from bot.render.menus import option_token
from game.cards import FULL_DECK, SUITS
from tests.library import GAMES

ids = st.integers(min_value=0, max_value=MAX_ID)
masks = st.integers(min_value=0, max_value=MAX_MASK)
tokens = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=16)


@st.composite
def acts(draw: st.DrawFn) -> Act:
    verb = draw(st.sampled_from(sorted(VERBS)))
    kind = VERBS[verb][1]
    arg: str | int | None
    if kind is ArgKind.CARD:
        arg = draw(st.sampled_from(FULL_DECK))
    elif kind is ArgKind.SUIT:
        arg = draw(st.sampled_from(list(SUITS)))
    elif kind is ArgKind.MASK:
        arg = draw(masks)
    else:
        arg = None
    return Act(draw(ids), draw(ids), verb, arg)


@st.composite
def settings_callbacks(draw: st.DrawFn) -> Settings:
    game: str | None = draw(st.sampled_from([None, "stukolka", "starshina"]))
    if game is None:
        return Settings()
    option = draw(st.one_of(st.none(), tokens))
    if option is None:
        return Settings(game)
    return Settings(game, option, draw(st.one_of(st.none(), tokens)))


callbacks: st.SearchStrategy[Callback] = st.one_of(
    acts(),
    st.builds(
        Select,
        ids,
        ids,
        st.sampled_from(sorted(v for v, (_, k) in VERBS.items() if k is ArgKind.MASK)),
        masks,
    ),
    st.builds(Look, ids, ids),
    st.builds(Lobby, ids, st.sampled_from(["join", "leave", "begin", "cancel"])),
    st.builds(NewGame, st.sampled_from(["stukolka", "shleif", "starshina"])),
    settings_callbacks(),
    st.builds(Back, ids),
    st.builds(Page, st.sampled_from(["balance", "settle"])),
    st.builds(RulesOf, st.sampled_from(["stukolka", "shleif", "starshina"])),
    st.builds(CardRanks, st.sampled_from(["latin", "russian"])),
    st.builds(EveningGap, st.sampled_from((0, *GAP_CHOICES))),
)


@given(callbacks)
def test_round_trip_is_exact(callback: Callback) -> None:
    data = encode(callback)
    assert data.isascii()
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == callback
    assert encode(decode(data)) == data


@settings(max_examples=500)
@given(st.text(max_size=80))
def test_random_text_never_crashes(text: str) -> None:
    try:
        callback = decode(text)
    except BadCallback:
        return
    assert encode(callback) == text


@settings(max_examples=500)
@given(
    st.sampled_from("aslpjnobx"),
    st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyzSHDCTJQKA:_-", max_size=40),
)
def test_near_misses_never_crash(tag: str, rest: str) -> None:
    text = tag + rest
    try:
        callback = decode(text)
    except BadCallback:
        return
    assert encode(callback) == text


@settings(max_examples=300)
@given(callbacks, st.data())
def test_mutated_data_decodes_to_itself_or_fails(callback: Callback, data: st.DataObject) -> None:
    text = encode(callback)
    index = data.draw(st.integers(0, len(text) - 1))
    char = data.draw(st.characters(codec="ascii"))
    mutated = text[:index] + char + text[index + 1 :]
    try:
        result = decode(mutated)
    except BadCallback:
        return
    assert encode(result) == mutated


def test_largest_ids_fit() -> None:
    longest: list[Callback] = [
        Act(MAX_ID, MAX_ID, "kitty", MAX_MASK),
        Act(MAX_ID, MAX_ID, "no_razrez"),
        Act(MAX_ID, MAX_ID, "return", "TH"),
        Select(MAX_ID, MAX_ID, "kitty", MAX_MASK),
        Look(MAX_ID, MAX_ID),
        Lobby(MAX_ID, "cancel"),
        Back(MAX_ID),
        Settings("stukolka", "a" * 16, "b" * 16),
    ]
    for callback in longest:
        assert len(encode(callback)) <= MAX_BYTES


def test_every_settings_button_encodes() -> None:
    for game in GAMES:
        for option, values in game.menu.values.items():
            for value in values:
                callback = Settings(game.kind, option, option_token(value))
                assert decode(encode(callback)) == callback


def test_examples() -> None:
    assert encode(Act(1, 2, "play", "TH")) == "a1:2:c:TH"
    assert encode(Act(35, 36, "knock")) == "az:10:k:-"
    assert encode(Select(1, 2, "discard", 5)) == "s1:2:b:5"
    assert encode(Look(1, 0)) == "l1:0"
    assert encode(Lobby(7, "join")) == "j7:j"
    assert encode(NewGame("shleif")) == "ns"
    assert encode(Settings()) == "o-:-:-"
    assert encode(Settings("starshina", "targets", "9_5_2")) == "ot:targets:9_5_2"
    assert encode(Back(3)) == "b3"
    assert encode(Page("settle")) == "ps"
    assert encode(RulesOf("starshina")) == "rt"
    assert encode(CardRanks("russian")) == "vr"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a",
        "a1:2:c:XX",
        "a1:2:c:-",
        "a1:2:k:TH",
        "a01:2:k:-",
        "a1:2:zz:-",
        "a-1:2:k:-",
        "a1:2:b:-",
        "a1:2:t:X",
        "aZZZZZZZZZZZZZZ:1:k:-",
        "a" + "z" * 14 + ":1:k:-",
        "s1:2:c:1",
        "l1",
        "l1:2:3",
        "j:j",
        "jX:j",
        "j1:q",
        "nq",
        "o-:stake:-",
        "ok:-:3",
        "ok:Stake:3",
        "ok:stake:3-",
        "b",
        "p",
        "px",
        "x1",
        "a1:2:k:-\n",
        "а1:2:k:-",
        "a1:2:k:-" + " " * 60,
        "s1:2:b:" + "z" * 8,
    ],
)
def test_malformed_data_is_refused(text: str) -> None:
    with pytest.raises(BadCallback):
        decode(text)


def test_constructors_validate() -> None:
    with pytest.raises(BadCallback):
        Act(-1, 0, "knock")
    with pytest.raises(BadCallback):
        Act(0, MAX_ID + 1, "knock")
    with pytest.raises(BadCallback):
        Act(0, 0, "play", "1X")
    with pytest.raises(BadCallback):
        Act(0, 0, "discard", MAX_MASK + 1)
    with pytest.raises(BadCallback):
        Act(0, 0, "fly")
    with pytest.raises(BadCallback):
        Select(0, 0, "play", 1)
    with pytest.raises(BadCallback):
        Settings(None, "stake")


@given(st.sets(st.integers(0, 31)))
def test_masks(indices: set[int]) -> None:
    assert mask_indices(mask_of(indices)) == sorted(indices)


def test_an_evening_gap_is_one_the_settings_offer() -> None:
    assert encode(EveningGap(6)) == "e6" and encode(EveningGap(12)) == "ec"
    assert decode("e0") == EveningGap(0)
    for forged in ("e5", "ed", "e-1", "e", "e00", "e6:1"):
        with pytest.raises(BadCallback):
            decode(forged)
    with pytest.raises(BadCallback):
        EveningGap(True)
