"""A player's private lines ("You drew: ...") follow the page's language, the
one its reader reads now, not the language the seat joined with.

Ana made and started her table in English (her seat's language); she opens
her seat's link in a French browser: the page is French, and so must be what
only she is told when Bea's Draw Two makes her draw (it was said in English,
the seat's: `Outcome.private`, where core's `private_for` says it in any).
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import guest, new_table
from unobot.chat.i18n import gettext_for


async def lay_for_bea(web: WebServer, chat: str) -> int:
    """Bea on turn with a Red Draw Two over a red card; Ana's hand has nothing of note."""
    from tests.conformance.situations import Situation, kind, lay
    from unobot.chat.table import Table

    assert web.store is not None and web.table is not None
    game_id = await web.store.chat_game(chat)
    assert game_id is not None
    stored = await web.store.load_game(game_id)
    assert stored is not None
    table = Table.decode(stored.state, stored.version)
    lay(table, Situation("laid", ("R5 R6", "R+2 G1 G2"), "R1", kind("play"), turn=1))
    table.version += 1
    await web.store.save_game(game_id, table.encode(), expected_version=stored.version)
    async with web.table.lock(chat):
        await web.table._look(chat)
    return table.version


async def test_you_drew_is_said_in_the_pages_language(web: WebServer, browser: Any) -> None:
    """Ana's seat knows English (she made the table and started it in English); she opens it
    again in a French browser, and Bea's Draw Two makes her draw: her line is French."""
    made = await new_table(web, "Ana", "official")
    ana_en = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana")
    s = await ana_en.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    bea = await guest(browser, made["link"], "Bea")
    await ana_en.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana_en.press("start")
    await ana_en.wait_for(lambda s: s is not None and s["phase"] == "playing")
    await ana_en.page.close()
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", lang="fr-FR")
    version = await lay_for_bea(web, s["chat"])
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await bea.wait_for(lambda s: s is not None and s["version"] == version)
    await bea.page.click('#hand button[data-code="R+2"]')
    french = gettext_for("fr")("You drew: {cards}.").split("{cards}")[0]
    assert french != "You drew: "
    await ana.page.wait_for_function("p => window.__toasts.some(t => t.startsWith(p))", arg=french)
    toasts = await ana.page.evaluate("window.__toasts")
    assert not [t for t in toasts if t.startswith("You drew")], toasts
