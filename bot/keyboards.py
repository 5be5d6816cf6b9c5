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

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Final

from bot.callback import (
    GAP_CHOICES,
    Act,
    AwayPlay,
    AwayPlayName,
    Back,
    BadCallback,
    CardRanks,
    EveningGap,
    Hint,
    Hints,
    Lobby,
    NewGame,
    Page,
    PageName,
    PlayOn,
    RanksName,
    RulesOf,
    Select,
    Settings,
    Void,
    encode,
    mask_indices,
)
from bot.render.common import (
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
from locales import t

if TYPE_CHECKING:
    from game.registry import JsonObject
    from tables.games import Plugin

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


def rows_of(buttons: list[Button], width: int = CARDS_PER_ROW) -> Keyboard:
    return [buttons[start : start + width] for start in range(0, len(buttons), width)]


def pick_of(legal: Sequence[Legal], verb: str) -> tuple[int, int] | None:
    """The (fewest, most) cards a multi-card ``verb`` takes, if it is legal now."""
    for entry in legal:
        if entry.verb == verb and entry.pick is not None:
            return entry.pick
    return None


def selection_rows(
    hand: Sequence[str],
    trump: str | None,
    game_id: int,
    version: int,
    verb: str,
    pick: tuple[int, int],
    mask: int,
    *,
    lang: str,
    confirm: Callable[[int], str],
    by_suit: bool = False,
) -> Keyboard:
    """One toggle per card (selected ones marked; ``by_suit``: one suit a row, for long
    hands), then the confirm button, labelled ``confirm(count)``, when the selection is within
    ``pick``; while fewer cards are marked than ``pick`` needs, a button that says how many of
    how many are marked in its place (it carries the selection unchanged: pressed, it answers
    how many more to mark). Bits beyond the hand are dropped. A toggle that would mark more
    than ``pick`` allows is offered all the same and refused with a word when pressed
    (``Hands.press_select``), rather than hidden: the hand's layout stays put."""
    order = selection_order(hand, trump)
    mask &= (1 << len(order)) - 1
    index_of = {card: index for index, card in enumerate(order)}

    def toggle(card: str) -> Button:
        bit = 1 << index_of[card]
        text = f"{SELECTED_MARK} {label(card)}" if mask & bit else label(card)
        return (text, encode(Select(game_id, version, verb, mask ^ bit)))

    rows = suit_rows(order, toggle) if by_suit else rows_of([toggle(c) for c in order])
    count = bin(mask).count("1")
    fewest, most = pick
    if fewest <= count <= most:
        rows.append([(confirm(count), encode(Act(game_id, version, verb, mask)))])
    elif count < fewest:
        status = t(lang, "btn.marked", n=count, of=fewest)
        rows.append([(status, encode(Select(game_id, version, verb, mask)))])
    return rows


def suit_rows(cards: Sequence[str], button: Callable[[str], Button]) -> Keyboard:
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
    lang: str,
    game_id: int,
    *,
    can_begin: bool,
    can_cancel: bool = True,
    room: bool = False,
    computers: bool = True,
    practice: bool = False,
) -> Keyboard:
    """Join / Leave (not at a ``practice`` table: nobody else can join a private chat), the
    computers to seat while there is ``room`` (in a game that has ``computers``), then Begin
    (only when the table may start) and Cancel."""
    rows: Keyboard = []
    if not practice:
        rows.append(
            [
                (t(lang, "btn.join"), encode(Lobby(game_id, "join"))),
                (t(lang, "btn.leave"), encode(Lobby(game_id, "leave"))),
            ]
        )
    if room and computers:
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


def new_game_keyboard(lang: str, games: Iterable[Plugin]) -> Keyboard:
    """The /new chooser: one button per choice of each game."""
    return [
        [(game_title(lang, item.name), encode(NewGame(item.name)))]
        for game in games
        for item in game.choices
    ]


def rules_keyboard(lang: str, games: Iterable[Plugin]) -> Keyboard:
    """The private /rules chooser: one button per choice of each game."""
    return [
        [(game_title(lang, item.name), encode(RulesOf(item.name)))]
        for game in games
        for item in game.choices
    ]


def back_keyboard(lang: str, game_id: int) -> Keyboard:
    """«I'm back» for a player marked away."""
    return [[(t(lang, "btn.back"), encode(Back(game_id)))]]


def play_on_keyboard(lang: str, game_id: int, deal: int) -> Keyboard:
    """A table stopped after its deal, with a large pot on the table: play on after all."""
    return [[(t(lang, "btn.play_on"), encode(PlayOn(game_id, deal)))]]


def hint_row(lang: str, game_id: int, turn: int) -> list[tuple[str, str]]:
    """💡 under a player's move buttons: what the strong computer would do in his seat."""
    return [(t(lang, "btn.hint"), encode(Hint(game_id, turn)))]


def void_keyboard(lang: str, game_id: int, deal: int, votes: int, players: int) -> Keyboard:
    """A stopped table's deal in progress: each player may agree to void it (docs/rules.md §5)."""
    text = t(lang, "btn.void_deal", votes=votes, players=players)
    return [[(text, encode(Void(game_id, deal)))]]


def balance_keyboard(lang: str, page: PageName) -> Keyboard:
    """The /balance message shows ``page``; one button switches to the other page."""
    other: PageName = "settle" if page == "balance" else "balance"
    return [[(t(lang, f"btn.page_{other}"), encode(Page(other)))]]


# ---------------------------------------------------------------- settings

PRESET: Final = "preset"
"""The pseudo-option of a settings button that applies one of a game's presets."""


def current_preset(game: Plugin, options: JsonObject) -> str | None:
    """The preset the chat's options match, if any."""
    for name, values in game.menu.presets.items():
        if all(options.get(key) == value for key, value in values.items()):
            return name
    return None


def option_token(value: object) -> str:
    """The token a settings button carries for an option value."""
    return value_token(value)


def setting_value(game: Plugin, option: str, token: str) -> object:
    """The option value a settings button's token stands for; ``BadCallback`` if the menu
    does not offer it."""
    for value in game.menu.values.get(option, ()):
        if value_token(value) == token:
            return value
    raise BadCallback("not a value the settings menu offers")


def settings_root_keyboard(
    lang: str,
    games: Iterable[Plugin],
    ranks: str | None = None,
    away_play: str = "computer",
    hints: bool = False,
) -> Keyboard:
    """The top of /settings: one button per game; the evening's gap, which opens its choice;
    who plays for an away player and whether players may ask for hints (the current choices
    marked); in Russian, the rank letters (J Q K A or В Д К Т, the current one marked;
    ``ranks`` the chat's stored choice)."""
    rows = [[(game_title(lang, game.kind), encode(Settings(game.kind)))] for game in games]
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
    rows.append(
        [
            (
                (f"{SELECTED_MARK} " if allowed == hints else "")
                + t(lang, f"btn.hints.{'on' if allowed else 'off'}"),
                encode(Hints(allowed)),
            )
            for allowed in (False, True)
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
    rows = rows_of(buttons, 4)
    rows.append([(t(lang, "btn.settings_back"), encode(Settings()))])
    return rows


def settings_game_keyboard(lang: str, game: Plugin, options: JsonObject) -> Keyboard:
    """A game's options, one button each showing the current value, and a way back."""
    rows: Keyboard = []
    kind = game.kind
    presets = game.menu.presets
    if presets:
        current = current_preset(game, options)
        buttons = []
        for preset in presets:
            text = t(lang, f"preset.{kind}.{preset}")
            if preset == current:
                text = f"{SELECTED_MARK} {text}"
            buttons.append((text, encode(Settings(kind, PRESET, preset))))
        rows.append(buttons)
    for name in option_names(game):
        value = options.get(name, game.menu.defaults[name])
        text = t(
            lang,
            "btn.option",
            option=option_label(lang, kind, name),
            value=value_label(lang, kind, name, value),
        )
        rows.append([(text, encode(Settings(kind, name)))])
    rows.append([(t(lang, "btn.settings_back"), encode(Settings()))])
    return rows


def settings_option_keyboard(lang: str, game: Plugin, option: str, current: object) -> Keyboard:
    """The values of one option, the current one marked, and a way back."""
    buttons = []
    kind = game.kind
    values = game.menu.values[option]
    for value in values:
        text = value_label(lang, kind, option, value)
        if value == current and type(value) is type(current):
            text = f"{SELECTED_MARK} {text}"
        buttons.append((text, encode(Settings(kind, option, option_token(value)))))
    numbers = all(
        value is None or (isinstance(value, int) and not isinstance(value, bool))
        for value in values
    )
    rows = rows_of(buttons, 3 if numbers else 1)
    rows.append([(t(lang, "btn.settings_back"), encode(Settings(kind)))])
    return rows


__all__ = [
    "PRESET",
    "Button",
    "Keyboard",
    "back_keyboard",
    "balance_keyboard",
    "current_preset",
    "evening_gap_keyboard",
    "lobby_keyboard",
    "new_game_keyboard",
    "option_token",
    "pick_of",
    "rows_of",
    "selected_cards",
    "selection_order",
    "selection_rows",
    "setting_value",
    "settings_game_keyboard",
    "settings_option_keyboard",
    "settings_root_keyboard",
    "suit_rows",
]
