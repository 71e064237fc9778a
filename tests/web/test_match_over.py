"""When a browser table's match is over, the page offers the ways on: core's
"Play again" (the same table) and a "New table" link to the landing page;
opened again after the match, it still shows how it ended."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import guest, new_table
from tests.web.test_round_end import laid_out


async def test_after_the_match_the_page_offers_a_new_table(web: WebServer, browser: Any) -> None:
    # One round is the match (target 0); Ana's page is where the landing page's form
    # leads: the table's link, her seat kept in the browser.
    made = await new_table(web, "Ana", "official", scoring={"target": 0})
    ana = await WebPlayer.open(browser, web.url + "/", "Ana", phone=True)
    await ana.page.evaluate("([t, p]) => localStorage.setItem('unobot.seat.' + t, p)", [made["table"], made["player"]])
    await ana.page.goto(made["link"])
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert not await ana.page.is_visible("#again")
    bea = await guest(browser, made["link"], "Bea", lang="es-ES")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    version = await laid_out(web, s["chat"], ("R5", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="R5"]')
    for p in (ana, bea):
        await p.wait_for(lambda s: s is not None and s["phase"] == "finished")
        await p.page.wait_for_selector("#again-link", state="visible")
    assert await ana.page.text_content("#again-link") == "New table"
    # No hand under who won; what is left to do is core's "Play again" (tests/web/test_play_again.py).
    for p in (ana, bea):
        assert await p.page.is_hidden("#hand-title")
        assert [a["kind"] for a in (await p.state() or {})["actions"]] == ["again"]
    assert await bea.page.text_content("#again-link") == "Mesa nueva"
    # Opened again: the match as it ended, still the ways on.
    await bea.page.reload()
    await bea.wait_for(lambda s: s is not None and s["phase"] == "finished")
    await bea.page.click("#again-link")
    await bea.page.wait_for_selector("#new-form", state="visible")
    assert not [r for r in ana.refusals + bea.refusals if r.startswith("console")]
