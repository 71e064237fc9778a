"""The landing page (a new table's form) is in the browser's language, as the
table is (and so is what a screen reader calls the seats): it has no socket yet, so its words and direction come with the
variants (`/api/variants`). The browser's whole language tag is used: a
zh-TW reader gets Traditional Chinese, not the Simplified of a bare "zh"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_round_end import two_seated
from unobot.chat.i18n import gettext_for


@pytest.mark.parametrize(("locale", "lang", "direction"), [("es-ES", "es", "ltr"), ("ar", "ar", "rtl"),
                                                            ("zh-TW", "zh_TW", "ltr")])
async def test_the_landing_page_speaks_the_browsers_language(web: WebServer, browser: Any, locale: str,
                                                             lang: str, direction: str) -> None:
    page = (await WebPlayer.open(browser, web.url + "/", "Ana", lang=locale, phone=True)).page
    await page.wait_for_selector("#new-variant option", state="attached")
    _ = gettext_for(lang)
    await page.wait_for_function("document.querySelector('#landing h1').textContent === " + repr(_("UNO table")))
    words = [await page.text_content(sel) for sel in ("#new-form label:nth-child(1) span",
                                                     "#new-form label:nth-child(2) span", "#new-form button")]
    assert words == [_("Your name"), _("Variant"), _("New table")]
    assert await page.evaluate("document.documentElement.dir") == direction
    assert await page.title() == _("UNO table")


async def test_the_seats_are_named_for_a_screen_reader_in_the_readers_language(web: WebServer,
                                                                             browser: Any) -> None:
    _made, ana, bea = await two_seated(web, browser)
    assert await ana.page.get_attribute("#seats", "aria-label") == "Players"
    assert await bea.page.get_attribute("#seats", "aria-label") == gettext_for("es")("Players") == "Jugadores"


async def test_a_server_without_browser_tables_says_where_tables_are_made(redis_server: Any, browser: Any) -> None:
    """`web.browser_tables: false`: the landing page offered the new-table form
    all the same, and every press was refused; it now says, in the browser's
    language, that tables are made in the chats."""
    from dataclasses import replace

    from tests.web.conftest import WebServer as Server

    class Closed(Server):
        def config(self) -> Any:
            return replace(super().config(), browser_tables=False)

    server = await Closed(redis_server.url, "webclosed").start()
    try:
        page = (await WebPlayer.open(browser, server.url + "/", "Ana", lang="es-ES")).page
        await page.wait_for_selector("#message", state="visible")
        said = await page.text_content("#message")
        assert said == "Aquí las mesas nuevas se crean en los chats, no en la página.", said
        assert await page.is_hidden("#landing")
    finally:
        await server.stop()


@pytest.mark.parametrize(("locale", "lang", "direction"), [("de-DE", "de", "ltr"), ("ar", "ar", "rtl")])
async def test_a_page_that_cannot_reach_its_socket_says_so_in_the_readers_language(
        web: WebServer, browser: Any, locale: str, lang: str, direction: str) -> None:
    """A table's link opened where the WebSocket cannot get through (a proxy that does not
    pass upgrades, a server restarting): the banner said "offline", the page's raw key, as
    the page had no words before the socket's first answer. The server now puts them in
    the page for the browser's language."""

    context = await browser.new_context(locale=locale)
    page = await context.new_page()
    await page.route_web_socket("**/ws", lambda ws: ws.close())
    await page.goto(f"{web.url}/?t=anything")
    _ = gettext_for(lang)
    await page.wait_for_function("t => document.getElementById('banner').textContent === t",
                                 arg=_("Connection lost, trying again…"))
    assert await page.evaluate("document.documentElement.dir") == direction
    await context.close()
