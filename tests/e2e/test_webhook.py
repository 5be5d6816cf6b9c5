"""End to end, webhook mode: ``python -m server`` runs as a real process with ``WEBHOOK_URL`` set,
against the fake Telegram: the secret token, bad bodies, and the Docker HEALTHCHECK command.

The fake delivers users' updates to the bot's webhook with the secret token the bot gave it in
``setWebhook``; the test also POSTs updates itself: with the right secret they are answered,
with a wrong or missing one they get HTTP 403 and no answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from bot.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot.settings import Settings

from .fake_telegram import FakeTelegram
from .fake_telegram.proxy import tiny_proxy
from .fake_telegram.serialize import message_update

ROOT = Path(__file__).resolve().parents[2]
SECRET = "webhook-test-secret_0123456789"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    env: dict[str, str]
    url: str
    log: Path

    def output(self) -> str:
        return self.whole_log()[-4000:]

    def whole_log(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def bot_environment(
    fake: FakeTelegram, tmp_path: Path, url: str, port: int, **more: str
) -> dict[str, str]:
    """The parent's environment without any bot setting, then the test's settings (``more``
    on top: an empty value unsets one)."""
    ours = {name.upper() for name in Settings.model_fields}
    env = {key: value for key, value in os.environ.items() if key.upper() not in ours}
    env.update(
        BOT_TOKEN=fake.token,
        TELEGRAM_API_BASE_URL=fake.base_url,
        DATABASE_PATH=str(tmp_path / "data" / "bot.sqlite3"),
        WEBHOOK_URL=url,
        WEBHOOK_SECRET=SECRET,
        WEBHOOK_LISTEN="127.0.0.1",
        WEBHOOK_PORT=str(port),
        RATE_LIMITER="false",
        PYTHONPATH=str(ROOT),
    )
    env.update(more)
    return env


async def stop_process(process: asyncio.subprocess.Process) -> int:
    """SIGTERM (the bot shuts down cleanly), then SIGKILL if it takes too long."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
        except TimeoutError:
            process.kill()
            await process.wait()
    assert process.returncode is not None
    return process.returncode


@contextlib.asynccontextmanager
async def bot_process(fake: FakeTelegram, tmp_path: Path, **more: str) -> AsyncIterator[BotProcess]:
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/hook"
    env = bot_environment(fake, tmp_path, url, port, **more)
    log = tmp_path / "bot.log"
    with log.open("wb") as sink:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server", cwd=tmp_path, env=env, stdout=sink, stderr=sink
        )
    running = BotProcess(process, env, url, log)
    try:
        yield running
    finally:
        await stop_process(process)


async def until(
    fake: FakeTelegram, bot: BotProcess, predicate: Callable[[], object], what: str
) -> None:
    """Wait for ``predicate``; fail at once, with the bot's output, if the bot exits."""
    waiting = asyncio.ensure_future(fake.wait_until(predicate, timeout=START_TIMEOUT))
    exited = asyncio.ensure_future(bot.process.wait())
    done, _ = await asyncio.wait({waiting, exited}, return_when=asyncio.FIRST_COMPLETED)
    if waiting not in done:
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        pytest.fail(f"the bot exited ({bot.process.returncode}) before {what}:\n{bot.output()}")
    exited.cancel()
    try:
        waiting.result()
    except TimeoutError:
        pytest.fail(f"no {what} within {START_TIMEOUT} s:\n{bot.output()}")


async def post(url: str, update: Mapping[str, Any], secret: str | None) -> int:
    return await post_body(url, json.dumps(update).encode(), secret)


async def post_body(url: str, body: bytes, secret: str | None) -> int:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["X-Telegram-Bot-Api-Secret-Token"] = secret
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            url, data=body, headers=headers, timeout=aiohttp.ClientTimeout(total=10)
        ) as response,
    ):
        return response.status


async def health(env: Mapping[str, str], cwd: Path) -> int:
    """The Docker HEALTHCHECK command's exit status."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.health",
        cwd=cwd,
        env=dict(env),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await asyncio.wait_for(process.wait(), 60)


@pytest.mark.timeout(180)
async def test_webhook_mode_answers_only_updates_with_the_secret(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        alice = fake.add_user("Alice", language_code="en", started=True)
        private = fake.private_chat(alice)

        def replies() -> int:
            return len(fake.messages(private, from_bot=True))

        async with bot_process(fake, tmp_path) as bot:
            await until(fake, bot, lambda: fake.requests("setWebhook", ok=True), "setWebhook")
            assert fake.api.webhook.url == bot.url
            assert fake.api.webhook.secret_token == SECRET
            # post_init ran before the webhook was set: the menus are there
            group_scope = {"type": "all_group_chats"}
            assert [c for c, _ in fake.commands(group_scope, "en")] == list(GROUP_COMMANDS)
            assert [c for c, _ in fake.commands({"type": "all_private_chats"}, "ru")] == list(
                PRIVATE_COMMANDS
            )

            # Telegram's own delivery, with the secret the bot set
            sent = fake.user_sends(alice, private, "/help")
            await until(fake, bot, lambda: replies() == 1, "an answer to /help")
            assert "/rules" in (fake.last_message(private).text or "")

            # forged updates: refused before they reach a handler
            forged = message_update(10_001, sent)
            assert await post(bot.url, forged, None) == 403
            assert await post(bot.url, forged, "wrong-secret") == 403
            assert await post(bot.url, forged, SECRET[:-1]) == 403

            # the same update with the right secret is answered, and only it
            assert await post(bot.url, message_update(10_002, sent), SECRET) == 200
            await until(fake, bot, lambda: replies() == 2, "an answer to a posted update")
            await fake.wait_idle(timeout=10)
            await asyncio.sleep(0.5)
            assert replies() == 2

            # the Docker HEALTHCHECK: alive while the bot runs
            heartbeat = tmp_path / "data" / "bot.sqlite3.heartbeat"
            await until(fake, bot, heartbeat.exists, "the first heartbeat")
            assert await health(bot.env, tmp_path) == 0

            assert await stop_process(bot.process) == 0, bot.output()
        # post_shutdown ran: the heartbeat is gone and the check fails
        assert not heartbeat.exists()
        assert await health(bot.env, tmp_path) == 1


#: bodies with the right secret that are no update: each is answered 400 with one log line
NOT_UPDATES = (
    b"[]",
    b'"x"',
    b"1",
    b"null",
    b"{not json",
    b"\xff\xfe",
    b"",
    b"{}",
    b'{"update_id": "x"}',
    b"[" * 100_000 + b"]" * 100_000,  # too deep for json.loads: a RecursionError
)


@pytest.mark.timeout(180)
async def test_a_body_that_is_not_an_update_is_answered_400_with_one_line(tmp_path: Path) -> None:
    async with FakeTelegram() as fake:
        alice = fake.add_user("Alice", language_code="en", started=True)
        private = fake.private_chat(alice)
        async with bot_process(fake, tmp_path) as bot:
            await until(fake, bot, lambda: fake.requests("setWebhook", ok=True), "setWebhook")
            fake.user_sends(alice, private, "/help")
            await until(
                fake, bot, lambda: fake.messages(private, from_bot=True), "an answer to /help"
            )
            before = bot.whole_log().splitlines()
            for body in NOT_UPDATES:
                assert await post_body(bot.url, body, SECRET) == 400, body
            # a forged one is still refused before its body is read, a real one served
            assert await post_body(bot.url, b"[]", "wrong-secret") == 403
            fake.user_sends(alice, private, "/help")
            await until(
                fake, bot, lambda: len(fake.messages(private, from_bot=True)) == 2, "an answer"
            )
            assert await stop_process(bot.process) == 0, bot.output()
            lines = bot.whole_log().splitlines()[len(before) :]
        refused = [line for line in lines if "webhook: refused" in line]
        assert len(refused) == len(NOT_UPDATES), lines
        assert all(" WARNING bot.webhook: " in line for line in refused)
        assert not [line for line in lines if "Traceback" in line or " ERROR " in line], lines


@pytest.mark.timeout(180)
async def test_no_secret_in_the_log_at_debug_in_webhook_mode(tmp_path: Path) -> None:
    """At LOG_LEVEL=DEBUG python-telegram-bot logs every request's parameters, setWebhook's
    secret token among them, and URLs with the bot's token: none of the run's secrets (the
    token, its secret half, the webhook's secret token, here a random one as without
    WEBHOOK_SECRET, and the proxy's password as written and decoded) is in any line."""
    async with FakeTelegram() as fake, tiny_proxy("http") as proxy:
        alice = fake.add_user("Alice", language_code="en", started=True)
        private = fake.private_chat(alice)
        async with bot_process(
            fake, tmp_path, LOG_LEVEL="DEBUG", WEBHOOK_SECRET="", PROXY_URL=proxy.url()
        ) as bot:
            await until(fake, bot, lambda: fake.requests("setWebhook", ok=True), "setWebhook")
            secret = fake.api.webhook.secret_token
            assert secret and secret != SECRET
            fake.user_sends(alice, private, "/help")
            await until(
                fake, bot, lambda: fake.messages(private, from_bot=True), "an answer to /help"
            )
            assert await post_body(bot.url, b"[]", secret) == 400
            assert await stop_process(bot.process) == 0, bot.output()
        assert proxy.seen and proxy.refused == 0  # the bot's requests went through the proxy
        log = bot.whole_log()
        assert " DEBUG telegram" in log and "setWebhook" in log  # PTB's request log is there
        assert "<secret>" in log
        for name, value in (
            ("the token", fake.token),
            ("the token's secret half", fake.token.split(":", 1)[1]),
            ("the webhook's secret token", secret),
            ("the proxy's password", proxy.password),
            ("the proxy's password as in PROXY_URL", quote(proxy.password, safe="")),
        ):
            leaks = [line for line in log.splitlines() if value in line]
            assert not leaks, (name, leaks[:3])


@pytest.mark.timeout(120)
async def test_a_rejected_token_in_webhook_mode_one_line_and_exit_code_2(tmp_path: Path) -> None:
    async with (
        FakeTelegram() as fake,
        bot_process(fake, tmp_path, BOT_TOKEN="4242:not-this-bots-token") as bot,
    ):
        await asyncio.wait_for(bot.process.wait(), START_TIMEOUT)
        assert bot.process.returncode == 2, bot.output()
        lines = bot.whole_log().splitlines()
        assert len(lines) == 1, lines
        assert "Telegram rejected BOT_TOKEN (getMe: 401 Unauthorized)" in lines[0]
        assert not fake.requests("setWebhook")
