"""Benchmark: CPU per Bot API call of the bot's request object (``bot.request.AiohttpRequest``)
against PTB's own ``HTTPXRequest``, client side only.

    .venv/bin/python bench/request_cpu.py [--calls 3000] [--rounds 2]

A local aiohttp server on 127.0.0.1 answers every ``editMessageText`` at once with a message
of a table's size; the client sends eight at a time through PTB's typed method, as the
messenger does. Printed: the client process's CPU time per call (``time.process_time``,
steadier than wall time on a shared machine), per client and round. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from aiohttp import web
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram.request import BaseRequest, HTTPXRequest

from bot.request import AiohttpRequest

TEXT = "Ход: Боря · ⏳ 59 с\n" * 8
ROW = [{"text": str(n), "callback_data": f"a:{n}"} for n in range(6)]
REPLY = {
    "ok": True,
    "result": {
        "message_id": 7,
        "date": 0,
        "chat": {"id": -5, "type": "group", "title": "g"},
        "text": TEXT,
        "reply_markup": {"inline_keyboard": [ROW]},
    },
}


async def _answer(request: web.Request) -> web.Response:
    await request.read()
    return web.Response(body=json.dumps(REPLY).encode(), content_type="application/json")


async def _measure(request: BaseRequest, base_url: str, calls: int) -> float:
    bot = Bot("1:x", base_url=base_url, request=request)
    await request.initialize()
    keyboard = InlineKeyboardMarkup(
        [[InlineKeyboardButton(b["text"], callback_data=b["callback_data"]) for b in ROW]]
    )
    preview = LinkPreviewOptions(is_disabled=True)

    async def one() -> Any:
        return await bot.edit_message_text(
            TEXT, -5, 7, reply_markup=keyboard, parse_mode="HTML", link_preview_options=preview
        )

    try:
        for _ in range(200):  # warm up: connections made, caches filled
            await one()
        start = time.process_time()
        for _ in range(calls // 8):
            await asyncio.gather(*(one() for _ in range(8)))
        return (time.process_time() - start) / (calls // 8 * 8)
    finally:
        await request.shutdown()


async def main(calls: int, rounds: int) -> None:
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", _answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base_url = f"http://127.0.0.1:{runner.addresses[0][1]}/bot"
    try:
        for round_ in range(rounds):
            for name, request in (
                ("aiohttp (bot.request)", AiohttpRequest(16)),
                ("httpx (PTB's HTTPXRequest)", HTTPXRequest(16)),
            ):
                seconds = await _measure(request, base_url, calls)
                print(f"round {round_ + 1}  {name:28} {seconds * 1e6:7.0f} µs CPU per call")
    finally:
        await runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.rounds))
