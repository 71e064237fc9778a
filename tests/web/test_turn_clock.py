"""A table with a turn timer shows its clock: the chats' status says "⏱ 15
seconds per turn", and the page says it too, with the seconds the player on
turn has left (core's `turn_left`) counting down. A table without a timer
shows no clock. The skip itself is the server's wake, not the page's."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import new_table


async def clock_text(player: WebPlayer) -> str:
    return (await player.page.text_content("#clock")) or ""


async def test_the_turn_clock_counts_down_the_seconds_left(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "fast")  # 15 seconds a turn
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=True)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert await ana.page.is_visible("#clock")
    assert await clock_text(ana) == "⏱ 15 seconds per turn"
    await ana.press("add_ai")
    await ana.page.click("#choices button >> nth=1")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "playing" and s["turn"] == s["seat"], timeout=20)
    assert s["turn_left"] is not None and 0 < s["turn_left"] <= 15
    shown = re.fullmatch(r"⏱ (\d+) · 15 seconds per turn", await clock_text(ana))
    assert shown, await clock_text(ana)
    await asyncio.sleep(2.2)
    later = re.fullmatch(r"⏱ (\d+) · 15 seconds per turn", await clock_text(ana))
    assert later and int(later.group(1)) < int(shown.group(1)), "the clock counts down"
    assert not [r for r in ana.refusals if r.startswith("console")]


async def test_a_table_without_a_timer_shows_no_clock(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official")
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert s["timer_text"] == "" and s["turn_left"] is None
    assert not await ana.page.is_visible("#clock")
