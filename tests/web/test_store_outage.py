"""The web table while its Redis is down: every message a page sends is
answered with the chats' translated store message, the socket stays open,
nothing changes, and play goes on once Redis is back.

Why its own Redis: the test stops it, which the session's shared server
must not see.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from unobot.chat.render import error_text


@pytest.fixture
async def own(tmp_path: Path) -> AsyncIterator[tuple[RedisServer, WebServer]]:
    redis_server = RedisServer(tmp_path / "redis").start()
    web = await WebServer(redis_server.url, "outage").start()
    try:
        yield redis_server, web
    finally:
        redis_server.start()  # the store closes cleanly on a live server
        await web.stop()
        redis_server.stop()


async def next_of(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        msg = await ws.receive(timeout=10)
        assert msg.type == aiohttp.WSMsgType.TEXT, (msg.type, msg.data)
        data = json.loads(msg.data)
        if data.get("type") == kind:
            return dict(data)


async def test_a_page_hears_the_store_message_and_keeps_its_socket(own: tuple[RedisServer, WebServer]) -> None:
    redis_server, web = own
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{web.url}/api/new", json={"name": "Ann", "lang": "de"}) as r:
            made = await r.json()
            assert r.status == 200, made
        auth = {"player": made["player"]}
        ws = await http.ws_connect(f"{web.url}/ws")
        await ws.send_str(json.dumps({"type": "hello", "auth": auth, "lang": "de"}))
        before = await next_of(ws, "state")

        redis_server.stop()
        expected = error_text("store_unavailable", "de")
        for message in ({"type": "hello"}, {"type": "settings"},
                        {"type": "act", "id": "x", "version": before["version"]}):
            await ws.send_str(json.dumps({**message, "auth": auth, "lang": "de"}))
            refused = await next_of(ws, "refused")
            assert refused["code"] == "store_unavailable" and refused["text"] == expected, refused
        assert not ws.closed

        async with http.post(f"{web.url}/api/new", json={"name": "Bob", "lang": "de"}) as r:
            body = await r.json()
            assert r.status == 503 and body == {"code": "store_unavailable", "error": expected}, body

        redis_server.start()
        await ws.send_str(json.dumps({"type": "hello", "auth": auth, "lang": "de"}))
        after = await next_of(ws, "state")
        assert after["version"] == before["version"]
        await ws.close()


async def test_a_page_opened_while_the_store_is_down_shows_the_table_once_it_is_back(
        own: tuple[RedisServer, WebServer], browser: Any) -> None:
    """Opened while Redis is down, the page says so in its reader's language; once Redis is
    back it shows the table by itself (it stayed on "try again shortly" until reloaded: the
    server had no page to send the table to, and the page never asked again)."""
    from tests.web.players import WebPlayer

    redis_server, web = own
    async with aiohttp.ClientSession() as http, http.post(f"{web.url}/api/new", json={"name": "Ann", "lang": "fr"}) as r:
        made = await r.json()
        assert r.status == 200, made
    redis_server.stop()
    ann = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ann", lang="fr-FR")
    await ann.page.wait_for_selector("#message:not([hidden])")
    assert await ann.page.text_content("#message") == error_text("store_unavailable", "fr")
    redis_server.start()
    s = await ann.wait_for(lambda s: s is not None and s["phase"] == "lobby", timeout=15)
    assert s["seat"] == 0 and await ann.page.is_hidden("#message")


async def test_a_page_told_not_confirmed_yet_is_told_later_that_the_move_counts(tmp_path: Path,
                                                                                 browser: Any) -> None:
    """`redis.wait_replicas: 1` and the replica frozen: the lobby press is answered "not
    confirmed yet: I will say here whether this counts". The replica back, the page is told
    "Confirmed now" by itself (the watcher settles it), with no other move made; before, the
    page was never told (core's settling lines went into an outcome's notices, which the page
    does not show)."""
    from tests.store.test_durability import _client, _replicate, frozen
    from tests.web.players import WebPlayer
    from unobot.adapters.redis_store import RedisStore
    from unobot.chat.i18n import gettext_for
    from unobot.chat.service import ChatService
    from unobot.chat.unconfirmed import KEPT, NOT_CONFIRMED

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    store = RedisStore.from_url(primary.url, prefix="unconfirmed", wait_replicas=1, wait_timeout=1.0)
    web = WebServer(primary.url, "unconfirmed")
    try:
        with _client(primary) as client:
            client.config_set("repl-diskless-sync-delay", 0)
        _replicate(replica, primary)
        await web.start(ChatService(store))
        de = gettext_for("de")
        async with aiohttp.ClientSession() as http:
            # A new table not confirmed: its maker still gets its link and seat (refused, the
            # table was lost to them and "I will say here" had no "here"); the page shows it
            # as waiting, then says it counts.
            with frozen(replica):
                async with http.post(f"{web.url}/api/new", json={"name": "Ana", "lang": "de"}) as r:
                    body = await r.json()
                    assert r.status == 200 and body["code"] == "store_unconfirmed", body
                    assert body["unconfirmed"] == de(NOT_CONFIRMED) and body["link"] and body["player"]
                first = await WebPlayer.open(browser, f"{web.url}/?p={body['player']}", "Ana", lang="de-DE")
                await first.page.wait_for_selector("#unconfirmed:not([hidden])")
                waiting = await first.state()
                assert waiting is not None and waiting["phase"] == "lobby" and waiting["unconfirmed"]
            await first.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0",
                                               arg=de(KEPT).format(player="Ana"), timeout=15_000)
            await first.wait_for(lambda s: s is not None and not s.get("unconfirmed"))
            await first.page.wait_for_selector("#unconfirmed", state="hidden")
            async with http.post(f"{web.url}/api/new", json={"name": "Ana", "lang": "de"}) as r:
                made = await r.json()
                assert r.status == 200, made
        ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", lang="de-DE")
        await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
        with frozen(replica):
            await ana.press("add_ai")
            await ana.page.click("#choices button >> nth=0")
            await ana.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0", arg=de(NOT_CONFIRMED))
        await ana.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0",
                                         arg=de(KEPT).format(player="Ana"), timeout=15_000)
    finally:
        await web.stop()
        await store.close()
        replica.stop()
        primary.stop()
