"""Issue #27's first promise, in one test: a whole match in the console
(`unobot play --auto`, its own process) and one on Telegram (the real PTB
client against the local Bot API server), on the same redis-server, are
both kept when they end: `unobot audit` replays the two ("2 games
replayed"), `unobot replay CHAT --last` tells each, and `unobot replay
--last` alone tells both, the latest first."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from pathlib import Path

from tests.botapi import BotAPIServer
from tests.console.helpers import env
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess
from tests.telegram.test_game import lobby_and_start, open_table, short_games
from unobot.adapters.console.cli import user_id

ROOT = Path(__file__).resolve().parents[2]
CONSOLE_CHAT = f"console.{user_id()}.auto"  # the console's demo chat (adapters/console/app.py)


def unobot(*args: str, extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=ROOT,
                          env={**env(), **extra}, capture_output=True, text=True, timeout=180)


async def test_a_console_match_and_a_telegram_match_are_audited_and_replayed(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis").start()
    prefix = f"two{uuid.uuid4().hex[:6]}"
    (tmp_path / "config.yaml").write_text(f"store:\n  prefix: {prefix}\n")
    extra = {"UNOBOT_CONFIG": str(tmp_path / "config.yaml")}
    try:
        def cli(*args: str) -> subprocess.CompletedProcess[str]:
            return unobot(*args, "--store", redis.url, extra=extra)

        before = await asyncio.to_thread(cli, "audit")
        assert before.stdout.strip().splitlines()[-1] == "0 games replayed, 0 mismatches", before.stderr

        console = await asyncio.to_thread(cli, "play", "--auto", "--seed", "3", "--players", "3", "--delay", "0")
        assert console.returncode == 0, console.stdout + console.stderr
        assert "wins the match with" in console.stdout

        async with BotAPIServer() as server:
            bot = await BotProcess(server, redis.url, prefix).start()
            try:
                driver = await open_table(server, bot)
                await short_games(bot, driver.chat, scoring="target=0")
                await lobby_and_start(driver)
                await driver.play()
                assert "wins the match" in driver.bot_messages()[-1]["text"]
            finally:
                await bot.stop()
            assert server.errors == []
        telegram_chat = driver.chat

        audit = await asyncio.to_thread(cli, "audit")
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert audit.stdout.strip().splitlines()[-1] == "2 games replayed, 0 mismatches"

        told: dict[str, list[str]] = {}
        for chat in (CONSOLE_CHAT, telegram_chat):
            replay = await asyncio.to_thread(cli, "replay", chat, "--last")
            assert replay.returncode == 0, replay.stdout + replay.stderr
            lines = replay.stdout.splitlines()
            assert lines[0].startswith(f"Game {chat}#") and lines[1].startswith("Dealt: ")
            assert lines[-1].endswith("won the match.") and len(lines) > 5
            told[chat] = lines
        assert "Alice" in told[telegram_chat][1] and "Carol" in told[telegram_chat][1]

        both = await asyncio.to_thread(cli, "replay", "--last")
        assert both.returncode == 0, both.stdout + both.stderr
        assert both.stdout.splitlines() == [*told[telegram_chat], "", *told[CONSOLE_CHAT]]  # the latest first
        nameless = await asyncio.to_thread(cli, "replay")
        assert nameless.returncode == 2 and "name a chat" in nameless.stderr
    finally:
        redis.stop()
