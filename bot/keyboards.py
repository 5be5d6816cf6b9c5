"""Inline keyboards as plain data: rows of ``(label, callback_data)`` buttons, no Telegram
types (``bot.messenger.markup`` turns them into the Bot API's ``reply_markup``).

A seat's keyboard offers exactly the legal actions of its view (``view.legal``), plus «look at
my cards» while the player has not looked. Cards a player has not looked at are never put on a
button: an unlooked hand gets no card buttons, and an unlooked purchase is a choice of how many
cards to change («втёмную» for the dark player).

Multi-card choices (the purchase discard, Старшина's kitty) are stateless: a toggle button
carries the whole new selection (``Select``), the confirm button the final one (``Act``). Bit
``i`` of a mask is the ``i``-th card of ``selection_order``; the handler turns a mask back into
cards with ``selected_cards``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from bot.callback import (
    Act,
    Again,
    Back,
    BadCallback,
    Codec,
    Hint,
    Lobby,
    PlayOn,
    Select,
    Void,
    encode,
    mask_indices,
)
from bot.render.common import (
    label,
)
from game.cards import sort_hand
from game.core import Legal
from locales import t

if TYPE_CHECKING:
    pass

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
    return sort_hand(hand, trump) if looked else list(hand)


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
    codec: Codec,
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
    how many more to mark); all in ``codec``'s words. Bits beyond the hand are dropped. A
    toggle that would mark more than ``pick`` allows is offered all the same and refused with
    a word when pressed (``Hands.press_select``), rather than hidden: the hand's layout stays
    put."""
    order = selection_order(hand, trump)
    mask &= (1 << len(order)) - 1
    index_of = {card: index for index, card in enumerate(order)}

    def toggle(card: str) -> Button:
        bit = 1 << index_of[card]
        text = f"{SELECTED_MARK} {label(card)}" if mask & bit else label(card)
        return (text, codec.encode(Select(game_id, version, verb, mask ^ bit)))

    rows = suit_rows(order, toggle) if by_suit else rows_of([toggle(c) for c in order])
    count = bin(mask).count("1")
    fewest, most = pick
    if fewest <= count <= most:
        rows.append([(confirm(count), codec.encode(Act(game_id, version, verb, mask)))])
    elif count < fewest:
        status = t(lang, "btn.marked", n=count, of=fewest)
        rows.append([(status, codec.encode(Select(game_id, version, verb, mask)))])
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
    seated_computers: bool = False,
) -> Keyboard:
    """Join / Leave (not at a ``practice`` table: nobody else can join a private chat), the
    computers to seat while there is ``room`` (in a game that has ``computers``), one to take
    off while any is seated (``seated_computers``), then Begin (only when the table may
    start) and Cancel."""
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
    if seated_computers:
        rows.append([(t(lang, "btn.remove_computer"), encode(Lobby(game_id, "uncomputer")))])
    last = []
    if can_begin:
        last.append((t(lang, "btn.begin"), encode(Lobby(game_id, "begin"))))
    if can_cancel:
        last.append((t(lang, "btn.cancel"), encode(Lobby(game_id, "cancel"))))
    if last:
        rows.append(last)
    return rows


def again_keyboard(lang: str, game_id: int) -> Keyboard:
    """«▶️ Новая партия» under an ended table's last message: the same game again."""
    return [[(t(lang, "btn.again"), encode(Again(game_id)))]]


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


__all__ = [
    "Button",
    "Keyboard",
    "back_keyboard",
    "lobby_keyboard",
    "pick_of",
    "rows_of",
    "selected_cards",
    "selection_order",
    "selection_rows",
    "suit_rows",
]
