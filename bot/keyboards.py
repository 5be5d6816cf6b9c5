"""Inline keyboards as plain data: rows of ``(label, callback_data)`` buttons, no Telegram
types (``bot.messenger.markup`` turns them into the Bot API's ``reply_markup``).

A seat's keyboard offers exactly the legal actions of its view (``view.legal``), plus «look at
my cards» while the player has not looked. Cards a player has not looked at are never put on a
button: an unlooked hand gets no card buttons, and an unlooked purchase is a choice of how many
cards to change («втемную» for the dark player).

Multi-card choices (the purchase discard, Старшина's kitty) are stateless: a toggle button
carries the whole new selection (``Select``), the confirm button the final one (``Act``). Bit
``i`` of a mask is the ``i``-th card of ``selection_order``; the handler turns a mask back into
cards with ``selected_cards``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.callback import (
    GAP_CHOICES,
    Act,
    AwayPlay,
    AwayPlayName,
    Back,
    BadCallback,
    CardRanks,
    EveningGap,
    Lobby,
    Look,
    NewGame,
    Page,
    PageName,
    RanksName,
    RulesOf,
    Select,
    Settings,
    SettingsGame,
    Void,
    encode,
    mask_indices,
)
from bot.render.common import (
    SUIT_ORDER,
    SUIT_SYMBOLS,
    Options,
    game_title,
    label,
    option_label,
    option_names,
    ranks_style,
    sort_cards,
    value_label,
    value_token,
)
from game.core import Legal
from game.starshina.options import PRESETS as STARSHINA_PRESETS
from game.starshina.options import StarshinaOptions
from game.starshina.views import SeatView as StarshinaSeatView
from game.stukolka.state import Role
from game.stukolka.views import SeatView
from locales import t

Button = tuple[str, str]
Keyboard = list[list[Button]]

CARDS_PER_ROW: Final = 4
#: at most this many card buttons of one suit in a row (Telegram shows up to 8)
SUIT_ROW: Final = 6
SELECTED_MARK: Final = "✓"

# ---------------------------------------------------------------- selections


def selection_order(hand: Sequence[str], trump: str | None, *, looked: bool = True) -> list[str]:
    """The order the bits of a selection mask refer to: the hand as shown (trumps first,
    ``sort_hand``) once its owner has looked; the engine's own order (as dealt) before, so a
    blind discard takes cards the player cannot have chosen."""
    return sort_cards(hand, trump) if looked else list(hand)


def selected_cards(
    hand: Sequence[str], trump: str | None, mask: int, *, looked: bool = True
) -> tuple[str, ...]:
    """The cards a mask selects from ``hand`` (the engine's hand of the presser).
    ``BadCallback`` if the mask names a card the hand does not have."""
    order = selection_order(hand, trump, looked=looked)
    indices = mask_indices(mask)
    if indices and indices[-1] >= len(order):
        raise BadCallback("the selection does not fit the hand")
    return tuple(order[index] for index in indices)


def _rows(buttons: list[Button], width: int = CARDS_PER_ROW) -> Keyboard:
    return [buttons[start : start + width] for start in range(0, len(buttons), width)]


def _pick(legal: Sequence[Legal], verb: str) -> tuple[int, int] | None:
    for entry in legal:
        if entry.verb == verb and entry.pick is not None:
            return entry.pick
    return None


# ---------------------------------------------------------------- Стуколка


def stukolka_keyboard(
    lang: str, view: SeatView, game_id: int, version: int, mask: int = 0
) -> Keyboard:
    """The buttons of a player's private hand message: exactly ``view.legal`` (``mask`` is the
    current discard selection) and «look» while ``view.may_look``."""
    legal = view.legal
    verbs = [entry.verb for entry in legal]
    trump = view.table.trump
    rows: Keyboard = []

    def act(verb: str, arg: str | int | None = None) -> str:
        return encode(Act(game_id, version, verb, arg))

    simple = [verb for verb in verbs if verb in _SIMPLE_LABELS]
    if simple:
        buttons = [(t(lang, _SIMPLE_LABELS[verb]), act(verb)) for verb in simple]
        rows += _rows(buttons, 2)
    pick = _pick(legal, "discard")
    if pick is not None:
        dark = view.table.seats[view.seat].role is Role.DARK
        extra = 1 if dark else 0
        if view.hand is not None:
            rows += _selection_rows(
                lang, view.hand, trump, game_id, version, "discard", pick, mask, extra
            )
        else:
            fewest, most = pick
            buttons = [
                (_buy_label(lang, count + extra), act("discard", (1 << count) - 1))
                for count in range(fewest, min(most, view.hand_count) + 1)
            ]
            rows += _rows(buttons, 2)
    if view.hand is not None:
        card_verbs = [entry for entry in legal if entry.verb in ("drop", "play") and entry.arg]
        ordered = sort_cards([entry.arg for entry in card_verbs if entry.arg], trump)
        verb_of = {entry.arg: entry.verb for entry in card_verbs}
        rows += _rows([(label(card), act(verb_of[card], card)) for card in ordered])
    if view.may_look:
        rows.append([(t(lang, "btn.look"), encode(Look(game_id, version)))])
    return rows


_SIMPLE_LABELS: Final = {
    "shleif": "btn.shleif",
    "open": "btn.open",
    "knock": "btn.knock",
    "pass": "btn.pass",
    "dark": "btn.dark",
    "razrez": "btn.razrez",
    "no_razrez": "btn.no_razrez",
}


def _buy_label(lang: str, count: int) -> str:
    return t(lang, "btn.buy", n=count) if count else t(lang, "btn.keep")


def _selection_rows(
    lang: str,
    hand: Sequence[str],
    trump: str | None,
    game_id: int,
    version: int,
    verb: str,
    pick: tuple[int, int],
    mask: int,
    extra: int = 0,
) -> Keyboard:
    """One toggle per card (selected ones marked), then the confirm button when the selection
    is within ``pick``. Bits beyond the hand are dropped."""
    order = selection_order(hand, trump)
    mask &= (1 << len(order)) - 1
    index_of = {card: index for index, card in enumerate(order)}

    def toggle(card: str) -> Button:
        bit = 1 << index_of[card]
        text = f"{SELECTED_MARK} {label(card)}" if mask & bit else label(card)
        return (text, encode(Select(game_id, version, verb, mask ^ bit)))

    # Старшина's kitty: sixteen and more cards, one suit a row like its play buttons
    rows = _suit_rows(order, toggle) if verb == "kitty" else _rows([toggle(c) for c in order])
    count = bin(mask).count("1")
    fewest, most = pick
    if fewest <= count <= most:
        if verb == "discard":
            confirm = _buy_label(lang, count + extra)
        else:
            confirm = t(lang, f"btn.confirm_{verb}", n=count)
        rows.append([(confirm, encode(Act(game_id, version, verb, mask)))])
    return rows


# ---------------------------------------------------------------- Старшина


def starshina_keyboard(
    lang: str, view: StarshinaSeatView, game_id: int, version: int, mask: int = 0
) -> Keyboard:
    """The buttons of a Старшина hand message: exactly ``view.legal`` — a card to give or to
    return, one of the four suits to name trump, the kitty discard (toggle four cards of the
    hand, confirm when exactly four are selected), a card to play."""
    legal = view.legal
    trump = view.table.trump
    rows: Keyboard = []

    def act(verb: str, arg: str | int | None = None) -> str:
        return encode(Act(game_id, version, verb, arg))

    suits = [entry.arg for entry in legal if entry.verb == "trump" and entry.arg]
    if suits:
        rows.append(
            [
                (SUIT_SYMBOLS[letter], act("trump", letter))
                for letter in SUIT_ORDER
                if letter in suits
            ]
        )
    pick = _pick(legal, "kitty")
    if pick is not None:
        rows += _selection_rows(lang, view.hand, trump, game_id, version, "kitty", pick, mask)
    card_entries = [e for e in legal if e.verb in ("give", "return", "play") and e.arg]
    verb_of = {entry.arg: entry.verb for entry in card_entries}
    ordered = sort_cards([entry.arg for entry in card_entries if entry.arg], trump)
    rows += _suit_rows(ordered, lambda card: (label(card), act(verb_of[card], card)))
    return rows


def _suit_rows(cards: Sequence[str], button: Callable[[str], Button]) -> Keyboard:
    """Card buttons one suit a row (a long suit on as many rows as it needs), in the order
    given: a 16-card hand reads like the hand message above it."""
    rows: Keyboard = []
    suit = None
    for card in cards:
        if card[1] != suit or len(rows[-1]) == SUIT_ROW:
            rows.append([])
            suit = card[1]
        rows[-1].append(button(card))
    return rows


# ---------------------------------------------------------------- lobby, /new, away, /balance


def lobby_keyboard(
    lang: str, game_id: int, *, can_begin: bool, can_cancel: bool = True, room: bool = False
) -> Keyboard:
    """Join / Leave, the computers to seat while there is ``room``, then Begin (only when the
    table may start) and Cancel."""
    rows: Keyboard = [
        [
            (t(lang, "btn.join"), encode(Lobby(game_id, "join"))),
            (t(lang, "btn.leave"), encode(Lobby(game_id, "leave"))),
        ]
    ]
    if room:
        rows.append(
            [
                (t(lang, "btn.add_computer"), encode(Lobby(game_id, "computer"))),
                (t(lang, "btn.add_novice"), encode(Lobby(game_id, "novice"))),
            ]
        )
    last = []
    if can_begin:
        last.append((t(lang, "btn.begin"), encode(Lobby(game_id, "begin"))))
    if can_cancel:
        last.append((t(lang, "btn.cancel"), encode(Lobby(game_id, "cancel"))))
    if last:
        rows.append(last)
    return rows


def new_game_keyboard(lang: str) -> Keyboard:
    """The /new chooser: one button per game."""
    return [
        [(game_title(lang, kind), encode(NewGame(kind)))]
        for kind in ("stukolka", "shleif", "starshina")
    ]


def rules_keyboard(lang: str) -> Keyboard:
    """The private /rules chooser: one button per game."""
    return [
        [(game_title(lang, kind), encode(RulesOf(kind)))]
        for kind in ("stukolka", "shleif", "starshina")
    ]


def back_keyboard(lang: str, game_id: int) -> Keyboard:
    """«I'm back» for a player marked away."""
    return [[(t(lang, "btn.back"), encode(Back(game_id)))]]


def void_keyboard(lang: str, game_id: int, deal: int, votes: int, players: int) -> Keyboard:
    """A stopped table's deal in progress: each player may agree to void it (RULES.md §5)."""
    text = t(lang, "btn.void_deal", votes=votes, players=players)
    return [[(text, encode(Void(game_id, deal)))]]


def balance_keyboard(lang: str, page: PageName) -> Keyboard:
    """The /balance message shows ``page``; one button switches to the other page."""
    other: PageName = "settle" if page == "balance" else "balance"
    return [[(t(lang, f"btn.page_{other}"), encode(Page(other)))]]


# ---------------------------------------------------------------- settings

#: the values the settings menu offers for every option of RULES.md
SETTING_CHOICES: Final[dict[str, dict[str, tuple[object, ...]]]] = {
    "stukolka": {
        "variant": ("classic", "shleif"),
        "stake": (3, 6, 9, 15, 30, 60, 150),
        "ante_mode": ("dealer", "obligatory"),
        "lone_player": ("takes_pot", "dealer_defends"),
        "void_rule": ("must_trump", "head_only"),
        "compulsory_lead": ("every_lead", "first_lead"),
        "remiz_cap": (None, 6, 12, 30, 60, 150),
        "dark_in_classic": (False, True),
    },
    "starshina": {
        "targets": ("8-5-3", "9-5-2"),
        "stake": (1, 2, 3, 5, 10, 20),
        "exchange": ("ring", "updown"),
        "trumps": ("none", "dealer_names"),
        "scoring": ("pot", "per_trick"),
        "next_dealer": ("loser", "winner"),
        "max_deals": (10, 20, 30, 50),
    },
}


PRESET: Final = "preset"
"""The pseudo-option of a settings button that applies one of a game's presets."""


def _preset_values(presets: dict[str, StarshinaOptions]) -> dict[str, dict[str, object]]:
    """Each preset as the options in which the presets differ: applying one sets those and
    keeps the chat's other choices (the stake, the targets…)."""
    values = {name: preset.to_json() for name, preset in presets.items()}
    first = next(iter(values.values()))
    differing = [key for key in first if len({repr(v[key]) for v in values.values()}) > 1]
    return {name: {key: data[key] for key in differing} for name, data in values.items()}


SETTING_PRESETS: Final[dict[str, dict[str, dict[str, object]]]] = {
    "starshina": _preset_values(STARSHINA_PRESETS),
}
"""RULES.md §4 "Presets": Старшина as the text has it and British, offered atop its menu."""


def current_preset(game: str, options: Options) -> str | None:
    """The preset the chat's options match, if any."""
    for name, values in SETTING_PRESETS.get(game, {}).items():
        if all(getattr(options, key) == value for key, value in values.items()):
            return name
    return None


def option_token(value: object) -> str:
    """The token a settings button carries for an option value."""
    return value_token(value)


def setting_value(game: str, option: str, token: str) -> object:
    """The option value a settings button's token stands for; ``BadCallback`` if the menu
    does not offer it."""
    for value in SETTING_CHOICES.get(game, {}).get(option, ()):
        if value_token(value) == token:
            return value
    raise BadCallback("not a value the settings menu offers")


def settings_root_keyboard(
    lang: str, ranks: str | None = None, away_play: str = "computer"
) -> Keyboard:
    """The top of /settings: one button per game; the evening's gap, which opens its choice;
    who plays for an away player (the current choice marked); in Russian, the rank letters
    (J Q K A or В Д К Т, the current one marked; ``ranks`` the chat's stored choice)."""
    games: tuple[SettingsGame, ...] = ("stukolka", "starshina")
    rows = [[(game_title(lang, game), encode(Settings(game)))] for game in games]
    rows.append([(t(lang, "btn.evening_gap"), encode(EveningGap(0)))])
    plays: tuple[AwayPlayName, ...] = ("computer", "default")
    rows.append(
        [
            (
                (f"{SELECTED_MARK} " if play == away_play else "") + t(lang, f"btn.away.{play}"),
                encode(AwayPlay(play)),
            )
            for play in plays
        ]
    )
    if lang == "ru":
        current = ranks_style(lang, ranks)
        choices: tuple[RanksName, ...] = ("russian", "latin")
        rows.append(
            [
                (
                    (f"{SELECTED_MARK} " if style == current else "")
                    + t(lang, f"btn.ranks.{style}"),
                    encode(CardRanks(style)),
                )
                for style in choices
            ]
        )
    return rows


def evening_gap_keyboard(lang: str, gap: float) -> Keyboard:
    """The pauses that may end an evening, the chat's current one (``gap`` seconds) marked,
    and a way back to the top of /settings."""
    buttons = []
    for hours in GAP_CHOICES:
        text = t(lang, "btn.gap_hours", hours=hours)
        if hours * 3600 == gap:
            text = f"{SELECTED_MARK} {text}"
        buttons.append((text, encode(EveningGap(hours))))
    rows = _rows(buttons, 4)
    rows.append([(t(lang, "btn.settings_back"), encode(Settings()))])
    return rows


def settings_game_keyboard(lang: str, game: SettingsGame, options: Options) -> Keyboard:
    """A game's options, one button each showing the current value, and a way back."""
    rows: Keyboard = []
    presets = SETTING_PRESETS.get(game, {})
    if presets:
        current = current_preset(game, options)
        buttons = []
        for preset in presets:
            text = t(lang, f"preset.{game}.{preset}")
            if preset == current:
                text = f"{SELECTED_MARK} {text}"
            buttons.append((text, encode(Settings(game, PRESET, preset))))
        rows.append(buttons)
    for name in option_names(game):
        text = t(
            lang,
            "btn.option",
            option=option_label(lang, game, name),
            value=value_label(lang, game, name, getattr(options, name)),
        )
        rows.append([(text, encode(Settings(game, name)))])
    rows.append([(t(lang, "btn.settings_back"), encode(Settings()))])
    return rows


def settings_option_keyboard(
    lang: str, game: SettingsGame, option: str, current: object
) -> Keyboard:
    """The values of one option, the current one marked, and a way back."""
    buttons = []
    for value in SETTING_CHOICES[game][option]:
        text = value_label(lang, game, option, value)
        if value == current and type(value) is type(current):
            text = f"{SELECTED_MARK} {text}"
        buttons.append((text, encode(Settings(game, option, option_token(value)))))
    numbers = all(
        value is None or (isinstance(value, int) and not isinstance(value, bool))
        for value in SETTING_CHOICES[game][option]
    )
    rows = _rows(buttons, 3 if numbers else 1)
    rows.append([(t(lang, "btn.settings_back"), encode(Settings(game)))])
    return rows


__all__ = [
    "PRESET",
    "SETTING_CHOICES",
    "SETTING_PRESETS",
    "Button",
    "Keyboard",
    "back_keyboard",
    "balance_keyboard",
    "current_preset",
    "evening_gap_keyboard",
    "lobby_keyboard",
    "new_game_keyboard",
    "option_token",
    "selected_cards",
    "selection_order",
    "setting_value",
    "settings_game_keyboard",
    "settings_option_keyboard",
    "settings_root_keyboard",
    "starshina_keyboard",
    "stukolka_keyboard",
]
