"""The bot's HTTP client (``bot.http``) against local servers: what it sends, how it keeps its
connections, how it reads replies, and how each kind of failure reaches the rate limiter (sent
or maybe sent)."""

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
from telegram import Bot, InputFile, Message
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import RequestData

from bot import http
from bot.http import BotApiRequest
from bot.ratelimit import maybe_performed

TOKEN = "123:abc"


@pytest.fixture(params=["asyncio", "uvloop"])
def event_loop_policy(request: pytest.FixtureRequest) -> asyncio.AbstractEventLoopPolicy:
    """Every test on both loops: the bot runs on uvloop, which calls a protocol's
    ``connection_made`` at other moments than asyncio's loop does."""
    if request.param == "uvloop":
        uvloop = pytest.importorskip("uvloop")
        policy: asyncio.AbstractEventLoopPolicy = uvloop.EventLoopPolicy()
        return policy
    return asyncio.DefaultEventLoopPolicy()


async def test_each_test_runs_on_the_loop_it_names(request: pytest.FixtureRequest) -> None:
    # the fixture above is a deprecated hook of pytest-asyncio: fail here if it stops working
    named = request.node.callspec.params["event_loop_policy"]
    module = type(asyncio.get_running_loop()).__module__
    assert module.startswith("uvloop") == (named == "uvloop")


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
    bot = Bot(TOKEN, base_url=base_url, request=BotApiRequest(8, **kwargs))
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
    request = BotApiRequest(2)
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/sendMessage")
    finally:
        await request.shutdown()
    assert not maybe_performed(caught.value)


async def test_a_full_pool_times_out_without_sending(server: tuple[Server, str]) -> None:
    state, url = server
    bot = Bot(TOKEN, base_url=url, request=BotApiRequest(1, pool_timeout=0.1))
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
    request = BotApiRequest(2)
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


async def test_an_idle_connection_too_old_is_not_reused(
    server: tuple[Server, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    state, url = server
    bot = await _bot(url)
    try:
        await bot.send_message(5, "a")
        await bot.send_message(5, "b")
        monkeypatch.setattr(http, "IDLE_SECONDS", 0.0)
        await asyncio.sleep(0.01)
        await bot.send_message(5, "c")
    finally:
        await bot.shutdown()
    first, again, fresh = state.peers[-3:]
    assert first == again and fresh != first


class RawServer:
    """A server that answers every request with the bytes it is given, then maybe closes."""

    def __init__(self, reply: bytes, close: bool) -> None:
        self.reply = reply
        self.close = close
        self.connections = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                writer.write(self.reply)
                await writer.drain()
                if self.close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


async def _raw(reply: bytes, close: bool, posts: int = 2) -> tuple[list[Any], RawServer]:
    raw = RawServer(reply, close)
    server = await asyncio.start_server(raw.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    request = BotApiRequest(2)
    await request.initialize()
    results: list[Any] = []
    try:
        for _ in range(posts):
            try:
                results.append(await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe"))
            except NetworkError as error:
                results.append(error)
    finally:
        await request.shutdown()
        server.close()
        await server.wait_closed()
    return results, raw


OK_BODY = b'{"ok":true,"result":{"n":1}}'


async def test_a_reply_in_chunks_is_read_whole_and_the_connection_kept() -> None:
    chunked = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    chunked += b"a\r\n" + OK_BODY[:10] + b"\r\n" + f"{len(OK_BODY) - 10:x}".encode()
    chunked += b"\r\n" + OK_BODY[10:] + b"\r\n0\r\n\r\n"
    results, raw = await _raw(chunked, close=False)
    assert results == [{"n": 1}, {"n": 1}] and raw.connections == 1


async def test_a_reply_that_ends_with_the_connection_is_read_and_not_reused() -> None:
    until_eof = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + OK_BODY
    results, raw = await _raw(until_eof, close=True)
    assert results == [{"n": 1}, {"n": 1}] and raw.connections == 2


async def test_connection_close_is_honoured() -> None:
    reply = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(OK_BODY)
    results, raw = await _raw(reply + OK_BODY, close=False)
    assert results == [{"n": 1}, {"n": 1}] and raw.connections == 2


async def test_a_garbled_reply_is_a_network_error_that_may_have_been_carried_out() -> None:
    results, _ = await _raw(b"NOT HTTP AT ALL\r\n\r\n", close=False, posts=1)
    (error,) = results
    assert isinstance(error, NetworkError) and not isinstance(error, TimedOut)
    assert maybe_performed(error)


async def test_the_read_timeout_bounds_the_wait_for_each_piece_not_the_whole_reply() -> None:
    async def trickle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(OK_BODY))
        for byte in OK_BODY:  # 28 pieces, 0.02 s apart: longer in all than the read timeout
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.02)
        writer.close()

    server = await asyncio.start_server(trickle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    request = BotApiRequest(2, read_timeout=0.2)
    await request.initialize()
    try:
        result = await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe")
    finally:
        await request.shutdown()
        server.close()
        await server.wait_closed()
    assert result == {"n": 1}


async def test_a_file_is_fetched_with_get(server: tuple[Server, str]) -> None:
    _, url = server
    request = BotApiRequest(2)
    await request.initialize()
    try:
        content = await request.retrieve(url.replace("/bot", "/file/bot") + f"{TOKEN}/doc.txt")
    finally:
        await request.shutdown()
    assert content == b"file:doc.txt"


async def test_call_posts_one_json_object_and_returns_the_result(
    server: tuple[Server, str],
) -> None:
    state, url = server
    request = BotApiRequest(2)
    await request.initialize()
    keyboard = {"inline_keyboard": [[{"text": "♠ Пас", "callback_data": "a:1"}]]}
    try:
        result = await request.call(
            f"{url}{TOKEN}/sendMessage", {"chat_id": -5, "text": "Ход", "reply_markup": keyboard}
        )
    finally:
        await request.shutdown()
    assert result["message_id"] == 7 and result["text"] == "Ход"
    name, content_type, params = state.seen[-1]
    assert (name, content_type) == ("sendMessage", "application/json")
    # objects go as objects, not as JSON text inside the JSON
    assert params == {"chat_id": -5, "text": "Ход", "reply_markup": keyboard}


def _failure(error: BaseException) -> tuple[Any, ...]:
    return (
        type(error),
        str(error),
        getattr(error, "new_chat_id", None),
        getattr(error, "_retry_after", None),
        type(error.__cause__),
    )


def _refusal(status: int, description: str, **parameters: Any) -> tuple[int, dict[str, Any]]:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if parameters:
        body["parameters"] = parameters
    return status, body


@pytest.mark.parametrize(
    ("status", "body"),
    [
        _refusal(400, "Bad Request: message is not modified"),
        _refusal(403, "Forbidden: bot was blocked by the user"),
        _refusal(401, "Unauthorized"),
        _refusal(404, "Not Found"),
        _refusal(409, "Conflict: terminated by other getUpdates request"),
        _refusal(429, "Too Many Requests: retry after 7", retry_after=7),
        _refusal(400, "Bad Request: group chat was upgraded", migrate_to_chat_id=-1001234),
        _refusal(400, "Bad Request: odd", foo=1),
        _refusal(500, ""),
        (502, b"<html>Bad Gateway</html>"),
        (418, b"not json"),
        (599, b"{}"),
    ],
)
async def test_call_fails_as_ptbs_own_post_does(
    server: tuple[Server, str], status: int, body: Any
) -> None:
    state, url = server
    request = BotApiRequest(2)
    await request.initialize()
    state.reply = (status, body if isinstance(body, bytes) else json.dumps(body).encode())
    failures = []
    try:
        for attempt in (
            request.call(f"{url}{TOKEN}/sendMessage", {"chat_id": 5, "text": "x"}),
            request.post(f"{url}{TOKEN}/sendMessage", RequestData()),
        ):
            with pytest.raises(TelegramError) as caught:
                await attempt
            failures.append(_failure(caught.value))
    finally:
        await request.shutdown()
    ours, ptbs = failures
    assert ours == ptbs


async def test_call_before_initialize_fails_like_post() -> None:
    request = BotApiRequest(2)
    with pytest.raises(NetworkError, match="not initialized") as caught:
        await request.call(f"http://127.0.0.1:9/bot{TOKEN}/getMe", {})
    assert isinstance(caught.value.__cause__, RuntimeError)  # bot.ratelimit: no retry


async def test_updates_keep_of_a_pressed_message_only_its_chat_and_id(
    server: tuple[Server, str],
) -> None:
    state, url = server
    chat = {"id": -42, "type": "group", "title": "friends"}
    user = {"id": 5, "is_bot": False, "first_name": "Ann", "language_code": "ru"}
    pressed = {
        "message_id": 9,
        "date": 1700000000,
        "chat": chat,
        "text": "Ход",
        "entities": [{"type": "bold", "offset": 0, "length": 3}],
        "reply_markup": {"inline_keyboard": [[{"text": "Пас", "callback_data": "x"}]]},
    }
    updates = [
        {
            "update_id": 1,
            "callback_query": {
                "id": "q", "from": user, "message": pressed, "chat_instance": "1", "data": "x"
            },
        },
        {"update_id": 2, "message": {**pressed, "from": user, "message_id": 10}},
    ]  # fmt: skip
    bot = Bot(
        TOKEN,
        base_url=url,
        request=BotApiRequest(2),
        get_updates_request=http.UpdatesRequest(1),
    )
    await bot.initialize()
    state.reply = (200, json.dumps({"ok": True, "result": updates}).encode())
    try:
        press, message = await bot.get_updates()
    finally:
        await bot.shutdown()
    query = press.callback_query
    assert query is not None and query.data == "x" and query.from_user.language_code == "ru"
    assert query.message is not None
    assert (query.message.chat.id, query.message.message_id) == (-42, 9)
    assert isinstance(query.message, Message)
    assert query.message.text is None and query.message.reply_markup is None
    assert not query.message.entities
    # other updates come whole
    assert message.message is not None and message.message.text == "Ход"
    assert message.message.reply_markup is not None


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
    bot = Bot(TOKEN, base_url=url, request=BotApiRequest(2, tls=trusting))
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
    request = BotApiRequest(2)  # the system's store does not know the test CA
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await request.call(f"{url}{TOKEN}/sendMessage", {"chat_id": 5, "text": "x"})
    finally:
        await request.shutdown()
    assert not maybe_performed(caught.value) and state.seen == []
