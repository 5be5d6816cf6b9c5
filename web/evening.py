"""The evening so far, on the page: each player's money over the chat's evening up to now
(``TableService.evenings.so_far``, what /evening shows during play), the chips of deals still
being played, and the settle-up as it would stand if the evening ended now (``tables.settle_up``:
the people pay each other, the pot keeps its share, where the computers stand is said apart).
A practice table has no evening."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from tables.evenings import EveningSummary
from tables.settle_up import evening_money
from web.view_parts import Json

Names = Callable[[Sequence[int]], Awaitable[list[str]]]


async def evening_view(summary: EveningSummary | None, names_of: Names) -> Json:
    """``{deals, minutes, nets: [{name, net}], in_play: [{name, net}], payments: [{payer,
    payee, amount}], square, computers: [{name, net}], pot, pot_share: [{name, amount}],
    game_pot, from_pot}`` — or ``{deals: 0}`` before the evening's first deal (and at a
    practice table); ``pot`` the chat's pot's gain, ``game_pot`` the own pots' of games still
    going."""
    if summary is None:
        return {"deals": 0}
    users = sorted(set(summary.nets) | set(summary.in_play))
    names = dict(zip(users, await names_of(users), strict=True))
    order = sorted(summary.nets, key=lambda user: (-summary.nets[user], names[user]))
    money = evening_money(summary, names.__getitem__)
    evening, settled = summary.evening, money.settled
    return {
        "deals": summary.deals,
        "minutes": max(0, round((evening.last_at - evening.started_at) / 60)),
        "nets": [{"name": names[user], "net": summary.nets[user]} for user in order],
        "in_play": [
            {"name": names[user], "net": net} for user, net in sorted(summary.in_play.items())
        ],
        "payments": [
            {"payer": names[payer], "payee": names[payee], "amount": amount}
            for payer, payee, amount in settled.payments
        ],
        "square": settled.square,
        "computers": [{"name": names[user], "net": net} for user, net in settled.computers],
        "pot": money.chat_pot,
        "pot_share": [
            {"name": names[user], "amount": amount} for user, amount in money.pot_share.items()
        ],
        "game_pot": money.game_pot,
        "from_pot": money.from_pot,
    }
