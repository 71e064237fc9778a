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
    assert await ben.page.is_hidden("#stop-box") and await ann.page.is_visible("#stop")

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
    await ann.page.wait_for_selector("#stop-box", state="hidden")
