"""A save another process made that the store has not confirmed is not drawn
here as made (issue 28: a move a player saw accepted is never lost).

With ``redis.wait_replicas: 1`` a save counts once a replica has it. During a
replica stall another process's save (a web table's, another bot's) is on the
primary, unconfirmed: its writer says "not confirmed yet" on its own page, and
a failover may still drop it. The Telegram process follows the store's change
feed and used to edit its status message at once, showing the change as made.
It now waits until the store confirms what it holds (core's
`waker.confirmed_as_stored`, the barrier the web table uses too) and then
draws it. Real Redis: a primary and a replica, the replica stopped (SIGSTOP).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.service import ChatService

WAITS = {"wait_replicas": 1, "wait_timeout": 1.0, "socket_timeout": 2.0}


def _status_texts(server: BotAPIServer, after: int) -> list[str]:
    return [str(call.params.get("text", "")) for call in server.calls[after:]
            if call.method in ("editMessageText", "sendMessage")]


async def test_another_process_save_is_drawn_only_once_confirmed(server: BotAPIServer, prefix: str,
                                                                 tmp_path: Path) -> None:
    from tests.store.test_durability import _client, _replicate, frozen

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    with _client(primary) as client:
        client.config_set("repl-diskless-sync-delay", 0)
    _replicate(replica, primary)
    bot = BotProcess(server, primary.url, prefix, store_options=WAITS)
    other = ChatService(RedisStore.from_url(primary.url, prefix=prefix, **WAITS))  # a web table's process
    await bot.start()
    try:
        group = server.group(title="Stall")
        chat = str(group["id"])
        ann = server.user(1, "Ann")
        await bot.settle(server.send_command(group, ann, "/new"))
        mark = server.mark()
        with frozen(replica):
            out = await other.handle(chat, c.Person("2", "Bea"), c.Join())
            assert out.code == "store_unconfirmed", out  # the writer's own page says "not confirmed yet"
            await asyncio.sleep(2.5)  # the change has reached the bot's feed by now
            assert not any("Bea" in t for t in _status_texts(server, mark)), _status_texts(server, mark)
        # Confirmed once the replica runs again: drawn as made.
        for _ in range(100):
            if any("Bea" in t for t in _status_texts(server, mark)):
                break
            await asyncio.sleep(0.1)
        assert any("Bea" in t for t in _status_texts(server, mark)), _status_texts(server, mark)
    finally:
        await bot.stop()
        await other.store.close()
        primary.stop()
        replica.stop()
