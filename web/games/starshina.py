"""Старшина on the page: its seat view (the schema is in ``web.views``) and the catalogue keys
it names."""

from __future__ import annotations

from game import starshina
from game.cards import SUIT_ORDER
from game.core import Transfer
from game.starshina.views import last_deal_money
from tables.games import starshina as table_side
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
    phrase_text,
    seat_ref,
    text,
)

_PASSED = {True: "web.private.to", False: "web.private.from"}


def starshina_view(view: starshina.SeatView, info: TableInfo) -> Json:
    """The page's view of one seat at Старшина."""
    table = view.table
    data = _base("starshina", "starshina", view, table, info)
    over = table.phase in (starshina.Phase.DEAL_OVER, starshina.Phase.GAME_OVER)
    data["trump_card"] = None
    data["trump_card_on_stock"] = False
    data["trump_line"] = None
    data["pot_gloss"] = None
    data["pot"] = text("web.pot.game", pot=table.game_pot)
    data["stock"] = table.kitty_count
    data["stock_label"] = "web.kitty"
    seats = []
    record = table.history[-1] if over and table.history else None
    playing = table.phase is starshina.Phase.PLAY
    for summary in table.seats:
        seat = _seat(summary.seat, view.seat, table.dealer, table.to_act, info)
        tricks = record.tricks[summary.seat] if record else summary.tricks
        if record:
            # «9 взяток при норме 3 — 6 сверх нормы», as the chat's result says it
            note = text(
                "starshina.result_tricks",
                tricks=text("n.tricks", tricks),
                target=summary.target,
                diff=_diff_words(record.diffs[summary.seat]),
            )
        elif playing:
            note = text(
                "starshina.tricks_of", tricks=text("n.tricks", tricks), target=summary.target
            )
        else:
            # before the play no trick is taken: the target alone
            note = text("web.target", target=summary.target)
        seat.update(
            cards=summary.cards,
            tricks=tricks if record or playing else None,
            role=None,
            note=note,
            tricks_in_note=bool(record or playing),
        )
        seats.append(seat)
    data["seats"] = seats
    legal = view.legal
    data["hand"] = _hand(view.hand, 0, legal, table.trump)
    data["pick"] = _pick(legal, "kitty", "btn.confirm_kitty", None)
    data["actions"] = [
        action("trump", text(f"web.suit.{suit}"), suit, input="suit")
        for suit in SUIT_ORDER
        if any(entry.verb == "trump" and entry.arg == suit for entry in legal)
    ]
    private: list[Json] = []
    for item in view.exchanged:
        gave = item.giver == view.seat
        other = item.receiver if gave else item.giver
        private.append({"label": text(_PASSED[gave], name=seat_ref(other)), "cards": [item.card]})
        if item.returned is not None:
            private.append(
                {"label": text(_PASSED[not gave], name=seat_ref(other)), "cards": [item.returned]}
            )
    if view.discards:
        private.append({"label": text("web.private.discards"), "cards": list(view.discards)})
    if view.from_kitty:
        private.append({"label": text("web.private.from_kitty"), "cards": list(view.from_kitty)})
    data["private"] = private
    data["play_begun"] = playing
    words = table_side.prompt(view)
    data["prompt"] = None if words is None else phrase_text(words)
    data["result"] = _starshina_result(table) if over else None
    return data


def _diff_words(diff: int) -> Json:
    """A deal's tricks against the target in words: «не хватило 5», «12 сверх нормы»."""
    if diff < 0:
        return text("starshina.short", n=-diff)
    if diff > 0:
        return text("starshina.over", n=diff)
    return text("starshina.on_target")


def _deal_diffs(table: starshina.PublicView) -> list[Transfer]:
    """The per-trick money of the deal just settled (§4.4)."""
    return last_deal_money(table)[0]


def _starshina_result(table: starshina.PublicView) -> Json:
    """A finished deal as the chat's result says it: when the game is over, its winner and
    each player's money over the game by reason; else the deal's money where it moved any
    (scoring per trick), or the game pot still waiting, and that the game goes on."""
    players = len(table.seats)
    if table.winner is not None:
        return {
            "nets": _nets(table.transfers, players),
            "parts": _parts(table.transfers, players),
            "label": text("web.game_over", winner=seat_ref(table.winner)),
            "notes": [],
        }
    money = _deal_diffs(table)
    notes = [] if money or not table.game_pot else [text("web.pot.game", pot=table.game_pot)]
    notes.append(
        text(
            "web.game_goes_on",
            deals=len(table.history),
            most=table.options.max_deals,
        )
    )
    return {
        "nets": _nets(money, players) if money else None,
        "parts": _parts(money, players) if money else None,
        "label": text("web.deal_over"),
        "notes": notes,
    }


PAGE: GamePage[starshina.SeatView, starshina.PublicView] = GamePage(
    table_side.PLUGIN,
    starshina_view,
    texts=(
        "starshina.prompt.",
        "starshina.tricks_of",
        "starshina.result_tricks",
        "starshina.short",
        "starshina.over",
        "starshina.on_target",
        "web.target",
    ),
)
