"""A browser table whose rule plugin is uninstalled while its game runs,
after the server restarts without it: the page says why nothing can be
played and what an admin can do (core's line, as every front-end says it),
offers no move, and the creator's Stop still puts the game away (before,
the page's state asked for the missing rules and never came)."""

from __future__ import annotations

from typing import Any

from tests.chat.test_missing_plugin import GoneCards
from tests.rulekit import extra_rule
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_settings import new_table, seated
from unobot.chat import commands as c
from unobot.chat.table import PLAYING
from unobot.variants import clear_caches


async def test_a_game_whose_plugin_is_gone_says_why_and_is_stopped(web: WebServer, browser: Any) -> None:
    try:
        with extra_rule(GoneCards):
            made = await new_table(web)
            chat = made["chat"]
            admin = c.Person("setup", "Setup", None, True)
            assert (await web.service.handle(chat, admin, c.SetRule(rule=GoneCards.name, enabled=True))).ok
            ann = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ann")
            await ann.wait_for(lambda s: s is not None and s["phase"] == "lobby")
            ben, _token = await seated(browser, web, made, "Ben")
            await ann.press("start")
            await ann.wait_for(lambda s: s is not None and s["phase"] == PLAYING, timeout=30)
            table = await web.service.table(chat)
            assert table is not None and table.game is not None
            assert any(card.rank == "ZQ" for card in table.game.all_cards())
            await web.stop()
        clear_caches()
        await web.start()  # a new process without the plugin
        await ann.page.reload()
        state = await ann.wait_for(lambda s: s is not None and s["phase"] == PLAYING, timeout=30)
        assert "“test-gone-cards” is not installed" in state["headline"], state["headline"]
        assert state["actions"] == [] and not any(h.get("action") for h in state["hand"]), state["hand"][:3]
        assert "is not installed" in (await ann.page.text_content("#headline") or "")
        assert state["stop"] is not None
        await ann.page.click("#stop")
        await ann.page.click("#stop-yes")
        await ann.wait_for(lambda s: s is not None and s["phase"] in ("finished", "none"), timeout=30)
        assert await web.service.table(chat) is None
        await ben.page.close()
    finally:
        clear_caches()
