"""Старшина at the table (docs/rules.md §4): its /new choice, the options menu with its two
presets, its computer players (``game.starshina.ai``), and its own /stats figures: the games a
player won, and the game pots he won (kept, not shown)."""

from __future__ import annotations

from game.registry import JsonObject
from game.starshina import (
    PRESETS,
    RULES,
    Phase,
    PublicView,
    SeatView,
    StarshinaGame,
    StarshinaOptions,
)
from game.starshina.ai import COMPUTER
from locales import game_entries
from tables.games.plugin import Choice, GamePlugin, OptionsMenu, StatField
from tables.games.words import CardName, Phrase, SeatName


def _preset_values() -> dict[str, JsonObject]:
    """Each preset as the options in which the presets differ: applying one sets those and
    keeps the chat's other choices (the stake, the targets…)."""
    values = {name: preset.to_json() for name, preset in PRESETS.items()}
    first = next(iter(values.values()))
    differing = [key for key in first if len({repr(v[key]) for v in values.values()}) > 1]
    return {name: {key: data[key] for key in differing} for name, data in values.items()}


PLUGIN: GamePlugin[SeatView, PublicView] = GamePlugin(
    RULES,
    StarshinaGame,
    choices=(Choice("starshina", "t", aliases=("старшина",)),),
    menu=OptionsMenu(
        code="t",
        values={
            "targets": ("8-5-3", "9-5-2"),
            "stake": (1, 2, 3, 5, 10, 20),
            "exchange": ("ring", "updown"),
            "trumps": ("none", "dealer_names"),
            "scoring": ("pot", "per_trick"),
            "next_dealer": ("loser", "winner"),
            "max_deals": (10, 20, 30, 50),
        },
        defaults=StarshinaOptions().to_json(),
        # docs/rules.md §4 "Presets": as the text has it and British, offered atop the menu
        presets=_preset_values(),
        always=("targets", "stake", "exchange", "scoring"),
    ),
    texts=game_entries("starshina"),
    computer=COMPUTER,
    stat_fields=(
        StatField("games_won", deal="won"),
        StatField("pots_taken", ("game_pot",), "received", "count"),
        StatField("pot_chips", ("game_pot",), "received", "sum"),
    ),
)


def prompt(view: SeatView) -> Phrase | None:
    """What the seat is asked to do now, the chat and the page alike (None: nothing)."""
    table = view.table
    if not view.legal:
        return None
    match table.phase:
        case Phase.EXCHANGE_GIVE:
            receiver = table.exchange_left[0][1] if table.exchange_left else view.seat
            mine = sum(1 for giver, _ in table.exchange_left if giver == view.seat)
            return Phrase("starshina.prompt.give", mine, {"name": SeatName(receiver)})
        case Phase.RING_RETURN:
            pending = [item for item in view.exchanged if item.returned is None]
            if pending:
                item = pending[-1]
                named: dict[str, SeatName | CardName] = {
                    "name": SeatName(item.giver),
                    "card": CardName(item.card),
                }
                return Phrase("starshina.prompt.return", params=named)
            return Phrase("starshina.prompt.return_any")
        case Phase.NAME_TRUMP:
            return Phrase("starshina.prompt.trump")
        case Phase.KITTY:
            return Phrase("starshina.prompt.kitty")
        case Phase.PLAY:
            return Phrase("prompt.play")
    return None
