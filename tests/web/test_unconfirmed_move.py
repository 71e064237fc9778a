"""A move the store applied but did not confirm (`redis.wait_replicas: 1`, the
replica frozen) is shown as waiting on every page, never as made: the table
stays as it was, the card tapped stays in the hand marked as waiting,
nothing can be pressed; once the store confirms it, every page draws it.

Why: the page was sent the primary's table at once (the move in it), so it
drew the move as done under a toast saying it was not confirmed yet; had the
move been lost, the page would have shown a move that never counted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.conformance.situations import Situation, kind, lay
from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import guest, new_table
from unobot.adapters.redis_store import RedisStore
from unobot.chat.i18n import gettext_for
from unobot.chat.service import ChatService
from unobot.chat.table import Table
from unobot.chat.unconfirmed import KEPT, NOT_CONFIRMED


async def lay_out(web: WebServer, store: RedisStore, chat: str) -> int:
    """Ana on turn with R5 R6 over a red card (Bea: greens)."""
    game_id = await store.chat_game(chat)
    assert game_id is not None and web.table is not None
    stored = await store.load_game(game_id)
    assert stored is not None
    table = Table.decode(stored.state, stored.version)
    lay(table, Situation("laid", ("R5 R6", "G1 G2 G3"), "R1", kind("play")))
    table.version += 1
    await store.save_game(game_id, table.encode(), expected_version=stored.version)
    async with web.table.lock(chat):
        await web.table._look(chat)
    return table.version


async def replicated_table(browser: Any, web: WebServer, store: RedisStore, primary: RedisServer,
                           replica: RedisServer, *, guest_lang: str | None = None
                           ) -> tuple[WebPlayer, WebPlayer, str, dict[str, Any]]:
    """`replica` copying `primary`, the web server on `store`, and Ana (a German
    page) and Bea seated and playing: the set-up of every test of a move the
    replicas have not confirmed. Returns Ana's and Bea's pages, the chat, and
    the table's links (`new_table`)."""
    from tests.store.test_durability import _client, _replicate

    with _client(primary) as client:
        client.config_set("repl-diskless-sync-delay", 0)
    _replicate(replica, primary)
    await web.start(ChatService(store))
    made = await new_table(web, "Ana", "official")
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", lang="de-DE")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    bea = await (guest(browser, made["link"], "Bea", lang=guest_lang) if guest_lang
                 else guest(browser, made["link"], "Bea"))
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    return ana, bea, str(s["chat"]), made


async def test_a_move_not_confirmed_is_drawn_as_waiting_until_the_store_says(tmp_path: Path, browser: Any) -> None:
    from tests.store.test_durability import frozen

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    store = RedisStore.from_url(primary.url, prefix="pending", wait_replicas=1, wait_timeout=1.0)
    web = WebServer(primary.url, "pending")
    try:
        ana, bea, chat, _made = await replicated_table(browser, web, store, primary, replica)
        version = await lay_out(web, store, chat)
        for p in (ana, bea):
            await p.wait_for(lambda s: s is not None and s["version"] == version)
        de = gettext_for("de")
        with frozen(replica):
            await ana.page.click('#hand button[data-code="R5"]')
            await ana.page.wait_for_selector("#unconfirmed:not([hidden])")
            assert await ana.page.text_content("#unconfirmed") == "⏳ " + de(NOT_CONFIRMED)
            await bea.page.wait_for_selector("#unconfirmed:not([hidden])")
            await asyncio.sleep(0.6)  # the watchers look several times meanwhile
            for p in (ana, bea):  # the table as it was: the move is not drawn as made
                last = await p.state()
                assert last is not None and last["version"] == version, last
            card = ana.page.locator('#hand button[data-code="R5"]')
            assert await card.get_attribute("class") == "card playable pending"
            assert await card.is_disabled()  # aria-disabled: it keeps the keyboard's focus
            assert await ana.page.locator('#actions button:not([aria-disabled="true"])').count() == 0
            taps = await ana.page.evaluate("window.__timing.taps.length")
            await ana.page.keyboard.press("d")  # the draw key sends nothing meanwhile, nor a card
            await ana.page.click('#hand button[data-code="R6"]', force=True)
            assert await ana.page.evaluate("window.__timing.taps.length") == taps
        # Confirmed: said, and drawn on every page.
        await ana.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0",
                                         arg=de(KEPT).format(player="Ana"), timeout=15_000)
        for p in (ana, bea):
            s = await p.wait_for(lambda s: s is not None and s["version"] > version and not s.get("unconfirmed"))
            assert s["top"]["code"] == "R5"
            await p.page.wait_for_selector("#unconfirmed", state="hidden")
        assert not [h for h in s["hand"] if h["code"] == "R5"] or s["seat"] == 1
    finally:
        await web.stop()
        await store.close()
        replica.stop()
        primary.stop()
