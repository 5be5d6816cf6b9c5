"""The evening so far, on the page: each player's money over the chat's evening up to now
(``TableService.evenings.so_far``, what /evening shows during play), the chips of deals still
being played, and the settle-up as it would stand if the evening ended now (``tables.settle_up``:
the people pay each other, the pot keeps its share, where the computers stand is said apart).
A practice table has no evening."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from tables.evenings import EveningSummary
from tables.settle_up import settle
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
    settled = settle({user: summary.nets[user] for user in sorted(order, key=names.__getitem__)})
    evening, left = summary.evening, settled.left_in_pot
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
        # what the pot gained over the evening, and whose chips it holds once the payments
        # are made (when they account for all of it); what the winners took from a pot that
        # was there before the evening
        "pot": summary.pot_change - summary.game_pot_change,
        "pot_share": (
            [{"name": names[user], "amount": amount} for user, amount in left.items()]
            if summary.pot_change > 0
            and not summary.game_pot_change
            and sum(left.values()) == summary.pot_change
            else []
        ),
        # what the own pots of games still going gained: theirs, not the chat's pot
        "game_pot": summary.game_pot_change,
        "from_pot": max(0, sum(summary.nets.values())),
    }
