"""Several bot processes, one Redis: nothing about a game lives in a process."""

from __future__ import annotations

import socket

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import Balancer, BotProcess, TableDriver
from tests.telegram.test_game import lobby_and_start, open_table, short_games


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_second_process_continues_the_game(server: BotAPIServer, redis_server: RedisServer,
                                                 prefix: str) -> None:
    first = await BotProcess(server, redis_server.url, prefix, seed=3).start()
    second = BotProcess(server, redis_server.url, prefix, seed=4)
    try:
        driver = await open_table(server, first, seed=5)
        await short_games(first, driver.chat, scoring="target=0")
        await lobby_and_start(driver)
        for _ in range(6):
            assert await driver.step()
        table = await driver.table()
        assert table is not None
        status_id = table.adapter["status"]
        moves_before = driver.stats.moves
        await first.stop()  # the first process goes away mid-game

        await second.start()
        mark = server.mark()
        driver.use(second)
        stats = await driver.play()
        assert stats.moves > moves_before
        edited = {p["message_id"] for p in server.calls_to("editMessageText")[0:] if "message_id" in p}
        assert status_id in edited
        assert any(c.method == "editMessageText" and c.params.get("message_id") == status_id
                   for c in server.calls[mark:])
        assert "wins the match" in driver.bot_messages()[-1]["text"]
    finally:
        await first.stop()
        await second.stop()


async def test_two_webhook_processes_share_one_game(server: BotAPIServer, redis_server: RedisServer,
                                                    prefix: str) -> None:
    """Every update goes to the next process in turn, as behind a load balancer."""
    bots = [BotProcess(server, redis_server.url, prefix, seed=i, webhook_port=free_port()) for i in (1, 2)]
    for bot in bots:
        await bot.start()
    try:
        base = await open_table(server, bots[0], seed=9)
        driver = TableDriver(server, Balancer(bots), base.group, base.players, seed=9)
        await short_games(bots[0], driver.chat, scoring="target=0")
        await lobby_and_start(driver)
        stats = await driver.play()
        assert stats.moves > 5
        assert "wins the match" in driver.bot_messages()[-1]["text"]
        # Both processes served moves.
        assert driver.router.next > 10  # type: ignore[union-attr]
    finally:
        for bot in bots:
            await bot.stop()
