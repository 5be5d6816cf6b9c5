"""End to end through a proxy (``PROXY_URL``): the real bot plays against the fake Bot API
with every request, ``getUpdates`` included, going through a local HTTP or SOCKS5 proxy that
asks for a password.

The bot's Bot API URL names a host only the proxy knows (``api.telegram.test``), so the bot
cannot reach the fake except through the proxy: every request the fake logs came that way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from telegram.error import NetworkError

from bot.request import AiohttpRequest
from tests.library import CODEC

from .fake_telegram import FakeTelegram
from .fake_telegram.proxy import Kind, tiny_proxy
from .players import start_bot_for
from .test_games import open_table

HIDDEN_HOST = "api.telegram.test"


@pytest.mark.parametrize("kind", ["http", "socks5"])
async def test_a_game_through_a_proxy_with_credentials(tmp_path: Path, kind: Kind) -> None:
    async with FakeTelegram() as fake, tiny_proxy(kind) as proxy:
        proxy.aliases[HIDDEN_HOST] = "127.0.0.1"
        hidden = fake.base_url.replace("127.0.0.1", HIDDEN_HOST)
        # socks5h: the proxy resolves the name (the bot cannot)
        url = proxy.url().replace("socks5://", "socks5h://")
        async with start_bot_for(
            fake, tmp_path / "bot.sqlite3", telegram_api_base_url=hidden, proxy_url=url
        ) as bot:
            table = await open_table(fake, bot, 3, "stukolka", seed=11)
            for _ in range(12):
                assert await table.step()
            await table.settle()
        methods = {request.method for request in fake.log}
        assert {"getMe", "getUpdates", "sendMessage", "editMessageText"} <= methods
        assert {"answerCallbackQuery", "setMyCommands"} <= methods
        assert all(request.status == 200 for request in fake.log if request.method != "getUpdates")
        assert table.presses > 12 and not table.refusals
        assert proxy.refused == 0 and proxy.seen
        if kind == "http":
            # plain HTTP to the API: absolute-form requests, the proxy's password in each
            assert all(f"http://{HIDDEN_HOST}:" in line for line in proxy.seen)
        else:
            assert all(target.startswith(HIDDEN_HOST) for target in proxy.seen)
        hands = [table.hand_message(user) for user in table.users]
        assert any(hand is not None and hand.callback_data for hand in hands)
        # the buttons came through the proxy too (the lobby's went when the game began)
        assert any(
            CODEC.decode(d) is not None for hand in hands if hand for d in hand.callback_data
        )


@pytest.mark.parametrize("kind", ["http", "socks5"])
async def test_a_wrong_proxy_password_fails_as_a_network_error(kind: Kind) -> None:
    async with FakeTelegram() as fake, tiny_proxy(kind) as proxy:
        request = AiohttpRequest(2, proxy=proxy.url(password="wrong"))
        await request.initialize()
        try:
            url = f"{fake.base_url}{fake.token}/getMe"
            with pytest.raises(NetworkError):
                await request.post(url)
        finally:
            await request.shutdown()
        assert proxy.refused == 1
        assert not fake.log  # nothing reached the API
