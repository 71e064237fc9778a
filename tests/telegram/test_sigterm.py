"""SIGTERM (systemd's stop, a deploy) while a move is in hand: finished, then the exit.

The README promises "SIGINT and SIGTERM both stop it cleanly: updates in hand
are finished first". Tried as an operator does: `unobot telegram --webhook`
as a process, Ben's /join in hand while Redis holds its writes back (CLIENT
PAUSE), SIGTERM meanwhile. The /join is saved and answered 200 before the
process exits 0: Telegram does not send it again, and Ben is seated once.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import redis.asyncio as aioredis

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from tests.support.waiting import until
from tests.telegram.driver import CliBot, StoreReader
from unobot.adapters.redis_store import RedisStore


async def test_sigterm_during_a_move_finishes_it_before_the_exit(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    reader = StoreReader(RedisStore.from_url(redis_server.url, prefix=prefix))
    client = aioredis.from_url(redis_server.url)
    bot = CliBot(server, redis_server.url, prefix, tmp_path / "a", port=free_port()).start()
    try:
        await bot.ready()
        group = server.group(title="Term")
        chat = str(group["id"])
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        server.send_command(group, ann, "/new")

        async def seats() -> list[str]:
            table = await reader.service.table(chat)
            return [s.name for s in table.seats] if table is not None else []

        await until(lambda: _is(seats, ["Ann"]), 20, "the game never opened")
        await client.execute_command("CLIENT", "PAUSE", "1500", "WRITE")  # the /join's save waits
        join = server.send_command(group, ben, "/join")

        async def posting() -> bool:
            return server.webhook_posting == join["update_id"]

        await until(posting, 10, "the /join was never posted")
        await asyncio.sleep(0.3)  # its handler waits to save
        assert bot.process is not None
        bot.process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(bot.process.wait, 30)
        assert code == 0, bot.log()
        assert await seats() == ["Ann", "Ben"], bot.log()
        statuses = [status for uid, status in server.webhook_deliveries if uid == join["update_id"]]
        assert statuses == [200], statuses  # answered once, handled: not sent again
        assert "Traceback" not in bot.log(), bot.log()
    finally:
        await client.execute_command("CLIENT", "UNPAUSE")
        await client.aclose()
        bot.stop()
        await reader.close()


async def _is(get: object, wanted: list[str]) -> bool:
    return await get() == wanted  # type: ignore[operator,no-any-return]
