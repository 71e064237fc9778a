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
    """Press Tab until the card `code` of the hand has the focus."""
    for _ in range(60):
        await player.page.keyboard.press("Tab")
        if await player.page.evaluate(FOCUSED) == code:
            return
    raise AssertionError(f"{player.name}: Tab never reached {code}")


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
    # Bea draws with `d`: both pages are drawn again, each focus stays where it was.
    s = await bea.state()
    assert s is not None
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
