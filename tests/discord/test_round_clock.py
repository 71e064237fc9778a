"""A round with a clock (blitz) says how long it has left in the channel's
status message (core's line, "⏱ Round ends in 4 minutes"), as Telegram's
does: refreshed whenever the status is edited anyway, never edited for the
clock alone."""

from __future__ import annotations

import asyncio

from tests.discord.driver import ADMIN, BotProcess, TableDriver
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer
from unobot.chat import commands as c


async def test_the_status_says_how_long_the_round_has_left(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring="target=100")
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="blitz", option="minutes", value=4))
    assert out.ok, out.error
    await lobby_and_start(driver)
    table = await driver.table()
    assert table is not None and table.phase == "playing"
    line = "⏱ Round ends in 4 minutes"
    for _ in range(100):  # the status edit is paced
        status = driver.status_message()
        if status is not None and line in status.content:
            break
        await asyncio.sleep(0.05)
    status = driver.status_message()
    assert status is not None and line in status.content, status.content if status else None
