"""End to end, ``python -m server`` as a newcomer starts it: without
network, one clear line and retries until the Bot API answers; a token Telegram rejects, one
clear line and exit code 2; and the token in no log line, even at ``LOG_LEVEL=DEBUG`` and on
errors."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from bot.settings import Settings

from .fake_telegram import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
#: a token nobody could mistake for other text in a log
TOKEN = "4242:SeCrEt-ToKeN_for_the_log_test_4242"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    async def wait_for(self, text: str, timeout: float = START_TIMEOUT) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.output():
            if self.process.returncode is not None:
                raise AssertionError(f"the bot exited before {text!r}:\n{self.output()}")
            if loop.time() > deadline:
                raise AssertionError(f"no {text!r} within {timeout} s:\n{self.output()}")
            await asyncio.sleep(0.1)

    async def stop(self) -> int:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        assert self.process.returncode is not None
        return self.process.returncode


@contextlib.asynccontextmanager
async def bot_process(
    tmp_path: Path, base_url: str, *, token: str = TOKEN, log_level: str = "INFO"
) -> AsyncIterator[BotProcess]:
    ours = {name.upper() for name in Settings.model_fields}
    env = {k: v for k, v in os.environ.items() if k.upper() not in ours}
    env.update(
        BOT_TOKEN=token,
        TELEGRAM_API_BASE_URL=base_url,
        DATABASE_PATH=str(tmp_path / "data" / "bot.sqlite3"),
        RATE_LIMITER="false",
        LOG_LEVEL=log_level,
        PYTHONPATH=str(ROOT),
    )
    log = tmp_path / f"bot-{len(list(tmp_path.glob('bot-*.log')))}.log"
    with log.open("wb") as sink:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server", cwd=tmp_path, env=env, stdout=sink, stderr=sink
        )
    running = BotProcess(process, log)
    try:
        yield running
    finally:
        await running.stop()


async def test_without_network_one_line_then_retries_until_the_api_answers(
    tmp_path: Path,
) -> None:
    port = free_port()  # nothing listens there yet
    async with bot_process(tmp_path, f"http://127.0.0.1:{port}/bot") as bot:
        await bot.wait_for("Cannot reach the Telegram Bot API")
        await asyncio.sleep(3.0)  # a few retries (1 s, 1.5 s, …)
        assert bot.process.returncode is None, bot.output()
        lines = bot.output().splitlines()
        assert len(lines) == 1, bot.output()
        failure = f"aiohttp.ClientConnectorError: Cannot connect to host 127.0.0.1:{port}"
        assert f"at 127.0.0.1 directly ({failure}" in lines[0]
        assert "set PROXY_URL" in lines[0]
        # the network comes up: the bot gets through by itself
        async with FakeTelegram(token=TOKEN, port=port) as fake:
            await fake.wait_until(
                lambda: fake.requests("getUpdates"), timeout=START_TIMEOUT, message="polling"
            )
            await bot.wait_for("Reached the Telegram Bot API after")
            user = fake.add_user("Alice")
            fake.user_starts_bot(user)
            await fake.wait_until(
                lambda: fake.messages(fake.private_chat(user), from_bot=True),
                timeout=START_TIMEOUT,
                message="a greeting",
            )
            assert await bot.stop() == 0
    assert "Traceback" not in bot.output()


async def test_a_rejected_token_one_line_and_exit_code_2(tmp_path: Path) -> None:
    async with (
        FakeTelegram(token=TOKEN) as fake,
        bot_process(tmp_path, fake.base_url, token="4242:not-this-bots-token") as bot,
    ):
        await asyncio.wait_for(bot.process.wait(), START_TIMEOUT)
        assert bot.process.returncode == 2, bot.output()
        lines = bot.output().splitlines()
        assert len(lines) == 1, bot.output()
        assert "Telegram rejected BOT_TOKEN (getMe: 401 Unauthorized)" in lines[0]


async def test_the_token_is_in_no_log_line_even_at_debug_and_on_errors(tmp_path: Path) -> None:
    secret = TOKEN.split(":", 1)[1]
    outputs = []
    # a normal run: start-up, a user's /start, shutdown
    async with FakeTelegram(token=TOKEN) as fake:
        async with bot_process(tmp_path, fake.base_url, log_level="DEBUG") as bot:
            await fake.wait_until(
                lambda: fake.requests("getUpdates"), timeout=START_TIMEOUT, message="polling"
            )
            user = fake.add_user("Alice")
            fake.user_starts_bot(user)
            await fake.wait_until(
                lambda: fake.messages(fake.private_chat(user), from_bot=True),
                timeout=START_TIMEOUT,
                message="a greeting",
            )
            assert await bot.stop() == 0
        outputs.append(bot.output())
        # a token Telegram rejects (that token must not show either)
        rejected = "4242:AnOtHeR-rejected_token_4242"
        async with bot_process(tmp_path, fake.base_url, token=rejected, log_level="DEBUG") as bot:
            await asyncio.wait_for(bot.process.wait(), START_TIMEOUT)
        assert rejected.split(":", 1)[1] not in bot.output()
        outputs.append(bot.output())
    # no network: connection errors, retried
    port = free_port()
    async with bot_process(tmp_path, f"http://127.0.0.1:{port}/bot", log_level="DEBUG") as bot:
        await bot.wait_for("Failed run number 1")
    outputs.append(bot.output())
    for output in outputs:
        assert " DEBUG " in output  # the level took effect: every request was logged
        assert secret not in output, [line for line in output.splitlines() if secret in line]
    assert any("<secret>" in output for output in outputs)  # PTB logs the URL with the token
