"""The web table in a real browser: whole games, restarts, refusals, privacy.

Headless Chromium (Debian's) through playwright; the server is the real
aiohttp app on a real redis-server. Every player acts only by clicking what
its page shows, and every payload every page got is scanned afterwards:
no card of another hand in any of them.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import pytest

from tests.web.conftest import ARTIFACTS, WebServer
from tests.web.players import WebPlayer, play_until, privacy_scan


async def new_table(web: WebServer, name: str, variant: str, **rules: Any) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.url}/api/new", json={"name": name, "variant": variant, "lang": "en", "rules": rules}) as r:
        assert r.status == 200, await r.text()
        data: dict[str, Any] = await r.json()
        return data


async def guest(browser: Any, link: str, name: str, *, lang: str = "en-US", phone: bool = True) -> WebPlayer:
    """Someone opens a table's share link, types a name, sits down and presses Join."""
    player = await WebPlayer.open(browser, link, name, lang=lang, phone=phone)
    await player.page.wait_for_selector("#name-step:not([hidden])")
    await player.sit_down()
    await player.press("join")
    return player


async def lobby_of_two(web: WebServer, browser: Any, *, guest_lang: str = "en-US",
                       **rules: Any) -> tuple[dict[str, Any], WebPlayer, WebPlayer]:
    """Ana makes an `official` table (English, on a phone) and waits in its
    lobby; Bea joins from the link in `guest_lang`."""
    made = await new_table(web, "Ana", "official", **rules)
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=True)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    return made, ana, await guest(browser, made["link"], "Bea", lang=guest_lang)


async def seat_three(web: WebServer, browser: Any, variant: str, *, phone: bool = False) -> list[WebPlayer]:
    """Ana opens a table from the landing page's form; Bea and Cy open her link,
    pick names and join; Ana starts. One round is the whole match (target 0)."""
    made = await new_table(web, "Ana", variant, scoring={"target": 0})
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=phone)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    players = [ana]
    for name in ("Bea", "Cy"):
        p = await WebPlayer.open(browser, made["link"].replace("http://127.0.0.1", "http://127.0.0.1"), name)
        await p.page.wait_for_selector("#name-step:not([hidden])")
        await p.sit_down()
        await p.press("join")
        await p.wait_for(lambda s: s is not None and s["seat"] is not None)
        players.append(p)
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 3)
    await ana.press("start")
    for p in players:
        await p.wait_for(lambda s: s is not None and s["phase"] == "playing")
    return players


@pytest.mark.parametrize("variant", ["official", "no-mercy"])
async def test_three_browser_players_play_a_whole_game(web: WebServer, browser: Any, variant: str) -> None:
    players = await seat_three(web, browser, variant)
    final = await play_until(players)
    assert final["phase"] == "finished"
    assert final["headline"], "the page says who won"
    # Every page saw the same end.
    for p in players:
        s = await p.wait_for(lambda s: s is not None and s["phase"] == "finished")
        assert s["version"] == final["version"]
    assert privacy_scan(web.sent) > 30
    assert not [r for r in sum((p.refusals for p in players), []) if "console" in r]


async def test_the_landing_page_opens_a_table_and_a_friend_joins_by_the_link(web: WebServer, browser: Any) -> None:
    ana = await WebPlayer.open(browser, web.url + "/", "Ana")
    await ana.page.wait_for_selector("#new-variant option", state="attached")
    await ana.page.fill("#new-name", "Ana")
    await ana.page.select_option("#new-variant", "official")
    await ana.page.click("#new-form button")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert s["seat"] == 0 and [p["name"] for p in s["seats"]] == ["Ana"]
    link = await ana.page.input_value("#share-link")
    assert "/?t=" in link
    bea = await WebPlayer.open(browser, link, "Bea", lang="es-ES")
    await bea.page.wait_for_selector("#name-step:not([hidden])")
    assert await bea.page.text_content("#name-step button") == "Siéntate"
    await bea.sit_down()
    await bea.press("join")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    # Ana adds an AI seat through the level picker, and starts.
    await ana.press("add_ai")
    await ana.page.click("#choices button >> nth=0")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 3 and s["seats"][2]["ai"])
    await ana.press("start")
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    assert s["seat"] == 1 and len(s["hand"]) >= 7
    assert "Tu mano" in await bea.page.text_content("#hand-title")
    # Bea's page reloaded keeps her seat (the player token in localStorage).
    await bea.page.reload()
    s2 = await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    assert s2["seat"] == 1


async def on_turn(players: list[WebPlayer], timeout: float = 30.0) -> tuple[WebPlayer, dict[str, Any]]:
    """The player on turn and their page's state, once a page showing the newest version
    says it is its turn (the next player's page may not have been sent the last move yet)."""
    end = time.monotonic() + timeout
    while True:
        states = [await p.state() for p in players]
        newest = max((st["version"] for st in states if st is not None), default=None)
        for player, st in zip(players, states, strict=True):
            if st is not None and st["version"] == newest and st["seat"] is not None and st["seat"] == st["turn"]:
                return player, st
        assert time.monotonic() < end, f"no page showed its turn: {states}"
        await asyncio.sleep(0.03)


async def test_the_server_restarts_mid_game_and_the_pages_catch_up(web: WebServer, browser: Any) -> None:
    players = await seat_three(web, browser, "official")
    # A few moves, then the server goes away and comes back on the same port.
    for _ in range(3):
        mover, st = await on_turn(players)
        await mover.take_turn(st)
        await mover.wait_for(lambda x, v=st["version"]: x is not None and x["version"] != v)
    before = await players[0].state()
    assert before is not None
    await web.restart()
    for p in players:  # each page reconnects and is shown the table again
        await p.page.wait_for_selector("#banner", state="hidden", timeout=15000)
        await p.wait_for(lambda s, v=before["version"]: s is not None and s["version"] >= v)
    final = await play_until(players)
    assert final["phase"] == "finished"
    assert privacy_scan(web.sent) > 10


async def test_a_phone_sized_screenshot_of_the_table(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official")
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=True)
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    for seats in (2, 3):  # each AI seat shown before the next is asked for (a press carries the version)
        await ana.press("add_ai")
        await ana.page.click("#choices button >> nth=1")
        await ana.wait_for(lambda s, n=seats: s is not None and len(s["seats"]) == n)
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    await ana.page.wait_for_function("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")
    width = await ana.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the table fits a phone's width (no sideways scrolling)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "web-table-phone.png"
    await ana.page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000
    # Playable by keyboard: on Ana's turn, `d` presses the menu's draw button.
    s = await ana.wait_for(lambda s: s is not None and s["seat"] == s["turn"]
                           and any(a["kind"] == "draw" for a in s["actions"]), timeout=20)
    await ana.page.keyboard.press("d")
    await ana.wait_for(lambda x: x is not None and x["version"] > s["version"])
