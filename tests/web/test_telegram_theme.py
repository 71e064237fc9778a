"""Opened as a Telegram Mini App, the page takes Telegram's theme: the colours of the
app (light or dark, the user's accent) that Telegram puts in the launch address
(`tgWebAppThemeParams`). Before, only Telegram's own script set them, so while it
loaded, or where telegram.org cannot be reached, a dark Telegram showed a light page."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from tests.web.conftest import ARTIFACTS, WebServer
from tests.web.players import WebPlayer
from tests.web.test_refusals import group_game, init_data, mini_app_url
from tests.web.test_round_end import laid_out
from unobot.adapters.web import links
from unobot.chat import commands as c
from unobot.chat.actions import actions

DARK = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499", "link_color": "#6ab3f3",
        "button_color": "#5288c1", "button_text_color": "#ffffff", "secondary_bg_color": "#232e3c"}


async def colours(page: Any, selector: str) -> list[str]:
    found: list[str] = await page.evaluate(
        "s => { const c = getComputedStyle(document.querySelector(s)); return [c.backgroundColor, c.color]; }",
        selector)
    return found


async def test_a_mini_app_follows_telegrams_dark_theme(web: WebServer, browser: Any) -> None:
    await group_game(web)
    token = links.table_token(web.secret, "-1001234")
    url = mini_app_url(web, init_data(2, "Bea", start=token, lang="de")) + \
        "&tgWebAppVersion=8.0&tgWebAppPlatform=android&tgWebAppThemeParams=" + quote(json.dumps(DARK))
    bea = await WebPlayer.open(browser, url, "Bea", phone=True)  # a light device: Telegram's theme wins
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    page = bea.page
    assert await colours(page, "body") == ["rgb(23, 33, 43)", "rgb(245, 245, 245)"]
    assert (await colours(page, "#board"))[0] == "rgb(35, 46, 60)"  # the secondary background
    assert await page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"
    if s["actions"]:
        assert await colours(page, "#actions button") == ["rgb(82, 136, 193)", "rgb(255, 255, 255)"]
    assert "Deine Hand" in (await page.text_content("#hand-title") or "")  # Telegram's language_code
    await page.screenshot(path=str(ARTIFACTS / "web-table-telegram-dark.png"))


async def test_a_plain_link_keeps_the_pages_own_colours(web: WebServer, browser: Any) -> None:
    """No Telegram, no theme: a bad value in a forged address is not taken either."""
    await group_game(web)
    url = f"{web.url}/?t=x#tgWebAppThemeParams=" + quote(json.dumps({"bg_color": "red;x:y", "text_color": 5}))
    page = (await WebPlayer.open(browser, url, "Ana")).page
    await page.wait_for_selector("#message:not([hidden])")
    assert await colours(page, "body") == ["rgb(246, 244, 239)", "rgb(29, 29, 31)"]


#: Telegram's script as its WebView provides it, reduced to what the page calls (the one
#: script from outside; a test never reaches telegram.org): each call is recorded.
TELEGRAM_SCRIPT = """
window.__tg = [];
window.Telegram = { WebApp: { initData: "", themeParams: {}, colorScheme: "light",
  ready: function () { __tg.push("ready"); }, expand: function () { __tg.push("expand"); },
  disableVerticalSwipes: function () { __tg.push("no vertical swipes"); },
  onEvent: function (name) { __tg.push("on " + name); },
  HapticFeedback: { notificationOccurred: function (kind) { __tg.push("haptic " + kind); } } } };
"""


async def test_in_telegram_a_swipe_does_not_close_the_game_and_the_turn_is_felt(web: WebServer,
                                                                                 browser: Any) -> None:
    """In Telegram a swipe down (scrolling a long hand) closed the Mini App mid-game: the page
    now asks Telegram not to (`disableVerticalSwipes`), and the turn coming is felt (haptic)."""
    await group_game(web)
    token = links.table_token(web.secret, "-1001234")
    context = await browser.new_context(locale="en-US", viewport={"width": 360, "height": 640})
    await context.route("https://telegram.org/js/telegram-web-app.js",
                        lambda route: route.fulfill(body=TELEGRAM_SCRIPT, content_type="text/javascript"))
    page = await context.new_page()
    await page.goto(mini_app_url(web, init_data(2, "Bea", start=token)))
    bea = WebPlayer(page, "Bea")
    await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    calls = await page.evaluate("window.__tg")
    assert {"ready", "expand", "no vertical swipes", "on themeChanged"} <= set(calls), calls
    version = await laid_out(web, "-1001234", ("R2 G3", "Y5 Y6"), "R1")  # Ana (seat 0) on turn
    await bea.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    await page.evaluate("window.__tg = []")  # Ana's turn now: nothing to feel
    now = await web.service.table("-1001234")
    assert now is not None
    ana_play = next(a for a in actions(now, "1", "en") if a.code == "R2")
    assert (await web.service.handle("-1001234", c.Person("1", "Ana"), ana_play.command)).ok
    await bea.wait_for(lambda s: s is not None and s["turn"] == s["seat"])
    await page.wait_for_function("window.__tg.indexOf('haptic success') >= 0")
    await context.close()
