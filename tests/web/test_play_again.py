"""After a match, a browser table plays again at the same table: the same link,
the same seats (the people and the AI seats at their levels), the same
variant. A page opened again after the match shows how it ended, not "no
game is running". With no game at all, a refusal names the page's own
button, not Telegram's `/new`.

Why: a browser-only table has no `/new` to type; it offered only "New
table" (a new link everyone had to open and join again), a reload after
the match showed "No game is running here now", and a stale tap after a
stop answered "Start one with /new".
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_browser import guest, new_table
from tests.web.test_refusals import ws_send
from tests.web.test_round_end import laid_out
from unobot.adapters.web.texts import web_commands
from unobot.chat import commands as c
from unobot.chat.render import error_text
from unobot.chat.service import ChatService
from unobot.store import MemoryStore


async def test_a_browser_table_plays_again_with_the_same_seats_at_the_same_link(web: WebServer,
                                                                                browser: Any) -> None:
    made = await new_table(web, "Ana", "official", scoring={"target": 0})  # one round is the match
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana", phone=True)
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    bea = await guest(browser, made["link"], "Bea", lang="es-ES")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("add_ai")
    await ana.page.click('#choices button[data-id="ahard"]')
    s = await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 3)
    seats_before = [(p["name"], p["ai"], p["level"]) for p in s["seats"]]
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    version = await laid_out(web, s["chat"], ("R5", "G1 G2 B3", "G4 G5"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="R5"]')
    url = bea.page.url
    for p, label in ((ana, "🔁 Play again"), (bea, "🔁 Jugar otra vez")):
        await p.wait_for(lambda s: s is not None and s["phase"] == "finished")
        button = p.page.locator('#actions button[data-kind="again"]')
        await button.wait_for(state="visible")
        assert await button.text_content() == label
    # A reload after the match: how it ended and the way on, not "no game is running".
    await bea.page.reload()
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "finished")
    assert s["headline"] and s["headline"] != "No game is running here now."
    assert "Ana" in s["headline"], s["headline"]
    assert await bea.page.is_visible('#actions button[data-kind="again"]')
    assert await bea.page.is_visible("#top-img")  # the final table: the last card played
    # Bea plays again: a lobby at the same link, everyone seated as before, the variant kept.
    await bea.page.click('#actions button[data-kind="again"]')
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert [(q["name"], q["ai"], q["level"]) for q in s["seats"]] == seats_before
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert [q["name"] for q in s["seats"]] == [name for name, _ai, _level in seats_before] and s["seat"] == 1
    assert bea.page.url == url
    table = await web.service.table(s["chat"])
    assert table is not None and table.variant == "official" and table.overrides == {"scoring": {"target": 0}}
    await ana.press("start")
    for p in (ana, bea):
        await p.wait_for(lambda s: s is not None and s["phase"] == "playing")
    assert not [r for r in ana.refusals + bea.refusals if r.startswith("console")]
    assert not await bea.toasts() and not await ana.toasts()


async def test_with_no_game_the_page_names_its_own_button_and_offers_it(web: WebServer, browser: Any) -> None:
    """Stopped before any round was over: no match to show. A stale tap is told to start
    one with the page's "Play again" (in the page's language), never with `/new`; the page
    offers that button, and it opens a lobby at the same table."""
    made = await new_table(web, "Ana", "official")
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    bea = await guest(browser, made["link"], "Bea", lang="es-ES")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    token = await bea.page.evaluate(f"localStorage.getItem('unobot.seat.{made['table']}')")
    await ana.page.click("#stop")
    await ana.page.click("#stop-yes")
    await bea.wait_for(lambda s: s is not None and s["phase"] in ("none", "finished"))
    got = await ws_send(web, [{"type": "act", "id": "d", "version": s["version"], "auth": {"player": token},
                               "lang": "es"}])
    refused = [m["text"] for m in got if m["type"] == "refused"]
    assert refused == [error_text("no_game", "es", web_commands("es"))], refused
    assert "/new" not in refused[0] and "«Jugar otra vez»" in refused[0], refused
    # The page itself: no game, and the button the refusal names.
    await bea.page.reload()
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "none")
    assert not await bea.page.is_visible("#board")  # no colour or direction that no game has
    assert await bea.page.text_content("#headline") == refused[0]  # how one starts here
    button = bea.page.locator('#actions button[data-kind="again"]')
    await button.wait_for(state="visible")
    await button.click()
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    assert [p["name"] for p in s["seats"]] == ["Bea"] and s["seat"] == 0
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")


async def test_two_who_ask_to_play_again_at_once_share_one_lobby() -> None:
    """Core: a second "Play again" is the lobby the first opened, not "a game is already
    running" (two players press it at once after a match); one not seated there yet (this
    match was stopped before a round was over: no record seats Bea) is seated as a Join
    seats, as the first asker was."""
    service = ChatService(MemoryStore())
    ana, bea = c.Person("a", "Ana"), c.Person("b", "Bea")
    assert (await service.handle("web.x", ana, c.NewGame(variant="official"))).ok
    assert (await service.handle("web.x", bea, c.Join())).ok
    assert (await service.handle("web.x", ana, c.Stop())).ok
    first = await service.handle("web.x", ana, c.Again())
    second = await service.handle("web.x", bea, c.Again())
    assert first.ok and first.changed and second.ok, (second.code, second.error)
    assert second.table is not None and first.table is not None and second.table.seed == first.table.seed
    assert [s.name for s in second.table.seats] == ["Ana", "Bea"]
    third = await service.handle("web.x", bea, c.Again())  # seated already: that lobby, unchanged
    assert third.ok and not third.changed and third.table is not None
    assert third.table.version == second.table.version
    assert (await service.handle("web.x", ana, c.Start())).ok
    running = await service.handle("web.x", bea, c.Again())
    assert not running.ok and running.code == "game_running"


async def test_a_link_for_one_game_shows_its_end_without_play_again(web: WebServer, browser: Any) -> None:
    """Discord's `/uno table` (and the console's) link is signed for one game: it shows that
    match's end, but offers no "Play again" (the next game's lobby would refuse the link as
    an earlier game's; the chat starts the next game itself)."""
    svc = web.service
    chat = "dc_1_2"
    await svc.store.update_chat_settings(chat, {"rules": {"scoring": {"target": 0}}})  # one round
    assert (await svc.handle(chat, c.Person("7", "Dee"), c.NewGame(variant="official"))).ok
    assert (await svc.handle(chat, c.Person("8", "Eve"), c.Join())).ok
    assert (await svc.handle(chat, c.Person("7", "Dee"), c.Start())).ok
    table = await svc.table(chat)
    assert table is not None and web.table is not None
    dee = await WebPlayer.open(browser, web.table.player_link(chat, "7", "Dee", game=table.seed), "Dee")
    await dee.wait_for(lambda s: s is not None and s["phase"] == "playing")
    version = await laid_out(web, chat, ("R5", "G1 G2"), "R1")
    await dee.wait_for(lambda s: s is not None and s["version"] == version)
    await dee.page.click('#hand button[data-code="R5"]')
    s = await dee.wait_for(lambda s: s is not None and s["phase"] == "finished")
    assert not [a for a in s["actions"] if a["kind"] == "again"], s["actions"]
    await dee.page.reload()
    s = await dee.wait_for(lambda s: s is not None and s["phase"] == "finished")
    assert not [a for a in s["actions"] if a["kind"] == "again"], s["actions"]


async def test_a_telegram_groups_page_with_no_game_says_to_start_one_in_the_group(web: WebServer,
                                                                                  browser: Any) -> None:
    """A group's Mini App opened when no game runs there: the group's own command, `/new`
    (typed in that group), and no "Play again" of a browser table."""
    from tests.web.test_refusals import GROUP, init_data, mini_app_url
    from unobot.adapters.web import links

    token = links.table_token(web.secret, GROUP)
    bea = await WebPlayer.open(browser, mini_app_url(web, init_data(2, "Bea", start=token, lang="de")), "Bea")
    s = await bea.wait_for(lambda s: s is not None and s["phase"] == "none")
    assert s["actions"] == []
    assert await bea.page.text_content("#headline") == error_text("no_game", "de")
    assert "/new" in error_text("no_game", "de")


async def test_a_discord_channels_page_with_no_game_names_discords_command(web: WebServer, browser: Any) -> None:
    """A Discord channel's table link opened when no game runs there: Discord's own command,
    `/uno new` (it said Telegram's `/new`, which no Discord server has)."""
    assert web.table is not None
    dee = await WebPlayer.open(browser, web.table.player_link("dc_1_3", "7", "Dee", lang="pl"), "Dee", lang="pl-PL")
    s = await dee.wait_for(lambda s: s is not None and s["phase"] == "none")
    headline = await dee.page.text_content("#headline")
    assert headline == error_text("no_game", "pl", {"new": "/uno new"}), headline
    assert headline is not None and "/uno new" in headline and s["actions"] == []


async def test_a_consoles_page_with_no_game_names_the_terminals_command(web: WebServer, browser: Any) -> None:
    """The page of a console's table (`unobot play --web`) when no game runs: the game is
    started again in the terminal (`unobot play`), not with a chat's `/new`."""
    from unobot.adapters.console.render import commands

    assert web.table is not None
    tess = await WebPlayer.open(browser, web.table.player_link("console.tess", "console.tess", "Tess"), "Tess",
                                lang="de-DE")
    await tess.wait_for(lambda s: s is not None and s["phase"] == "none")
    headline = await tess.page.text_content("#headline")
    assert headline == error_text("no_game", "de", commands("de")), headline
    assert headline is not None and "unobot play" in headline and "/new" not in headline


async def test_a_replay_stopped_before_a_round_ended_is_not_shown_as_the_older_match(web: WebServer,
                                                                                    browser: Any) -> None:
    """A match, "Play again", then that game stopped before any round was over (nothing is
    kept of it): a reload within the hour shows no game, not the match before it as if it
    were the last (core notes the chat's newest game when a lobby opens)."""
    made = await new_table(web, "Ana", "official", scoring={"target": 0})  # one round is the match
    ana = await WebPlayer.open(browser, f"{web.url}/?p={made['player']}", "Ana")
    s = await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    bea = await guest(browser, made["link"], "Bea")
    await ana.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
    await ana.press("start")
    await ana.wait_for(lambda s: s is not None and s["phase"] == "playing")
    version = await laid_out(web, s["chat"], ("R5", "G1 G2 B3"), "R1")
    await ana.wait_for(lambda s: s is not None and s["version"] == version)
    await ana.page.click('#hand button[data-code="R5"]')
    await bea.wait_for(lambda s: s is not None and s["phase"] == "finished")
    await bea.page.click('#actions button[data-kind="again"]')
    await ana.wait_for(lambda s: s is not None and s["phase"] == "lobby")
    await ana.press("start")
    await bea.wait_for(lambda s: s is not None and s["phase"] == "playing")
    await ana.page.click("#stop")
    await ana.page.click("#stop-yes")
    await bea.wait_for(lambda s: s is not None and s["phase"] in ("none", "finished"))
    await bea.page.reload()
    s = await bea.wait_for(lambda s: s is not None and s["phase"] in ("none", "finished"))
    assert s["phase"] == "none", s["headline"]  # not the first match's "Ana won"
    assert "Ana" not in (s["headline"] or ""), s["headline"]
    assert await bea.page.is_visible('#actions button[data-kind="again"]')


async def test_a_telegram_groups_mini_app_plays_again_in_the_group(browser: Any, redis_server: Any,
                                                                   prefix: str) -> None:
    """A group's match ended in the group; a player opens its Mini App (a web table
    beside the bot, its own store connection, as a separate `unobot web` is) and
    presses "Play again": the lobby is the group's, and the bot posts its status
    there (the change reaches it through the store), seated as the match was."""
    from tests.botapi import BotAPIServer
    from tests.telegram.driver import BotProcess
    from tests.telegram.test_play_again import finished_match
    from tests.web.test_refusals import init_data
    from unobot.adapters.telegram import keyboards
    from unobot.adapters.web import links
    from unobot.chat.table import LOBBY

    async with BotAPIServer() as server:
        bot = await BotProcess(server, redis_server.url, prefix, real_time=True).start()
        web = await WebServer(redis_server.url, prefix, bot_token=server.token).start()
        try:
            driver, before = await finished_match(server, bot)
            token = links.table_token(web.secret, driver.chat)
            url = f"{web.url}/?tgWebAppStartParam={token}#tgWebAppData=" + \
                quote(init_data(502, "Ben", token=server.token, start=token))
            ben = await WebPlayer.open(browser, url, "Ben")
            s = await ben.wait_for(lambda s: s is not None and s["phase"] == "finished")
            button = ben.page.locator('#actions button[data-kind="again"]')
            await button.wait_for(state="visible")
            await button.click()
            s = await ben.wait_for(lambda s: s is not None and s["phase"] == "lobby")
            assert [p["name"] for p in s["seats"]] == [seat.name for seat in before.seats]
            for _ in range(100):  # the bot hears of it through the store's change feed
                lobby = await driver.table()
                if lobby is not None and lobby.adapter.get("status"):
                    break
                await asyncio.sleep(0.05)
            assert lobby is not None and lobby.phase == LOBBY and lobby.adapter.get("status"), lobby
            await bot.idle()
            posted = driver.message_with(keyboards.START)
            assert posted is not None and posted["message_id"] == lobby.adapter["status"], driver.bot_messages()[-1:]
            assert "Ann" in posted["text"] and "Ben" in posted["text"], posted["text"]
            await asyncio.sleep(0.3)  # one status message, not one per process or per change
            assert [m["message_id"] for m in driver.bot_messages()
                    if any(b.get("callback_data") == keyboards.START
                           for b in server.buttons(driver.group, m["message_id"]))] == [posted["message_id"]]
            # The group goes on from there: Ben starts it in the group.
            await driver.press(driver.players[1], keyboards.START)
            started = await driver.table()
            assert started is not None and started.phase == "playing"
        finally:
            await web.stop()
            await bot.stop()


async def test_the_mini_app_of_a_bot_serving_its_own_page_plays_again_in_the_group(
        browser: Any, redis_server: Any, prefix: str) -> None:
    """The same through `unobot telegram` with `web.enabled` (the page served by the bot's
    own process, on its service): one lobby status in the group, not one per path."""
    from tests.botapi import BotAPIServer
    from tests.telegram.driver import BotProcess
    from tests.telegram.test_play_again import finished_match
    from tests.web.test_refusals import init_data
    from unobot.adapters.embedded_redis import free_port
    from unobot.adapters.telegram import keyboards
    from unobot.adapters.web import links
    from unobot.adapters.web.cli import serve_with_bot
    from unobot.config import Config, TelegramConfig, WebTableConfig

    async with BotAPIServer() as server:
        bot = await BotProcess(server, redis_server.url, prefix, real_time=True).start()
        port = free_port()
        config = Config(telegram=TelegramConfig(token=server.token),
                        web=WebTableConfig(enabled=True, port=port, secret="again", telegram_app="table",
                                           public_url=f"http://127.0.0.1:{port}"))
        web, runner = await serve_with_bot(bot.app, config)
        try:
            driver, before = await finished_match(server, bot)
            token = links.table_token(web.config.secret, driver.chat)
            url = f"http://127.0.0.1:{port}/?tgWebAppStartParam={token}#tgWebAppData=" + \
                quote(init_data(502, "Ben", token=server.token, start=token))
            ben = await WebPlayer.open(browser, url, "Ben")
            await ben.wait_for(lambda s: s is not None and s["phase"] == "finished")
            await ben.page.click('#actions button[data-kind="again"]')
            await ben.wait_for(lambda s: s is not None and s["phase"] == "lobby")
            await asyncio.sleep(0.5)
            await bot.idle()
            lobby = await driver.table()
            assert lobby is not None and lobby.adapter.get("status"), lobby
            lobbies = [m["message_id"] for m in driver.bot_messages()
                       if any(b.get("callback_data") == keyboards.START
                              for b in server.buttons(driver.group, m["message_id"]))]
            assert lobbies == [lobby.adapter["status"]], lobbies
            assert [s.name for s in lobby.seats] == [s.name for s in before.seats]
        finally:
            keyboards.WEB_TABLE = None
            await runner.cleanup()
            await bot.stop()
