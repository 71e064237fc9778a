"""Each AI seat is added at a level of its own (the lobby's level picker), and
the seats say which is which, in each reader's language: two AI seats at
"easy" and "expert" looked the same on the page before. The lobby shows it;
in a game it is the seat's title (the seat stays narrow on a phone)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.test_browser import lobby_of_two


async def test_each_ai_seat_shows_its_own_level(web: WebServer, browser: Any) -> None:
    _made, ana, bea = await lobby_of_two(web, browser, guest_lang="es-ES")
    for seats, pick in ((3, 0), (4, 3)):  # easy, then expert
        await ana.wait_for(lambda s, n=seats - 1: s is not None and len(s["seats"]) == n)
        await ana.press("add_ai")
        await ana.page.click(f"#choices button >> nth={pick}")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 4)
    await bea.wait_for(lambda s: s is not None and len(s["seats"]) == 4)
    levels = "els => els.map(e => e.querySelector('.level') ? e.querySelector('.level').textContent : '')"
    assert await ana.page.eval_on_selector_all("#seats .seat", levels) == ["", "", "easy", "expert"]
    assert await bea.page.eval_on_selector_all("#seats .seat", levels) == ["", "", "fácil", "experto"]
    # No card is on the table yet: no board of empty facts (a "–" colour, a made-up direction).
    assert not await ana.page.is_visible("#board")
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    assert await ana.page.is_visible("#board") and await ana.page.is_visible("#colour")
    titles = "els => els.map(e => e.title)"
    await ana.page.wait_for_selector("#seats .seat .count")
    assert sorted(await ana.page.eval_on_selector_all("#seats .seat", titles)) == ["", "", "easy", "expert"]


async def test_the_creator_takes_an_ai_seat_out_of_the_lobby(web: WebServer, browser: Any) -> None:
    """Core's "Remove an AI player": the table's creator picks the seat; a
    player who did not open the table is not offered it."""
    _made, ana, bea = await lobby_of_two(web, browser)
    for seats in (3, 4):
        await ana.wait_for(lambda s, n=seats - 1: s is not None and len(s["seats"]) == n)
        await ana.press("add_ai")
        await ana.page.click("#choices button >> nth=0")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 4)
    await bea.wait_for(lambda s: s is not None and len(s["seats"]) == 4)
    assert "remove_ai" not in await bea.page.eval_on_selector_all(
        "#actions button[data-kind]", "els => els.map(e => e.dataset.kind)")
    shown = await ana.state()
    assert shown is not None
    names = [seat["name"] for seat in shown["seats"]]
    await ana.press("remove_ai")
    choices = await ana.page.eval_on_selector_all("#choices button", "els => els.map(e => e.textContent)")
    assert [text.strip() for text in choices] == [f"✖ {name}" for name in names[2:]], choices
    await ana.page.click("#choices button >> nth=0")
    left = await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 3)
    assert [seat["name"] for seat in left["seats"]] == [*names[:2], names[3]]
