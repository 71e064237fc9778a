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


@pytest.mark.parametrize(("places", "bot", "lang", "expected"), [
    (("telegram", "discord"), "unotable_bot", "es-ES", [
        "En esta página no se crean mesas: cada una se abre desde donde están sus jugadores.",
        "En un grupo de Telegram con @unotable_bot: empieza una partida con /new y pulsa «🌐 Abrir la mesa» "
        "en el mensaje de la partida.",
        "En un canal de Discord con el bot: empieza una partida con /uno new y escribe /uno table para tener "
        "tu propio enlace a esta página."]),
    (("telegram",), None, "en-US", [
        "Tables are not made on this page: each opens from where its players are.",
        "In a Telegram group with the bot: start a game with /new, then press “🌐 Open the table” on the "
        "game's message."]),
    (("console",), None, "de-DE", [
        "Auf dieser Seite werden keine Tische erstellt: jeder wird dort geöffnet, wo seine Spieler sind.",
        "In einem Terminal: die Konsole zeigt den Link zu dieser Seite, wenn ihr Spiel beginnt."]),
    ((), None, "en-US", [
        "Tables are not made on this page: each opens from where its players are.",
        "This page opens a table only from its own link: ask the person who runs the game for it."]),
])
async def test_a_server_without_browser_tables_says_where_to_play_and_how(
        redis_server: Any, browser: Any, places: tuple[str, ...], bot: str | None, lang: str,
        expected: list[str]) -> None:
    """`web.browser_tables: false`: the landing page said "New tables are made in the
    chats here, not on the page", which told the person who opened it neither where
    nor how. It now says, in the browser's language, where this server's tables are
    played (a Telegram group with the bot, a Discord channel, a terminal) and what to
    do there to reach one; a new-table request is refused with the same words."""
    from dataclasses import replace

    import aiohttp

    from tests.web.conftest import WebServer as Server

    class Closed(Server):
        def config(self) -> Any:
            return replace(super().config(), browser_tables=False, places=places, telegram_bot=bot)

    server = await Closed(redis_server.url, "webclosed").start()
    try:
        page = (await WebPlayer.open(browser, server.url + "/", "Ana", lang=lang)).page
        await page.wait_for_selector("#message", state="visible")
        said = await page.inner_text("#message")
        assert said.split("\n") == expected, said
        assert await page.is_hidden("#landing")
        async with aiohttp.ClientSession() as http, http.post(
                server.url + "/api/new", json={"name": "Ana", "lang": lang.split("-")[0]}) as answer:
            assert answer.status == 403
            assert (await answer.json())["error"].split("\n") == expected
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
