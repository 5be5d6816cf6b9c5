"""Стуколка texts: the group's table message, a player's private hand message and the result of
a deal (docs/rules.md §1–§3). Built only from the engine's views: the table text from the
``PublicView``, so it cannot show a card the group may not see."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.render.common import (
    Deadline,
    balance_lines,
    cards,
    game_title,
    label,
    mark_own_seat,
    money_text,
    plain_name,
    said,
    seat_name,
    suit,
    trick_lines,
    tricks_count,
    turn_deadline,
)
from game.stukolka.rules import TRICKS_PER_DEAL, trick_share
from game.stukolka.state import Outcome, Phase, Role
from game.stukolka.views import PublicView, SeatSummary, SeatView
from tables.games import stukolka as table_side

#: what this game's screens say: the shared catalogue with the game's own words
WORDS = table_side.PLUGIN.words

_ACTIVE = frozenset({Role.KNOCK, Role.DARK, Role.SHLEIF_DEALER, Role.RAZREZ, Role.DEFENDER})
_PLAYING = (Phase.PLAY, Phase.DEAL_OVER)


def speaking_order(view: PublicView) -> list[int]:
    """Seats from the dealer's left round to the dealer (the order of knocking)."""
    return [(view.dealer + offset) % view.players for offset in range(1, view.players + 1)]


def _title(lang: str, view: PublicView, kind: str) -> str:
    return WORDS.t(
        lang, "stukolka.title", game=game_title(WORDS, lang, kind), deal=view.deal_no + 1
    )


def trump_line(lang: str, view: PublicView) -> str:
    """The trump as the table knows it (§2, §3)."""
    if view.trump is None:
        return WORDS.t(lang, "stukolka.trump.unknown")
    if view.shleif:
        if view.trump_card is not None:
            return WORDS.t(
                lang,
                "stukolka.trump.shleif_revealed",
                suit=suit(view.trump),
                card=label(view.trump_card),
            )
        return WORDS.t(lang, "stukolka.trump.shleif", suit=suit(view.trump))
    if view.trump_card is None:
        return WORDS.t(lang, "stukolka.trump.suit", suit=suit(view.trump))
    key = "stukolka.trump.on_stock" if view.trump_card_on_stock else "stukolka.trump.card"
    return WORDS.t(lang, key, card=label(view.trump_card))


def pot_line(lang: str, view: PublicView) -> str:
    """The pot P and what a trick pays (§1.1)."""
    shares = [trick_share(view.pot, number) for number in range(TRICKS_PER_DEAL)]
    share = str(shares[0]) if len(set(shares)) == 1 else "/".join(map(str, shares))
    return WORDS.t(lang, "stukolka.pot", pot=view.pot, share=share)


def _status(lang: str, view: PublicView, seat: SeatSummary) -> str:
    role = seat.role
    if role is Role.NONE:
        if view.phase is Phase.CHOOSE:
            return WORDS.t(lang, "role.dealer_choosing") if seat.seat == view.dealer else ""
        # the one to act is not waiting for his turn: his 👈 says it
        return "" if seat.seat == view.to_act else WORDS.t(lang, "role.none")
    return WORDS.t(lang, f"role.{role.value}")


def _seat_line(
    lang: str, view: PublicView, seat: SeatSummary, names: Sequence[str], away: Collection[int]
) -> str:
    parts = [seat_name(names, seat.seat)]
    if seat.seat == view.dealer:
        parts.append(WORDS.t(lang, "seat.dealer_mark"))
    status = _status(lang, view, seat)
    head = " ".join(parts)
    details = [status] if status else []
    if seat.bought is not None and seat.role is not Role.RAZREZ:
        details.append(
            WORDS.tn(lang, "seat.bought", seat.bought)
            if seat.bought
            else WORDS.t(lang, "seat.kept")
        )
    if view.phase in _PLAYING and seat.role in _ACTIVE and view.outcome is not Outcome.LONE:
        details.append(tricks_count(lang, seat.tricks))
    if seat.seat == view.to_act:
        details.append(WORDS.t(lang, "seat.to_act_mark"))
    if seat.seat in away:
        details.append(WORDS.t(lang, "seat.away_mark"))
    return head + (" — " + " · ".join(details) if details else "")


def phase_line(lang: str, view: PublicView, names: Sequence[str]) -> str:
    """What the table is doing now."""
    if view.phase is Phase.PLAY:
        return WORDS.t(lang, "phase.play", number=len(view.trick_winners) + 1)
    if view.phase in (Phase.PURCHASE, Phase.RAZREZ):
        return WORDS.t(lang, f"phase.{view.phase.value}", stock=view.stock_count)
    return WORDS.t(lang, f"phase.{view.phase.value}", dealer=plain_name(names, view.dealer))


def _turn(lang: str, view: PublicView, names: Sequence[str], deadline: Deadline | None) -> str:
    if view.to_act is None:
        return ""
    return WORDS.t(lang, "turn.whose", name=seat_name(names, view.to_act)) + turn_deadline(
        lang, deadline
    )


def table_text(
    lang: str,
    view: PublicView,
    names: Sequence[str],
    *,
    deadline: Deadline | None = None,
    away: Collection[int] = (),
    kind: str,
) -> str:
    """The group's table message of a deal. ``names[seat]`` are display names; ``kind`` the
    game kind (``stukolka`` / ``shleif``); ``deadline`` of the player to act (optional);
    ``away`` the seats marked away. Shows the deal number as ``deal_no + 1``."""
    lines = [
        _title(lang, view, kind),
        WORDS.t(lang, "seat.dealer", name=seat_name(names, view.dealer)),
        trump_line(lang, view),
        pot_line(lang, view),
        "",
    ]
    lines += [
        _seat_line(lang, view, view.seats[seat], names, away) for seat in speaking_order(view)
    ]
    lines.append("")
    lines.append(phase_line(lang, view, names))
    lines += trick_lines(lang, view.trick, view.last_trick, view.trick_winners, names)
    turn = _turn(lang, view, names, deadline)
    if turn:
        lines.append(turn)
    return "\n".join(lines).strip()


# ---------------------------------------------------------------- the private hand message


def context_lines(lang: str, view: PublicView, names: Sequence[str], me: int | None) -> list[str]:
    """What a private message shows of the table: the pot and what a trick pays, the ремиз at
    stake, every seat (who knocked, passed or bought how many, each one's tricks), the trick on
    the table and the last trick. ``me`` is the reader's seat, marked «вы»."""
    lines = [pot_line(lang, view)]
    if view.remiz and view.phase is not Phase.DEAL_OVER:
        lines[0] += " · " + WORDS.t(lang, "hand.remiz_at_stake", amount=view.remiz)
    lines.append("")
    for seat in speaking_order(view):
        line = _seat_line(lang, view, view.seats[seat], names, ())
        if seat == me:
            line = mark_own_seat(lang, line, names, seat, dealer=seat == view.dealer)
        lines.append(line)
    trick = trick_lines(lang, view.trick, view.last_trick, view.trick_winners, names)
    if trick:
        lines.append("")
        lines += trick
    return lines


def hand_text(
    lang: str,
    view: SeatView,
    names: Sequence[str],
    *,
    kind: str,
    deadline: Deadline | None = None,
) -> str:
    """A player's private message, the whole table for him: trump, the pot and what a trick
    pays, the ремиз at stake, every seat's status and tricks, the trick on the table and the
    last one, his cards (or that they lie face down), the шлейф card for the шлейф dealer,
    and what he must do now (why a card is forced) or whose turn it is."""
    table = view.table
    lines = [_title(lang, table, kind), trump_line(lang, table)]
    lines += context_lines(lang, table, names, view.seat)
    lines.append("")
    if view.hand is not None:
        lines.append(WORDS.t(lang, "hand.cards", cards=cards(view.hand, table.trump) or "—"))
    elif view.hand_count:
        dark = any(entry.verb == "dark" for entry in view.legal)
        seat = table.seats[view.seat]
        if seat.role is Role.DARK:
            key = "hand.face_down_blind"
        else:
            key = "hand.face_down_dark" if dark else "hand.face_down"
        lines.append(WORDS.t(lang, key, n=view.hand_count))
    if view.shleif_card is not None:
        lines.append(WORDS.t(lang, "hand.shleif_card", card=label(view.shleif_card)))
    if view.discards:
        lines.append(WORDS.t(lang, "hand.discards", cards=cards(view.discards, table.trump)))
    words = table_side.prompt(view)
    prompt = "" if words is None else said(WORDS, lang, words, names)
    if prompt:
        lines.append("")
        lines.append(WORDS.t(lang, "hand.your_turn", prompt=prompt) + turn_deadline(lang, deadline))
        if view.restriction:
            lines.append(WORDS.t(lang, f"play_rule.{view.restriction}"))
    elif table.to_act is not None:
        lines.append("")
        lines.append(WORDS.t(lang, "turn.whose", name=seat_name(names, table.to_act)))
    return "\n".join(lines)


def outcome_text(lang: str, view: PublicView, names: Sequence[str], seat: int, kind: str) -> str:
    """The head of a finished deal's hand message: the table as the deal left it (the final
    trick among it), and a deal without play said as the group's result says it (a lone player
    takes the pot: «you» to him); ``bot.screens.hand`` adds his money."""
    lines = [
        WORDS.t(lang, "result.title", game=game_title(WORDS, lang, kind), deal=view.deal_no + 1)
    ]
    if view.trump is not None:
        lines.append(trump_line(lang, view))
    lines += context_lines(lang, view, names, seat)
    if view.outcome is Outcome.LONE:
        (lone,) = [other.seat for other in view.seats if other.role in _ACTIVE]
        lines.append("")
        if lone == seat:
            lines.append(WORDS.t(lang, "outcome.lone_you", pot=view.pot))
        else:
            lines.append(WORDS.t(lang, "result.lone", name=seat_name(names, lone), pot=view.pot))
    elif view.outcome is Outcome.NOBODY:
        lines += ["", WORDS.t(lang, "result.nobody", pot=view.pot)]
    return "\n".join(lines)


# ---------------------------------------------------------------- the result of a deal


def result_text(
    lang: str,
    view: PublicView,
    names: Sequence[str],
    balances: Mapping[int, int],
    *,
    kind: str,
    money: Mapping[int, Mapping[str, int]] | None = None,
) -> str:
    """The result of a finished deal: each player's tricks and net chips for the deal (with its
    parts — ante, tricks, ремиз — where they differ; ``money[seat]`` by reason, the deal's
    ledger), a lone player or nobody, the final trick and who took it, the pot carried over,
    the шлейф card, and the balances after the deal (``balances[seat]``)."""
    money = money or {}
    lines = [
        WORDS.t(lang, "result.title", game=game_title(WORDS, lang, kind), deal=view.deal_no + 1)
    ]
    if view.trump is not None:
        lines.append(trump_line(lang, view))
    lines.append(WORDS.t(lang, "result.pot", pot=view.pot))
    lines.append("")
    if view.outcome is Outcome.NOBODY:
        lines.append(WORDS.t(lang, "result.nobody", pot=view.pot))
    elif view.outcome is Outcome.LONE:
        (lone,) = [seat.seat for seat in view.seats if seat.role in _ACTIVE]
        lines.append(WORDS.t(lang, "result.lone", name=seat_name(names, lone), pot=view.pot))
    for seat_no in speaking_order(view):
        seat = view.seats[seat_no]
        parts = []
        if seat.role in _ACTIVE and view.outcome is Outcome.PLAYED:
            parts.append(tricks_count(lang, seat.tricks))
            if seat.role is Role.DEFENDER:
                parts.append(WORDS.t(lang, "result.defended"))
        elif seat.role is Role.PASS:
            parts.append(WORDS.t(lang, "role.pass"))
        mine = money.get(seat_no, {})
        if mine or parts:
            parts.append(money_text(lang, mine))
        if parts:
            name = seat_name(names, seat_no)
            if seat_no == view.dealer:
                name += " " + WORDS.t(lang, "seat.dealer_mark")
            lines.append(WORDS.t(lang, "result.seat", name=name, details=" · ".join(parts)))
    final = trick_lines(lang, view.trick, view.last_trick, view.trick_winners, names)
    if final:
        lines.append("")
        lines += final
    pot_after = view.pot_after if view.pot_after is not None else view.pot
    lines.append("")
    if pot_after:
        lines.append(WORDS.t(lang, "result.pot_carried", pot=pot_after))
    else:
        lines.append(WORDS.t(lang, "result.pot_empty"))
    lines += balance_lines(lang, names, balances)
    return "\n".join(lines)
