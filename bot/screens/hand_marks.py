"""Cards marked on a hand message for a move of several cards (a discard, Старшина's kitty):
the press that marks or unmarks one, and the selection mask his buttons show. A part of
``bot.screens.hand_messages.Hands``.

A mark is committed by the table service, whose record of it every listener hears (the page
shows the marks too); the press shows the marker's hand itself, at once, before it is
answered, so the chat's listener leaves that hand alone while the press is handled
(``shown_by_press``): one render of it a mark, not two.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Set
from contextvars import ContextVar

from bot import callback as cb
from bot import keyboards
from bot.games import Table
from bot.pacing import answering
from locales import tn
from tables import Refused, TableService
from tables.events import Unshown
from tables.people import People

#: the hands, (game, user), that the press handled in this task shows itself once its change
#: is made (``_shows_itself``): a refresh asked meanwhile, by the record of that change, would
#: render the same hand a second time
_shown_by_press: ContextVar[Set[tuple[int, int]]] = ContextVar(
    "shown_by_press", default=frozenset()
)


def shown_by_press(game_id: int, user_id: int) -> bool:
    """Whether the press handled in this task shows his hand itself, once its change is
    made: a refresh of it asked now would render it twice."""
    return (game_id, user_id) in _shown_by_press.get()


@contextlib.contextmanager
def _shows_itself(game_id: int, user_id: int) -> Iterator[None]:
    """Inside, the press handled in this task changes his hand, and shows it itself right
    after. The set is emptied on the way out as well as reset, since a task started inside
    (a coalesced refresh) keeps this context."""
    keys = {(game_id, user_id)}
    token = _shown_by_press.set(keys)
    try:
        yield
    finally:
        keys.clear()
        _shown_by_press.reset(token)


class HandMarks:
    """The marks of ``Hands`` (mixed into it, which sets the attributes)."""

    tables: TableService
    people: People

    async def show_now(self, game_id: int, user_id: int, mask_message: int | None = None) -> None:
        """His hand message brought up to date now (``Hands.show_now``)."""
        raise NotImplementedError

    async def press_select(self, data: cb.Select, user_id: int) -> str | None:
        """A card marked (or unmarked) for a discard: his hand shows it at once, before the
        press is answered, rendered here alone (the record of the mark asks for no refresh of
        it meanwhile). A mark beyond what the move takes changes nothing and is answered with
        why; a press on the «marked: 2 of 4» button (the selection unchanged) with how many
        more to mark."""
        game = await self.tables.store.game(data.game_id)
        loaded = await self.tables.store.snapshot(game)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise Refused("not_at_table")
        if loaded.meta.turn != data.version or game.status != "active" or loaded.table is None:
            raise Refused("outdated")
        pick = keyboards.pick_of(loaded.table.legal(), data.verb)
        if pick is None or loaded.table.to_act != seat:
            raise Refused("outdated")
        held = loaded.table.holding(seat)
        shown = marked_mask(loaded.table, seat, loaded.meta.marked(user_id))
        count = bin(data.mask).count("1")
        fewest, most = pick
        lang = await self.people.chat_language(user_id)
        if count > most:
            return tn(lang, "answer.marked_enough", most)
        if data.mask == shown and count < fewest:
            return tn(lang, "answer.mark_more", fewest - count)
        try:
            cards = keyboards.selected_cards(held.cards, held.trump, data.mask, looked=held.looked)
        except cb.BadCallback:
            raise Refused("unknown_button") from None
        unshown = None
        with _shows_itself(data.game_id, user_id):
            try:
                await self.tables.turns.mark(data.game_id, user_id, data.version, data.verb, cards)
            except Unshown as error:
                unshown = error  # committed all the same: his hand shows it
        with answering():  # his own press's effect: before the waiting players' edits
            await self.show_now(data.game_id, user_id)
        if unshown is not None:
            raise unshown
        return None


def marked_mask(table: Table, seat: int, cards: tuple[str, ...]) -> int:
    """The selection mask of the cards a player has marked (``TableMeta.marked``), in his
    hand's order as its buttons show it (``keyboards.selection_order``)."""
    if not cards:
        return 0
    held = table.holding(seat)
    order = keyboards.selection_order(held.cards, held.trump, looked=held.looked)
    return sum(1 << order.index(card) for card in cards if card in order)
