"""Стуколка on the page (classic and со шлейфом): its seat view (the schema is in ``web.views``)
and the catalogue keys it names."""

from __future__ import annotations

from game import stukolka
from game.stukolka.rules import TRICKS_PER_DEAL, trick_share
from game.stukolka.state import ACTIVE_ROLES
from game.stukolka.views import SeatSummary
from tables.games import stukolka as table_side
from web.games.plugin import GamePage
from web.view_parts import (
    Json,
    TableInfo,
    _base,
    _hand,
    _nets,
    _parts,
    _pick,
    _seat,
    action,
    card_ref,
    phrase_text,
    suit_ref,
    text,
)

#: the moves the page draws quieter than the others beside them: the refusals
_SECONDARY = frozenset({"pass", "no_razrez"})
#: the phases a seat's tricks are counted in (the chat's seat line)
_PLAYING = (stukolka.Phase.PLAY, stukolka.Phase.DEAL_OVER)


def stukolka_view(view: stukolka.SeatView, info: TableInfo) -> Json:
    """The page's view of one seat at Стуколка (classic or «со шлейфом»)."""
    table = view.table
    data = _base("stukolka", "shleif" if table.options.shleif else "stukolka", view, table, info)
    over = table.phase is stukolka.Phase.DEAL_OVER
    data["trump_card"] = table.trump_card
    data["trump_card_on_stock"] = table.trump_card_on_stock
    data["trump_line"] = _stukolka_trump_line(table)
    data["pot"] = text("web.pot.remiz", pot=table.pot, share=_share(table.pot), remiz=table.remiz)
    data["pot_gloss"] = text("gloss.remiz")
    data["stock"] = table.stock_count
    data["stock_label"] = "web.stock"
    seats = []
    playing = table.phase in _PLAYING and table.outcome is not stukolka.Outcome.LONE
    for summary in table.seats:
        seat = _seat(summary.seat, view.seat, table.dealer, table.to_act, info)
        role = summary.role
        active = role in ACTIVE_ROLES
        seat.update(
            # a passer's cards are dead and never shown (§1.3): none drawn for him
            cards=0 if role is stukolka.Role.PASS else summary.cards,
            # tricks once the play has begun, for those who play, as the chat counts them
            tricks=summary.tricks if playing and active else None,
            role=None if role is stukolka.Role.NONE else text(f"role.{role.value}"),
            note=_bought(summary),
        )
        seats.append(seat)
    data["seats"] = seats
    legal = view.legal
    hidden = 0 if view.hand is not None else view.hand_count
    hand = _hand(view.hand, hidden, legal, table.trump)
    hand["look"] = view.may_look
    data["hand"] = hand
    dark = table.seats[view.seat].role is stukolka.Role.DARK
    pick = None
    actions: list[Json] = [
        action(
            entry.verb,
            text(table_side.SIMPLE_MOVES[entry.verb]),
            secondary=entry.verb in _SECONDARY,
        )
        for entry in legal
        if entry.verb in table_side.SIMPLE_MOVES
    ]
    discard = next((entry for entry in legal if entry.verb == "discard"), None)
    if discard is not None and discard.pick is not None:
        if view.hand is not None:
            pick = _pick(legal, "discard", "btn.buy", "btn.keep")
        else:
            # unseen cards: how many, never which (the engine takes them in its order)
            fewest, most = discard.pick
            for count in range(fewest, min(most, view.hand_count) + 1):
                key = (
                    ("btn.discard_blind" if count else "btn.discard_none")
                    if dark
                    else ("btn.buy" if count else "btn.keep")
                )
                label = text(key, n=count) if count else text(key)
                actions.append(action("discard", label, count))
    if view.may_look:
        # looking decides nothing: a quiet choice beside the turn's own
        actions.append(action("look", text("btn.look"), secondary=True))
    data["pick"] = pick
    data["actions"] = actions
    words = table_side.prompt(view)
    data["prompt"] = None if words is None else phrase_text(words)
    private: list[Json] = []
    if view.shleif_card is not None:
        private.append({"label": text("web.private.shleif_card"), "cards": [view.shleif_card]})
    if view.discards:
        private.append({"label": text("web.private.discards"), "cards": list(view.discards)})
    data["private"] = private
    data["play_begun"] = table.phase is stukolka.Phase.PLAY
    data["result"] = None
    if over:
        notes = []
        if table.outcome is stukolka.Outcome.PLAYED and table.pot_after is not None:
            notes.append(
                text("result.pot_carried", pot=table.pot_after)
                if table.pot_after
                else text("result.pot_empty")
            )
        data["result"] = {
            "nets": _nets(table.transfers, table.players),
            "parts": _parts(table.transfers, table.players),
            "label": text(f"web.outcome.{table.outcome.value}" if table.outcome else "web.over"),
            "notes": notes,
        }
    return data


def _bought(seat: SeatSummary) -> Json | None:
    """What a seat bought, as the chat's seat line says it: «покупка: 2 карты», «без покупки»
    (nothing for one gone в разрез: his four cards are the stock's)."""
    if seat.bought is None or seat.role is stukolka.Role.RAZREZ:
        return None
    return text("seat.bought", n=seat.bought) if seat.bought else text("seat.kept")


def _share(pot: int) -> str:
    """What a trick pays, as the chat's pot line says it: «4», or «4/4/5» where the tricks
    differ."""
    shares = [trick_share(pot, number) for number in range(TRICKS_PER_DEAL)]
    return str(shares[0]) if len(set(shares)) == 1 else "/".join(map(str, shares))


def _stukolka_trump_line(table: stukolka.PublicView) -> Json:
    """The trump as the chat's table message says it: «Козырь: 6♠️ — открыт на колоде» only
    while the card lies on the stock, «Козырь: 6♠️» once it is drawn."""
    if table.trump is None:
        return text("stukolka.trump.unknown")
    if table.shleif:
        if table.trump_card is not None:
            return text(
                "stukolka.trump.shleif_revealed",
                suit=suit_ref(table.trump),
                card=card_ref(table.trump_card),
            )
        return text("stukolka.trump.shleif", suit=suit_ref(table.trump))
    if table.trump_card is None:
        return text("stukolka.trump.suit", suit=suit_ref(table.trump))
    key = "stukolka.trump.on_stock" if table.trump_card_on_stock else "stukolka.trump.card"
    return text(key, card=card_ref(table.trump_card))


PAGE: GamePage[stukolka.SeatView, stukolka.PublicView] = GamePage(
    table_side.PLUGIN,
    stukolka_view,
    texts=("role.", "stukolka.trump.", "result.pot_", "gloss.remiz", "seat.bought", "seat.kept"),
)
