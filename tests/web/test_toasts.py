"""Many private lines at once ("You drew ...", one per move of a quick AI) on a
phone-sized page: the toasts stay few and small (the same text counts up, at most
three stay up), while the page's live log still says every line to a screen reader.

Why: each line was a toast of its own, stacked upwards from the bottom; a run of
draws covered a phone's hand and table for four seconds.
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import PHONE, WebPlayer
from tests.web.test_browser import new_table
from tests.web.test_round_end import laid_out


async def test_a_run_of_draws_shows_few_toasts_and_says_every_line(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official", scoring={"target": 0})
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=True)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    await ana.press("add_ai")
    await ana.page.click('#choices button[data-id="anormal"]')
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    # The AI seat holds nothing but Draw Twos: once Ana plays, it plays them all, one
    # after another, and each makes Ana draw two (a private line each time).
    version = await laid_out(web, s["chat"], ("R1 G1 B1 Y1", "R+2 G+2 B+2 Y+2 R+2 G+2 B+2 Y+2"), "R5")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="R1"]')
    most = 0
    for _ in range(200):
        shown = await ana.page.eval_on_selector_all("#toasts .toast", "els => els.length")
        most = max(most, shown)
        state = await ana.state()
        if state is not None and state["phase"] in ("finished", "between_rounds"):
            break
        await ana.page.wait_for_timeout(25)
    said = await ana.page.evaluate("window.__toasts")
    drew = [line for line in said if "drew" in line]
    assert len(drew) >= 6, said
    assert most <= 3, most  # never a stack of them over the page
    # Every line is in the live log a screen reader hears; the toasts themselves are hidden from it.
    log = await ana.page.eval_on_selector_all("#said p", "els => els.map(e => e.textContent)")
    assert [line for line in log if "drew" in line] == drew[-20:]
    assert await ana.page.get_attribute("#said", "aria-live") == "polite"
    assert await ana.page.get_attribute("#toasts", "aria-hidden") == "true"
    box = await ana.page.eval_on_selector("#toasts", "e => e.getBoundingClientRect().height")
    assert box <= PHONE["height"] * 0.45, box
