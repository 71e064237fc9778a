"""What the page says at a round's end and in a picker, in each reader's language.

Ana's table is English; Bea reads it in Spanish. The round's winner line is
drawn in Bea's language too (it was the table's), and nobody is shown "on
turn" between rounds (core's `TableView.on_turn`). A wild's colour picker
is titled with the card; each choice names only the colour (core's
`Action.choice_label`), not the card again.
"""

from __future__ import annotations

from typing import Any

from tests.conformance.situations import Situation, kind, lay
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import lobby_of_two
from unobot.chat.i18n import gettext_for
from unobot.chat.table import Table


async def two_seated(web: WebServer, browser: Any) -> tuple[dict[str, Any], WebPlayer, WebPlayer]:
    """Ana (English, the table's maker) and Bea (Spanish, from the link), started."""
    made, ana, bea = await lobby_of_two(web, browser, guest_lang="es-ES")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    for p in (ana, bea):
        await p.wait_for(lambda s: s is not None and s["phase"] == "playing")
    return made, ana, bea


async def laid_out(web: WebServer, chat: str, hands: tuple[str, ...], top: str) -> int:
    """Deal `hands` and `top` on the stored table (Ana on turn) and show it to the pages."""
    assert web.store is not None and web.table is not None
    game_id = await web.store.chat_game(chat)
    assert game_id is not None
    stored = await web.store.load_game(game_id)
    assert stored is not None
    table = Table.decode(stored.state, stored.version)
    lay(table, Situation("laid", hands, top, kind("play")))
    table.version += 1
    await web.store.save_game(game_id, table.encode(), expected_version=stored.version)
    async with web.table.lock(chat):
        await web.table._look(chat)
    return table.version


async def test_the_round_end_is_said_in_each_readers_language_and_nobody_is_on_turn(
        web: WebServer, browser: Any) -> None:
    made, ana, bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R5", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="R5"]')
    for p in (ana, bea):
        await p.wait_for(lambda s: s is not None and s["phase"] == "between_rounds")
    es = gettext_for("es")
    assert await bea.page.text_content("#headline") == "🎉 " + es("{player} wins round {n}!").format(player="Ana", n=1)
    assert await ana.page.text_content("#headline") == "🎉 Ana wins round 1!"
    for p in (ana, bea):  # the round is over: the page names no one on turn
        assert await p.page.text_content("#turn") == ""
        assert await p.page.locator(".seat.turn").count() == 0
    assert not [r for r in ana.refusals + bea.refusals if r.startswith("console")]


async def test_a_wild_colour_picker_names_each_colour_once(web: WebServer, browser: Any) -> None:
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("W G2 B3", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="W"]')
    await ana.page.wait_for_selector("#picker[open]")
    title = await ana.page.text_content("#picker-title") or ""
    choices = await ana.page.eval_on_selector_all("#choices button", "els => els.map(e => e.textContent)")
    assert "Wild" in title
    assert len(choices) == 4 and not [c for c in choices if "Wild" in c or "→" in c], choices
    assert [c.split()[-1] for c in choices] == ["red", "yellow", "green", "blue"]
    await ana.page.click("#choices button >> nth=2")
    s = await ana.wait_for(lambda s: s is not None and s["version"] > version)
    assert s["color"] == "G" and s["top"]["code"] == "W"
