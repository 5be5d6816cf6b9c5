"""The evening's summary, as text and as a chart: what ``bot.evenings`` posts when a chat's
run of play ends (pure: the figures come from ``storage.evenings``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime

from bot.chart import Line, draw_evening_chart
from bot.games import ChatGames
from bot.render.common import esc
from locales import signed, t, tn
from tables.evenings import EveningSummary
from tables.settle_up import evening_money


def _duration(lang: str, seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60)) if seconds > 0 else 0
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t(lang, "evening.hours", h=hours, m=minutes)
    return t(lang, "evening.minutes", m=minutes)


def evening_text(
    games: ChatGames,
    lang: str,
    summary: EveningSummary,
    names: Mapping[int, str],
    *,
    so_far: bool = False,
) -> str:
    """The evening's summary: nets (and the chips of a deal still in play, which /balance
    counts and the evening does not), each game's own figures (a Стуколка evening's remizes),
    the biggest win, games won (Старшина's), and who pays whom for the evening alone among the
    people (``tables.settle_up``, the pot staying on the table; where the computers stand is said
    apart). ``so_far``: the evening still goes on (/evening during play): its figures up to
    now, and no payments — those are the closing summary's, made once, for the whole
    evening."""
    evening = summary.evening
    deals = tn(lang, "count.deals", summary.deals)
    played = evening.last_at - evening.started_at
    # one deal has no length to tell (its end is both the evening's first and last)
    if so_far:
        title = "evening.so_far_title" if played > 0 else "evening.so_far_title_one"
    else:
        title = "evening.title" if played > 0 else "evening.title_one"
    lines = [
        t(lang, title, deals=deals, duration=_duration(lang, played)),
        "",
        t(lang, "evening.so_far_nets" if so_far else "evening.nets"),
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
        in_play = "evening.in_play_so_far" if so_far else "evening.in_play"
        lines.append(t(lang, in_play, items=items))
    lines.append("")
    for kind in sorted(summary.kinds):
        # each game's own figures, as its chat side words them (a Стуколка evening's remizes)
        if kind not in games.games:
            continue  # a game no longer offered
        lines += games.of(kind).evening_lines(lang, summary.figures.get(kind, {}), name)
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
    for kind in sorted(summary.kinds):
        # each game's results over the evening, as its chat side words them (Старшина's games
        # won)
        if kind not in games.games:
            continue  # a game no longer offered
        lines += games.of(kind).evening_results(lang, summary.figures.get(kind, {}), name)
    if so_far:
        return "\n".join([*lines, "", t(lang, "evening.settle_later")])
    lines += ["", t(lang, "evening.settle")]
    # nobody pays or is paid by a computer (as in /balance): the people settle among
    # themselves, short of what came from the pot or went to the computers
    money = evening_money(summary, lambda user: names.get(user, str(user)))
    settled = money.settled
    for payer, payee, amount in settled.payments:
        lines.append(t(lang, "evening.pay", payer=name(payer), payee=name(payee), amount=amount))
    if not settled.payments:
        # square, or down only to the pot and the computers: nobody owes another player
        lines.append(t(lang, "evening.square" if settled.square else "evening.no_payments"))
    if settled.computers:
        standing = ", ".join(f"{name(user)} {signed(net)}" for user, net in settled.computers)
        lines.append(t(lang, "settle.computers", computers=standing))
    # the chat's pot («кон») and the own pots of games still going are not one pot
    chat_pot = tn(lang, "count.chips", money.chat_pot)
    if money.pot_share:
        # whose chips the pot holds: what each loser still owes once the payments are made
        items = ", ".join(f"{name(user)} {amount}" for user, amount in money.pot_share.items())
        lines.append(t(lang, "evening.pot_share", pot=chat_pot, items=items))
    elif money.chat_pot > 0:
        lines.append(t(lang, "evening.left_in_pot", pot=chat_pot))
    if money.game_pot > 0:
        lines.append(t(lang, "evening.game_pot_left", pot=tn(lang, "count.chips", money.game_pot)))
    if money.from_pot:
        # the winners took chips a pot held before the evening: nobody owes those
        lines.append(t(lang, "evening.from_pot", pot=tn(lang, "count.chips", money.from_pot)))
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
