"""The bot's request object (``bot.request.AiohttpRequest``, PTB's ``BaseRequest`` over
aiohttp) against local servers: what it sends, how it keeps its connections, and how each kind
of failure reaches the rate limiter (sent or maybe sent). Every test runs on asyncio's loop and
on uvloop (the bot's), through the ``both_loops`` mark (tests/bot/conftest.py)."""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trustme
from aiohttp import web
from pydantic import ValidationError
from telegram import Bot, InputFile, Message
from telegram.error import NetworkError, TelegramError, TimedOut

from bot.ratelimit import maybe_performed
from bot.request import AiohttpRequest, UpdatesRequest, check_proxy_url, trim_update
from bot.settings import Settings

TOKEN = "123:abc"

pytestmark = pytest.mark.both_loops


async def test_each_test_runs_on_the_loop_it_names(request: pytest.FixtureRequest) -> None:
    # the loop factories come from the pytest_asyncio_loop_factories hook: fail here if the
    # mark stops taking effect
    module = type(asyncio.get_running_loop()).__module__
    assert module.startswith("uvloop") == ("uvloop" in request.node.name)


class Server:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str, Any]] = []  # (method name, content type, parameters)
        self.delay = 0.0
        self.drop = False
        self.status = 200
        self.peers: list[Any] = []  # the client's address of each request's connection
        self.reply: tuple[int, bytes] | None = None  # a canned reply: status and body

    async def handle(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["method"]
        assert request.transport is not None
        self.peers.append(request.transport.get_extra_info("peername"))
        if request.content_type == "application/json":
            params: Any = await request.json()
        else:
            form = await request.post()
            params = {
                key: (value.file.read() if isinstance(value, web.FileField) else value)
                for key, value in form.items()
            }
        self.seen.append((name, request.content_type, params))
        if self.drop:
            assert request.transport is not None
            request.transport.close()
            return web.Response()
        await asyncio.sleep(self.delay)
        if self.reply is not None:
            return web.Response(status=self.reply[0], body=self.reply[1])
        if self.status != 200:
            body = {"ok": False, "error_code": self.status, "description": "Internal Error"}
            return web.json_response(body, status=self.status)
        if name == "getMe":
            result: Any = {"id": 1, "is_bot": True, "first_name": "B", "username": "b_bot"}
        else:
            result = {
                "message_id": 7,
                "date": 0,
                "chat": {"id": int(params.get("chat_id", 5)), "type": "private"},
                "text": params.get("text", ""),
            }
        return web.json_response({"ok": True, "result": result})


@pytest.fixture
async def server() -> AsyncIterator[tuple[Server, str]]:
    state = Server()
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", state.handle)
    app.router.add_get("/file/bot{token}/{path}", _file)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield state, f"http://127.0.0.1:{port}/bot"
    await runner.cleanup()


async def _file(request: web.Request) -> web.Response:
    return web.Response(body=f"file:{request.match_info['path']}".encode())


async def _bot(base_url: str, **kwargs: Any) -> Bot:
    bot = Bot(TOKEN, base_url=base_url, request=AiohttpRequest(8, **kwargs))
    await bot.initialize()
    return bot


async def test_parameters_go_as_a_json_body_and_the_reply_is_parsed(
    server: tuple[Server, str],
) -> None:
    state, url = server
    bot = await _bot(url)
    try:
        message = await bot.send_message(5, "Ход <b>твой</b>", parse_mode="HTML")
    finally:
        await bot.shutdown()
    assert message.message_id == 7 and message.text == "Ход <b>твой</b>"
    name, content_type, params = state.seen[-1]
    assert (name, content_type) == ("sendMessage", "application/json")
    assert params == {"chat_id": "5", "text": "Ход <b>твой</b>", "parse_mode": "HTML"}


async def test_a_file_goes_as_multipart(server: tuple[Server, str]) -> None:
    state, url = server
    bot = await _bot(url)
    try:
        await bot.send_document(5, InputFile(b"ledger,1\n", filename="ledger.csv"), caption="x")
    finally:
        await bot.shutdown()
    name, content_type, params = state.seen[-1]
    assert (name, content_type) == ("sendDocument", "multipart/form-data")
    assert params["caption"] == "x" and params["chat_id"] == "5"
    assert params["document"] == b"ledger,1\n"


async def test_a_slow_reply_is_timed_out_and_may_have_been_carried_out(
    server: tuple[Server, str],
) -> None:
    state, url = server
    bot = await _bot(url, read_timeout=0.2)
    state.delay = 1.0
    try:
        with pytest.raises(TimedOut) as caught:
            await bot.send_message(5, "x")
        # a read timeout given with the call wins over the default (getUpdates' long poll)
        message = await bot.send_message(5, "y", read_timeout=3)
    finally:
        await bot.shutdown()
    assert maybe_performed(caught.value)
    assert message.text == "y"


async def test_a_connection_lost_mid_request_may_have_been_carried_out(
    server: tuple[Server, str],
) -> None:
    state, url = server
    bot = await _bot(url)
    state.drop = True
    try:
        with pytest.raises(NetworkError) as caught:
            await bot.edit_message_text("x", chat_id=5, message_id=7)
    finally:
        await bot.shutdown()
    assert not isinstance(caught.value, TimedOut)
    assert maybe_performed(caught.value)


async def test_a_server_error_was_not_carried_out(server: tuple[Server, str]) -> None:
    state, url = server
    bot = await _bot(url)
    state.status = 502
    try:
        with pytest.raises(NetworkError) as caught:
            await bot.send_message(5, "x")
    finally:
        await bot.shutdown()
    assert not maybe_performed(caught.value)


async def test_a_refused_connection_was_not_sent() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # nothing listens there now
    request = AiohttpRequest(2)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/sendMessage")
    finally:
        await request.shutdown()
    assert not maybe_performed(caught.value)


async def test_a_full_pool_times_out_without_sending(server: tuple[Server, str]) -> None:
    state, url = server
    bot = Bot(TOKEN, base_url=url, request=AiohttpRequest(1, pool_timeout=0.1))
    await bot.initialize()
    state.delay = 1.0
    state.seen.clear()
    try:
        slow = asyncio.create_task(bot.send_message(5, "first"))
        await asyncio.sleep(0.1)
        with pytest.raises(TimedOut) as caught:
            await bot.send_message(5, "second", connect_timeout=0.05)
        await slow
    finally:
        await bot.shutdown()
    assert not maybe_performed(caught.value)
    assert [json.dumps(p["text"]) for _, _, p in state.seen] == ['"first"']


async def test_shut_down_then_used_again_after_initialize(server: tuple[Server, str]) -> None:
    _, url = server
    request = AiohttpRequest(2)
    bot = Bot(TOKEN, base_url=url, request=request)
    await bot.initialize()
    await bot.shutdown()
    with pytest.raises(NetworkError, match="not initialized"):
        await request.post(f"{url}{TOKEN}/sendMessage")
    await bot.initialize()
    try:
        assert (await bot.send_message(5, "again")).text == "again"
    finally:
        await bot.shutdown()


async def test_one_connection_carries_request_after_request(server: tuple[Server, str]) -> None:
    state, url = server
    bot = await _bot(url)
    try:
        for text in ("a", "b", "c"):
            await bot.send_message(5, text)
    finally:
        await bot.shutdown()
    # getMe (initialize) and three messages
    assert len(state.peers) == 4 and len(set(state.peers)) == 1


async def test_a_file_is_fetched_with_get(server: tuple[Server, str]) -> None:
    _, url = server
    request = AiohttpRequest(2)
    await request.initialize()
    try:
        content = await request.retrieve(url.replace("/bot", "/file/bot") + f"{TOKEN}/doc.txt")
    finally:
        await request.shutdown()
    assert content == b"file:doc.txt"


@pytest.fixture
async def tls_server() -> AsyncIterator[tuple[Server, str, trustme.CA]]:
    """The same server over HTTPS, with a certificate for "localhost" from a test CA."""
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("localhost").configure_cert(context)
    state = Server()
    app = web.Application()
    app.router.add_post("/bot{token}/{method}", state.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    port = runner.addresses[0][1]
    yield state, f"https://localhost:{port}/bot", ca
    await runner.cleanup()


async def test_https_with_a_certificate_the_client_trusts(
    tls_server: tuple[Server, str, trustme.CA],
) -> None:
    state, url, ca = tls_server
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    bot = Bot(TOKEN, base_url=url, request=AiohttpRequest(2, ssl=trusting))
    await bot.initialize()
    try:
        message = await bot.send_message(5, "через TLS")
    finally:
        await bot.shutdown()
    assert message.text == "через TLS" and state.seen[-1][0] == "sendMessage"


async def test_https_with_an_unknown_certificate_is_refused_before_sending(
    tls_server: tuple[Server, str, trustme.CA],
) -> None:
    state, url, _ = tls_server
    request = AiohttpRequest(2)  # the system's store does not know the test CA
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.post(f"{url}{TOKEN}/getMe")
    finally:
        await request.shutdown()
    assert not maybe_performed(caught.value) and state.seen == []


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:3128",
        "https://user:s3cr3t@proxy.example.org:443",
        "socks5://user:p%40ss@127.0.0.1:1080",
        "socks5h://127.0.0.1:1080",
        "socks4://127.0.0.1:1080",
    ],
)
def test_proxy_urls_the_bot_takes(url: str) -> None:
    check_proxy_url(url)
    settings = Settings(bot_token="1:x", proxy_url=url)  # type: ignore[arg-type]
    assert settings.proxy_url is not None and settings.proxy_url.get_secret_value() == url
    assert "s3cr3t" not in repr(settings) and "p%40ss" not in str(settings)


@pytest.mark.parametrize(
    "url", ["ftp://127.0.0.1:21", "127.0.0.1:3128", "socks5://:1080", "http://host:port"]
)
def test_proxy_urls_the_bot_refuses(url: str) -> None:
    with pytest.raises(ValueError):
        check_proxy_url(url)
    with pytest.raises(ValidationError):
        Settings(bot_token="1:x", proxy_url=url)  # type: ignore[arg-type]


def test_an_empty_proxy_url_is_none() -> None:
    assert Settings(bot_token="1:x", proxy_url="").proxy_url is None  # type: ignore[arg-type]


PRESS = {
    "update_id": 11,
    "callback_query": {
        "id": "q1",
        "from": {"id": 42, "is_bot": False, "first_name": "Алиса"},
        "chat_instance": "c",
        "data": "a:1",
        "message": {
            "message_id": 9,
            "date": 1,
            "from": {"id": 1, "is_bot": True, "first_name": "Бот", "username": "b_bot"},
            "chat": {"id": -100, "type": "supergroup", "title": "Стол"},
            "message_thread_id": 3,
            "is_topic_message": True,
            "text": "Ход: Алиса",
            "entities": [{"type": "bold", "offset": 0, "length": 3}],
            "reply_markup": {"inline_keyboard": [[{"text": "7♠", "callback_data": "x"}]]},
        },
    },
}


async def test_getupdates_presses_arrive_without_the_message_text_and_buttons(
    server: tuple[Server, str],
) -> None:
    state, url = server
    bot = Bot(TOKEN, base_url=url, get_updates_request=UpdatesRequest(1))
    await bot.initialize()
    state.reply = (200, json.dumps({"ok": True, "result": [PRESS]}).encode())
    try:
        (update,) = await bot.get_updates(timeout=0)
        state.reply = (200, b"{not json")
        with pytest.raises(TelegramError):
            await bot.get_updates(timeout=0)
    finally:
        await bot.shutdown()
    query = update.callback_query
    assert query is not None
    message = query.message
    assert isinstance(message, Message)
    # what a press is routed by stays
    assert (query.data, query.from_user.id, message.message_id) == ("a:1", 42, 9)
    assert message.chat.id == -100 and message.message_thread_id == 3
    assert message.is_topic_message
    assert update.effective_user is not None and update.effective_user.id == 42
    # what the message shows, and its sender (the bot), are not built into objects
    assert message.text is None and message.reply_markup is None and not message.entities
    assert message.from_user is None


def test_trimming_leaves_other_updates_and_a_press_without_a_message_alone() -> None:
    command = {"update_id": 1, "message": {"message_id": 2, "text": "/start", "entities": []}}
    old_press = {"update_id": 2, "callback_query": {"id": "q", "data": "a"}}
    updates: list[Any] = [command, old_press, [], "x"]
    for update in updates:
        before = json.dumps(update)
        trim_update(update)
        assert json.dumps(update) == before
