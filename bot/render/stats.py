"""Scorekeeping texts: /stats, /top, /history with its pages and a deal's details, /export,
and the evening's summary with its chart.

The figures come from ``storage`` (kept monthly figures, the deal history, the evening's
summary); this module only words them: every function is pure (``bot.screens.stats`` reads
the database and sends). Every text about a player is worded so it is right for anyone: names stand
alone before a colon or a dash, never next to a verb in the past or in a declined form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot import callback as cb
from bot.games import ChatGames
from bot.games.plugin import played_lines
from bot.messenger import Rows
from bot.render.common import esc, game_title, label, money_text, suit
from locales import signed, t, tn
from tables.scores import DealHistory, Figures, LedgerEntry, PlayerStats, Standing
from tables.steps import add_money

HISTORY_PAGE = 6
TOP_LINES = 10
MEDALS = ("🥇", "🥈", "🥉")


def _kind_of(games: ChatGames, kind: str, summary: Mapping[str, object]) -> str:
    """Which of its game's choices a finished deal was (its title), from its summary (a game
    no longer offered keeps its own name)."""
    return games.games.of(kind).choice_of(dict(summary)) if kind in games.games else kind


def _title(games: ChatGames, lang: str, choice: str) -> str:
    """A game's title by its choice's name, in the words of the games offered (a game no
    longer offered by its stored name)."""
    words = games.games.words
    if f"game.{choice}" in words.catalogue(lang):
        return game_title(words, lang, choice)
    return esc(choice)


# ------------------------------------------------------------------------------ /stats


def _kind_lines(games: ChatGames, lang: str, kind: str, figures: Figures) -> list[str]:
    """One game's figures: what the player played of it and its own figures, as its chat side
    words them (only those the game has: no deals sat out in Старшина, no games won in
    Стуколка); then the best and worst deal and the net, which every game has."""
    if kind in games.games:
        lines = games.of(kind).stats_lines(lang, figures)
    else:
        lines = played_lines(lang, figures)  # a game no longer offered
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


def _figures_lines(games: ChatGames, lang: str, by_kind: Mapping[str, Figures]) -> list[str]:
    """Each game the player has played, under its title with its own figures; then, when he
    played several, his net over them all."""
    played = {kind: figures for kind, figures in by_kind.items() if figures.deals or figures.net}
    lines: list[str] = []
    for kind in sorted(played):
        lines += [t(lang, "stats.kind", game=_title(games, lang, kind))]
        lines += _kind_lines(games, lang, kind, played[kind])
    if len(played) > 1:
        net = sum(figures.net for figures in played.values())
        lines.append(t(lang, "stats.net_all", net=signed(net)))
    return lines


def played(stats: PlayerStats) -> bool:
    total = stats.total(stats.all_time)
    return bool(total.deals or total.net)


def stats_text(
    games: ChatGames,
    lang: str,
    name: str,
    stats: PlayerStats,
    *,
    private: bool,
    practice: bool = False,
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
        return "\n".join([*lines, *_figures_lines(games, lang, stats.all_time)])
    lines += ["", t(lang, "stats.all_time"), *_figures_lines(games, lang, stats.all_time)]
    lines += ["", t(lang, "stats.this_month")]
    month = stats.total(stats.this_month)
    if month.deals or month.net:
        lines += _figures_lines(games, lang, stats.this_month)
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
    games: ChatGames,
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
            lines += ["", t(lang, "top.kind", game=_title(games, lang, kind))]
            if list(kind_month) == list(kind_all):
                lines += [t(lang, "top.all_this_month"), *_board(lang, kind_all, names)]
                continue
            lines += [t(lang, "top.all_time"), *_board(lang, kind_all, names)]
            if kind_month:
                lines += [t(lang, "top.this_month"), *_board(lang, kind_month, names)]
    return "\n".join(lines)


# ------------------------------------------------------------------------------ /history


def _nets(deal: DealHistory) -> dict[int, int]:
    """Each player's net of a deal."""
    money: dict[int, dict[str, int]] = {}
    add_money(money, deal.transfers)
    return {user: sum(parts.values()) for user, parts in money.items()}


def history_page_text(
    games: ChatGames,
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
        nets = _nets(deal)
        ended = datetime.fromtimestamp(deal.ended_at, UTC).strftime("%d.%m %H:%M")
        lines.append("")
        lines.append(
            f"<b>{index}.</b> "
            + t(
                lang,
                "history.deal",
                date=ended,
                game=_title(games, lang, _kind_of(games, deal.kind, deal.summary)),
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
    card, however many tricks the deal had."""
    lines = []
    for number, (trick, winner) in enumerate(zip(tricks, winners, strict=False), start=1):
        played = " · ".join(f"{name(seat)} {label(card)}" for seat, card in trick)
        lines.append(t(lang, "deal.trick", n=number, winner=name(winner), cards=played))
    return lines


def _money_lines(
    lang: str, transfers: Sequence[LedgerEntry], names: Mapping[int, str], order: Sequence[int]
) -> list[str]:
    """Each player's money in ``transfers`` by reason, worded as the deal's result words it
    on the table (``money_text``): the same figures and parts; the players in ``order`` (by
    seat) first."""
    money: dict[int, dict[str, int]] = {user: {} for user in order}
    add_money(money, transfers)
    return [
        t(lang, "balance.line", name=esc(names.get(user, "?")), amount=money_text(lang, parts))
        for user, parts in money.items()
        if any(parts.values())
    ]


def deal_text(games: ChatGames, lang: str, deal: DealHistory, names: Mapping[int, str]) -> str:
    """A finished deal in full: its trump, each trick in the order played and who took it (or
    its play as its game words it, ``ChatGame.deal_lines``), and each player's money by reason.
    Only what the table saw: played cards, never a passer's dead cards, the discards or the
    talon."""
    summary = deal.summary
    kind = _kind_of(games, deal.kind, summary)
    ended = datetime.fromtimestamp(deal.ended_at, UTC).strftime("%d.%m.%Y %H:%M")
    lines = [t(lang, "deal.title", game=_title(games, lang, kind), deal=deal.deal + 1, date=ended)]
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
    worded = games.of(deal.kind).deal_lines if deal.kind in games.games else None
    own = None if worded is None else worded(lang, summary, name)
    if own is not None:
        lines += own  # a deal that is not tricks, as its game words it
    elif not isinstance(tricks, list) or not isinstance(winners, list):
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
    order = [player.user_id for player in deal.players]
    lines += ["", t(lang, "deal.money")]
    lines += _money_lines(lang, deal.transfers, names, order) or [t(lang, "deal.no_money")]
    before, after = summary.get("pot_before"), summary.get("pot_after")
    if isinstance(before, int) and isinstance(after, int):
        # the chat's pot («кон»), or a game's own («банк партии»); a game no longer offered's,
        # as the chat's
        chat_pot = deal.kind not in games.games or games.games.of(deal.kind).rules.chat_pot
        key = "deal.pot" if chat_pot else "deal.game_pot"
        lines.append(t(lang, key, before=before, after=after))
    if deal.game_transfers:
        # the deal that won its game: the game's money, as its table showed it then
        lines += ["", t(lang, "deal.game_money")]
        lines += _money_lines(lang, deal.game_transfers, names, order)
    return "\n".join(lines)
