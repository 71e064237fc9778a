"""The Discord front-end and a store that keeps saves in copies, pauses, or is down.

- Another process's save that the store has not confirmed (``redis.wait_replicas``,
  its replica stalled) is not drawn on the status message as made; it is drawn once
  confirmed (core's `waker.confirmed_as_stored`, as the Telegram and web tests check
  for their front-ends). Real Redis: a primary and a replica stopped (SIGSTOP).
- A Redis that stalls for longer than Discord's 3-second deadline (``DEBUG SLEEP``)
  still gets every interaction answered in time (deferred), and its real answer after.
- A Redis that is down: the member is told so, in their language, within the deadline.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import redis

from tests.discord.driver import BotProcess, TableDriver, action_of
from tests.discord_api import DiscordAPIServer
from tests.support.redis_server import RedisServer, debug_command_options
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.render import error_text
from unobot.chat.service import ChatService

WAITS = {"wait_replicas": 1, "wait_timeout": 1.0, "socket_timeout": 2.0}


def _shown(driver: TableDriver) -> list[str]:
    """Every version of every public message in the driver's channel."""
    return [text for m in driver.server.channel_messages(driver.channel) for text, _ in [*m.versions,
                                                                                         (m.content, [])]]


async def test_another_process_save_is_drawn_only_once_confirmed(server: DiscordAPIServer, prefix: str,
                                                                 tmp_path: Path) -> None:
    from tests.store.test_durability import _client, _replicate, frozen

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    with _client(primary) as client:
        client.config_set("repl-diskless-sync-delay", 0)
    _replicate(replica, primary)
    server.guild()
    bot = await BotProcess(server, primary.url, prefix, store_options=WAITS).start()
    other = ChatService(RedisStore.from_url(primary.url, prefix=prefix, **WAITS))  # another process (a web table's)
    try:
        guild = next(iter(server.guilds.values()))
        ann = server.member("Ann")
        driver = TableDriver(server, bot, guild.channels[0], [ann])
        await driver.slash(ann, "new")
        assert driver.status_message() is not None
        with frozen(replica):
            out = await other.handle(driver.chat, c.Person("2", "Bea"), c.Join())
            assert out.code == "store_unconfirmed", out  # its writer says "not confirmed yet"
            await asyncio.sleep(2.5)  # the change has reached the bot's feed by now
            assert not any("Bea" in t for t in _shown(driver)), _shown(driver)
        for _ in range(100):  # confirmed once the replica runs again: drawn as made
            if any("Bea" in t for t in _shown(driver)):
                break
            await asyncio.sleep(0.1)
        assert any("Bea" in t for t in _shown(driver)), _shown(driver)
    finally:
        await bot.stop()
        await other.store.close()
        primary.stop()
        replica.stop()


async def test_a_redis_asleep_past_the_deadline_gets_every_interaction_answered_in_time(
        server: DiscordAPIServer, prefix: str, tmp_path: Path) -> None:
    slow = RedisServer(tmp_path / "slow", extra=debug_command_options()).start()
    server.guild()
    bot = await BotProcess(server, slow.url, prefix, store_options={"socket_timeout": 6.0}).start()
    try:
        guild = next(iter(server.guilds.values()))
        ann, bob = server.member("Ann"), server.member("Bob", locale="es-ES")
        driver = TableDriver(server, bot, guild.channels[0], [ann, bob])
        await driver.slash(ann, "new")
        status = driver.status_message()
        assert status is not None
        admin = redis.Redis.from_url(slow.url)
        sleeping = threading.Thread(target=admin.execute_command, args=("DEBUG", "SLEEP", 4))
        sleeping.start()
        await asyncio.sleep(0.2)  # the server is asleep now: every command waits for it
        try:
            join = await server.component(bob, status, next(cid for _, cid in status.custom_ids()
                                                               if action_of(cid) == "j"))
            await server.answer(join, timeout=4.0)
            assert join.answer_seconds is not None and join.answer_seconds < 3.0, join.answer_seconds
        finally:
            await asyncio.to_thread(sleeping.join)
            admin.close()
        await asyncio.sleep(0.5)
        await bot.idle()
        table = await driver.table()
        assert table is not None and [s.name for s in table.seats] == ["Ann", "Bob"]  # made once Redis woke up
        assert any("Bob" in t for t in _shown(driver))
    finally:
        await bot.stop()
        slow.stop()


async def test_a_redis_that_is_down_is_said_in_the_members_language(server: DiscordAPIServer, prefix: str,
                                                                     tmp_path: Path) -> None:
    down = RedisServer(tmp_path / "down").start()
    server.guild()
    bot = await BotProcess(server, down.url, prefix).start()
    try:
        guild = next(iter(server.guilds.values()))
        ann, bea = server.member("Ann"), server.member("Bea", locale="es-ES")
        driver = TableDriver(server, bot, guild.channels[0], [ann, bea])
        await driver.slash(ann, "new")
        status = driver.status_message()
        assert status is not None
        down.stop()
        press = await server.component(bea, status, next(cid for _, cid in status.custom_ids()
                                                          if action_of(cid) == "j"))
        await server.answer(press, timeout=4.0)
        assert press.answer_seconds is not None and press.answer_seconds < 3.0, press.answer_seconds
        await bot.idle()
        texts = [press.message.content if press.message is not None else ""] + [m.content for m in press.followups]
        assert "⚠️ " + error_text("store_unavailable", "es") in texts, texts
        slash = await server.slash(bea, guild.channels[0], "uno", "new")
        await server.answer(slash, timeout=4.0)
        assert slash.answer_seconds is not None and slash.answer_seconds < 3.0, slash.answer_seconds
        await bot.idle()
        texts = [slash.message.content if slash.message is not None else ""] + [m.content for m in slash.followups]
        assert "⚠️ " + error_text("store_unavailable", "es") in texts, texts
    finally:
        await bot.stop()
        down.stop()
