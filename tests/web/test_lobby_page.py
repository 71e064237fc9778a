"""The lobby on a phone: no cards are dealt yet, so the page shows no empty "Your hand"
and no empty "Last moves" (they pushed the records below the fold); once the game is
dealt both are there."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import lobby_of_two, new_table
from unobot.chat.views import variant_title


async def test_the_lobby_shows_no_empty_hand_or_moves(web: WebServer, browser: Any) -> None:
    _made, ana, bea = await lobby_of_two(web, browser)
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    for p in (ana, bea):
        assert await p.page.is_hidden("#hand-title") and await p.page.is_hidden("#recent-title")
        assert await p.page.is_visible("#actions button")
    await ana.press("start")
    for p in (ana, bea):
        await p.wait_for(lambda s: s is not None and s["phase"] == "playing")
        await p.page.wait_for_selector("#hand-title", state="visible")
        await p.page.wait_for_selector("#recent-title", state="visible")


async def test_a_share_link_says_which_table_and_who_is_there_before_the_name(web: WebServer,
                                                                          browser: Any) -> None:
    """Opening a share link showed a bare "Your name" and "Sit down": nothing said what the
    table plays or who is at it. Now the variant (in the reader's language) and the seated
    players' names come above the name asked for."""
    made = await new_table(web, "Ana", "no-mercy")
    cy = await WebPlayer.open(browser, made["link"], "Cy", lang="es-ES", phone=True)
    await cy.page.wait_for_selector("#name-step:not([hidden])")
    assert await cy.page.text_content("#invite-variant") == variant_title("no-mercy", "es")
    assert await cy.page.inner_text("#invite-seats") == "Jugadores: Ana"
    await cy.sit_down()
