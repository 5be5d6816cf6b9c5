"""How many tables one bot token carries at a human pace inside Telegram's limits, from the
Bot API requests a run of the real bot made, by chat kind: ``bench/load.py`` measures it with
every player in the chat, ``bench/webapp.py`` with every player on the page (the page is
served by the bot itself; only what still goes through Telegram counts).

Telegram's limits for one bot (its FAQ): about 30 messages a second in all, 20 a minute in one
group, about one a second in one private chat; callback answers are not messages."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

TELEGRAM_PER_SECOND = 30.0
TELEGRAM_GROUP_PER_MINUTE = 20.0
TELEGRAM_PRIVATE_PER_SECOND = 1.0
#: a table at a human pace: one press every this many seconds
HUMAN_PRESS_SECONDS = 4.0


def message_kinds(requests: Iterable[tuple[str, int | None]]) -> Counter[str]:
    """The Bot API requests ``(method, chat_id)`` of a run by kind: ``group`` and ``private``
    messages (sends, edits, deletes), ``pings`` (a turn after a wait: a new hand message and
    the old one deleted, two a ping), ``callback`` answers and ``other``; ``getUpdates`` left
    out."""
    kinds: Counter[str] = Counter()
    for method, chat_id in requests:
        if method == "getUpdates":
            continue
        if method == "answerCallbackQuery":
            kinds["callback"] += 1
        elif method == "deleteMessage" and chat_id is not None:
            kinds["pings"] += 2
            kinds["private"] -= 1
        elif chat_id is not None and chat_id < 0:
            kinds["group"] += 1
        elif chat_id is not None:
            kinds["private"] += 1
        else:
            kinds["other"] += 1
    return kinds


def capacity(per_press: dict[str, float], players: float) -> dict[str, Any]:
    """How many tables playing at a human pace (a press every ``HUMAN_PRESS_SECONDS``) one bot
    token carries inside Telegram's limits, from the measured messages per press by kind
    (``group``, ``private``, ``pings``; callback answers aside). Each table has its own group
    and private chats, so their limits bound one table, and the bot-wide 30 a second bounds
    how many."""
    presses = 1.0 / HUMAN_PRESS_SECONDS
    group = per_press.get("group", 0.0)
    private = per_press.get("private", 0.0) + per_press.get("pings", 0.0)
    messages = group + private
    return {
        "messages_per_press": round(messages, 2),
        "tables_at_human_pace": (
            round(TELEGRAM_PER_SECOND / (messages * presses), 1) if messages else None
        ),
        "group_per_minute_per_table": round(group * presses * 60, 1),
        "group_within_limit": group * presses * 60 <= TELEGRAM_GROUP_PER_MINUTE,
        "private_per_second_per_chat": round(private * presses / max(players, 1), 2),
        "private_within_limit": private * presses / max(players, 1) <= TELEGRAM_PRIVATE_PER_SECOND,
    }
