"""Scorekeeping screens: /stats, /top, /history with its pages and a deal's details, /export,
and the evening's summary with its chart.

The figures come from ``storage`` (kept monthly figures, the deal history, the evening's
summary); this module only words them. The text functions are pure; ``StatsScreens`` reads the
database and sends. Every text about a player is worded so it is right for anyone: names stand
alone before a colon or a dash, never next to a verb in the past or in a declined form.
"""

from __future__ import annotations

import asyncio
import csv
import io
import math
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot import callback as cb
from bot.chart import Line, draw_evening_chart
from bot.games import game_for
from bot.messenger import Messenger, Rows
from bot.render.common import esc, game_title, label, reason_key, signed, suit, use_ranks
from bot.screens.people import display_name, short_name
from bot.settle_up import left_in_pot, settle_people
from locales import t, tn
from storage.database import Database
from storage.evenings import EveningSummary
from storage.records import DealHistory
from storage.stats import Figures, PlayerStats, Standing, month_of
from tables.computers import computer_name, is_computer

HISTORY_PAGE = 6
TOP_LINES = 10
MEDALS = ("🥇", "🥈", "🥉")
CSV_COLUMNS = (
    "entry_id",
    "time_utc",
    "game_id",
    "game",
    "deal",
    "from",
    "from_id",
    "to",
    "to_id",
    "amount",
    "reason",
)

Names = Callable[[Sequence[int]], Awaitable[list[str]]]


def _kind_of(kind: str, summary: Mapping[str, object]) -> str:
    """Which of its game's choices a finished deal was (its title), from its summary."""
    try:
        return game_for(kind).choice_of(dict(summary))
    except ValueError:
        return kind  # a game no longer offered keeps its own name


# ------------------------------------------------------------------------------ /stats


def _game_figures(kind: str) -> frozenset[str]:
    """The figures ``kind`` has (``Plugin.figures``); none for a game no longer offered."""
    try:
        return game_for(kind).figures
    except ValueError:
        return frozenset()


def _kind_lines(lang: str, kind: str, figures: Figures) -> list[str]:
    """One game's figures, only those the game has (no remizes in Старшина, no games won in
    Стуколка)."""
    has = _game_figures(kind)
    deals = tn(lang, "count.deals", figures.deals)
    if "games_won" in has:
        lines = [
            t(lang, "stats.played", games=tn(lang, "count.games", figures.games), deals=deals),
            t(lang, "stats.games_won", won=figures.games_won, games=figures.games),
        ]
    else:
        lines = [t(lang, "stats.played_deals", deals=deals)]
    if "in_play" in has and figures.deals:
        percent = round(100 * figures.deals_active / figures.deals)
        lines.append(
            t(
                lang,
                "stats.in_play",
                active=figures.deals_active,
                deals=figures.deals,
                percent=percent,
            )
        )
    lines.append(t(lang, "stats.tricks", n=figures.tricks))
    if "remizes" in has and figures.remizes:
        lines.append(
            t(
                lang,
                "stats.remizes",
                count=tn(lang, "count.remizes", figures.remizes),
                chips=tn(lang, "count.chips", figures.remiz_paid),
            )
        )
    if "pots" in has and figures.pots_taken:
        lines.append(
            t(
                lang,
                "stats.pots",
                count=figures.pots_taken,
                chips=tn(lang, "count.chips", figures.pot_chips),
            )
        )
    if figures.best_deal is not None and figures.worst_deal is not None:
        lines.append(
            t(
                lang,
                "stats.best_worst",
                best=signed(figures.best_deal),
                worst=signed(figures.worst_deal),
            )
        )
    lines.append(t(lang, "stats.net", net=signed(figures.net)))
    return lines


def _figures_lines(lang: str, by_kind: Mapping[str, Figures]) -> list[str]:
    """Each game the player has played, under its title with its own figures; then, when he
    played several, his net over them all."""
    played = {kind: figures for kind, figures in by_kind.items() if figures.deals or figures.net}
    lines: list[str] = []
    for kind in sorted(played):
        lines += [t(lang, "stats.kind", game=game_title(lang, kind))]
        lines += _kind_lines(lang, kind, played[kind])
    if len(played) > 1:
        net = sum(figures.net for figures in played.values())
        lines.append(t(lang, "stats.net_all", net=signed(net)))
    return lines


def _played(stats: PlayerStats) -> bool:
    total = stats.total(stats.all_time)
    return bool(total.deals or total.net)


def stats_text(
    lang: str, name: str, stats: PlayerStats, *, private: bool, practice: bool = False
) -> str:
    """/stats: a player's figures, all time and this month, game by game (``practice``: at
    his practice table, against the computers)."""
    if practice:
        title = t(lang, "stats.title_practice", name=esc(name))
    elif private:
        title = t(
            lang, "stats.title_private", name=esc(name), chats=tn(lang, "count.chats", stats.chats)
        )
    else:
        title = t(lang, "stats.title_chat", name=esc(name))
    lines = [title]
    total = stats.total(stats.all_time)
    if not total.deals and not total.net:
        lines.append(t(lang, "stats.empty"))
        return "\n".join(lines)
    if stats.this_month == stats.all_time:
        lines += ["", t(lang, "stats.all_this_month")]
        return "\n".join([*lines, *_figures_lines(lang, stats.all_time)])
    lines += ["", t(lang, "stats.all_time"), *_figures_lines(lang, stats.all_time)]
    lines += ["", t(lang, "stats.this_month")]
    month = stats.total(stats.this_month)
    if month.deals or month.net:
        lines += _figures_lines(lang, stats.this_month)
    else:
        lines.append(t(lang, "stats.month_empty"))
    return "\n".join(lines)


# ------------------------------------------------------------------------------ /top


def _board(lang: str, standings: Sequence[Standing], names: Mapping[int, str]) -> list[str]:
    lines = []
    for place, standing in enumerate(standings[:TOP_LINES], start=1):
        marker = MEDALS[place - 1] if place <= len(MEDALS) and standing.net > 0 else f"{place}."
        lines.append(
            t(
                lang,
                "top.line",
                place=marker,
                name=esc(names.get(standing.user_id, str(standing.user_id))),
                net=signed(standing.net),
                deals=tn(lang, "count.deals", standing.deals),
            )
        )
    return lines


def top_text(
    lang: str,
    all_time: Sequence[Standing],
    this_month: Sequence[Standing],
    by_kind: Sequence[tuple[str, Sequence[Standing], Sequence[Standing]]],
    names: Mapping[int, str],
) -> str:
    """/top: the chat's players by net chips, all time and this month; then per game kind
    when the chat has played more than one."""
    lines = [t(lang, "top.title")]
    if not all_time:
        lines.append(t(lang, "top.empty"))
        return "\n".join(lines)
    if list(this_month) == list(all_time):
        lines += ["", t(lang, "top.all_this_month"), *_board(lang, all_time, names)]
    else:
        lines += ["", t(lang, "top.all_time"), *_board(lang, all_time, names)]
        lines += ["", t(lang, "top.this_month")]
        lines += _board(lang, this_month, names) or [t(lang, "top.month_empty")]
    if len(by_kind) > 1:
        for kind, kind_all, kind_month in by_kind:
            lines += ["", t(lang, "top.kind", game=game_title(lang, kind))]
            if list(kind_month) == list(kind_all):
                lines += [t(lang, "top.all_this_month"), *_board(lang, kind_all, names)]
                continue
            lines += [t(lang, "top.all_time"), *_board(lang, kind_all, names)]
            if kind_month:
                lines += [t(lang, "top.this_month"), *_board(lang, kind_month, names)]
    return "\n".join(lines)


# ------------------------------------------------------------------------------ /history


def _nets(deal: DealHistory) -> tuple[dict[int, int], dict[int, list[tuple[str, int]]]]:
    """Each player's net of a deal and its parts by reason (paid as negative)."""
    nets: dict[int, int] = {}
    parts: dict[int, dict[str, int]] = {}
    for entry in deal.transfers:
        for party, sign in ((entry.src, -1), (entry.dst, 1)):
            if isinstance(party, int):
                nets[party] = nets.get(party, 0) + sign * entry.amount
                by_reason = parts.setdefault(party, {})
                by_reason[entry.reason] = by_reason.get(entry.reason, 0) + sign * entry.amount
    return nets, {user: list(items.items()) for user, items in parts.items()}


def history_page_text(
    lang: str,
    deals: Sequence[DealHistory],
    names: Mapping[int, str],
    page: int,
    pages: int,
) -> str:
    """A /history page: each deal numbered for its 🔎 button, its game, tricks and money."""
    lines = [t(lang, "history.title")]
    if not deals:
        lines.append(t(lang, "history.empty"))
        return "\n".join(lines)
    for index, deal in enumerate(deals, start=1):
        nets, _ = _nets(deal)
        ended = datetime.fromtimestamp(deal.ended_at, UTC).strftime("%d.%m %H:%M")
        lines.append("")
        lines.append(
            f"<b>{index}.</b> "
            + t(
                lang,
                "history.deal",
                date=ended,
                game=game_title(lang, _kind_of(deal.kind, deal.summary)),
                deal=deal.deal + 1,
            )
        )
        played = [p for p in deal.players if p.active]
        if played:
            items = ", ".join(
                t(lang, "history.tricks", name=esc(names.get(p.user_id, "?")), tricks=p.tricks)
                for p in played
            )
            lines.append(t(lang, "history.tricks_line", items=items))
        money = [
            t(lang, "history.net", name=esc(names.get(user, "?")), amount=signed(net))
            for user, net in nets.items()
            if net
        ]
        lines.append(" · ".join(money) if money else t(lang, "history.no_money"))
    lines += ["", t(lang, "history.hint"), t(lang, "history.page", page=page, pages=pages)]
    return "\n".join(lines)


def history_keyboard(
    lang: str, deals: Sequence[DealHistory], before: int, newer: int | None, older: bool
) -> Rows:
    """🔎 buttons for each deal of the page, then the paging buttons. ``newer`` is the
    ``before`` of the newer page (None on the first page)."""
    opens = [
        (t(lang, "history.open", n=index), cb.encode(cb.DealInfo(deal.deal_id, before)))
        for index, deal in enumerate(deals, start=1)
    ]
    paging = []
    if older and deals:
        paging.append((t(lang, "history.older"), cb.encode(cb.History(deals[-1].deal_id))))
    if newer is not None:
        paging.append((t(lang, "history.newer"), cb.encode(cb.History(newer))))
    rows = [opens[:3], opens[3:]] if len(opens) > 3 else [opens]
    return [row for row in [*rows, paging] if row]


def trick_lines(
    lang: str, tricks: Sequence[Any], winners: Sequence[Any], name: Callable[[int], str]
) -> list[str]:
    """Each trick of a deal in the order played and who took it (a deal's summary's
    ``tricks`` and ``trick_winners``; ``name`` gives a seat's name, escaped): who played which
    card, or the cards alone when there are many tricks (Старшина's 16)."""
    lines = []
    for number, (trick, winner) in enumerate(zip(tricks, winners, strict=False), start=1):
        if len(tricks) > 3:
            played = " ".join(label(card) for _, card in trick)
        else:
            played = " · ".join(f"{name(seat)} {label(card)}" for seat, card in trick)
        lines.append(t(lang, "deal.trick", n=number, winner=name(winner), cards=played))
    return lines


def deal_text(lang: str, deal: DealHistory, names: Mapping[int, str]) -> str:
    """A finished deal in full: its trump, each trick in the order played and who took it,
    and each player's money by reason. Only what the table saw: played cards, never a passer's
    dead cards, the discards or the talon."""
    summary = deal.summary
    kind = _kind_of(deal.kind, summary)
    ended = datetime.fromtimestamp(deal.ended_at, UTC).strftime("%d.%m.%Y %H:%M")
    lines = [t(lang, "deal.title", game=game_title(lang, kind), deal=deal.deal + 1, date=ended)]
    seat_user = {p.seat: p.user_id for p in deal.players}

    def name(seat: int) -> str:
        return esc(names.get(seat_user.get(seat, -1), "?"))

    trump = summary.get("trump")
    trump_card = summary.get("trump_card")
    if isinstance(trump_card, str):
        lines.append(t(lang, "deal.trump", trump=label(trump_card)))
    elif isinstance(trump, str):
        lines.append(t(lang, "deal.trump", trump=suit(trump)))
    tricks = summary.get("tricks")
    winners = summary.get("trick_winners")
    if not isinstance(tricks, list) or not isinstance(winners, list):
        lines.append(t(lang, "deal.not_recorded"))
    elif not tricks:
        lines.append(t(lang, "deal.no_play"))
    else:
        if len(tricks) > 3:
            # Старшина's 16 tricks: who took how many, and then the tricks in short
            taken = {p.user_id: p.tricks for p in deal.players}
            items = ", ".join(
                f"{esc(names.get(user, '?'))} {count}" for user, count in taken.items()
            )
            lines.append(t(lang, "deal.tricks_of", items=items))
        lines += trick_lines(lang, tricks, winners, name)
    nets, parts = _nets(deal)
    lines += ["", t(lang, "deal.money")]
    if not nets:
        lines.append(t(lang, "deal.no_money"))
    for user, net in nets.items():
        reasons: list[str] = []
        for reason, amount in parts.get(user, []):
            key = reason_key(lang, f"deal.reason.{reason}", amount)
            try:
                reasons.append(t(lang, key, amount=signed(amount)))
            except KeyError:
                reasons.append(
                    t(lang, "deal.reason.other", reason=esc(reason), amount=signed(amount))
                )
        lines.append(
            t(
                lang,
                "deal.money_line",
                name=esc(names.get(user, "?")),
                net=signed(net),
                parts=", ".join(reasons),
            )
        )
    before, after = summary.get("pot_before"), summary.get("pot_after")
    if isinstance(before, int) and isinstance(after, int):
        lines.append(t(lang, "deal.pot", before=before, after=after))
    return "\n".join(lines)


# ------------------------------------------------------------------------------ /export


#: what makes a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula
#: (OWASP, "CSV Injection"); a line feed too, which some of them take as a cell's start
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_text(value: object) -> object:
    """A CSV cell a spreadsheet shows as it is: a text that begins as a formula would gets a
    single quote before it (``=HYPERLINK(…)`` → ``'=HYPERLINK(…)``), the spreadsheets' own
    mark for "text"; numbers stay numbers (a computer's id of −1 included)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv(rows: Sequence[tuple[object, ...]], lang: str) -> bytes:
    """The ledger as CSV (UTF-8 with a byte-order mark, so spreadsheets read the Cyrillic):
    one row per transfer, a party as a player's name and id, or ``pot`` / ``game_pot``. A
    person's name is his own (stored, uncut); a computer's is in the chat's ``lang``, as on
    every other screen (the stored one is Russian).

    A name is whatever its owner typed into Telegram, so every text cell is neutralised as
    OWASP recommends for CSV: quoted, and with a single quote before a formula's first
    character (``spreadsheet_text``); numbers are written bare, so they stay numbers."""

    def name(kind: object, user: object, stored: object) -> object:
        if kind != "user":
            return kind
        return computer_name(user, lang) if isinstance(user, int) and is_computer(user) else stored

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(CSV_COLUMNS)
    for (
        entry_id,
        created_at,
        game_id,
        kind,
        deal,
        src_kind,
        src_user,
        src_name,
        dst_kind,
        dst_user,
        dst_name,
        amount,
        reason,
    ) in rows:
        moment = datetime.fromtimestamp(float(created_at), UTC)  # type: ignore[arg-type]
        cells = (
            entry_id,
            moment.strftime("%Y-%m-%d %H:%M:%S"),
            game_id,
            kind,
            int(deal) + 1,  # type: ignore[call-overload]
            name(src_kind, src_user, src_name),
            src_user if src_kind == "user" else "",
            name(dst_kind, dst_user, dst_name),
            dst_user if dst_kind == "user" else "",
            amount,
            reason,
        )
        writer.writerow([spreadsheet_text(cell) for cell in cells])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


# ------------------------------------------------------------------------------ the evening


def _duration(lang: str, seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60)) if seconds > 0 else 0
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t(lang, "evening.hours", h=hours, m=minutes)
    return t(lang, "evening.minutes", m=minutes)


def evening_text(lang: str, summary: EveningSummary, names: Mapping[int, str]) -> str:
    """The evening's summary: nets (and the chips of a deal still in play, which /balance
    counts and the evening does not), remizes, the biggest win, Старшина games won, and who
    pays whom for the evening alone among the people (``bot.settle_up``, the pot staying on
    the table; where the computers stand is said apart)."""
    evening = summary.evening
    deals = tn(lang, "count.deals", summary.deals)
    played = evening.last_at - evening.started_at
    lines = [
        # one deal has no length to tell (its end is both the evening's first and last)
        t(lang, "evening.title", deals=deals, duration=_duration(lang, played))
        if played > 0
        else t(lang, "evening.title_one", deals=deals),
        "",
        t(lang, "evening.nets"),
    ]

    def name(user: int) -> str:
        return esc(names.get(user, str(user)))

    order = sorted(summary.nets, key=lambda user: (-summary.nets[user], name(user)))
    for place, user in enumerate(order):
        net = summary.nets[user]
        medal = "🏆 " if place == 0 and net > 0 else ""
        lines.append(t(lang, "evening.net_line", medal=medal, name=name(user), net=signed(net)))
    if summary.in_play:
        # /balance counts the antes of a deal still being played; this summary cannot yet
        items = ", ".join(
            f"{name(user)} {signed(net)}"
            for user, net in sorted(summary.in_play.items(), key=lambda item: name(item[0]))
        )
        lines.append(t(lang, "evening.in_play", items=items))
    lines.append("")
    if summary.remizes:
        items = ", ".join(
            t(
                lang,
                "evening.remiz_item",
                name=name(user),
                count=tn(lang, "count.remizes", count),
                chips=tn(lang, "count.chips", chips),
            )
            for user, (count, chips) in sorted(summary.remizes.items(), key=lambda i: -i[1][1])
        )
        lines.append(t(lang, "evening.remizes", items=items))
    elif any(game_for(kind).chat_pot for kind in summary.kinds):
        # a remiz is paid into the chat's pot (Стуколка's); a Старшина-only evening had none
        # to pay, and «no remizes» would be news about a game it did not play
        lines.append(t(lang, "evening.no_remizes"))
    if summary.biggest_win is not None:
        biggest = summary.biggest_win
        lines.append(
            t(
                lang,
                "evening.biggest",
                amount=signed(biggest.amount),
                name=name(biggest.user_id),
                deal=biggest.deal_index,
            )
        )
    if summary.games_won:
        items = ", ".join(
            t(lang, "evening.won_item", name=name(user), n=count)
            for user, count in sorted(summary.games_won.items(), key=lambda i: -i[1])
        )
        lines.append(t(lang, "evening.games_won", items=items))
    lines += ["", t(lang, "evening.settle")]
    # the winners may have taken chips a pot held before the evening: nobody owes those
    from_pot = max(0, sum(summary.nets.values()))
    # nobody pays or is paid by a computer (as in /balance): the people settle among
    # themselves, short of what came from the pot or went to the computers
    people = {
        user: net
        for user, net in sorted(summary.nets.items(), key=lambda item: name(item[0]))
        if not is_computer(user)
    }
    payments = settle_people(people)
    for payer, payee, amount in payments:
        lines.append(t(lang, "evening.pay", payer=name(payer), payee=name(payee), amount=amount))
    if not payments:
        # square, or down only to the pot and the computers: nobody owes another player
        square = not any(people.values())
        lines.append(t(lang, "evening.square" if square else "evening.no_payments"))
    computers = sorted(
        ((user, net) for user, net in summary.nets.items() if is_computer(user) and net),
        key=lambda item: -item[1],
    )
    if computers:
        standing = ", ".join(f"{name(user)} {signed(net)}" for user, net in computers)
        lines.append(t(lang, "settle.computers", computers=standing))
    left = left_in_pot(people, payments)
    if summary.pot_change > 0 and sum(left.values()) == summary.pot_change:
        # whose chips the pot holds: what each loser still owes once the payments are made
        items = ", ".join(f"{name(user)} {amount}" for user, amount in left.items())
        pot = tn(lang, "count.chips", summary.pot_change)
        lines.append(t(lang, "evening.pot_share", pot=pot, items=items))
    elif summary.pot_change > 0:
        lines.append(
            t(lang, "evening.left_in_pot", pot=tn(lang, "count.chips", summary.pot_change))
        )
    if from_pot:
        lines.append(t(lang, "evening.from_pot", pot=tn(lang, "count.chips", from_pot)))
    return "\n".join(lines)


def evening_chart(lang: str, summary: EveningSummary, names: Mapping[int, str]) -> bytes:
    """The evening's chart as PNG (slow: call it off the event loop)."""
    date = datetime.fromtimestamp(summary.evening.started_at, UTC).strftime("%d.%m.%Y")
    lines = [Line(names.get(user, str(user)), running) for user, running in summary.running.items()]
    return draw_evening_chart(
        t(lang, "evening.chart_title", date=date, deals=tn(lang, "count.deals", summary.deals)),
        lines,
        x_label=t(lang, "evening.chart_x"),
        y_label=t(lang, "evening.chart_y"),
        net_label=t(lang, "evening.chart_legend", name="{name}", net="{net}"),
    )


# ------------------------------------------------------------------------------ sending


async def display_names(db: Database, users: Sequence[int], lang: str) -> dict[int, str]:
    """Each user's display name in ``lang`` (cut as the table cuts it; a computer's translated;
    the id for an unknown user)."""
    players = await db.players(users)
    return {user: display_name(players, user, lang) for user in users}


class StatsScreens:
    """Reads the figures and sends the scorekeeping screens."""

    def __init__(
        self,
        db: Database,
        messenger: Messenger,
        language: Callable[[int], Awaitable[str]],
        ranks: Callable[[int], Awaitable[str | None]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.messenger = messenger
        self.language = language
        #: a chat's choice of rank letters (В Д К Т or J Q K A), as its tables show cards
        self.ranks = ranks
        self.clock = clock

    async def _names(self, users: Sequence[int], lang: str) -> dict[int, str]:
        return await display_names(self.db, users, lang)

    async def send_stats(
        self, chat_id: int, user_id: int, name: str | None = None, *, reply_to: int | None = None
    ) -> None:
        """/stats in a group (``user_id``'s figures in it) or in private (across his chats)."""
        lang = await self.language(chat_id)
        private = chat_id > 0
        month = month_of(self.clock())
        shown = short_name(name) if name else (await self._names([user_id], lang))[user_id]
        if not private:
            stats = await self.db.player_stats(user_id, month, chat_id)
            await self.messenger.send(
                chat_id, stats_text(lang, shown, stats, private=False), reply_to=reply_to
            )
            return
        # in private: his groups together, and his practice table (his private chat) apart
        groups = await self.db.player_stats(user_id, month, apart=user_id)
        practice = await self.db.player_stats(user_id, month, user_id)
        parts = []
        if _played(groups) or not _played(practice):
            parts.append(stats_text(lang, shown, groups, private=True))
        if _played(practice):
            parts.append(stats_text(lang, shown, practice, private=True, practice=True))
        await self.messenger.send(chat_id, "\n\n".join(parts), reply_to=reply_to)

    async def send_top(self, chat_id: int, *, reply_to: int | None = None) -> None:
        lang = await self.language(chat_id)
        month = month_of(self.clock())
        all_time = await self.db.leaderboard(chat_id)
        this_month = await self.db.leaderboard(chat_id, month)
        by_kind = []
        for kind in await self.db.kinds_played(chat_id):
            by_kind.append(
                (
                    kind,
                    await self.db.leaderboard(chat_id, kind=kind),
                    await self.db.leaderboard(chat_id, month, kind),
                )
            )
        names = await self._names([s.user_id for s in all_time], lang)
        text = top_text(lang, all_time, this_month, by_kind, names)
        await self.messenger.send(chat_id, text, reply_to=reply_to)

    async def send_history(
        self,
        chat_id: int,
        before: int = 0,
        edit: int | None = None,
        *,
        reply_to: int | None = None,
    ) -> None:
        """A /history page: the deals before deal ``before`` (0: the newest), new (a reply to
        ``reply_to``) or edited into message ``edit``."""
        lang = await self.language(chat_id)
        deals = await self.db.last_deals(chat_id, HISTORY_PAGE + 1, before or None)
        older = len(deals) > HISTORY_PAGE
        deals = deals[:HISTORY_PAGE]
        total = await self.db.deal_count(chat_id)
        newer_count = await self.db.deal_count(chat_id, before) if before else 0
        pages = max(1, math.ceil(total / HISTORY_PAGE))
        page = newer_count // HISTORY_PAGE + 1
        newer: int | None = None
        if before:
            # the page above ends with deal ``before``: it holds the deals older than the one
            # HISTORY_PAGE places newer than that (or is the first page)
            newer = await self.db.deal_after(chat_id, before, HISTORY_PAGE) or 0
        users = sorted({p.user_id for deal in deals for p in deal.players})
        names = await self._names(users, lang)
        text = history_page_text(lang, deals, names, page, pages)
        rows = history_keyboard(lang, deals, before, newer, older)
        shown = await self.messenger.show(chat_id, edit, text, rows, reply_to=reply_to, answer=True)
        if edit is None and shown is not None:
            await self.db.remember_history_message(chat_id, shown)

    async def is_history_message(self, chat_id: int, message_id: int) -> bool:
        """Whether the paging and 🔎 buttons may edit this message: only a /history message
        the bot sent (button data can be forged, and pressed on a table or a hand)."""
        return await self.db.is_history_message(chat_id, message_id)

    async def send_deal(self, chat_id: int, deal_id: int, page: int, edit: int | None) -> None:
        lang = await self.language(chat_id)
        deal = await self.db.deal(chat_id, deal_id)
        back = [[(t(lang, "history.back"), cb.encode(cb.History(page)))]]
        if deal is None:
            await self.messenger.show(chat_id, edit, t(lang, "history.gone"), back, answer=True)
            return
        names = await self._names([p.user_id for p in deal.players], lang)
        use_ranks(lang, await self.ranks(chat_id))
        for entry in deal.transfers:
            for party in (entry.src, entry.dst):
                if isinstance(party, int) and party not in names:
                    names.update(await self._names([party], lang))
        await self.messenger.show(chat_id, edit, deal_text(lang, deal, names), back, answer=True)

    async def send_export(
        self, chat_id: int, title: str | None, *, reply_to: int | None = None
    ) -> None:
        lang = await self.language(chat_id)
        rows = await self.db.export_rows(chat_id)
        if not rows:
            await self.messenger.send(chat_id, t(lang, "export.empty"), reply_to=reply_to)
            return
        data = await asyncio.to_thread(export_csv, rows, lang)
        stamp = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y-%m-%d")
        caption = t(
            lang,
            "export.caption",
            title=esc(title or str(chat_id)),
            rows=tn(lang, "export.rows", len(rows)),
        )
        await self.messenger.send_file(
            chat_id,
            "document",
            data,
            f"ledger-{abs(chat_id)}-{stamp}.csv",
            caption,
            reply_to=reply_to,
        )
