"""The private hand message around the game's own renderer: the outcome written into it when
its deal ends (his tricks, his net for the deal with its parts, a ремиз, his balance, no
buttons) and the line a stopped table leaves in it. Pure functions; per-game texts come from
the game's plugin (``bot.games``)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.common import money_text
from locales import signed, t, tn

#: a turn notifies (comes as a new hand message) when this many seconds or more have passed since
#: the last message that notified the player, whatever it said («Ход: Алиса» included): within
#: that, he has just been called to the chat and is looking at it; past it, he may have looked
#: away (a human pace between presses is 3–12 s)
PING_AFTER = 6.0
#: a player who pressed anything on his hand message this many seconds ago or less is looking
#: at it: his turn comes as an edit of the message he is reading, never as a new message that
#: pushes it away under his thumb (at a human pace, a Старшина player's turn comes 6–24 s after
#: his own card)
LOOKING = 20.0
#: a turn that came silently (within ``PING_AFTER`` of a notification, or while he was
#: ``LOOKING``) notifies once more when this share of its time is left and he has not moved nor
#: pressed anything since it came: no turn times out unannounced
REMIND_SHARE = 1 / 3
#: a waiting player's hand message is edited at most once every this many seconds
HAND_SPACING = 5.0
HAND_PER_MINUTE = 30
#: a waiting player's edit waits this many seconds after the change that asked for it, and shows
#: every change made meanwhile (with the wait for its ``HAND_SPACING`` slot, it is never more
#: than that behind)
HAND_DELAY = 4.0


def outcome_text(
    lang: str,
    head: str,
    *,
    tricks: int | None,
    money: Mapping[str, int],
    balance: int,
) -> str:
    """A finished deal's hand message: ``head``, the table as the deal left it (the game's
    ``Table.outcome_text``), then his outcome — tricks (``None`` when he sat out), net chips
    for the deal (equal to his balance change, with its parts), a ремиз, and his balance
    after the deal."""
    details = []
    if tricks is not None:
        details.append(tn(lang, "n.tricks", tricks))
    details.append(money_text(lang, money))
    lines = [
        head,
        "",
        t(lang, "outcome.you", details=" · ".join(details)),
        t(lang, "outcome.balance", amount=signed(balance)),
    ]
    return "\n".join(lines)


def stopped_text(lang: str, text: str) -> str:
    """A hand message of a table that was stopped: as it was, without a prompt, and why."""
    return text + "\n\n" + t(lang, "outcome.stopped")
