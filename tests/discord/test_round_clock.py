"""A round with a clock (blitz) says when it ends in the channel's status message as
Discord's live relative timestamp (`<t:UNIX:R>`: each member's app writes "in 4
minutes" in their own language and counts it down), not core's static words
("⏱ Round ends in 4 minutes"), which went stale between two edits of the status."""

from __future__ import annotations

import asyncio
import re
import time

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
    line = re.compile(r"⏱ Round ends: <t:(\d+):R>")
    for _ in range(100):  # the status edit is paced
        status = driver.status_message()
        if status is not None and line.search(status.content):
            break
        await asyncio.sleep(0.05)
    status = driver.status_message()
    assert status is not None, "no status"
    found = line.search(status.content)
    assert found is not None, status.content
    assert "Round ends in" not in status.content  # core's static words are for front-ends with no live time
    # the round's end on the wall clock: 4 minutes after it was dealt
    assert abs(int(found.group(1)) - (time.time() + 240)) <= 5, (found.group(1), time.time())


async def test_the_lobby_says_rounds_are_timed(server: DiscordAPIServer, bot: BotProcess) -> None:
    """A lobby under blitz says each round's length before the deal, in the channel's
    language with its plural form (a member joining is told rounds are timed)."""
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    for command in (c.SetRule(rule="blitz", option="minutes", value=1), c.SetLanguage(lang="pl")):
        out = await driver.service.handle(driver.chat, ADMIN, command)
        assert out.ok, out.error
    ann = driver.members[0]
    sent = await driver.slash(ann, "new")
    assert sent.message is not None and "⏱ Każda runda trwa 1 minutę" in sent.message.content, sent.message.content
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="blitz", option="minutes", value=5))
    assert out.ok, out.error
    await driver.press_status(driver.members[1], "j")
    status = driver.status_message()
    assert status is not None and "⏱ Każda runda trwa 5 minut" in status.content, status.content
