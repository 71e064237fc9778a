"""A big hand on a phone: no-mercy deals and piles up thirty cards and more. At a
360-pixel phone's width the hand of 34 kinds of card took three screens of scrolling
(three cards a row); now it is drawn smaller, in as many columns as fit: never wider
than the screen, about one screen tall, every card still a button named by its card."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import ARTIFACTS, WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import new_table
from tests.web.test_round_end import laid_out

PHONE = {"width": 360, "height": 640}
HAND = " ".join([f"{c}{n}" for c in "RGB" for n in range(10)] + ["Y1", "Y2", "W", "W+4"])


async def test_a_hand_of_thirty_four_kinds_fits_a_small_phone(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official")
    context = await browser.new_context(locale="en-US", viewport=PHONE)
    page = await context.new_page()
    await page.goto(f"{web.url}/?p={made['player']}")
    ana = WebPlayer(page, "Ana")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    await ana.press("add_ai")
    await page.click("#choices button >> nth=1")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    await laid_out(web, made["chat"], (HAND, "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and len(s["hand"]) == 34)
    await page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    width, client, height = await page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth, "
        "document.getElementById('hand').getBoundingClientRect().height]")
    assert width == client == 360, "nothing wider than the phone"
    assert height < 1.3 * PHONE["height"], f"the hand is {height} px tall"
    rows = await page.eval_on_selector_all("#hand button", "els => new Set(els.map(e => e.offsetTop)).size")
    assert rows <= 7, rows
    hand = page.get_by_role("group", name="Your hand")
    assert await hand.get_by_role("button").count() == 34
    assert await hand.get_by_role("button", name="W+4 · Wild Draw Four · playable").count() == 1
    await page.screenshot(path=str(ARTIFACTS / "web-table-big-hand.png"), full_page=True)
    await page.click('#hand button[data-code="R7"]')  # a small card plays as a big one
    s = await ana.wait_for(lambda s: s is not None and sum(h["count"] for h in s["hand"]) == 33)
    assert "R7" not in [h["code"] for h in s["hand"]]
    await context.close()


async def test_on_a_wide_screen_the_hand_is_beside_the_table(web: WebServer, browser: Any) -> None:
    """At a desktop's 1280x800 the hand came under the table, its cards below the fold: a
    player scrolled down to play and up to see the top card at every turn. Now the hand is
    beside the table, all of it in view with the top card and the moves."""
    made = await new_table(web, "Ana", "official")
    context = await browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    await page.goto(f"{web.url}/?p={made['player']}")
    ana = WebPlayer(page, "Ana")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    await ana.press("add_ai")
    await page.click("#choices button >> nth=1")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    await laid_out(web, made["chat"], ("R2 G3 B4 Y5 R7 W W+4", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and len(s["hand"]) == 7)
    await page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    box = await page.evaluate("""() => { const r = s => document.querySelector(s).getBoundingClientRect();
        return {board: r('#board'), hand: r('#hand'), actions: r('#actions'), recent: r('#recent')}; }""")
    assert box["hand"]["left"] >= box["board"]["right"], "the hand is beside the table"
    for part in ("hand", "actions", "recent", "board"):
        assert box[part]["top"] >= 0 and box[part]["bottom"] <= 800, (part, box[part])
    assert await page.evaluate("document.documentElement.scrollWidth") == 1280
    await page.screenshot(path=str(ARTIFACTS / "web-table-desktop.png"))
    await context.close()
