"""Every hint (💡) names a move its player can press, by the label of his own keyboard, at
every kind of decision of every game: the test reads the hint as a player would, presses the
buttons it names (marking the cards it lists first) and checks that what he pressed is the
move the computer advised. A player who has not looked at his cards reads none of them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.callback import Act, Look, Select
from bot.games.starshina import starshina_keyboard
from bot.games.stukolka import stukolka_keyboard
from bot.keyboards import Keyboard, selected_cards
from bot.render.common import label, ranks_shown
from bot.render.hint import hint_text, keyboard_buttons
from game import starshina, stukolka
from game.ai import UNSEEN, Advice, Budget
from game.cards import FULL_DECK, shuffle
from game.core import Action
from game.randomplay import random_action
from game.registry import Holding
from game.starshina import StarshinaOptions
from game.starshina import ai as starshina_ai
from game.stukolka import StukolkaOptions, StukolkaState, dark_blind
from game.stukolka import ai as stukolka_ai
from tests.library import CODEC, GAMES

P = stukolka.Phase
S = starshina.Phase
LANGS = ("ru", "en")
BUDGET = Budget(samples=24, min_samples=24)


@dataclass(frozen=True)
class Decision:
    """One kind of decision: which game, where it is found, and whether the player looks at
    his cards whenever he may before it."""

    game: str
    phase: str
    looked: bool | None = None  # Стуколка: a hand seen, or not (None: either)
    dark: bool = False  # a dark player's purchase, before he may look
    options: dict[str, Any] | None = None


DECISIONS = {
    "stukolka:choose": Decision("stukolka", "choose", options={"variant": "shleif"}),
    "stukolka:knock": Decision("stukolka", "knock", looked=True),
    "stukolka:knock, cards not seen": Decision("stukolka", "knock", looked=False),
    "stukolka:purchase": Decision("stukolka", "purchase", looked=True),
    "stukolka:purchase, cards not seen": Decision("stukolka", "purchase", looked=False),
    "stukolka:dark purchase": Decision("stukolka", "purchase", looked=False, dark=True),
    "stukolka:purchase drop": Decision("stukolka", "purchase_drop"),
    "stukolka:razrez": Decision("stukolka", "razrez", looked=True),
    "stukolka:razrez, cards not seen": Decision("stukolka", "razrez", looked=False),
    "stukolka:razrez drop": Decision("stukolka", "razrez_drop"),
    "stukolka:play": Decision("stukolka", "play", looked=True),
    "stukolka:play, cards not seen": Decision("stukolka", "play", looked=False),
    "starshina:give": Decision("starshina", "exchange_give", options={"exchange": "updown"}),
    "starshina:ring give": Decision("starshina", "exchange_give", options={"exchange": "ring"}),
    "starshina:ring return": Decision("starshina", "ring_return", options={"exchange": "ring"}),
    "starshina:trump": Decision("starshina", "name_trump", options={"trumps": "dealer_names"}),
    "starshina:kitty": Decision("starshina", "kitty"),
    "starshina:play": Decision("starshina", "play"),
}


def test_every_decision_of_every_game_is_here() -> None:
    """The list above is every phase in which a player decides, of both games."""
    phases = {(d.game, d.phase) for d in DECISIONS.values()}
    deciding = {("stukolka", p.value) for p in P if p is not P.DEAL_OVER}
    deciding |= {("starshina", p.value) for p in S if p not in (S.DEAL_OVER, S.GAME_OVER)}
    assert phases == deciding


def stukolka_found(decision: Decision, seed: int) -> Iterator[tuple[StukolkaState, int]]:
    rng = random.Random(seed)
    for _ in range(400):
        options = StukolkaOptions(
            **(
                decision.options
                or {"variant": rng.choice(["classic", "shleif"]), "dark_in_classic": True}
            )
        )
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        state = stukolka.new_deal(options, rng.randint(2, 5), deck)[0]
        while state.to_act is not None:
            seat = state.to_act
            may_look = stukolka.seat_view(state, seat).may_look
            if decision.looked and may_look:
                stukolka.apply(state, Action(seat, "look"))
            if (
                state.phase.value == decision.phase
                and (decision.looked is None or state.looked[seat] == decision.looked)
                and dark_blind(state, seat) == decision.dark
            ):
                yield state, seat
                break
            legal = stukolka.legal_actions(state)
            if decision.looked is False and state.phase is P.KNOCK and len(legal) > 2:
                legal = [entry for entry in legal if entry.verb != "pass" or rng.random() < 0.3]
            stukolka.apply(state, random_action(seat, legal, state.hands[seat], rng))


def starshina_found(decision: Decision, seed: int) -> Iterator[tuple[Any, int]]:
    rng = random.Random(seed)
    for _ in range(400):
        deck = list(FULL_DECK)
        shuffle(deck, rng)
        options = StarshinaOptions(**(decision.options or {}))
        state = starshina.new_game(options, deck, dealer=rng.randrange(3))[0]
        for _ in range(3):
            while state.to_act is not None:
                seat = state.to_act
                if state.phase.value == decision.phase and rng.random() < 0.5:
                    yield state, seat
                    break
                legal = starshina.legal_actions(state)
                starshina.apply(state, random_action(seat, legal, state.hands[seat], rng))
            else:
                if state.phase is S.DEAL_OVER:
                    shuffle(deck, rng)
                    starshina.next_deal(state, deck)
                    continue
            break


@dataclass
class Turn:
    advice: Advice
    keyboard: Callable[[int], Keyboard]
    holding: Holding
    looked: bool


def turns(name: str, count: int) -> Iterator[Turn]:
    decision = DECISIONS[name]
    for seed in range(count):
        if decision.game == "stukolka":
            state, seat = next(stukolka_found(decision, seed))
            view: Any = stukolka.seat_view(state, seat)
            holding = stukolka.StukolkaGame.copy_of(state).holding(seat)
            advice = stukolka_ai.COMPUTER.advise(view, random.Random(seed), BUDGET)

            def keyboard(mask: int, lang: str = "ru", view: Any = view) -> Keyboard:
                return stukolka_keyboard(CODEC, lang, view, 1, 1, mask)

            yield Turn(advice, keyboard, holding, view.hand is not None)
        else:
            state, seat = next(starshina_found(decision, seed))
            view = starshina.seat_view(state, seat)
            holding = starshina.StarshinaGame.copy_of(state).holding(seat)
            advice = starshina_ai.COMPUTER.advise(view, random.Random(seed), BUDGET)

            def keyboard(mask: int, lang: str = "ru", view: Any = view) -> Keyboard:
                return starshina_keyboard(CODEC, lang, view, 1, 1, mask)

            yield Turn(advice, keyboard, holding, True)


PREFIXES = {
    "ru": ("💡 Ход здесь один: ", "💡 Сначала ", "💡 "),
    "en": ("💡 There is only one move here: ", "💡 First ", "💡 "),
}
QUOTES = {"ru": ("«", "»"), "en": ("“", "”")}


def pressed(lang: str, text: str, turn: Turn) -> tuple[Action | None, int]:
    """What a player does who reads ``text`` and presses the button it names first (having
    marked the cards it lists with it): the engine action it makes (a blind discard: of as
    many ``UNSEEN`` cards; a look: ``look``); and how many moves his keyboard offers."""
    plain = turn.keyboard(0)
    moves = {data for row in plain for _, data in row if isinstance(CODEC.decode(data), Act | Look)}
    start = next(p for p in PREFIXES[lang] if text.startswith(p))
    named = text[len(start) :]
    opening, closing = QUOTES[lang]
    if named.startswith(opening):
        word = named[1 : named.index(closing)]
        rest = named[named.index(closing) + 1 :]
        marked = 0
        if rest.startswith(" ("):  # the cards to mark first, as his toggles show them
            for shown in rest[2 : rest.index(")")].split(" "):
                toggles = [
                    CODEC.decode(data)
                    for text_, data in _buttons(turn.keyboard(marked))
                    if text_ == shown
                ]
                assert len(toggles) == 1 and isinstance(toggles[0], Select), shown
                marked = toggles[0].mask
        found = [CODEC.decode(d) for text_, d in _buttons(turn.keyboard(marked)) if text_ == word]
        assert len(found) == 1, (word, turn.keyboard(marked))
        act = found[0]
    else:
        card = next((text_ for text_, _ in _buttons(plain) if named.startswith(text_)), None)
        assert card is not None, (text, plain)
        act = next(CODEC.decode(d) for text_, d in _buttons(plain) if text_ == card)
    return _action(act, turn), len(moves)


def _buttons(rows: Keyboard) -> list[tuple[str, str]]:
    return [button for row in rows for button in row]


def _action(act: object, turn: Turn) -> Action | None:
    seat = turn.advice.choice.seat
    if isinstance(act, Look):
        return Action(seat, "look")
    assert isinstance(act, Act), act
    if isinstance(act.arg, int):
        holding = turn.holding
        if not holding.looked:
            return Action(seat, act.verb, (UNSEEN,) * bin(act.arg).count("1"))
        chosen = selected_cards(holding.cards, holding.trump, act.arg, looked=True)
        return Action(seat, act.verb, tuple(sorted(chosen)))
    return Action(seat, act.verb, act.arg)


def _same(one: Action, other: Action) -> bool:
    if isinstance(one.arg, tuple) and isinstance(other.arg, tuple):
        return (one.verb, sorted(one.arg)) == (other.verb, sorted(other.arg))
    return one == other


@pytest.mark.parametrize("name", list(DECISIONS))
def test_a_hint_names_the_button_that_makes_its_move(name: str) -> None:
    for turn in turns(name, 4):
        for lang in LANGS:
            keyboard = turn.keyboard

            def in_lang(mask: int, lang: str = lang, keyboard: Any = keyboard) -> Keyboard:
                rows: Keyboard = keyboard(mask, lang)
                return rows

            turn_in_lang = Turn(turn.advice, in_lang, turn.holding, turn.looked)
            with ranks_shown(lang, None):
                buttons = keyboard_buttons(CODEC, lang, turn.advice, in_lang, turn.holding)
                text = hint_text(GAMES.words, lang, turn.advice, buttons)
                action, moves = pressed(lang, text, turn_in_lang)
                hand_labels = [label(card) for card in turn.holding.cards]
            assert action is not None and _same(action, turn.advice.choice), (text, action)
            if text.startswith(PREFIXES[lang][0]):  # «the only move»: and so it is
                assert moves == 1, (text, in_lang(0))
            if not turn.looked:  # he has not seen his cards: the hint names none
                assert not [card for card in hand_labels if card in text], text
