"""The page in Arabic is laid out right to left: `dir="rtl"` on the page,
the seats and the hand starting at the right, the texts in Arabic, nothing
wider than a phone; a screenshot is kept (tests/artifacts/web-table-ar.png).
The same table in English stays left to right."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import ARTIFACTS, WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import new_table
from unobot.chat.i18n import gettext_for


async def seated(web: WebServer, browser: Any, lang: str, locale: str) -> WebPlayer:
    made = await new_table(web, "Ana", "official")
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", lang=locale, phone=True)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    for seats in (2, 3):  # each AI seat shown before the next is asked for (a press carries the version)
        await ana.press("add_ai")
        await ana.page.click("#choices button >> nth=1")
        await ana.wait_for(lambda s, n=seats: s is not None and len(s["seats"]) == n)
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing" and len(s["hand"]) >= 2)
    await ana.page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    return ana


async def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = await page.eval_on_selector_all(
        selector, "els => els.map(e => { const r = e.getBoundingClientRect(); "
                  "return {left: r.left, right: r.right, top: r.top}; })")
    return found


def from_right(found: list[dict[str, float]]) -> list[list[dict[str, float]]]:
    """The rows of a wrapped flex line (items in document order), each checked to
    go right to left."""
    rows: list[list[dict[str, float]]] = []
    for item in found:
        if rows and abs(rows[-1][-1]["top"] - item["top"]) < 10:  # a playable card stands 4 px higher
            assert item["right"] <= rows[-1][-1]["left"] + 1, f"not right to left: {rows[-1][-1]} then {item}"
            rows[-1].append(item)
        else:
            rows.append([item])
    return rows


async def test_the_page_in_arabic_is_right_to_left(web: WebServer, browser: Any) -> None:
    ana = await seated(web, browser, "ar", "ar-EG")
    page = ana.page
    assert await page.evaluate("document.documentElement.dir") == "rtl"
    assert await page.evaluate("document.documentElement.lang") == "ar"
    for selector in ("#seats", "#hand", "#actions", "#facts"):
        assert await page.evaluate(f"getComputedStyle(document.querySelector('{selector}')).direction") == "rtl"
    # The words are the Arabic catalogue's.
    assert await page.text_content("#hand-title") == gettext_for("ar")("Your hand")
    # Laid out from the right: on each row of seats (in play order) and of cards, each
    # comes left of the one before it, and the row starts at the container's right edge.
    for items, box in (("#seats .seat", "#seats"), ("#hand .card", "#hand")):
        found = await boxes(page, items)
        edge = (await boxes(page, box))[0]["right"]
        assert len(found) >= 3, items
        rows = from_right(found)
        assert all(row[0]["right"] > edge - 12 for row in rows), f"{items}: a row does not start at the right: {edge} {rows}"
        assert any(len(row) >= 2 for row in rows), f"{items}: one item a row proves nothing"
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the table fits a phone's width (no sideways scrolling)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "web-table-ar.png"
    await page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


async def test_the_page_in_english_stays_left_to_right(web: WebServer, browser: Any) -> None:
    ana = await seated(web, browser, "en", "en-US")
    page = ana.page
    assert await page.evaluate("document.documentElement.dir") == "ltr"
    for items, box in (("#seats .seat", "#seats"), ("#hand .card", "#hand")):
        found = await boxes(page, items)
        edge = (await boxes(page, box))[0]["left"]
        rows = [[item for item in found if abs(item["top"] - top) < 10] for top in
                sorted({round(i["top"] / 10) * 10 for i in found})]
        rows = [row for row in rows if row]
        assert all(row[0]["left"] < edge + 12 for row in rows), f"{items}: a row does not start at the left"
        assert all(a["right"] <= b["left"] + 1 for row in rows for a, b in zip(row, row[1:]))
