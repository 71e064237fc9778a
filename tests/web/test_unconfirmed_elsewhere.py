"""A move another process made (a Telegram player's, another web server's)
that the store's copies have not confirmed is drawn as waiting on the web
table, never as made, until the store says (`Store.confirm_stored`).

Why: the web table's waiting mark knew only the moves made in its own
process (`ChatService.unconfirmed`); a move another process serving the same
chat saved on the primary while its replica lagged was read back by the
watcher and drawn as made at once, though a failover could still drop it,
and only that other process (in its own chat) said "not confirmed yet".
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_unconfirmed_move import lay_out, replicated_table
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.service import ChatService
from unobot.chat.unconfirmed import KEPT_READ, NOT_CONFIRMED
from unobot.store import MemoryStore, StoreUnconfirmed, new_game_id


def person_of(web: WebServer, chat: str, name: str) -> str:
    assert web.table is not None
    found = {p.viewer.person for p in web.table.pages.get(chat, ()) if p.viewer and p.viewer.name == name}
    assert len(found) == 1, found
    return found.pop()


async def test_another_process_s_move_not_confirmed_is_drawn_as_waiting(tmp_path: Path, browser: Any) -> None:
    from tests.store.test_durability import frozen

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    store = RedisStore.from_url(primary.url, prefix="elsewhere", wait_replicas=1, wait_timeout=1.0)
    # The chat's other process (its Telegram bot, say): a store and service of its own.
    other_store = RedisStore.from_url(primary.url, prefix="elsewhere", wait_replicas=1, wait_timeout=1.0)
    other = ChatService(other_store)
    web = WebServer(primary.url, "elsewhere")
    try:
        ana, bea, chat, made = await replicated_table(browser, web, store, primary, replica)
        version = await lay_out(web, store, chat)
        for p in (ana, bea):
            await p.wait_for(lambda s: s is not None and s["version"] == version)
        de = gettext_for("de")
        with frozen(replica):
            out = await other.handle(chat, c.Person(person_of(web, chat, "Ana"), "Ana"), c.Play(card="R5"))
            assert out.code == "store_unconfirmed", out  # the other process says so in its own chat
            for p in (ana, bea):  # and the web table says it too
                await p.page.wait_for_selector("#unconfirmed:not([hidden])", timeout=10_000)
            assert await ana.page.text_content("#unconfirmed") == "⏳ " + de(NOT_CONFIRMED)
            await asyncio.sleep(0.6)  # the watchers look several times meanwhile
            for p in (ana, bea):  # the table as it was: the move is not drawn as made
                last = await p.state()
                assert last is not None and last["version"] == version, last
            assert await ana.page.locator('#actions button:not([aria-disabled="true"])').count() == 0
            # A page opened meanwhile does not draw it as made either.
            late = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", lang="de-DE")
            await late.page.wait_for_selector("#unconfirmed:not([hidden])", timeout=10_000)
        # Confirmed: said as the page promised (its maker is another process's: no name),
        # and drawn on every page, the mark gone.
        for p in (ana, bea, late):
            said = (gettext_for("en") if p is bea else de)(KEPT_READ)  # each in its reader's language
            await p.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0", arg=said, timeout=15_000)
            s = await p.wait_for(lambda s: s is not None and s["version"] > version and not s.get("unconfirmed"))
            assert s["top"]["code"] == "R5"
            await p.page.wait_for_selector("#unconfirmed", state="hidden")
    finally:
        await web.stop()
        await store.close()
        await other_store.close()
        replica.stop()
        primary.stop()


async def confirmed(store: RedisStore, game_id: str) -> None:
    """Until the store's copies confirm the game (a replica just linked may be slow to ack)."""
    deadline = asyncio.get_running_loop().time() + 15
    while True:
        try:
            assert await store.confirm_stored(game_id) is True
            return
        except StoreUnconfirmed:
            assert asyncio.get_running_loop().time() < deadline, "never confirmed"


async def test_a_store_that_waits_for_no_copies_has_nothing_to_confirm() -> None:
    """The barrier costs nothing where there are no copies to wait for."""
    assert not MemoryStore().confirms_copies
    assert await MemoryStore().confirm_stored("x:1") is True


async def test_confirm_stored_waits_for_every_save_before_it_and_records_nothing(tmp_path: Path) -> None:
    from tests.store.test_durability import _client, _replicate, frozen

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    writer = RedisStore.from_url(primary.url, prefix="barrier", wait_replicas=1, wait_timeout=1.0)
    reader = RedisStore.from_url(primary.url, prefix="barrier", wait_replicas=1, wait_timeout=1.0)
    try:
        with _client(primary) as client:
            client.config_set("repl-diskless-sync-delay", 0)
        _replicate(replica, primary)
        plain = RedisStore.from_url(primary.url, prefix="barrier")
        game_id, _ = await plain.create_game("chat", b"state")
        await plain.close()
        assert reader.confirms_copies and not plain.confirms_copies
        await confirmed(reader, game_id)
        with frozen(replica):
            with pytest.raises(StoreUnconfirmed):
                await writer.save_game(game_id, b"state 2", expected_version=1, log=["play R5"])
            with pytest.raises(StoreUnconfirmed) as told:  # not "confirmed": the writer's save is not
                await reader.confirm_stored(game_id)
            assert told.value.receipt is None  # no version named: nothing to settle later
            with pytest.raises(StoreUnconfirmed) as told:
                await reader.confirm_stored(game_id, 2)
            receipt = told.value.receipt  # what the reader loaded, settled later as its writer would
            assert receipt is not None and (receipt.version, receipt.log_length) == (2, 1), receipt
            with pytest.raises(StoreUnconfirmed) as told:
                await reader.confirm_stored(game_id, 1)
            assert told.value.receipt is None  # moved on since: the reader loads again
        await confirmed(reader, game_id)
        assert await reader.confirm_save(receipt) is True
        await reader.flush_acknowledgements()
        await writer.flush_acknowledgements()
        record = await reader.acknowledgement(game_id)
        assert record is None or record.version >= 1, record  # never the barrier's empty receipt
        assert await reader.confirm_stored(new_game_id("chat")) is False  # gone
    finally:
        await writer.close()
        await reader.close()
        replica.stop()
        primary.stop()
