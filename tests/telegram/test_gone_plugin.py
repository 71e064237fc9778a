"""A group's game whose rule plugin is uninstalled while it runs, after the
bot restarts without it: a player's "My cards" and a move say why nothing
can be played and what an admin can do, and the admin's /stop puts the
game away with its status closed (before, the move was refused as it
should be, but drawing the stopped game's status asked for the missing
rules and the /stop's answer was lost in a traceback)."""

from __future__ import annotations

import logging

import pytest

from tests.botapi import BotAPIServer
from tests.chat.test_missing_plugin import GoneCards
from tests.rulekit import extra_rule
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess, TableDriver, plain
from unobot.adapters.telegram import keyboards
from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.variants import clear_caches

ADMIN = Person("setup", "Setup", None, True)


async def test_a_game_whose_plugin_is_gone_is_explained_and_stopped(
        server: BotAPIServer, bot: BotProcess, redis_server: RedisServer, prefix: str,
        caplog: pytest.LogCaptureFixture) -> None:
    group = server.group(title="Game night")
    ana = server.user(301, "Ana", "ana")
    bea = server.user(302, "Bea", "bea")
    server.set_status(group, ana, "creator")
    driver = TableDriver(server, bot, group, [ana, bea], seed=5)
    assert bot.service is not None
    with extra_rule(GoneCards):
        assert (await bot.service.handle(driver.chat, ADMIN, c.SetRule(rule=GoneCards.name, enabled=True))).ok
        await driver.command(ana, "/new")
        await driver.command(bea, "/join")
        await driver.press(ana, keyboards.START)
        table = await driver.table()
        assert table is not None and table.game is not None
        assert any(card.rank == "ZQ" for card in table.game.all_cards())
        await bot.stop()
    clear_caches()
    try:
        again = await BotProcess(server, redis_server.url, prefix).start()  # restarted without the plugin
        driver.use(again)
        caplog.set_level(logging.ERROR)
        # The start-up brings each game's status up to date: this one says what is missing.
        restarted = driver.status_message()
        assert restarted is not None and "“test-gone-cards” is not installed" in plain(restarted.get("text", "")), \
            restarted
        # "My cards": not a hand to play from, but why nothing can be played.
        results = await driver.hand(bea)
        assert len(results) == 1 and "“test-gone-cards” is not installed" in results[0]["title"], results
        await driver.command(bea, "/draw")
        said = plain(driver.bot_messages()[-1].get("text", ""))
        assert "“test-gone-cards” is not installed" in said and "/stop" in said, said
        before = await driver.table()
        assert before is not None and before.game is not None
        status = driver.status_message()
        assert status is not None

        await driver.command(ana, "/stop")
        await again.idle()
        assert await driver.table() is None or (await driver.table()).phase == "finished"  # type: ignore[union-attr]
        status = next(m for m in driver.bot_messages() if m["message_id"] == status["message_id"])
        shown = plain(status.get("text", ""))
        assert "Ana" in shown and "stopped" in shown.lower(), shown
        assert server.buttons(group, status["message_id"]) == [], "a stopped game's status offers nothing"
        texts = " ".join(plain(m.get("text", "")) for m in driver.bot_messages())
        assert "Something went wrong" not in texts, texts[-800:]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], \
            [r.getMessage() for r in caplog.records][-3:]
        await again.stop()
    finally:
        clear_caches()
