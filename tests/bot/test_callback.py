"""The callback_data codec: exact round trips, at most 64 ASCII bytes for the largest ids, and
nothing but ``BadCallback`` for anything else (fuzzed); codecs of different games side by
side."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.callback import (
    GAP_CHOICES,
    MAX_BYTES,
    MAX_ID,
    MAX_MASK,
    Act,
    ArgKind,
    Back,
    BadCallback,
    Callback,
    CardRanks,
    Codec,
    EveningGap,
    Lobby,
    Look,
    NewGame,
    Page,
    RulesOf,
    Select,
    Settings,
    mask_indices,
    mask_of,
)
from bot.render.menus import option_token
from game.cards import FULL_DECK, SUITS
from tests.library import CODEC, GAMES, library_with
from tests.plugin import tricks

ids = st.integers(min_value=0, max_value=MAX_ID)
masks = st.integers(min_value=0, max_value=MAX_MASK)
tokens = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=16)


@st.composite
def acts(draw: st.DrawFn) -> Act:
    verb = draw(st.sampled_from(sorted(CODEC.verbs)))
    kind = CODEC.verbs[verb][1]
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
        st.sampled_from(sorted(v for v, (_, k) in CODEC.verbs.items() if k is ArgKind.MASK)),
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
    data = CODEC.encode(callback)
    assert data.isascii()
    assert len(data.encode()) <= MAX_BYTES
    assert CODEC.decode(data) == callback
    assert CODEC.encode(CODEC.decode(data)) == data


@settings(max_examples=500)
@given(st.text(max_size=80))
def test_random_text_never_crashes(text: str) -> None:
    try:
        callback = CODEC.decode(text)
    except BadCallback:
        return
    assert CODEC.encode(callback) == text


@settings(max_examples=500)
@given(
    st.sampled_from("aslpjnobx"),
    st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyzSHDCTJQKA:_-", max_size=40),
)
def test_near_misses_never_crash(tag: str, rest: str) -> None:
    text = tag + rest
    try:
        callback = CODEC.decode(text)
    except BadCallback:
        return
    assert CODEC.encode(callback) == text


@settings(max_examples=300)
@given(callbacks, st.data())
def test_mutated_data_decodes_to_itself_or_fails(callback: Callback, data: st.DataObject) -> None:
    text = CODEC.encode(callback)
    index = data.draw(st.integers(0, len(text) - 1))
    char = data.draw(st.characters(codec="ascii"))
    mutated = text[:index] + char + text[index + 1 :]
    try:
        result = CODEC.decode(mutated)
    except BadCallback:
        return
    assert CODEC.encode(result) == mutated


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
        assert len(CODEC.encode(callback)) <= MAX_BYTES


def test_every_settings_button_encodes() -> None:
    for game in GAMES:
        for option, values in game.menu.values.items():
            for value in values:
                callback = Settings(game.rules.kind, option, option_token(value))
                assert CODEC.decode(CODEC.encode(callback)) == callback


def test_examples() -> None:
    assert CODEC.encode(Act(1, 2, "play", "TH")) == "a1:2:c:TH"
    assert CODEC.encode(Act(35, 36, "knock")) == "az:10:k:-"
    assert CODEC.encode(Select(1, 2, "discard", 5)) == "s1:2:b:5"
    assert CODEC.encode(Look(1, 0)) == "l1:0"
    assert CODEC.encode(Lobby(7, "join")) == "j7:j"
    assert CODEC.encode(NewGame("shleif")) == "ns"
    assert CODEC.encode(Settings()) == "o-:-:-"
    assert CODEC.encode(Settings("starshina", "targets", "9_5_2")) == "ot:targets:9_5_2"
    assert CODEC.encode(Back(3)) == "b3"
    assert CODEC.encode(Page("settle")) == "ps"
    assert CODEC.encode(RulesOf("starshina")) == "rt"
    assert CODEC.encode(CardRanks("russian")) == "vr"


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
        CODEC.decode(text)


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
        Act(0, 0, "Fly")
    with pytest.raises(BadCallback):
        Settings(None, "stake")
    with pytest.raises(BadCallback):
        NewGame("")


def test_the_codec_refuses_what_its_games_do_not_have() -> None:
    """A record knows no games: a verb, a choice or a menu its codec's games lack, or an
    argument the verb does not take, is refused as it is encoded."""
    for callback in (
        Act(0, 0, "fly"),
        Act(0, 0, "play"),
        Act(0, 0, "play", "S"),
        Act(0, 0, "knock", "TH"),
        Act(0, 0, "trump", 3),
        Select(0, 0, "play", 1),
        NewGame("chess"),
        RulesOf("chess"),
        Settings("chess"),
    ):
        with pytest.raises(BadCallback):
            CODEC.encode(callback)


def test_codecs_refuse_clashing_codes() -> None:
    card = ArgKind.CARD
    with pytest.raises(ValueError, match="clashes"):
        Codec.of([{"play": ("c", card)}, {"play": ("p", card)}], {}, {})
    with pytest.raises(ValueError, match="clashes"):
        Codec.of([{"play": ("c", card)}, {"lead": ("c", card)}], {}, {})
    with pytest.raises(ValueError, match="bad wire code"):
        Codec.of([{"play": ("C", card)}], {}, {})
    with pytest.raises(ValueError, match="share a code"):
        Codec.of([], {"one": "x", "two": "x"}, {})
    with pytest.raises(ValueError, match="share a code"):
        Codec.of([], {}, {"one": "x", "two": "x"})


def test_a_codec_is_a_value() -> None:
    """What a codec was made of may change afterwards: the codec does not, nor can it be
    changed through its own mappings."""
    verbs = {"play": ("c", ArgKind.CARD)}
    choices = {"cards": "c"}
    codec = Codec.of([verbs], choices, {})
    verbs["lead"] = ("l", ArgKind.CARD)
    choices["more"] = "m"
    assert set(codec.verbs) == {"play"} and set(codec.choices) == {"cards"}
    with pytest.raises(TypeError):
        codec.verbs["lead"] = ("l", ArgKind.CARD)  # type: ignore[index]
    with pytest.raises(BadCallback):
        codec.encode(Act(1, 2, "lead", "TH"))


def test_codecs_of_different_games_live_side_by_side() -> None:
    """Two chats of different games in one process each read their own buttons: one wire
    code is a different verb to each, and building one changes nothing of the other."""
    cards = Codec.of([{"play": ("c", ArgKind.CARD)}], {"cards": "c"}, {"cards": "c"})
    tricks_only = Codec.of([{"lead": ("c", ArgKind.CARD)}], {"tricks": "c"}, {"tricks": "c"})
    assert cards.decode("a1:2:c:TH") == Act(1, 2, "play", "TH")
    assert tricks_only.decode("a1:2:c:TH") == Act(1, 2, "lead", "TH")
    assert cards.decode("nc") == NewGame("cards") and tricks_only.decode("nc") == NewGame("tricks")
    with pytest.raises(BadCallback):
        cards.encode(Act(1, 2, "lead", "TH"))
    with pytest.raises(BadCallback):
        cards.decode("ot:-:-")
    # the program's codec, and a library's with a toy game of its own built after it
    program = CODEC.encode(Act(1, 2, "play", "TH"))
    library = library_with(tricks.OFFERED)
    toy = library.chat.codec
    follow = toy.encode(Act(1, 2, "follow", "TH"))
    assert toy.decode(follow) == Act(1, 2, "follow", "TH")
    assert toy.decode(program) == CODEC.decode(program) == Act(1, 2, "play", "TH")
    with pytest.raises(BadCallback):
        CODEC.decode(follow)
    with pytest.raises(BadCallback):
        CODEC.encode(Act(1, 2, "follow", "TH"))
    assert set(tricks.PLUGIN.verbs) <= set(toy.verbs) and not set(tricks.PLUGIN.verbs) & set(
        CODEC.verbs
    )


@given(st.sets(st.integers(0, 31)))
def test_masks(indices: set[int]) -> None:
    assert mask_indices(mask_of(indices)) == sorted(indices)


def test_an_evening_gap_is_one_the_settings_offer() -> None:
    assert CODEC.encode(EveningGap(6)) == "e6" and CODEC.encode(EveningGap(12)) == "ec"
    assert CODEC.decode("e0") == EveningGap(0)
    for forged in ("e5", "ed", "e-1", "e", "e00", "e6:1"):
        with pytest.raises(BadCallback):
            CODEC.decode(forged)
    with pytest.raises(BadCallback):
        EveningGap(True)
