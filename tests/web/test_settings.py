"""Who is an admin on the web table, and the settings panel an admin has there.

A browser-only table's admin is the person who made it (`POST /api/new`);
a Telegram group's page (the Mini App) asks the group's admins of the Bot
API (the project's local server, tests/botapi); a Bot API that is down or
does not answer means "not admin", at once, never a hang. The panel is
core's settings menu (its entries, labels and press ids, in the page's
language); a press goes through core's settings flow as the chats' buttons
do, and a person who is no admin is refused with core's words, changing
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import aiohttp

from tests.botapi import BotAPIServer
from tests.conformance.situations import rules_after
from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.players import PHONE, WebPlayer
from tests.web.settings_panel import LAST_PANEL, entry, open_panel, press, said
from tests.web.test_refusals import init_data, ws_send
from unobot.adapters.telegram.admins import AdminCache
from unobot.adapters.web import links
from unobot.adapters.web.admins import CREATOR_KEY, TTL, telegram_bot, telegram_check
from unobot.adapters.web.texts import settings_payload
from unobot.chat import commands as c
from unobot.chat.bounded import BoundedCache
from unobot.chat.i18n import gettext_for
from unobot.chat.render import error_text
from unobot.chat.service import ChatService
from unobot.chat.settings_menu import RULES_TITLE, SettingsMenu, key_of
from unobot.chat.settings_press import SAVED_LOBBY
from unobot.chat.table import LOBBY, PLAYING
from unobot.store import MemoryStore


async def new_table(web: WebServer, name: str = "Ann", lang: str = "en") -> dict[str, Any]:
    async with aiohttp.ClientSession() as http, http.post(
            f"{web.url}/api/new", json={"name": name, "variant": "official", "lang": lang}) as r:
        assert r.status == 200, await r.text()
        made: dict[str, Any] = await r.json()
    return made


async def seated(browser: Any, web: WebServer, made: dict[str, Any], name: str) -> tuple[WebPlayer, str]:
    """Someone who opened the share link, sat down and joined; (player, their player token)."""
    p = await WebPlayer.open(browser, made["link"], name)
    await p.page.wait_for_selector("#name-step:not([hidden])")
    await p.sit_down()
    await p.press("join")
    await p.wait_for(lambda s: s is not None and s["seat"] is not None)
    token: str = await p.page.evaluate(f"localStorage.getItem('unobot.seat.{made['table']}')")
    return p, token


async def model_refusal(commands: list[c.Command]) -> str:
    """What core's service answers an admin for the last of `commands` (the others accepted)."""
    service = ChatService(MemoryStore())
    admin = c.Person("admin", "Admin", None, True)
    for cmd in commands[:-1]:
        assert (await service.handle("chat", admin, cmd)).ok
    out = await service.handle("chat", admin, commands[-1])
    assert not out.ok
    return out.refusal("en")


async def test_a_browser_tables_creator_changes_its_settings_and_nobody_else_can(web: WebServer,
                                                                                  browser: Any) -> None:
    made = await new_table(web)
    chat = made["chat"]
    ann = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ann")
    first = await ann.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert first["admin"] is True
    ben, ben_token = await seated(browser, web, made, "Ben")
    assert (await ben.state() or {})["admin"] is False
    assert await ben.page.is_hidden("#settings")

    # The panel is core's settings menu for this chat, in the page's language, drawn as it is.
    panel = await open_panel(ann.page)
    assert panel == settings_payload(await web.service.settings(chat), "en", True)
    switches = await ann.page.eval_on_selector_all(
        "#settings-body .g-rules button", "els => els.map(e => [e.dataset.press, e.textContent, e.ariaPressed])")
    menu = SettingsMenu(await web.service.settings(chat), "en")
    assert switches == [[e.id, e.label, "true" if e.on else "false"] for e in menu.switches()]

    # A house rule on: the chat's rules are the model's, and the lobby takes them at once.
    panel = await press(ann.page, "on:stacking")
    assert (entry(panel, "off:stacking") or {}).get("on") is True
    settings = await web.service.settings(chat)
    assert settings["rules"] == await rules_after([c.SetRule(rule="stacking", enabled=True)])
    assert gettext_for("en")(SAVED_LOBBY) in await said(ann.page)  # the lobby plays it: not "from the next game"
    table = await web.service.table(chat)
    assert table is not None and table.phase == LOBBY and "stacking" in table.overrides
    # An option (a switch of stacking), the turn timer, a typed number of another rule.
    key = f"{key_of('stacking')}:4"
    panel = await press(ann.page, f"s:{key}:0")
    panel = await press(ann.page, "tm:30")
    await press(ann.page, "on:hand-limit")
    panel = await press(ann.page, f"t:{key_of('hand-limit')}:0", typed="30")
    want = await rules_after([c.SetRule(rule="stacking", enabled=True),
                              c.SetRule(rule="stacking", option="optional", value=False),
                              c.SetRule(rule="hand-limit", enabled=True),
                              c.SetRule(rule="hand-limit", option="limit", value=30)])
    settings = await web.service.settings(chat)
    assert settings["rules"] == want and settings["timer"] == 30
    assert panel == settings_payload(settings, "en", True)
    await ben.wait_for(lambda s: s is not None and s["timer_text"] == "30 seconds per turn")

    # Rules that clash: refused in core's words, nothing changes.
    await press(ann.page, "on:auto-colour")
    before = await web.service.settings(chat)
    await press(ann.page, "on:random-colour")
    expected = await model_refusal([c.SetRule(rule="auto-colour", enabled=True),
                                    c.SetRule(rule="random-colour", enabled=True)])
    assert (await said(ann.page))[-1] == expected
    assert await web.service.settings(chat) == before

    # Ben is no admin: a press forged on his socket is refused with core's words, nothing changes.
    got = await ws_send(web, [{"type": "press", "id": "on:seven-o", "auth": {"player": ben_token}}])
    refused = [m for m in got if m["type"] == "refused"]
    assert refused and refused[0]["text"] == error_text("not_admin", "en")
    assert refused[0]["text"] == "Only an admin can change the rules here."  # a table is no chat
    got = await ws_send(web, [{"type": "press", "id": "tm:0", "auth": {"player": ben_token}, "lang": "es"}])
    assert [m["text"] for m in got if m["type"] == "refused"] == [error_text("not_admin", "es")]
    assert await web.service.settings(chat) == before
    # A forged press id is refused too (core's decode), whoever sends it.
    got = await ws_send(web, [{"type": "press", "id": "on:no-such-rule", "auth": {"player": made["player"]}}])
    assert [m["text"] for m in got if m["type"] == "refused"] == [error_text("unknown_rule", "en")]
    assert await web.service.settings(chat) == before
    assert (await web.service.store.get_chat_settings(chat))[CREATOR_KEY] == links.read_player_token(
        web.secret, made["player"]).person
    assert ann.refusals == [] and ben.refusals == []


async def test_the_panel_works_by_keyboard_on_a_phone_in_arabic(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Nour", "ar")
    nour = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Nour", lang="ar", phone=True)
    await nour.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    page = nour.page
    panel = await open_panel(page)
    assert panel["title"] == gettext_for("ar")(RULES_TITLE) != RULES_TITLE
    assert await page.evaluate("document.documentElement.dir") == "rtl"
    assert await page.text_content("#settings-title") == panel["title"]
    # 390 px wide: nothing runs off the side.
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # By keyboard: a switch focused, Enter; the rule is on and the focus stays on that switch.
    await page.focus('#settings-body button[data-press="on:jump-in"]')
    index = await page.evaluate("Array.prototype.indexOf.call(document.querySelectorAll('#settings-body button,"
                                " #settings-body input'), document.activeElement)")
    before = await page.evaluate("window.__settings.length")
    await page.keyboard.press("Enter")
    await page.wait_for_function(f"window.__settings.length > {before}")
    assert (entry(await page.evaluate(LAST_PANEL), "off:jump-in") or {}).get("on") is True
    assert await page.evaluate("document.activeElement.dataset.press") == "off:jump-in"
    assert await page.evaluate("Array.prototype.indexOf.call(document.querySelectorAll('#settings-body button,"
                               " #settings-body input'), document.activeElement)") == index
    assert "jump-in" in ((await web.service.settings(made["chat"]))["rules"])
    assert nour.refusals == []


async def test_the_panel_is_in_the_readers_words_and_says_the_chats_language(web: WebServer,
                                                                              browser: Any) -> None:
    """An English table's creator reads its panel in Ukrainian: every option is titled in
    Ukrainian (not `Колода й роздача · hand_size`), the timer's choices too (not `30s`), and
    the summary names the chat's language, English, as the language list marks it (it said
    the reader's own)."""
    made = await new_table(web, "Olha", "en")
    olha = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Olha", lang="uk-UA", phone=True)
    await olha.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    page = olha.page
    await open_panel(page)
    await press(page, "on:hand-limit")
    titles = await page.eval_on_selector_all("#settings-body .option h3", "els => els.map(e => e.textContent)")
    keys = [(p.rule, p.option) for rule in SettingsMenu(await web.service.settings(made["chat"]), "uk").option_panels()
            for p in rule]
    assert len(titles) == len(keys) > 5 and ("hand-limit", "limit") in keys
    for title, (_rule, option) in zip(titles, keys, strict=True):
        assert option not in title, title
    assert "Ліміт карт у руці · Ліміт карт" in titles
    timers = await page.eval_on_selector_all("#settings-body .g-timer button", "els => els.map(e => e.textContent)")
    assert timers[1:] == ["30 с", "60 с", "120 с"]
    summary = await page.eval_on_selector_all("#settings-summary li", "els => els.map(e => e.textContent)")
    assert summary[-1] == "Мова: English"
    assert await page.text_content("#settings-body .g-lang legend") == "Мова: English"
    assert olha.refusals == []


# -- a Telegram group's page ------------------------------------------------------------------

def mini_app(web: WebServer, chat: str, uid: int, name: str, token: str) -> tuple[str, dict[str, Any]]:
    """The Mini App's address for this user at this group, and the proof its page sends."""
    start = links.table_token(web.secret, chat)
    data = init_data(uid, name, token=token, start=start)
    return f"{web.url}/?tgWebAppStartParam={start}#tgWebAppData={quote(data)}", {"init_data": data, "table": start}


@contextlib.asynccontextmanager
async def telegram_web(redis_server: RedisServer, prefix: str, server: BotAPIServer,
                       base_url: str | None = None) -> AsyncIterator[WebServer]:
    """The web table with the bot's token, asking Telegram (at `base_url`, else the local server)."""
    bot = telegram_bot(server.token, base_url or server.base_url, timeout=30.0)
    # The adapter's own AdminCache keeps nothing here: the answers kept are the web table's.
    check = telegram_check(bot, AdminCache(ttl=0.0))
    web = await WebServer(redis_server.url, prefix, bot_token=server.token).start(admins=check)
    try:
        yield web
    finally:
        await web.stop()
        with contextlib.suppress(Exception):
            await bot.shutdown()


async def test_a_telegram_groups_admin_is_asked_of_telegram(redis_server: RedisServer, prefix: str,
                                                          browser: Any) -> None:
    async with BotAPIServer() as server, telegram_web(redis_server, prefix, server) as web:
        assert web.table is not None
        now = [0.0]  # the clock the kept answers are read by
        web.table.admins.cache = BoundedCache(16, TTL, clock=lambda: now[0])
        group = server.group(title="Admins")
        chat = str(group["id"])
        server.user(11, "Ana")
        bea, tom = server.user(12, "Bea"), server.user(13, "Tom")
        server.set_status(group, tom, "administrator")
        server.set_status(group, bea, "member")
        # Ana opened the lobby in the group and sat down; Bea joins from the page.
        assert (await web.service.handle(chat, c.Person("11", "Ana"), c.NewGame(variant="official"))).ok
        bea_url, bea_auth = mini_app(web, chat, 12, "Bea", server.token)
        tom_url, tom_auth = mini_app(web, chat, 13, "Tom", server.token)
        b = await WebPlayer.open(browser, bea_url, "Bea")
        lobby = await b.wait_for(lambda s: s is not None and s["phase"] == "lobby")
        assert lobby["admin"] is False and "start" not in [a["kind"] for a in lobby["actions"]]
        await b.press("join")
        await b.wait_for(lambda s: s is not None and s["seat"] is not None)
        assert await b.page.is_hidden("#settings")
        # Tom, an admin of the group with no seat: the page offers him what an admin may do.
        t = await WebPlayer.open(browser, tom_url, "Tom")
        shown = await t.wait_for(lambda s: s is not None and s["phase"] == "lobby" and len(s["seats"]) == 2)
        assert shown["admin"] is True
        panel = await open_panel(t.page)
        panel = await press(t.page, "on:seven-o")
        assert (entry(panel, "off:seven-o") or {}).get("on") is True
        assert (await web.service.settings(chat))["rules"] == await rules_after(
            [c.SetRule(rule="seven-o", enabled=True)])
        # Bea is a member only: refused in core's words, nothing changed.
        before = await web.service.settings(chat)
        got = await ws_send(web, [{"type": "press", "id": "tm:60", "auth": bea_auth}])
        assert [m["text"] for m in got if m["type"] == "refused"] == [error_text("not_admin", "en")]
        assert await web.service.settings(chat) == before
        # Tom starts Ana's lobby from the page (an admin may).
        await t.press("start")
        await t.wait_for(lambda s: s is not None and s["phase"] == "playing")
        table = await web.service.table(chat)
        assert table is not None and table.phase == PLAYING and "seven-o" in table.overrides
        # Telegram was asked once per person, then the answer was kept.
        asked = [int(call["user_id"]) for call in server.calls_to("getChatMember")]
        assert sorted(asked) == [12, 13], asked
        # Demoted: the kept answer lasts its short while, then Telegram is asked again.
        server.set_status(group, tom, "member")
        got = await ws_send(web, [{"type": "hello", "auth": tom_auth}])
        assert [m["admin"] for m in got if m["type"] == "state"] == [True]
        now[0] += TTL + 1
        got = await ws_send(web, [{"type": "press", "id": "tm:60", "auth": tom_auth}])
        assert [m["text"] for m in got if m["type"] == "refused"] == [error_text("not_admin", "en")]
        assert server.errors == []
        # (Telegram's own script is not loaded in a test: the pages' one console error.)
        assert await said(b.page) == [] and await said(t.page) == [gettext_for("en")(SAVED_LOBBY)]


class Silent:
    """A Bot API address that accepts a connection and never answers (a Telegram that hangs)."""

    def __init__(self) -> None:
        self.server: asyncio.Server | None = None
        self.held: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> str:
        async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.held.append(writer)

        self.server = await asyncio.start_server(hold, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/bot"

    async def __aexit__(self, *exc: object) -> None:
        for writer in self.held:
            writer.close()
        assert self.server is not None
        self.server.close()


async def test_a_bot_api_that_is_down_or_silent_means_no_admin_at_once(redis_server: RedisServer,
                                                                        prefix: str) -> None:
    from unobot.adapters.embedded_redis import free_port

    async with BotAPIServer() as server, Silent() as silent:
        group = server.group(title="Offline")
        chat = str(group["id"])
        server.set_status(group, server.user(13, "Tom"), "administrator")
        for n, base_url in enumerate((silent, f"http://127.0.0.1:{free_port()}/bot")):  # silent, then nobody there
            async with telegram_web(redis_server, f"{prefix}.{n}", server, base_url) as web:
                assert web.table is not None
                web.table.admins.timeout = 0.5
                assert (await web.service.handle(chat, c.Person("11", "Ana"), c.NewGame())).ok
                _url, tom = mini_app(web, chat, 13, "Tom", server.token)
                loop = asyncio.get_running_loop()
                began = loop.time()
                got = await ws_send(web, [{"type": "hello", "auth": tom}])
                states = [m for m in got if m["type"] == "state"]
                assert states and states[-1]["admin"] is False
                got = await ws_send(web, [{"type": "press", "id": "tm:60", "auth": tom}])
                assert [m["text"] for m in got if m["type"] == "refused"] == [error_text("not_admin", "en")]
                assert loop.time() - began < 5.0, "the page waited on Telegram"
                assert (await web.service.settings(chat)).get("timer") in (0, None)
                # A move never waits on Telegram, even with nothing kept and a long time limit:
                # Ana (who opened the lobby) adds an AI seat at once; the question goes on aside.
                web.table.admins.timeout = 60.0
                web.table.admins.cache = BoundedCache(16, TTL)
                _url, ana = mini_app(web, chat, 11, "Ana", server.token)
                table = await web.service.table(chat)
                assert table is not None
                began = loop.time()
                got = await ws_send(web, [{"type": "act", "id": "anormal", "version": table.version, "auth": ana}])
                assert [m["type"] for m in got if m["type"] in ("state", "refused")] == ["state"], got
                assert loop.time() - began < 5.0, "a move waited on Telegram"
                after = await web.service.table(chat)
                assert after is not None and len(after.seats) == len(table.seats) + 1


async def test_an_open_panel_follows_settings_changed_elsewhere(web: WebServer, browser: Any) -> None:
    """An admin's panel stays open on the page while another admin changes the chat's
    settings elsewhere (a Telegram admin's /rules, here core's service as the chats call
    it): the lobby takes the change, and the open panel is drawn again with it."""
    made = await new_table(web)
    chat = made["chat"]
    ann = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ann")
    await ann.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    panel = await open_panel(ann.page)
    assert (entry(panel, "on:stacking") or {}).get("on") is False
    other = c.Person("elsewhere", "Other admin", None, True)
    out = await web.service.handle(chat, other, c.SetRule(rule="stacking", enabled=True))
    assert out.ok, out.error
    await ann.page.wait_for_function(
        "window.__settings.length && window.__settings[window.__settings.length - 1].groups.some("
        "g => g.entries.some(e => e.id === 'off:stacking' && e.on))", timeout=10_000)
    assert await ann.page.is_visible("#settings-body button[data-press='off:stacking']")
