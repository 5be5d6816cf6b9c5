"""Keyboards offer exactly the legal actions of a view, and every button the engine accepts.

Property tests over random engine states: the actions the buttons encode equal the legal set,
toggles and the confirm button follow the selection, a hand nobody has looked at never appears
on a button, and pressing any button (the mask turned back into cards) is accepted by the engine.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.callback import (
    GAP_CHOICES,
    Act,
    CardRanks,
    EveningGap,
    Look,
    Select,
    Settings,
    encode,
    mask_indices,
)
from bot.games.starshina import starshina_keyboard
from bot.games.stukolka import stukolka_keyboard as keyboard
from bot.keyboards import (
    Keyboard,
    back_keyboard,
    lobby_keyboard,
    selected_cards,
    selection_order,
)
from bot.render.menus import (
    PRESET,
    balance_keyboard,
    evening_gap_keyboard,
    new_game_keyboard,
    option_token,
    setting_value,
    settings_game_keyboard,
    settings_option_keyboard,
    settings_root_keyboard,
)
from game.cards import FULL_DECK, label, sort_hand
from game.core import Action, Legal
from game.starshina import StarshinaOptions
from game.starshina import apply as starshina_apply
from game.starshina import seat_view as starshina_seat_view
from game.stukolka import StukolkaOptions, apply, seat_view
from game.stukolka.state import Phase, Role
from tests.bot.states import (
    copy_starshina,
    copy_stukolka,
    starshina_game,
    starshina_options,
    stukolka_deal,
    stukolka_options,
)
from tests.library import CODEC, GAMES

GAME, VERSION = 12345, 678


def _decoded(rows: Keyboard) -> list[object]:
    assert all(len(row) <= 6 for row in rows)  # phone-sized rows
    return [CODEC.decode(data) for row in rows for _, data in row]


def _labels(rows: Keyboard) -> str:
    return " ".join(text for row in rows for text, _ in row)


def _legal_simple(legal: tuple[Legal, ...]) -> set[tuple[str, str | None]]:
    return {(entry.verb, entry.arg) for entry in legal if entry.pick is None}


@settings(max_examples=60, deadline=None)
@given(
    stukolka_options,
    st.integers(2, 6),
    st.integers(0, 2**32),
    st.data(),
)
def test_stukolka_buttons_are_the_legal_actions(
    options: StukolkaOptions, players: int, seed: int, data: st.DataObject
) -> None:
    states = stukolka_deal(options, players, seed)
    for state in states:
        for seat in range(players):
            view = seat_view(state, seat)
            mask = data.draw(st.integers(0, 15), label="mask") if view.legal else 0
            rows = keyboard(CODEC, "ru", view, GAME, VERSION, mask)
            callbacks = _decoded(rows)
            acts = [c for c in callbacks if isinstance(c, Act)]
            selects = [c for c in callbacks if isinstance(c, Select)]
            looks = [c for c in callbacks if isinstance(c, Look)]
            assert all(c.game_id == GAME and c.version == VERSION for c in acts + selects)
            assert len(looks) == (1 if view.may_look else 0)
            if not view.legal:
                assert not acts and not selects
                continue
            simple = {(c.verb, c.arg) for c in acts if c.verb != "discard"}
            expected = _legal_simple(view.legal)
            if view.hand is None:
                # an unseen hand: no card on any button, only the verbs that need no card
                expected = {(verb, arg) for verb, arg in expected if arg is None}
                for card in FULL_DECK:
                    assert label(card) not in _labels(rows)
            assert simple == expected
            pick = next((e.pick for e in view.legal if e.verb == "discard"), None)
            discards = [c for c in acts if c.verb == "discard"]
            if pick is None:
                assert not discards and not selects
                continue
            fewest, most = pick
            if view.hand is None:
                counts = sorted(len(mask_indices(int(c.arg or 0))) for c in discards)
                assert counts == list(range(fewest, min(most, view.hand_count) + 1))
                assert all(
                    int(c.arg or 0) == (1 << n) - 1 for c, n in zip(discards, counts, strict=True)
                )
                assert not selects
            else:
                order = selection_order(view.hand, view.table.trump)
                shown = mask & ((1 << len(order)) - 1)
                assert sorted(s.mask for s in selects) == sorted(
                    shown ^ (1 << i) for i in range(len(order))
                )
                allowed = fewest <= bin(shown).count("1") <= most
                assert [int(c.arg or 0) for c in discards] == ([shown] if allowed else [])
            # pressing any offered move is accepted by the engine
            for act in acts:
                trial = copy_stukolka(state)
                arg: str | tuple[str, ...] | None
                if isinstance(act.arg, int):
                    looked = view.hand is not None
                    arg = selected_cards(trial.hands[seat], trial.trump, act.arg, looked=looked)
                else:
                    arg = act.arg
                apply(trial, Action(seat, act.verb, arg))


def test_play_buttons_are_sorted_trumps_first() -> None:
    for seed in range(60):
        for state in stukolka_deal(StukolkaOptions(), 3, seed, look_chance=5.0):
            if state.phase is not Phase.PLAY or state.to_act is None:
                continue
            view = seat_view(state, state.to_act)
            if view.hand is None:
                continue
            rows = keyboard(CODEC, "ru", view, GAME, VERSION)
            cards = [c.arg for c in _decoded(rows) if isinstance(c, Act)]
            assert cards == sort_hand([str(c) for c in cards], state.trump)
            assert len(cards) == len(view.legal)


def test_dark_candidate_sees_no_cards_and_is_asked_how_many_to_discard() -> None:
    seen_dark_knock = seen_dark_buy = False
    for seed in range(200):
        for state in stukolka_deal(StukolkaOptions(variant="shleif"), 4, seed, look_chance=0):
            seat = state.to_act
            if seat is None:
                continue
            view = seat_view(state, seat)
            rows = keyboard(CODEC, "ru", view, GAME, VERSION)
            labels = _labels(rows)
            if any(e.verb == "dark" for e in view.legal):
                seen_dark_knock = True
                assert "Втёмную" in labels and "Стучу!" in labels and "Пас" in labels
                assert "👀" in labels
                assert not any(label(card) in labels for card in FULL_DECK)
            if state.phase is Phase.PURCHASE and state.roles[seat] is Role.DARK:
                seen_dark_buy = True
                assert view.hand is None
                # the prompt asks how many of his cards to discard; the buttons answer that
                assert "Не сбрасывать" in labels and "Сбросить 3" in labels
                assert "Купить" not in labels and "Оставить все" not in labels
    assert seen_dark_knock and seen_dark_buy


def test_discard_confirm_labels() -> None:
    for seed in range(100):
        for state in stukolka_deal(StukolkaOptions(), 3, seed, look_chance=5.0):
            seat = state.to_act
            if state.phase is not Phase.PURCHASE or seat is None or not state.looked[seat]:
                continue
            view = seat_view(state, seat)
            assert "Оставить все" in _labels(keyboard(CODEC, "ru", view, GAME, VERSION, 0))
            assert "Купить 2" in _labels(keyboard(CODEC, "ru", view, GAME, VERSION, 0b101))
            assert "✓" in _labels(keyboard(CODEC, "ru", view, GAME, VERSION, 0b101))
            assert "Keep all" in _labels(keyboard(CODEC, "en", view, GAME, VERSION, 0))
            return
    raise AssertionError("no purchase met")


@settings(max_examples=25, deadline=None)
@given(starshina_options, st.integers(0, 2**32), st.data())
def test_starshina_buttons_are_the_legal_actions(
    options: StarshinaOptions, seed: int, data: st.DataObject
) -> None:
    states = starshina_game(options, seed, max_steps=120)
    for state in states[:: max(1, len(states) // 40)]:
        seat = state.to_act
        if seat is None:
            continue
        view = starshina_seat_view(state, seat)
        mask = data.draw(st.sampled_from([0, 0b1111, 0b10110001, 0b111, 0xFFFF]), label="mask")
        rows = starshina_keyboard(CODEC, "ru", view, GAME, VERSION, mask)
        callbacks = _decoded(rows)
        acts = [c for c in callbacks if isinstance(c, Act)]
        selects = [c for c in callbacks if isinstance(c, Select)]
        simple = {(c.verb, c.arg) for c in acts if c.verb != "kitty"}
        assert simple == _legal_simple(view.legal)
        kitty = [c for c in acts if c.verb == "kitty"]
        if any(e.verb == "kitty" for e in view.legal):
            shown = mask & ((1 << len(view.hand)) - 1)
            marked = bin(shown).count("1")
            toggles = [c for c in selects if c.mask != shown]
            assert len(toggles) == len(view.hand)
            assert [c.arg for c in kitty] == ([shown] if marked == 4 else [])
            # fewer than four marked: «Отмечено: n из 4» in the confirm's place, the marks kept
            status = [c for c in selects if c.mask == shown]
            assert len(status) == (1 if marked < 4 else 0)
            if status:
                assert f"Отмечено: {marked} из 4" in _labels(rows)
        else:
            assert not kitty and not selects
        for other in range(3):
            if other != seat:
                assert (
                    starshina_keyboard(CODEC, "ru", starshina_seat_view(state, other), 1, 1) == []
                )
        for act in acts:
            trial = copy_starshina(state)
            arg: str | tuple[str, ...] | None = act.arg if not isinstance(act.arg, int) else None
            if isinstance(act.arg, int):
                arg = selected_cards(trial.hands[seat], trial.trump, act.arg)
            starshina_apply(trial, Action(seat, act.verb, arg))
        assert rows


def test_selected_cards() -> None:
    hand = ["2C", "AS", "TH"]
    assert selection_order(hand, "H") == ["TH", "AS", "2C"]
    assert selection_order(hand, "H", looked=False) == hand
    assert selected_cards(hand, "H", 0b101) == ("TH", "2C")
    assert selected_cards(hand, "H", 0b011, looked=False) == ("2C", "AS")
    assert selected_cards(hand, None, 0) == ()


def test_a_mask_beyond_the_hand_is_refused() -> None:
    from bot.callback import BadCallback

    try:
        selected_cards(["2C"], None, 0b10)
    except BadCallback:
        return
    raise AssertionError("accepted")


def test_lobby_keyboard() -> None:
    rows = lobby_keyboard("ru", 9, can_begin=False)
    verbs = [getattr(c, "action", None) for c in _decoded(rows)]
    assert verbs == ["join", "leave", "cancel"]
    rows = lobby_keyboard("en", 9, can_begin=True, can_cancel=False)
    assert [getattr(c, "action", None) for c in _decoded(rows)] == ["join", "leave", "begin"]
    assert "Join" in _labels(rows)


def test_small_keyboards() -> None:
    kinds = [getattr(c, "kind", None) for c in _decoded(new_game_keyboard(CODEC, "ru", GAMES))]
    assert kinds == ["stukolka", "shleif", "starshina"]
    assert "Стуколка со шлейфом" in _labels(new_game_keyboard(CODEC, "ru", GAMES))
    assert [getattr(c, "game_id", None) for c in _decoded(back_keyboard("ru", 5))] == [5]
    assert [getattr(c, "page", None) for c in _decoded(balance_keyboard("ru", "balance"))] == [
        "settle"
    ]
    assert [getattr(c, "page", None) for c in _decoded(balance_keyboard("ru", "settle"))] == [
        "balance"
    ]


def test_settings_menus_cover_every_option_and_mark_the_current_value() -> None:
    root = _decoded(settings_root_keyboard(CODEC, "ru", GAMES))
    kinds = [c.game for c in root if isinstance(c, Settings)]
    assert kinds == ["stukolka", "starshina"]
    # the rank letters, Russian only, В Д К Т marked by default
    assert [c for c in root if isinstance(c, CardRanks)] == [
        CardRanks("russian"),
        CardRanks("latin"),
    ]
    labels = [
        text for row in settings_root_keyboard(CODEC, "ru", GAMES, "latin") for text, _ in row
    ]
    assert "✓ J Q K A" in labels and "В Д К Т" in labels
    assert not [
        c for c in _decoded(settings_root_keyboard(CODEC, "en", GAMES)) if isinstance(c, CardRanks)
    ]
    defaults: dict[str, StukolkaOptions | StarshinaOptions] = {
        "stukolka": StukolkaOptions(),
        "starshina": StarshinaOptions(),
    }
    for game, options in defaults.items():
        rows = settings_game_keyboard(CODEC, "ru", GAMES.of(game), options.to_json())
        opened = [c for c in _decoded(rows) if isinstance(c, Settings) and c.option != PRESET]
        assert [c.option for c in opened[:-1]] == list(options.to_json())
        assert opened[-1] == Settings()
        for option, choices in GAMES.of(game).menu.values.items():
            current = getattr(options, option)
            rows = settings_option_keyboard(CODEC, "ru", GAMES.of(game), option, current)
            buttons = [(text, CODEC.decode(data)) for row in rows for text, data in row]
            values = buttons[:-1]
            assert buttons[-1][1] == Settings(game)
            assert len(values) == len(choices)
            marked = [text for text, _ in values if text.startswith("✓")]
            assert len(marked) == 1
            for value, (_, callback) in zip(choices, values, strict=True):
                assert isinstance(callback, Settings)
                assert callback.value == option_token(value)
                assert setting_value(GAMES.of(game), option, callback.value) == value
                # every value the menu offers makes valid options
                type(options).from_json({**options.to_json(), option: value})


def test_starshina_settings_open_with_its_two_presets_the_current_one_marked() -> None:
    """docs/rules.md §4 "Presets": «как в тексте» (ring, no trumps: the defaults) and «британские»
    (updown, the dealer names trump), atop Старшина's options; Стуколка has none."""
    assert GAMES.of("starshina").menu.presets == {
        "as_written": {"exchange": "ring", "trumps": "none"},
        "british": {"exchange": "updown", "trumps": "dealer_names"},
    }

    def preset_row(options: StarshinaOptions) -> list[tuple[str, object]]:
        rows = settings_game_keyboard(CODEC, "ru", GAMES.of("starshina"), options.to_json())
        return [(text, CODEC.decode(data)) for text, data in rows[0]]

    row = preset_row(StarshinaOptions(stake=5))
    assert [c for _, c in row] == [
        Settings("starshina", PRESET, "as_written"),
        Settings("starshina", PRESET, "british"),
    ]
    assert [text.startswith("✓") for text, _ in row] == [True, False]
    british = StarshinaOptions(exchange="updown", trumps="dealer_names", targets="9-5-2")
    assert [text.startswith("✓") for text, _ in preset_row(british)] == [False, True]
    # a mix of the two is neither
    mixed = StarshinaOptions(exchange="updown")
    assert not any(text.startswith("✓") for text, _ in preset_row(mixed))
    stukolka = settings_game_keyboard(
        CODEC, "ru", GAMES.of("stukolka"), StukolkaOptions().to_json()
    )
    assert all(
        getattr(CODEC.decode(d), "option", None) != PRESET for row in stukolka for _, d in row
    )


def test_setting_value_refuses_what_the_menu_does_not_offer() -> None:
    from bot.callback import BadCallback

    for game, option, token in [
        ("stukolka", "stake", "4"),
        ("stukolka", "nothing", "on"),
        ("starshina", "dark_in_classic", "on"),
        ("stukolka", "dark_in_classic", "true"),
    ]:
        try:
            setting_value(GAMES.of(game), option, token)
        except BadCallback:
            continue
        raise AssertionError((game, option, token))


def test_starshina_card_buttons_are_in_rows_by_suit() -> None:
    """Play, exchange and kitty buttons: one suit a row, so 16 cards read like the hand."""
    seen: set[str] = set()
    for seed in range(6):
        for state in starshina_game(StarshinaOptions(), seed, max_steps=120):
            seat = state.to_act
            if seat is None:
                continue
            rows = starshina_keyboard(CODEC, "ru", starshina_seat_view(state, seat), GAME, VERSION)
            for row in rows:
                decoded = [CODEC.decode(data) for _, data in row]
                if not all(
                    isinstance(c, (Act, Select)) and c.verb in ("play", "give", "return", "kitty")
                    for c in decoded
                ) or any(isinstance(c, Act) and c.verb == "kitty" for c in decoded):
                    continue  # the kitty's confirm button
                seen |= {c.verb for c in decoded if isinstance(c, (Act, Select))}
                suits = {text.removeprefix("✓ ")[-2:] for text, _ in row}
                assert len(suits) == 1, row
    assert {"play", "kitty"} <= seen


def test_the_evenings_gap_opens_from_the_top_of_settings_and_marks_the_current_pause() -> None:
    root = settings_root_keyboard(CODEC, "ru", GAMES)
    assert ("🌙 Итоги вечера", encode(EveningGap(0))) in [button for row in root for button in row]
    rows = evening_gap_keyboard(CODEC, "en", 6 * 3600.0)
    choices = [CODEC.decode(data) for row in rows[:-1] for _, data in row]
    assert choices == [EveningGap(hours) for hours in GAP_CHOICES]
    marked = [text for row in rows for text, _ in row if text.startswith("✓")]
    assert marked == ["✓ 6 h"]
    assert CODEC.decode(rows[-1][0][1]) == Settings()
    # a pause set by /evening gap that the menu does not offer: nothing marked
    assert not [
        t for row in evening_gap_keyboard(CODEC, "en", 5 * 3600.0) for t, _ in row if "✓" in t
    ]
