"""The page's keys are plain letters: `d` draws, but Ctrl+D (bookmark this
page), Ctrl+P (print) and their like are the browser's and make no move
(they drew or passed for the player before)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.web.conftest import WebServer
from tests.web.test_round_end import laid_out, two_seated


async def test_a_browser_shortcut_makes_no_move_and_the_plain_key_does(web: WebServer, browser: Any) -> None:
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("G2 B3 Y4", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    for shortcut in ("Control+d", "Control+p", "Alt+d", "Meta+d"):
        await ana.page.keyboard.press(shortcut)
    await asyncio.sleep(0.5)
    table = await web.service.table(made["chat"])
    assert table is not None and table.version == version
    await ana.page.keyboard.press("d")
    s = await ana.wait_for(lambda s: s is not None and s["version"] > version)
    assert len(s["hand"]) == 4
