"""Стуколка as the bot shows it (docs/rules.md §1–§3): classic and «со шлейфом», the texts of
``bot.games.stukolka.render``, the hand's keyboard, the rules text, and its own figures
(remizes, pots) in /stats and an evening's summary."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence

from bot.callback import Act, ArgKind, Codec, Look, encode
from bot.games.plugin import GameScreens, Keyboard
from bot.games.stukolka import render
from bot.games.stukolka.render import WORDS
from bot.keyboards import pick_of, rows_of, selection_rows
from bot.render.common import Deadline, label
from game.cards import sort_hand
from game.registry import JsonObject
from game.stukolka import PublicView, Role, SeatView, StukolkaOptions
from tables.games import stukolka as table_side
from tables.scores import Figures


class StukolkaScreens:
    def choice(self, view: PublicView) -> str:
        return "shleif" if view.options.shleif else "stukolka"

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
        return render.table_text(
            lang, view, names, deadline=deadline, away=away, kind=self.choice(view)
        )

    def hand_text(
        self,
        lang: str,
        view: SeatView,
        names: Sequence[str],
        *,
        deadline: Deadline | None,
        closed: bool,
    ) -> str:
        kind = self.choice(view.table)
        if closed:
            table = dataclasses.replace(view.table, to_act=None)
            view = dataclasses.replace(view, legal=(), table=table)
            return render.hand_text(lang, view, names, kind=kind)
        return render.hand_text(lang, view, names, kind=kind, deadline=deadline)

    def keyboard(
        self, codec: Codec, lang: str, view: SeatView, game_id: int, turn: int, mask: int
    ) -> Keyboard:
        return stukolka_keyboard(codec, lang, view, game_id, turn, mask)

    def outcome_text(self, lang: str, view: PublicView, names: Sequence[str], seat: int) -> str:
        return render.outcome_text(lang, view, names, seat, self.choice(view))

    def result_text(
        self,
        lang: str,
        view: PublicView,
        names: Sequence[str],
        balances: Mapping[int, int],
        money: Mapping[int, Mapping[str, int]],
    ) -> str:
        return render.result_text(lang, view, names, balances, kind=self.choice(view), money=money)


def rules_text(lang: str, choice: str, options: JsonObject) -> str:
    """/rules of Стуколка as ``options`` make them: the ante, the void rule, the lead, the
    remiz, a lone player, and the game of the choice (шлейф or classic)."""
    parsed = StukolkaOptions.from_json(options)
    shleif = parsed.shleif
    body = [
        WORDS.t(lang, "rules.stukolka.body"),
        WORDS.t(lang, f"rules.ante.{parsed.ante_mode}", stake=parsed.stake),
        WORDS.t(lang, f"rules.void.{parsed.void_rule}"),
        WORDS.t(lang, f"rules.lead.{parsed.compulsory_lead}"),
        WORDS.t(lang, "rules.remiz")
        if parsed.remiz_cap is None
        else WORDS.t(lang, "rules.remiz_capped", cap=parsed.remiz_cap),
        WORDS.t(lang, "rules.lone.shleif" if shleif else f"rules.lone.{parsed.lone_player}"),
    ]
    lines = [" ".join(body), WORDS.t(lang, "rules.shleif.body" if shleif else "rules.classic.body")]
    if not shleif and parsed.dark_in_classic:
        lines.append(WORDS.t(lang, "rules.classic.dark"))
    return "\n".join(lines)


def stukolka_keyboard(
    codec: Codec, lang: str, view: SeatView, game_id: int, version: int, mask: int = 0
) -> Keyboard:
    """The buttons of a player's private hand message: exactly ``view.legal`` (``mask`` is the
    current discard selection) and «look» while ``view.may_look``."""
    legal = view.legal
    verbs = [entry.verb for entry in legal]
    trump = view.table.trump
    rows: Keyboard = []

    def act(verb: str, arg: str | int | None = None) -> str:
        return codec.encode(Act(game_id, version, verb, arg))

    simple = [verb for verb in verbs if verb in table_side.SIMPLE_MOVES]
    if simple:
        buttons = [(WORDS.t(lang, table_side.SIMPLE_MOVES[verb]), act(verb)) for verb in simple]
        rows += rows_of(buttons, 2)
    pick = pick_of(legal, "discard")
    if pick is not None:
        if view.hand is not None:
            rows += selection_rows(
                codec,
                view.hand,
                trump,
                game_id,
                version,
                "discard",
                pick,
                mask,
                lang=lang,
                confirm=lambda count: _buy_label(lang, count),
            )
        else:
            # not looked at: how many cards, never which; the dark player is asked how many
            # of his own he discards (he draws one more, docs/rules.md §3), the others how many
            # they buy
            dark = view.table.seats[view.seat].role is Role.DARK
            blind_label = _discard_label if dark else _buy_label
            fewest, most = pick
            buttons = [
                (blind_label(lang, count), act("discard", (1 << count) - 1))
                for count in range(fewest, min(most, view.hand_count) + 1)
            ]
            rows += rows_of(buttons, 2)
    if view.hand is not None:
        card_verbs = [entry for entry in legal if entry.verb in ("drop", "play") and entry.arg]
        ordered = sort_hand([entry.arg for entry in card_verbs if entry.arg], trump)
        verb_of = {entry.arg: entry.verb for entry in card_verbs}
        rows += rows_of([(label(card), act(verb_of[card], card)) for card in ordered])
    if view.may_look:
        rows.append([(WORDS.t(lang, "btn.look"), encode(Look(game_id, version)))])
    return rows


def _buy_label(lang: str, count: int) -> str:
    return WORDS.t(lang, "btn.buy", n=count) if count else WORDS.t(lang, "btn.keep")


def _discard_label(lang: str, count: int) -> str:
    return (
        WORDS.t(lang, "btn.discard_blind", n=count) if count else WORDS.t(lang, "btn.discard_none")
    )


def stats_lines(lang: str, figures: Figures) -> list[str]:
    """/stats: the deals a player sat and how many of them he played rather than passed, his
    tricks, and the remizes he paid and the pots he took without play, when he has."""
    deals, fields = figures.deals, figures.fields
    lines = [WORDS.t(lang, "stats.played_deals", deals=WORDS.tn(lang, "count.deals", deals))]
    if deals:
        active = fields.get("deals_active", 0)
        percent = round(100 * active / deals)
        lines.append(WORDS.t(lang, "stats.in_play", active=active, deals=deals, percent=percent))
    lines.append(WORDS.t(lang, "stats.tricks", n=figures.tricks))
    if fields.get("remizes"):
        count = WORDS.tn(lang, "count.remizes", fields["remizes"])
        chips = WORDS.tn(lang, "count.chips", fields.get("remiz_paid", 0))
        lines.append(WORDS.t(lang, "stats.remizes", count=count, chips=chips))
    if fields.get("pots_taken"):
        chips = WORDS.tn(lang, "count.chips", fields.get("pot_chips", 0))
        lines.append(WORDS.t(lang, "stats.pots", count=fields["pots_taken"], chips=chips))
    return lines


def evening_lines(
    lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
) -> list[str]:
    """An evening's remizes, the most chips first; or that there were none (news after
    Стуколка deals: a remiz is this game's, and an evening without them says so)."""
    remizes, paid = figures.get("remizes", {}), figures.get("remiz_paid", {})
    if not remizes:
        return [WORDS.t(lang, "evening.no_remizes")]
    items = ", ".join(
        WORDS.t(
            lang,
            "evening.remiz_item",
            name=name(user),
            count=WORDS.tn(lang, "count.remizes", count),
            chips=WORDS.tn(lang, "count.chips", paid.get(user, 0)),
        )
        for user, count in sorted(remizes.items(), key=lambda item: -paid.get(item[0], 0))
    )
    return [WORDS.t(lang, "evening.remizes", items=items)]


PLUGIN: GameScreens[SeatView, PublicView] = GameScreens(
    table_side.PLUGIN,
    StukolkaScreens(),
    rules_text=rules_text,
    verbs={
        "shleif": ("sh", ArgKind.NONE),
        "open": ("o", ArgKind.NONE),
        "knock": ("k", ArgKind.NONE),
        "pass": ("p", ArgKind.NONE),
        "dark": ("d", ArgKind.NONE),
        "discard": ("b", ArgKind.MASK),
        "drop": ("x", ArgKind.CARD),
        "razrez": ("r", ArgKind.NONE),
        "no_razrez": ("nr", ArgKind.NONE),
        "play": ("c", ArgKind.CARD),
    },
    stats_lines=stats_lines,
    evening_lines=evening_lines,
    terms=("shleif", "razrez", "remiz"),
)
