"""The messenger remembers what recent messages show (and forgets the least recently used),
and changes one message one request at a time."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.chat_events import ChatEvents
from bot.messenger import Messenger, Shown, ShownCache
from bot.pacing import Pacer


def test_forgets_the_least_recently_used_beyond_its_limit() -> None:
    cache = ShownCache(3)
    for n in range(3):
        cache[(1, n)] = Shown(f"text {n}", ())
    assert cache.get((1, 0)) == Shown("text 0", ())  # used: now the most recent
    cache[(1, 3)] = Shown("text 3", ())
    assert len(cache) == 3
    assert cache.get((1, 1)) is None  # the least recently used went
    assert cache.get((1, 0)) is not None and cache.get((1, 3)) is not None
    cache[(1, 2)] = Shown("again", ())  # a rewrite counts as a use
    cache[(1, 4)] = Shown("text 4", ())
    assert list(cache) == [(1, 3), (1, 2), (1, 4)]  # (1, 0) was the least recently used


class SlowBot:
    """Enough of a bot for the messenger: records each edit instead of sending it; edits of
    the text take a while."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    async def do_api_request(self, endpoint: str, params: dict[str, Any]) -> Any:
        self.calls.append((endpoint, params.get("reply_markup")))
        if endpoint == "editmessagetext":
            await asyncio.sleep(0.05)
        return True


def _messenger(bot: SlowBot) -> Messenger:
    return Messenger(bot, Pacer(0.0), ChatEvents())  # type: ignore[arg-type]


async def test_buttons_dropped_while_an_edit_takes_them_off_cost_no_request() -> None:
    bot = SlowBot()
    messenger = _messenger(bot)
    await messenger.edit(5, 9, "your turn", [[("Play", "a:1")]])
    last_edit = asyncio.create_task(messenger.edit(5, 9, "deal over"))  # no buttons
    await asyncio.sleep(0.01)  # the edit is in flight
    await messenger.drop_buttons(5, 9)
    await last_edit
    assert [method for method, _ in bot.calls] == ["editmessagetext", "editmessagetext"]


async def test_edits_of_one_message_go_in_the_order_they_were_asked() -> None:
    bot = SlowBot()
    messenger = _messenger(bot)
    first = asyncio.create_task(messenger.edit(5, 9, "one", [[("A", "a:1")]]))
    second = asyncio.create_task(messenger.edit(5, 9, "two", [[("B", "a:2")]]))
    other = asyncio.create_task(messenger.edit(5, 10, "elsewhere"))
    await asyncio.gather(first, second, other)
    # the buttons go as the JSON PTB would send (``bot.messenger.markup_json``)
    keyboards = [json.loads(markup)["inline_keyboard"] for _, markup in bot.calls if markup]
    labels = [rows[0][0]["text"] for rows in keyboards]
    assert labels == ["A", "B"]
    assert messenger._busy == {}  # nothing kept once no change is under way
