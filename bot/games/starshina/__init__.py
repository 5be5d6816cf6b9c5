"""Старшина as the bot shows it (docs/rules.md §4): the texts of
``bot.games.starshina.render``, the hand's keyboard, the rules text, and its figures in
/stats and its games won in an evening's summary."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence

from bot.callback import Act, ArgKind, Codec
from bot.games.plugin import GameScreens, Keyboard
from bot.games.starshina import render
from bot.games.starshina.render import WORDS
from bot.keyboards import pick_of, selection_rows, suit_rows
from bot.render.common import SUIT_SYMBOLS, Deadline, label
from game.cards import SUIT_ORDER, sort_hand
from game.registry import JsonObject
from game.starshina import PublicView, SeatView, StarshinaOptions
from tables.games import starshina as table_side
from tables.scores import Figures


class StarshinaScreens:
    def choice(self, view: PublicView) -> str:
        return "starshina"

    def table_text(
        self,
        lang: str,
        view: PublicView,
        names: Sequence[str],
        *,
        deadline: Deadline | None,
        away: Collection[int],
        closed: bool,
    ) -> str:
        if closed:
            view = dataclasses.replace(view, to_act=None)
        return render.table_text(lang, view, names, deadline=deadline, away=away)

    def hand_text(
        self,
        lang: str,
        view: SeatView,
        names: Sequence[str],
        *,
        deadline: Deadline | None,
        closed: bool,
    ) -> str:
        if closed:
            table = dataclasses.replace(view.table, to_act=None)
            view = dataclasses.replace(view, legal=(), table=table)
            return render.hand_text(lang, view, names)
        return render.hand_text(lang, view, names, deadline=deadline)

    def keyboard(
        self, codec: Codec, lang: str, view: SeatView, game_id: int, turn: int, mask: int
    ) -> Keyboard:
        return starshina_keyboard(codec, lang, view, game_id, turn, mask)

    def outcome_text(self, lang: str, view: PublicView, names: Sequence[str], seat: int) -> str:
        return render.outcome_text(lang, view, names, seat, "starshina")

    def result_text(
        self,
        lang: str,
        view: PublicView,
        names: Sequence[str],
        balances: Mapping[int, int],
        money: Mapping[int, Mapping[str, int]],
    ) -> str:
        return render.result_text(lang, view, names, balances, money=money)


def rules_text(lang: str, choice: str, options: JsonObject) -> str:
    """/rules of Старшина as ``options`` make them: the targets, the exchange, the trumps, the
    scoring, how many deals and who deals next."""
    parsed = StarshinaOptions.from_json(options)
    body = [
        WORDS.t(lang, "rules.starshina.body", targets=parsed.targets),
        WORDS.t(lang, f"rules.exchange.{parsed.exchange}"),
        WORDS.t(lang, f"rules.trumps.{parsed.trumps}"),
        WORDS.t(lang, f"rules.scoring.{parsed.scoring}", stake=parsed.stake),
        WORDS.tn(lang, "rules.max_deals", parsed.max_deals),
        WORDS.t(lang, f"rules.next_dealer.{parsed.next_dealer}"),
    ]
    return " ".join(body)


def starshina_keyboard(
    codec: Codec, lang: str, view: SeatView, game_id: int, version: int, mask: int = 0
) -> Keyboard:
    """The buttons of a Старшина hand message: exactly ``view.legal`` — a card to give or to
    return, one of the four suits to name trump, the kitty discard (toggle four cards of the
    hand, confirm when exactly four are selected), a card to play."""
    legal = view.legal
    trump = view.table.trump
    rows: Keyboard = []

    def act(verb: str, arg: str | int | None = None) -> str:
        return codec.encode(Act(game_id, version, verb, arg))

    suits = [entry.arg for entry in legal if entry.verb == "trump" and entry.arg]
    if suits:
        rows.append(
            [
                (SUIT_SYMBOLS[letter], act("trump", letter))
                for letter in SUIT_ORDER
                if letter in suits
            ]
        )
    pick = pick_of(legal, "kitty")
    if pick is not None:
        # sixteen and more cards: one suit a row, like the play buttons
        rows += selection_rows(
            codec,
            view.hand,
            trump,
            game_id,
            version,
            "kitty",
            pick,
            mask,
            lang=lang,
            confirm=lambda count: WORDS.t(lang, "btn.confirm_kitty", n=count),
            by_suit=True,
        )
    card_entries = [e for e in legal if e.verb in ("give", "return", "play") and e.arg]
    verb_of = {entry.arg: entry.verb for entry in card_entries}
    ordered = sort_hand([entry.arg for entry in card_entries if entry.arg], trump)
    rows += suit_rows(ordered, lambda card: (label(card), act(verb_of[card], card)))
    return rows


def stats_lines(lang: str, figures: Figures) -> list[str]:
    """/stats: the games a player sat with their deals, how many of the games he won, and his
    tricks (the game pots he won are kept, not shown)."""
    games, deals = (
        WORDS.tn(lang, "count.games", figures.games),
        WORDS.tn(lang, "count.deals", figures.deals),
    )
    won = figures.fields.get("games_won", 0)
    return [
        WORDS.t(lang, "stats.played", games=games, deals=deals),
        WORDS.t(lang, "stats.games_won", won=won, games=figures.games),
        WORDS.t(lang, "stats.tricks", n=figures.tricks),
    ]


def evening_results(
    lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
) -> list[str]:
    """An evening's games won, by who won most (none: nothing to say)."""
    won = figures.get("games_won", {})
    items = ", ".join(
        WORDS.t(lang, "evening.won_item", name=name(user), n=count)
        for user, count in sorted(won.items(), key=lambda item: -item[1])
    )
    return [WORDS.t(lang, "evening.games_won", items=items)] if items else []


PLUGIN: GameScreens[SeatView, PublicView] = GameScreens(
    table_side.PLUGIN,
    StarshinaScreens(),
    rules_text=rules_text,
    verbs={
        "give": ("g", ArgKind.CARD),
        "return": ("rt", ArgKind.CARD),
        "trump": ("t", ArgKind.SUIT),
        "kitty": ("kt", ArgKind.MASK),
        "play": ("c", ArgKind.CARD),
    },
    stats_lines=stats_lines,
    evening_results=evening_results,
)
