"""A round with a clock (blitz) shows in the page how long it has left: the
server sends the seconds left (core's `round_left`) and the label, and the
page counts down "⏱ Round ends in 2:59" in a role=timer element (read when
asked, never announced every second). A table without one shows none.
The round's end itself is the server's wake, not the page's."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import new_table

SHOWN = re.compile(r"⏱ Round ends in (\d+):(\d\d)")


async def round_clock(player: WebPlayer) -> str:
    return (await player.page.text_content("#round-clock")) or ""


async def start_with_ai(ana: WebPlayer) -> dict[str, Any]:
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    await ana.press("add_ai")
    await ana.page.click("#choices button >> nth=1")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    state: dict[str, Any] = await ana.wait_for(lambda s: s is not None and s["phase"] == "playing", timeout=20)
    return state


async def test_the_round_clock_counts_down_in_the_page(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official", blitz={"minutes": 3})
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=True)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    # no round runs yet: the lobby says how long each will last (a player joining knows they are timed)
    assert await ana.page.is_visible("#round-clock")
    assert await round_clock(ana) == "⏱ Each round lasts 3 minutes"
    s = await start_with_ai(ana)
    assert s["round_left"] is not None and 170 < s["round_left"] <= 180
    assert s["round_text"] == "⏱ Round ends in 3 minutes"
    assert await ana.page.is_visible("#round-clock")
    assert await ana.page.get_attribute("#round-clock", "role") == "timer"
    first = SHOWN.fullmatch(await round_clock(ana))
    assert first, await round_clock(ana)
    await asyncio.sleep(2.2)
    later = SHOWN.fullmatch(await round_clock(ana))
    assert later, await round_clock(ana)
    seconds = [int(m.group(1)) * 60 + int(m.group(2)) for m in (first, later)]
    assert seconds[1] < seconds[0] <= 180, "the clock counts down"
    assert not [r for r in ana.refusals if r.startswith("console")]


async def test_a_round_without_a_clock_shows_none(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official")
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana")
    lobby = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert lobby["round_length"] == "" and not await ana.page.is_visible("#round-clock")
    s = await start_with_ai(ana)
    assert s["round_left"] is None and s["round_text"] == ""
    assert not await ana.page.is_visible("#round-clock")
