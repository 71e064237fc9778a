"""A move the store did not confirm and then lost in a failover is told on
every web page, in its reader's language, and the table is drawn as the store
kept it: the card back in the hand, nothing waiting, the game going on.

Real Redis: a primary and a replica the test starts; the replica is cut off
from its primary (a partition) when Ana taps a card, the primary dies with
that move only on itself, the replica is promoted by hand (as Sentinel would)
and the old primary comes back as its empty copy, then the roles swap back so
the store's address serves the history without the move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.test_unconfirmed_move import lay_out, replicated_table
from unobot.adapters.redis_store import RedisStore
from unobot.chat.i18n import gettext_for
from unobot.chat.service import ChatService
from unobot.chat.unconfirmed import LOST, NOT_CONFIRMED


def fail_over(primary: RedisServer, replica: RedisServer) -> None:
    """After `primary` died with a move only on itself: `replica` promoted (as
    Sentinel would), the old primary back empty (no persistence) as its copy,
    then the roles swapped back, so the store's address serves the history
    without the move."""
    from tests.store.test_durability import _replicate

    _replicate(replica, None)
    primary.start()
    _replicate(primary, replica)
    _replicate(primary, None)
    _replicate(replica, primary)


async def test_a_move_lost_in_a_failover_is_told_on_every_page(tmp_path: Path, browser: Any) -> None:
    from tests.store.test_durability import frozen

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    store = RedisStore.from_url(primary.url, prefix="lost", wait_replicas=1, wait_timeout=1.0,
                                socket_timeout=2.0)
    web = WebServer(primary.url, "lost")
    try:
        ana, bea, chat, _made = await replicated_table(browser, web, store, primary, replica, guest_lang="es-ES")
        version = await lay_out(web, store, chat)
        for p in (ana, bea):
            await p.wait_for(lambda s: s is not None and s["version"] == version)
        de, es = gettext_for("de"), gettext_for("es")
        with frozen(replica, cut_from=primary):
            await ana.page.click('#hand button[data-code="R5"]')
            await ana.page.wait_for_selector("#unconfirmed:not([hidden])")
            assert await ana.page.text_content("#unconfirmed") == "⏳ " + de(NOT_CONFIRMED)
            await bea.page.wait_for_selector("#unconfirmed:not([hidden])")
            primary.kill()  # dies with the move only on itself
        fail_over(primary, replica)
        # Told on each page in its reader's language, and drawn as the store kept it.
        for p, say in ((ana, de), (bea, es)):
            await p.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0",
                                           arg=say(LOST).format(player="Ana"), timeout=20_000)
            s = await p.wait_for(lambda s: s is not None and s["version"] == version and not s.get("unconfirmed"))
            await p.page.wait_for_selector("#unconfirmed", state="hidden")
            assert s["top"]["code"] == "R1", s["top"]
        card = ana.page.locator('#hand button[data-code="R5"]')
        assert await card.get_attribute("aria-disabled") != "true"
        assert "pending" not in (await card.get_attribute("class") or "")
        # The game goes on: the move made again counts.
        await ana.page.click('#hand button[data-code="R5"]')
        for p in (ana, bea):
            s = await p.wait_for(lambda s: s is not None and s["version"] > version and not s.get("unconfirmed"))
            assert s["top"]["code"] == "R5"
    finally:
        await web.stop()
        await store.close()
        replica.stop()
        primary.stop()


async def test_another_process_s_move_lost_in_a_failover_is_told_on_every_page(tmp_path: Path, browser: Any) -> None:
    """The same for a move another process serving the chat made (its Telegram bot,
    say): the pages drew it as waiting, so they are told it was lost (without a
    name: the web table does not know who made it), then drawn without it."""
    from tests.store.test_durability import frozen
    from tests.web.test_unconfirmed_elsewhere import person_of
    from unobot.chat import commands as c
    from unobot.chat.unconfirmed import LOST_READ

    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    opened = dict(prefix="lost2", wait_replicas=1, wait_timeout=1.0, socket_timeout=2.0)
    store = RedisStore.from_url(primary.url, **opened)  # type: ignore[arg-type]
    other_store = RedisStore.from_url(primary.url, **opened)  # type: ignore[arg-type]
    web = WebServer(primary.url, "lost2")
    try:
        ana, bea, chat, _made = await replicated_table(browser, web, store, primary, replica, guest_lang="es-ES")
        version = await lay_out(web, store, chat)
        for p in (ana, bea):
            await p.wait_for(lambda s: s is not None and s["version"] == version)
        de, es = gettext_for("de"), gettext_for("es")
        with frozen(replica, cut_from=primary):
            out = await ChatService(other_store).handle(chat, c.Person(person_of(web, chat, "Ana"), "Ana"),
                                                        c.Play(card="R5"))
            assert out.code == "store_unconfirmed", out
            for p in (ana, bea):
                await p.page.wait_for_selector("#unconfirmed:not([hidden])", timeout=10_000)
            primary.kill()  # dies with the move only on itself
        fail_over(primary, replica)
        for p, say in ((ana, de), (bea, es)):
            await p.page.wait_for_function("t => window.__toasts.indexOf(t) >= 0", arg=say(LOST_READ),
                                           timeout=20_000)
            s = await p.wait_for(lambda s: s is not None and s["version"] == version and not s.get("unconfirmed"))
            await p.page.wait_for_selector("#unconfirmed", state="hidden")
            assert s["top"]["code"] == "R1", s["top"]
        await ana.page.click('#hand button[data-code="R5"]')  # the game goes on
        for p in (ana, bea):
            s = await p.wait_for(lambda s: s is not None and s["version"] > version and not s.get("unconfirmed"))
            assert s["top"]["code"] == "R5"
    finally:
        await web.stop()
        await store.close()
        await other_store.close()
        replica.stop()
        primary.stop()
