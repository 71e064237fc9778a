"""Stop on the web table: the page has no /stop to type, so core's menu offers
its Stop (`Menu.stop`) to the table's creator or an admin, and the page asks
core's question first. Nobody else is offered it, and a forged one is refused
with core's words, changing nothing."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_refusals import ws_send
from tests.web.test_settings import new_table, seated
from unobot.chat.render import error_text
from unobot.chat.table import PLAYING


async def test_the_creator_stops_the_game_from_the_page_after_a_question(web: WebServer, browser: Any) -> None:
    made = await new_table(web, lang="es")
    chat = made["chat"]
    ann = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ann", lang="es-ES")
    await ann.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    ben, ben_token = await seated(browser, web, made, "Ben")
    await ann.press("start")
    state = await ann.wait_for(lambda s: s is not None and s["phase"] == PLAYING, timeout=30)
    assert state["stop"]["label"].endswith("Detener la partida")
    assert (await ben.state() or {})["stop"] is None
    assert await ben.page.is_hidden("#stop") and await ann.page.is_visible("#stop")

    # Ben forges Ann's Stop on his own socket: refused in core's words, the game goes on.
    got = await ws_send(web, [{"type": "act", "id": state["stop"]["id"], "version": state["version"],
                               "auth": {"player": ben_token}}])
    assert [m["text"] for m in got if m["type"] == "refused"] == [error_text("not_allowed_admin", "en")]
    table = await web.service.table(chat)
    assert table is not None and table.phase == PLAYING

    # Ann presses Stop: the question first; Cancel changes nothing.
    await ann.page.click("#stop")
    assert await ann.page.text_content("#stop-text") == "¿Detener la partida para todos?"
    await ann.page.click("#stop-no")
    assert not await ann.page.evaluate("document.getElementById('stop-confirm').open")
    assert (await web.service.table(chat)) is not None
    # Then yes: the game is over for everyone, and the page says so.
    await ann.page.click("#stop")
    await ann.page.click("#stop-yes")
    for p in (ben, ann):
        await p.wait_for(lambda s: s is not None and s["phase"] in ("finished", "none"), timeout=30)
    assert await web.service.table(chat) is None
    await ann.page.wait_for_selector("#stop", state="hidden")


async def test_a_player_leaves_a_game_under_way_from_the_page_and_is_shown_as_gone(
        web: WebServer, browser: Any) -> None:
    """The page has no /leave to type: a seated player's Leave (core's `Menu.leave`) once
    the game is under way, asked first; the others then see that seat as gone."""
    made = await new_table(web)
    ann = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ann")
    await ann.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    ben, _token = await seated(browser, web, made, "Ben")
    cid, _token = await seated(browser, web, made, "Cid")
    await ann.press("start")
    state = await cid.wait_for(lambda s: s is not None and s["phase"] == PLAYING, timeout=30)
    assert state["leave"] is not None and state["stop"] is None
    await cid.page.click("#leave")
    assert await cid.page.text_content("#stop-text") == "Leave this game for good? Your cards go back to the pile."
    await cid.page.click("#stop-yes")
    seen = await ann.wait_for(lambda s: s is not None and any(p["left"] for p in s["seats"]), timeout=30)
    gone = next(p for p in seen["seats"] if p["left"])
    assert gone["name"] == "Cid" and not gone["out"] and seen["phase"] == PLAYING
    flag = ann.page.locator("#seats li", has_text="Cid").locator(".flag")
    await flag.first.wait_for()
    assert "left the game" in await flag.all_text_contents()
    after = await cid.wait_for(lambda s: s is not None and s["leave"] is None, timeout=30)
    assert after["seat"] is not None  # still seated for the scores, no longer playing
    assert await ben.state() is not None
