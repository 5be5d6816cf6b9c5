"""Старшина texts: the group's table message, a player's private hand message and the result of
a deal and of the game (docs/rules.md §4). The table text comes from the ``PublicView`` only: the
exchange shows as counts, never as cards (§4.3)."""

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
    rank_label,
    said,
    seat_name,
    suit,
    trick_lines,
    tricks_count,
    turn_deadline,
)
from game.cards import SUIT_ORDER, sort_hand
from game.core import Transfer
from game.starshina.rules import TRICKS_PER_DEAL
from game.starshina.state import EndReason, Phase
from game.starshina.views import PublicView, SeatSummary, SeatView, last_deal_money
from tables.games import starshina as table_side

#: what this game's screens say: the shared catalogue with the game's own words
WORDS = table_side.PLUGIN.words

PLAYERS = 3
_DEAL_ENDED = (Phase.DEAL_OVER, Phase.GAME_OVER)


def speaking_order(view: PublicView) -> list[int]:
    """The dealer's left (who leads), his right, the dealer."""
    return [(view.dealer + offset) % PLAYERS for offset in range(1, PLAYERS + 1)]


def _title(lang: str, view: PublicView, kind: str) -> str:
    return WORDS.t(
        lang, "starshina.title", game=game_title(WORDS, lang, kind), deal=view.deal_no + 1
    )


def trump_line(lang: str, view: PublicView) -> str:
    if view.trump is not None:
        return WORDS.t(lang, "starshina.trump", suit=suit(view.trump))
    if view.phase is Phase.NAME_TRUMP:
        return WORDS.t(lang, "starshina.trump_pending")
    return WORDS.t(lang, "starshina.no_trump")


def _seat_line(
    lang: str, view: PublicView, seat: SeatSummary, names: Sequence[str], away: Collection[int]
) -> str:
    head = seat_name(names, seat.seat)
    if seat.seat == view.dealer:
        head += " " + WORDS.t(lang, "seat.dealer_mark")
    details = [
        WORDS.t(
            lang, "starshina.tricks_of", tricks=tricks_count(lang, seat.tricks), target=seat.target
        )
    ]
    if view.history and view.phase in _DEAL_ENDED:
        # the game's standing is a deal's end news: mid-deal «за партию: ровно по норме»
        # reads as this deal's tricks
        details.append(
            WORDS.t(lang, "starshina.game_diff", diff=_diff_words(lang, seat.total_diff))
        )
    if seat.seat == view.to_act:
        details.append(WORDS.t(lang, "seat.to_act_mark"))
    if seat.seat in away:
        details.append(WORDS.t(lang, "seat.away_mark"))
    return head + " — " + " · ".join(details)


def _exchange_lines(lang: str, view: PublicView, names: Sequence[str]) -> list[str]:
    """§4.3: how many cards passed between whom, and how many are still to go."""
    totals: dict[tuple[int, int], list[int]] = {}
    for item in view.passed:
        totals.setdefault((item.giver, item.receiver), [0, 0])[0] += item.count
    for pair in view.exchange_left:
        totals.setdefault(pair, [0, 0])[1] += 1
    lines = []
    for (giver, receiver), (done, left) in totals.items():
        lines.append(
            WORDS.t(
                lang,
                "starshina.exchange_pair",
                giver=plain_name(names, giver),
                receiver=plain_name(names, receiver),
                done=done,
                total=done + left,
            )
        )
    return lines


def phase_line(lang: str, view: PublicView, names: Sequence[str]) -> str:
    """What the table is doing now."""
    match view.phase:
        case Phase.EXCHANGE_GIVE | Phase.RING_RETURN:
            return WORDS.t(lang, f"starshina.phase.{view.phase.value}")
        case Phase.NAME_TRUMP | Phase.KITTY:
            return WORDS.t(
                lang, f"starshina.phase.{view.phase.value}", dealer=plain_name(names, view.dealer)
            )
        case Phase.PLAY:
            return WORDS.t(
                lang,
                "starshina.phase.play",
                number=len(view.trick_winners) + 1,
                total=TRICKS_PER_DEAL,
            )
        case Phase.DEAL_OVER:
            return WORDS.t(lang, "phase.deal_over")
        case Phase.GAME_OVER:
            winner = view.winner if view.winner is not None else 0
            return WORDS.t(lang, "starshina.phase.game_over", name=seat_name(names, winner))


def table_text(
    lang: str,
    view: PublicView,
    names: Sequence[str],
    *,
    kind: str = "starshina",
    deadline: Deadline | None = None,
    away: Collection[int] = (),
) -> str:
    """The group's table message: deal, dealer, trump, the game pot, each seat's tricks
    against his target (and his sum of diffs over the game), the exchange as counts, the
    current and the last trick, whose turn it is."""
    lines = [
        _title(lang, view, kind),
        WORDS.t(lang, "seat.dealer", name=seat_name(names, view.dealer)),
        trump_line(lang, view),
    ]
    if view.game_pot:
        lines.append(WORDS.t(lang, "starshina.game_pot", pot=view.game_pot))
    lines.append("")
    lines += [_seat_line(lang, view, view.seats[s], names, away) for s in speaking_order(view)]
    lines.append("")
    lines.append(phase_line(lang, view, names))
    if view.phase in (Phase.EXCHANGE_GIVE, Phase.RING_RETURN) or (
        view.passed and view.phase in (Phase.NAME_TRUMP, Phase.KITTY)
    ):
        lines += _exchange_lines(lang, view, names)
    lines += trick_lines(lang, view.trick, view.last_trick, view.trick_winners, names)
    if view.to_act is not None:
        lines.append(
            WORDS.t(lang, "turn.whose", name=seat_name(names, view.to_act))
            + turn_deadline(lang, deadline)
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- the private hand message


def hand_by_suit(hand: Sequence[str], trump: str | None) -> list[str]:
    """Sixteen cards read best one suit a line, trumps first: ``♠ A K 10 7``."""
    ordered = sort_hand(hand, trump)
    suits = ([trump] if trump else []) + [s for s in SUIT_ORDER if s != trump]
    lines = []
    for letter in suits:
        ranks = [rank_label(card[0]) for card in ordered if card[1] == letter]
        if ranks:
            lines.append(f"{suit(letter)} " + " ".join(ranks))
    return lines


def _exchange_private(lang: str, view: SeatView, names: Sequence[str]) -> list[str]:
    lines = []
    for item in view.exchanged:
        if item.giver == view.seat:
            key = "starshina.gave_back" if item.returned else "starshina.gave"
            lines.append(
                WORDS.t(
                    lang,
                    key,
                    name=plain_name(names, item.receiver),
                    card=label(item.card),
                    back=label(item.returned) if item.returned else "",
                )
            )
        else:
            key = "starshina.got_back" if item.returned else "starshina.got"
            lines.append(
                WORDS.t(
                    lang,
                    key,
                    name=plain_name(names, item.giver),
                    card=label(item.card),
                    back=label(item.returned) if item.returned else "",
                )
            )
    return lines


def context_lines(lang: str, view: PublicView, names: Sequence[str], me: int | None) -> list[str]:
    """What a private message shows of the table: the game pot, each player's tricks against
    his target, the exchange as counts, the trick on the table and the last trick; ``me`` is
    the reader's seat, marked «вы»."""
    lines = []
    if view.game_pot:
        lines.append(WORDS.t(lang, "starshina.game_pot", pot=view.game_pot))
    lines.append("")
    for seat in speaking_order(view):
        line = _seat_line(lang, view, view.seats[seat], names, ())
        if seat == me:
            line = mark_own_seat(lang, line, names, seat, dealer=seat == view.dealer)
        lines.append(line)
    if view.phase in (Phase.EXCHANGE_GIVE, Phase.RING_RETURN):
        lines += _exchange_lines(lang, view, names)
    tricks = trick_lines(lang, view.trick, view.last_trick, view.trick_winners, names)
    if tricks:
        lines.append("")
        lines += tricks
    return lines


def hand_text(
    lang: str,
    view: SeatView,
    names: Sequence[str],
    *,
    kind: str = "starshina",
    deadline: Deadline | None = None,
) -> str:
    """A player's private message, the whole table for him: deal, trump, the game pot, each
    player's target and tricks, the trick on the table and the last one, his cards one suit a
    line, the exchange he took part in, the dealer's discards, and what he must do now (why a
    card is forced) or whose turn it is."""
    table = view.table
    lines = [_title(lang, table, kind), trump_line(lang, table)]
    lines += context_lines(lang, table, names, view.seat)
    lines.append("")
    lines += hand_by_suit(view.hand, table.trump) or ["—"]
    exchange = _exchange_private(lang, view, names)
    if exchange:
        lines.append("")
        lines += exchange
    if view.discards:
        lines.append(WORDS.t(lang, "hand.discards", cards=cards(view.discards, table.trump)))
    if view.from_kitty:
        lines.append(WORDS.t(lang, "hand.from_kitty", cards=cards(view.from_kitty, table.trump)))
    words = table_side.prompt(view)
    prompt = "" if words is None else said(WORDS, lang, words, names)
    if prompt:
        lines.append("")
        lines.append(WORDS.t(lang, "hand.your_turn", prompt=prompt) + turn_deadline(lang, deadline))
        plays = sum(1 for entry in view.legal if entry.verb == "play")
        if table.phase is Phase.PLAY and table.trick and plays < len(view.hand):
            lines.append(WORDS.t(lang, "play_rule.must_follow_suit"))
    elif table.to_act is not None:
        lines.append("")
        lines.append(WORDS.t(lang, "turn.whose", name=seat_name(names, table.to_act)))
    elif table.phase is Phase.GAME_OVER:
        lines.append(phase_line(lang, table, names))
    return "\n".join(lines)


def outcome_text(lang: str, view: PublicView, names: Sequence[str], seat: int, kind: str) -> str:
    """The head of a finished deal's hand message: the table as the deal left it (the final
    trick among it); ``bot.screens.hand`` adds his money."""
    lines = [
        WORDS.t(lang, "result.title", game=game_title(WORDS, lang, kind), deal=view.deal_no + 1)
    ]
    lines.append(trump_line(lang, view))
    lines += context_lines(lang, view, names, seat)
    if view.phase is Phase.GAME_OVER:
        lines.append(phase_line(lang, view, names))
    return "\n".join(lines)


# ---------------------------------------------------------------- results


def last_deal_transfers(view: PublicView) -> list[Transfer]:
    """The money of the deal just settled, the game-end transfers last."""
    deal, final = last_deal_money(view)
    return deal + final


def _diff_words(lang: str, diff: int) -> str:
    """A deal's tricks against the target in words: «не хватило 5», «12 сверх нормы»."""
    if diff < 0:
        return WORDS.t(lang, "starshina.short", n=-diff)
    if diff > 0:
        return WORDS.t(lang, "starshina.over", n=diff)
    return WORDS.t(lang, "starshina.on_target")


def _parts(transfers: Sequence[Transfer], seat: int) -> dict[str, int]:
    """A seat's money in ``transfers`` by reason, paid as negative."""
    parts: dict[str, int] = {}
    for transfer in transfers:
        if transfer.dst == seat:
            parts[transfer.reason] = parts.get(transfer.reason, 0) + transfer.amount
        if transfer.src == seat:
            parts[transfer.reason] = parts.get(transfer.reason, 0) - transfer.amount
    return parts


def result_text(
    lang: str,
    view: PublicView,
    names: Sequence[str],
    balances: Mapping[int, int],
    *,
    kind: str = "starshina",
    money: Mapping[int, Mapping[str, int]] | None = None,
) -> str:
    """The result of a finished deal — each player's tricks against his target, the shortfall
    or the tricks over it in words — then the chips, once: when the game is over its winner
    and each player's money over the game by reason (the game pot, the stakes, the penalties
    for a missed target), else the deal's money where the deal moved any (``per_trick``;
    ``money[seat]`` by reason, the deal's ledger), or the game pot still waiting; then the
    balances after it (``balances[seat]``)."""
    record = view.history[-1] if view.history else None
    lines = [
        WORDS.t(lang, "result.title", game=game_title(WORDS, lang, kind), deal=view.deal_no + 1)
    ]
    lines.append(trump_line(lang, view))
    lines.append("")
    for seat_no in speaking_order(view):
        seat = view.seats[seat_no]
        tricks = record.tricks[seat_no] if record else seat.tricks
        diff = record.diffs[seat_no] if record else seat.tricks - seat.target
        details = WORDS.t(
            lang,
            "starshina.result_tricks",
            tricks=tricks_count(lang, tricks),
            target=seat.target,
            diff=_diff_words(lang, diff),
        )
        lines.append(WORDS.t(lang, "result.seat", name=seat_name(names, seat_no), details=details))
    final = trick_lines(lang, view.trick, view.last_trick, view.trick_winners, names)
    if final:
        lines.append("")
        lines += final
    if view.phase is Phase.GAME_OVER and view.winner is not None:
        lines.append("")
        reason = view.end_reason or EndReason.TWELVE
        lines.append(
            WORDS.t(
                lang,
                f"starshina.won.{reason.value}",
                name=seat_name(names, view.winner),
                deals=len(view.history),
            )
        )
        lines.append(WORDS.t(lang, "starshina.game_money"))
        by_seat = {seat: _parts(view.transfers, seat) for seat in speaking_order(view)}
    else:
        deal_money = [x for x in last_deal_transfers(view) if x.reason == "diff"]
        by_seat = {
            seat: dict(money.get(seat, {})) if money is not None else _parts(deal_money, seat)
            for seat in speaking_order(view)
        }
        if any(amount for parts in by_seat.values() for amount in parts.values()):
            lines += ["", WORDS.t(lang, "starshina.deal_money")]
        else:
            by_seat = {}
            if view.game_pot:
                lines += ["", WORDS.t(lang, "starshina.game_pot", pot=view.game_pot)]
    for seat_no, parts in by_seat.items():
        lines.append(
            WORDS.t(
                lang,
                "balance.line",
                name=plain_name(names, seat_no),
                amount=money_text(lang, parts),
            )
        )
    lines += balance_lines(lang, names, balances)
    return "\n".join(lines)
