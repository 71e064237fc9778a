"""A mixed table: one Telegram group's game played at once from inline mode
(the local Bot API server, the real python-telegram-bot application) and
from the web page (two Mini App players), in one process as `unobot
telegram` runs it with `web.enabled`: the same service, the same store,
the same compare-and-set saves, the same log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess, TableDriver
from tests.web.players import WebPlayer, privacy_scan
from tests.web.test_refusals import init_data
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.telegram import keyboards
from unobot.adapters.web import links
from unobot.adapters.web.cli import serve_with_bot
from unobot.config import Config, TelegramConfig, WebTableConfig


async def test_inline_mode_and_the_page_play_one_game(browser: Any, redis_server: RedisServer, prefix: str) -> None:
    async with BotAPIServer() as server:
        bot = await BotProcess(server, redis_server.url, prefix, real_time=True).start()
        port = free_port()
        config = Config(telegram=TelegramConfig(token=server.token),
                        web=WebTableConfig(enabled=True, port=port, secret="mixed", telegram_app="table",
                                           public_url=f"http://127.0.0.1:{port}"))
        web, runner = await serve_with_bot(bot.app, config)
        web.config.keep_payloads = True
        web.config.poll = 0.1
        try:
            await play_mixed(browser, server, bot, web, port)
        finally:
            keyboards.WEB_TABLE = None
            await runner.cleanup()
            await bot.stop()


async def play_mixed(browser: Any, server: BotAPIServer, bot: BotProcess, web: Any, port: int) -> None:
    group = server.group(title="Mixed table")
    tess = server.user(201, "Tess")
    driver = TableDriver(server, bot, group, [tess])
    chat = str(group["id"])
    await driver.command(tess, "/new", "official")
    # The status message has the Mini App's "Open the table" button, its token naming this chat.
    status = driver.status_message()
    assert status is not None
    urls = [b["url"] for b in server.buttons(group, status["message_id"]) if "url" in b]
    assert urls and urls[0].startswith(f"https://t.me/{server.bot_user['username']}/table?startapp=")
    token = urls[0].split("startapp=")[1]
    assert links.read_table_token(web.config.secret, token) == chat
    pages = []
    for uid, name in ((202, "Ugo"), (203, "Vera")):
        url = f"http://127.0.0.1:{port}/?tgWebAppStartParam={token}#tgWebAppData=" + \
            quote(init_data(uid, name, token=server.token, start=token))
        page = await WebPlayer.open(browser, url, name)
        await page.wait_for(lambda s: s is not None and s["phase"] == "lobby")
        await page.press("join")
        await page.wait_for(lambda s: s is not None and s["seat"] is not None)
        pages.append(page)
    await driver.press(tess, keyboards.START)
    by_id = {"202": pages[0], "203": pages[1]}
    end = time.monotonic() + 240
    moves = {"inline": 0, "page": 0}
    while True:
        assert time.monotonic() < end, "the mixed game took too long"
        table = await bot.service.table(chat)
        if table is None or table.phase != "playing":
            break
        assert table.game is not None
        on_turn = table.seats[table.game.turn].id
        before = table.version
        if on_turn == "201":
            rid = driver.pick(await driver.hand(tess))
            if rid is None:
                await asyncio.sleep(0.05)
                continue
            await driver.choose(tess, rid)
            moves["inline"] += 1
        else:
            page = by_id[on_turn]
            s = await page.wait_for(lambda s, v=before: s is not None and s["version"] >= v)
            if s["version"] != before or s["seat"] != s["turn"] or not await page.take_turn(s):
                await asyncio.sleep(0.05)
                continue
            moves["page"] += 1
            if moves["page"] == 1:  # the group's status message follows a move made on the page
                await wait_until(lambda name=page.name: driver.turn_name() not in (None, name))
        for _ in range(200):  # the move is stored, by whichever front-end made it
            now = await bot.service.table(chat)
            if now is None or now.version != before:
                break
            await asyncio.sleep(0.02)
    assert moves["inline"] >= 3 and moves["page"] >= 6, moves
    # Every page followed the inline moves too, and the group followed the pages' moves.
    final = await bot.service.table(chat)
    last = final.version if final is not None else None
    for page in pages:
        await page.wait_for(lambda s: s is not None and (s["phase"] != "playing" or s["version"] == last))
    await driver.verify()  # the group's messages named no hidden card (the driver's own privacy check)
    assert privacy_scan(web.sent) > 10


async def wait_until(test: Callable[[], bool], timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "the group never showed the move"
        await asyncio.sleep(0.05)
