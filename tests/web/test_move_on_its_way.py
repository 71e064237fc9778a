"""A move on its way: sent, not answered yet. With a slow store (Redis holding writes
for a while) a tap showed nothing until the table came back, so a player tapped again
and was told "That choice is no longer on offer". Now the card or button tapped is
marked as on its way (`aria-busy`, an outline that pulses after a moment) and further
taps wait; nothing says the move was made before the table that shows it arrives."""

from __future__ import annotations

from typing import Any

import redis

from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_round_end import laid_out, two_seated


async def test_a_tap_on_a_slow_store_is_marked_on_its_way_and_a_second_tap_waits(
        web: WebServer, redis_server: RedisServer, browser: Any) -> None:
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R2 R3 G3", "Y5 Y6"), "R1")
    page = ana.page
    await ana.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    taps = await page.evaluate("window.__timing.taps.length")  # the lobby's Start was one
    with redis.Redis(host="127.0.0.1", port=redis_server.port, socket_timeout=5) as client:
        client.client_pause(1500, all=False)  # writes wait 1.5 s: the move's save with them
    await page.click('#hand button[data-code="R2"]')
    await page.wait_for_selector('#hand button[data-code="R2"].sending[aria-busy="true"]', timeout=1000)
    assert await page.evaluate("document.getElementById('table').classList.contains('sending')")
    assert (await ana.state() or {})["version"] == version, "not drawn as made before it is stored"
    await page.click('#hand button[data-code="R3"]', force=True)  # tapped again, seeing nothing happen
    assert await page.evaluate("window.__timing.taps.length") == taps + 1, "the second tap is no second move"
    s = await ana.wait_for(lambda s, v=version: s is not None and s["version"] > v, timeout=10)
    assert s["top"]["code"] == "R2" and "R3" in [h["code"] for h in s["hand"]]
    assert await page.locator(".sending").count() == 0
    assert not [r for r in ana.refusals if r.startswith("console")]


async def test_a_move_never_answered_redials_and_asks_for_the_table_again(web: WebServer, browser: Any) -> None:
    """A phone's network gone without a word: the socket looks open, a move sent on it is
    never answered. The page waited for ever with the move marked; now, unanswered for ten
    seconds, the socket is taken for dead, closed and dialled again, and the table drawn
    anew (here the move was lost on the way: the table is as it was, and a tap plays)."""
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R2 R3 G3", "Y5 Y6"), "R1")
    context = await browser.new_context(locale="en-US", viewport={"width": 360, "height": 640})
    page = await context.new_page()
    await page.clock.install()
    lost = {"acts": True}
    dials: list[int] = []

    async def route(ws: Any) -> None:
        server = ws.connect_to_server()
        dials.append(1)

        def from_page(message: str | bytes) -> None:
            if lost["acts"] and '"type":"act"' in str(message).replace(" ", ""):
                return  # lost on the way
            server.send(message)

        ws.on_message(from_page)

    await page.route_web_socket("**/ws", route)
    await page.goto(ana.page.url)
    again = WebPlayer(page, "Ana")
    await again.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    drawn = await again.drawn()
    await page.click('#hand button[data-code="R2"]')
    await page.wait_for_selector('#hand button[data-code="R2"].sending')
    await page.clock.fast_forward("00:11")
    await again.wait_for(lambda s: s is not None, timeout=5)
    await page.wait_for_function(f"window.__states.length > {drawn}")  # drawn anew after the new dial
    assert len(dials) == 2 and await page.locator(".sending").count() == 0
    assert (await web.service.table(made["chat"])).version == version  # type: ignore[union-attr]
    lost["acts"] = False
    await page.click('#hand button[data-code="R2"]')
    s = await again.wait_for(lambda s, v=version: s is not None and s["version"] > v)
    assert "R2" not in [h["code"] for h in s["hand"]]
    await context.close()
