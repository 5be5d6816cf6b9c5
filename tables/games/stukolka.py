"""Стуколка at the table (docs/rules.md §1–§3): classic and «со шлейфом» as two /new choices, the
options menu, its computer players (``game.stukolka.ai``), and its own /stats figures: the
deals a player played rather than passed, the remizes he paid and the pots he took without
play."""

from __future__ import annotations

from game.stukolka import (
    RULES,
    Phase,
    PublicView,
    Role,
    SeatView,
    StukolkaGame,
    StukolkaOptions,
)
from game.stukolka.ai import COMPUTER
from locales import game_entries
from tables.games.plugin import Choice, GamePlugin, OptionsMenu, StatField
from tables.games.words import Phrase

#: the moves that take no argument, each with its button's catalogue key: the chat's buttons
#: and the Mini App's alike
SIMPLE_MOVES: dict[str, str] = {
    "shleif": "btn.shleif",
    "open": "btn.open",
    "knock": "btn.knock",
    "pass": "btn.pass",
    "dark": "btn.dark",
    "razrez": "btn.razrez",
    "no_razrez": "btn.no_razrez",
}


PLUGIN: GamePlugin[SeatView, PublicView] = GamePlugin(
    RULES,
    StukolkaGame,
    choices=(
        Choice("stukolka", "k", {"variant": "classic"}, aliases=("стуколка", "classic")),
        Choice("shleif", "s", {"variant": "shleif"}, aliases=("шлейф",)),
    ),
    menu=OptionsMenu(
        code="k",
        values={
            "variant": ("classic", "shleif"),
            "stake": (3, 6, 9, 15, 30, 60, 150),
            "ante_mode": ("dealer", "obligatory"),
            "lone_player": ("takes_pot", "dealer_defends"),
            "void_rule": ("must_trump", "head_only"),
            "compulsory_lead": ("every_lead", "first_lead"),
            "remiz_cap": (None, 6, 12, 30, 60, 150),
            "dark_in_classic": (False, True),
        },
        defaults=StukolkaOptions().to_json(),
        always=("stake",),
        # dark play is always allowed with the шлейф: its switch says nothing there
        implied={"dark_in_classic": {"variant": "shleif"}},
    ),
    texts=game_entries("stukolka"),
    computer=COMPUTER,
    stat_fields=(
        StatField("deals_active", deal="played"),
        StatField("remizes", ("remiz",), "paid", "count"),
        StatField("remiz_paid", ("remiz",), "paid", "sum"),
        StatField("pots_taken", ("pot_taken",), "received", "count"),
        StatField("pot_chips", ("pot_taken",), "received", "sum"),
    ),
)


def prompt(view: SeatView) -> Phrase | None:
    """What the seat is asked to do now, the chat and the page alike (None: nothing)."""
    table = view.table
    verbs = {entry.verb for entry in view.legal}
    role = table.seats[view.seat].role
    seen = view.hand is not None
    if not verbs:
        return Phrase("prompt.deal_over") if table.phase is Phase.DEAL_OVER else None
    match table.phase:
        case Phase.CHOOSE:
            return Phrase("prompt.choose", params={"pot": table.pot})
        case Phase.KNOCK:
            return Phrase("prompt.knock_dark" if "dark" in verbs else "prompt.knock")
        case Phase.PURCHASE:
            most = max((entry.pick or (0, 0))[1] for entry in view.legal)
            if role is Role.DARK:
                return Phrase("prompt.purchase_dark", params={"most": most})
            if not seen:
                return Phrase("prompt.purchase_unseen", params={"most": most})
            # the confirmation reads «Оставить все» until a card is marked
            keep = Phrase("btn.keep")
            purchase = Phrase("prompt.purchase", params={"most": most, "keep": keep})
            if role is Role.SHLEIF_DEALER:  # then the шлейф card joins his hand
                return Phrase("prompt.purchase_shleif", params={"prompt": purchase})
            return purchase
        case Phase.PURCHASE_DROP | Phase.RAZREZ_DROP:
            return Phrase("prompt.drop" if seen else "prompt.look_first")
        case Phase.RAZREZ:
            return Phrase("prompt.razrez")
        case Phase.PLAY:
            return Phrase("prompt.play" if seen else "prompt.look_first")
    return None
