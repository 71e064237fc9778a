"""What a screen reader is told about the table, read from Chromium's
accessibility tree: the top card once (its picture is the caption's card,
not a second reading of it), and a connection lost and found again said to
everyone (a status line that is a live region, in the reader's language),
not only a banner that silently went away."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.test_round_end import laid_out, two_seated
from unobot.chat.i18n import gettext_for
from unobot.chat.table import Table


async def test_the_top_card_is_read_once(web: WebServer, browser: Any) -> None:
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("G2 B3 Y4", "G1 G2 B3"), "R1")
    s = await ana.wait_for(lambda s: s is not None and s["version"] == version)
    label = s["top"]["label"]
    tree = await ana.page.locator("#top").aria_snapshot()
    assert tree.count(label) == 1, tree  # the caption "Top card: Red 1", and no image named "Red 1" besides
    assert "img" not in tree, tree


async def test_a_redial_is_said_to_everyone_in_their_language(web: WebServer, browser: Any) -> None:
    made, ana, bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("G2 B3 Y4", "G1 G2 B3"), "R1")
    for p in (ana, bea):
        await p.wait_for(lambda s, v=version: s is not None and s["version"] == v)
    # The first connection says nothing once it is open; the status line is there, empty.
    for p in (ana, bea):
        assert await p.page.get_attribute("#banner", "role") == "status"
        assert await p.page.text_content("#banner") == ""
    await web.restart()
    back = [(ana, gettext_for("en")("Connected again: the table is up to date.")),
            (bea, gettext_for("es")("Connected again: the table is up to date."))]
    assert back[0][1] != back[1][1]
    for p, text in back:
        await p.page.wait_for_function("t => document.getElementById('banner').textContent === t", arg=text,
                                       timeout=15000)
        # Shown, and in the accessibility tree as a status (what a screen reader speaks).
        assert await p.page.is_visible("#banner")
        assert text in await p.page.locator("body").aria_snapshot()
    # It goes by itself; the status line stays in the page for the next change.
    await ana.page.wait_for_selector("#banner", state="hidden", timeout=10000)
    assert await ana.page.locator("#banner").count() == 1
    assert await ana.page.get_attribute("#banner", "hidden") is None


async def test_the_round_end_is_not_said_again_at_every_redraw(web: WebServer, browser: Any) -> None:
    """The headline (a status line, read out when it changes) was written anew at every state:
    "🎉 Ana wins round 1!" was said again whenever anything was sent between two rounds."""
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("R5", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="R5"]')
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "between_rounds")
    await ana.page.evaluate("""() => { window.__headline = 0;
        new MutationObserver(m => { window.__headline += m.length; })
            .observe(document.getElementById('headline'), {childList: true, characterData: true, subtree: true}); }""")
    again = await resent(web, made["chat"])  # the same table, sent again (as any change between rounds is)
    await ana.wait_for(lambda x: x is not None and x["version"] == again)
    await ana.page.wait_for_timeout(200)
    assert again > s["version"] and await ana.page.text_content("#headline") == "🎉 Ana wins round 1!"
    assert await ana.page.evaluate("window.__headline") == 0


async def resent(web: WebServer, chat: str) -> int:
    """The stored table saved again unchanged under a new version, and shown to the pages."""
    assert web.store is not None and web.table is not None
    game_id = await web.store.chat_game(chat)
    assert game_id is not None
    stored = await web.store.load_game(game_id)
    assert stored is not None
    table = Table.decode(stored.state, stored.version)
    table.version += 1
    await web.store.save_game(game_id, table.encode(), expected_version=stored.version)
    async with web.table.lock(chat):
        await web.table._look(chat)
    return table.version


async def test_a_device_offline_and_back_is_said_and_the_line_does_not_stay(web: WebServer, browser: Any) -> None:
    """The device goes offline for a moment (a tunnel, a lift): "Connection lost" is shown and
    said; back online, the page asks for the table again and says it is up to date. Before,
    a socket that outlived the moment was never dialled again, and "Connection lost, trying
    again…" stayed on a page that worked."""
    made, ana, _bea = await two_seated(web, browser)
    version = await laid_out(web, made["chat"], ("G2 B3 Y4", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    context = ana.page.context
    await context.set_offline(True)
    await ana.page.wait_for_function("document.getElementById('banner').textContent === 'Connection lost, trying again…'")
    await context.set_offline(False)
    await ana.page.wait_for_function(
        "document.getElementById('banner').textContent === 'Connected again: the table is up to date.'", timeout=15000)
    await ana.page.wait_for_selector("#banner", state="hidden", timeout=10000)
