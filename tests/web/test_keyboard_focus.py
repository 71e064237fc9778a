"""Played by keyboard: the page is drawn anew for every state, and the card
or button that had the focus keeps it (the same card, else the one now in
its place), so a keyboard player is not sent back to the top of the page
by every move, their own or anyone's."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_round_end import laid_out, two_seated

FOCUSED = "document.activeElement ? document.activeElement.getAttribute('data-code') : null"


async def tab_to(player: WebPlayer, code: str) -> None:
    """Press Tab until the hand has the focus (one stop), then the arrow key until the card
    `code` has it."""
    for _ in range(30):
        await player.page.keyboard.press("Tab")
        if await player.page.evaluate(IN_HAND):
            break
    for _ in range(30):
        if await player.page.evaluate(FOCUSED) == code:
            return
        await player.page.keyboard.press("ArrowRight")
    raise AssertionError(f"{player.name}: the keyboard never reached {code}")


IN_HAND = "!!document.activeElement && document.activeElement.parentNode.id === 'hand'"


async def test_the_focus_stays_on_its_card_through_every_redraw(web: WebServer, browser: Any) -> None:
    made, ana, bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R2 G3 B4", "Y5 Y6 Y7"), "R1")
    for p in (ana, bea):
        await p.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    await tab_to(ana, "R2")
    await tab_to(bea, "Y6")
    # Ana plays R2 with Enter: that card is gone, the card now in its place (G3) has the
    # focus; Bea's page is drawn again too, her focus stays on Y6.
    await ana.page.keyboard.press("Enter")
    for p in (ana, bea):
        await p.wait_for(lambda s, v=version: s is not None and s["version"] > v and s["turn"] == 1)
    assert await ana.page.evaluate(FOCUSED) == "G3"
    assert await bea.page.evaluate(FOCUSED) == "Y6"
    # Bea draws with `d` (the button says so to assistive technology): both pages are drawn
    # again, each focus stays where it was.
    s = await bea.state()
    assert s is not None
    assert await bea.page.get_attribute('#actions button[data-kind="draw"]', "aria-keyshortcuts") == "d"
    await bea.page.keyboard.press("d")
    for p in (ana, bea):
        await p.wait_for(lambda x, v=s["version"]: x is not None and x["version"] > v)
    assert await ana.page.evaluate(FOCUSED) == "G3"
    assert await bea.page.evaluate(FOCUSED) == "Y6"
    assert not [r for r in ana.refusals + bea.refusals if r.startswith("console")]


async def test_a_screen_reader_hears_each_card_as_a_button_of_the_hand(web: WebServer, browser: Any) -> None:
    """The cards were `listitem`s to assistive technology (a role on the button itself), so a
    screen reader never said they can be pressed: now each is a button named by its card and
    whether it plays, in a group named "Your hand" (in the reader's language)."""
    made, ana, bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R2 G3", "Y5 Y6"), "R1")
    await bea.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    hand = bea.page.get_by_role("group", name="Tu mano")
    assert await hand.get_by_role("button").count() == 2
    assert await hand.get_by_role("button", name="Y5 · 5 amarillo · no se puede jugar ahora").count() == 1
    assert await hand.get_by_role("listitem").count() == 0
    await ana.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    playable = ana.page.get_by_role("group", name="Your hand").get_by_role("button", name="R2 · Red 2 · playable")
    await playable.press("Enter")
    await ana.wait_for(lambda s, v=version: s is not None and s["version"] > v)


async def test_the_hand_is_one_tab_stop_and_the_arrow_keys_go_through_it(web: WebServer, browser: Any) -> None:
    """A no-mercy hand of thirty cards was thirty presses of Tab between the moves above it
    and the records below it, and the arrow keys did nothing. Now Tab enters the hand at its
    first playable card and leaves it at the next press; the arrows go from card to card
    (mirrored right to left), Home and End to either end; Enter plays the card reached."""
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("G3 R2 B4 Y5 R7", "Y6 Y7"), "R1")
    page = ana.page
    await ana.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    order = await page.eval_on_selector_all("#hand button", "els => els.map(e => e.getAttribute('data-code'))")
    assert sorted(order) == ["B4", "G3", "R2", "R7", "Y5"] and sorted(order[:2]) == ["R2", "R7"], order
    for _ in range(30):  # Tab: the first playable card is where it comes into the hand
        await page.keyboard.press("Tab")
        if await page.evaluate(IN_HAND):
            break
    assert await page.evaluate(FOCUSED) == order[0]
    assert await page.evaluate("document.querySelectorAll('#hand [tabindex=\"0\"]').length") == 1
    for key, at in (("ArrowRight", 1), ("ArrowDown", 2), ("ArrowLeft", 1), ("End", 4), ("ArrowRight", 4),
                    ("Home", 0), ("ArrowUp", 0), ("ArrowRight", 1)):
        await page.keyboard.press(key)
        assert await page.evaluate(FOCUSED) == order[at], (key, at, order)
    await page.keyboard.press("Tab")
    assert not await page.evaluate(IN_HAND), "one Tab leaves the hand"
    await page.keyboard.press("Shift+Tab")
    assert await page.evaluate(FOCUSED) == order[1], "Tab comes back to the card left"
    await page.keyboard.press("Enter")  # the second card is playable too (both red ones come first)
    s = await ana.wait_for(lambda s, v=version: s is not None and s["version"] > v)
    assert s["top"]["code"] == order[1]
    await page.evaluate("document.documentElement.dir = 'rtl'")  # right to left: the arrows mirrored
    order = await page.eval_on_selector_all("#hand button", "els => els.map(e => e.getAttribute('data-code'))")
    await page.focus(f'#hand [data-code="{order[0]}"]')
    await page.keyboard.press("ArrowLeft")
    assert await page.evaluate(FOCUSED) == order[1]


async def test_a_screen_reader_hears_the_new_moves_and_its_turn_once(web: WebServer, browser: Any) -> None:
    """"Last moves" was a live region drawn anew at every state: a screen reader read its
    eight lines again (or nothing), and nothing said the turn had come. Now the live log
    says only the moves made since the table drawn before, then "Your turn" (in the
    reader's language) once when the turn comes; the tab's title says it too."""
    made, ana, bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R2 G3 B4", "Y5 Y6 R7"), "R1")
    for p in (ana, bea):
        await p.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    await bea.page.evaluate("window.__said = []")
    await ana.page.click('#hand button[data-code="R2"]')
    s = await bea.wait_for(lambda s, v=version: s is not None and s["version"] > v and s["turn"] == 1)
    await bea.page.wait_for_function("window.__said.length >= 2")
    said = await bea.page.evaluate("window.__said")
    assert said == [s["recent"][-1], "Tu turno"], said
    assert s["recent"][-1] in await bea.page.eval_on_selector_all("#said p", "els => els.map(e => e.textContent)")
    assert (await bea.page.title()).startswith("▶ Tu turno · ")
    assert await bea.page.get_attribute("#recent", "aria-live") is None
    # The seat on turn is the current one to assistive technology (its ▶ is not read out).
    current = bea.page.locator('#seats li[aria-current="true"]')
    assert await current.count() == 1 and "Bea" in (await current.text_content() or "")
    assert await bea.page.locator('#seats [aria-hidden="true"]', has_text="▶").count() == 1
    # Bea draws: the move is said, and "Your turn" is not said again while it stays hers.
    before = s["version"]
    await bea.page.keyboard.press("d")
    s = await bea.wait_for(lambda s, v=before: s is not None and s["version"] > v)
    await bea.page.wait_for_timeout(200)
    said = await bea.page.evaluate("window.__said")
    assert said.count("Tu turno") == 1 and len(said) > 2 and all(line in s["recent"] for line in said[2:]), said
