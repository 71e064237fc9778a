"""A channel's game whose rule plugin is uninstalled while it runs, after
the bot restarts without it: a member's move is refused naming the missing
rule and `/uno stop` (in their hand), and the creator's `/uno stop` puts the game away, its
status closed (before, drawing the stopped game's status asked for the
missing rules, and the stop's answer was lost in a traceback)."""

from __future__ import annotations

import logging

import pytest

from tests.chat.test_missing_plugin import GoneCards
from tests.discord.driver import BotProcess, TableDriver
from tests.discord_api import DiscordAPIServer
from tests.rulekit import extra_rule
from tests.support.redis_server import RedisServer
from unobot.chat import commands as c
from unobot.variants import clear_caches


async def test_a_game_whose_plugin_is_gone_is_explained_and_stopped(
        server: DiscordAPIServer, bot: BotProcess, redis_server: RedisServer, prefix: str,
        caplog: pytest.LogCaptureFixture) -> None:
    guild = next(iter(server.guilds.values()))
    ann, bruno = server.member("Ann"), server.member("Bruno")
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno])
    try:
        with extra_rule(GoneCards):
            admin = c.Person("setup", "Setup", None, True)
            assert (await driver.service.handle(driver.chat, admin, c.SetRule(rule=GoneCards.name,
                                                                              enabled=True))).ok
            await driver.slash(ann, "new")
            await driver.press_status(bruno, "j")
            await driver.press_status(ann, "g")
            table = await driver.table()
            assert table is not None and table.game is not None
            assert any(card.rank == "ZQ" for card in table.game.all_cards())
            status = driver.status_message()
            assert status is not None
            await bot.stop()
        clear_caches()
        again = await BotProcess(server, redis_server.url, prefix).start()  # restarted without the plugin
        driver.bot = again
        caplog.set_level(logging.ERROR)
        sent = await driver.slash(bruno, "hand")  # his cards, with nothing to press and why
        assert sent.message is not None and sent.message.ephemeral
        said = sent.message.content
        assert "“test-gone-cards” is not installed" in said and "/uno stop" in said, said
        assert not [cid for _, cid in sent.message.custom_ids() if cid.startswith("u|p")], sent.message.custom_ids()

        await driver.slash(ann, "stop")
        assert await driver.table() is None
        shown = next(m for m in server.channel_messages(driver.channel) if m.id == status.id)
        assert "stopped" in shown.content.lower() and "Ann" in shown.content, shown.content
        assert not [cid for _, cid in shown.custom_ids() if cid.startswith("u|")], "a stopped game offers nothing"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
            [r.getMessage() for r in caplog.records][-3:]
        await again.stop()
    finally:
        clear_caches()
