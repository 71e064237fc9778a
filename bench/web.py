"""The web table's latency beside Telegram's, in one game, in one run.

One Telegram group's game, served as `unobot telegram` serves it with
`web.enabled`: the real python-telegram-bot application long polling the
local Bot API server (tests/botapi), a real redis-server, and the web table
on the bot's own service. One player plays from inline mode, two from
Mini App pages in headless Chromium (Debian's, through playwright). Printed:

- tap -> other page: from a tap on one page (the page's own clock when it
  sent the move) to the other page drawing the table after it (p50, p99);
- inline pick -> group status: from the inline player's pick being handed
  to the Bot API server to the group's status message showing the move
  (p50, p99), in the same game;
- the page's transferred bytes: the page, its script, style and card
  pictures (as the browser counted them) and the WebSocket frames it got.

    .venv/bin/python bench/web.py [rounds]          # default 3 rounds
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from tests.botapi import BotAPIServer  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.telegram.driver import BotProcess, TableDriver  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.players import WebPlayer  # noqa: E402
from tests.web.test_refusals import init_data  # noqa: E402
from unobot.adapters.embedded_redis import free_port  # noqa: E402
from unobot.adapters.telegram import keyboards  # noqa: E402
from unobot.adapters.web.cli import serve_with_bot  # noqa: E402
from unobot.config import Config, TelegramConfig, WebTableConfig  # noqa: E402


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def page_bytes(page: Any) -> int:
    n: int = await page.evaluate(
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".reduce((a, e) => a + (e.transferSize || e.encodedBodySize || 0), 0)")
    return n


async def run(rounds: int) -> None:
    from playwright.async_api import async_playwright

    logging.basicConfig(level=logging.WARNING)
    taps: list[float] = []
    picks: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp) / "redis").start()
        try:
            async with BotAPIServer() as server, async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                bot = await BotProcess(server, redis.url, "bench-web", real_time=True).start()
                port = free_port()
                config = Config(telegram=TelegramConfig(token=server.token),
                                web=WebTableConfig(enabled=True, port=port, secret="bench", telegram_app="table",
                                                   public_url=f"http://127.0.0.1:{port}"))
                _web, runner = await serve_with_bot(bot.app, config)
                ws_bytes: dict[str, int] = {}
                try:
                    pages = await play(server, bot, browser, port, rounds, taps, picks, ws_bytes)
                    http = [await page_bytes(p.page) for p in pages]
                finally:
                    keyboards.WEB_TABLE = None
                    await runner.cleanup()
                    await bot.stop()
                    await browser.close()
        finally:
            redis.stop()
    print(f"rounds: {rounds}; page taps: {len(taps)}, inline picks: {len(picks)}")
    print(f"tap -> other page shows it:    p50 {pct(taps, .5):6.1f} ms  p99 {pct(taps, .99):6.1f} ms  "
          f"(mean {statistics.fmean(taps) if taps else float('nan'):.1f})")
    print(f"inline pick -> group status:   p50 {pct(picks, .5):6.1f} ms  p99 {pct(picks, .99):6.1f} ms  "
          f"(mean {statistics.fmean(picks) if picks else float('nan'):.1f})")
    if taps and picks:
        print(f"ratio of p50s (page / Telegram): {pct(taps, .5) / pct(picks, .5):.2f}")
    ws = statistics.fmean(ws_bytes.values()) if ws_bytes else 0
    print(f"page transferred: {statistics.fmean(http) / 1024:.1f} KiB over HTTP (page, script, style, cards), "
          f"{ws / 1024:.1f} KiB of WebSocket frames received, per page, for the whole game")


async def play(server: BotAPIServer, bot: BotProcess, browser: Any, port: int, rounds: int,
               taps: list[float], picks: list[float], ws_bytes: dict[str, int]) -> list[WebPlayer]:
    group = server.group(title="Bench table")
    tess = server.user(301, "Tess")
    driver = TableDriver(server, bot, group, [tess], check_privacy=False)
    chat = str(group["id"])
    await driver.command(tess, "/new", "official")
    status = driver.status_message()
    assert status is not None
    url = next(b["url"] for b in server.buttons(group, status["message_id"]) if "url" in b)
    token = url.split("startapp=")[1]
    pages: list[WebPlayer] = []
    for uid, name in ((302, "Ugo"), (303, "Vera")):
        page = await WebPlayer.open(browser, f"http://127.0.0.1:{port}/?tgWebAppStartParam={token}#tgWebAppData="
                                    + quote(init_data(uid, name, token=server.token, start=token)), name, phone=True)

        def on_socket(ws: Any, name: str = name) -> None:
            ws.on("framereceived", lambda payload: ws_bytes.__setitem__(
                name, ws_bytes.get(name, 0) + len(payload if isinstance(payload, bytes) else payload.encode())))

        page.page.on("websocket", on_socket)
        await page.wait_for(lambda s: s is not None and s["phase"] == "lobby")
        await page.press("join")
        await page.wait_for(lambda s: s is not None and s["seat"] is not None)
        pages.append(page)
    await driver.press(tess, keyboards.START)
    by_id = {"302": pages[0], "303": pages[1]}
    played = 0
    end = time.monotonic() + 600
    while played < rounds and time.monotonic() < end:
        table = await bot.service.table(chat)
        if table is None:
            break
        if table.phase == "between_rounds":
            played += 1
            if played < rounds:
                await driver.press(tess, keyboards.NEXT_ROUND)
            continue
        if table.phase != "playing" or table.game is None:
            break
        on_turn = table.seats[table.game.turn].id
        before = table.version
        if on_turn == "301":
            rid = driver.pick(await driver.hand(tess))
            if rid is None:
                await asyncio.sleep(0.01)
                continue
            shown = (driver.status_message() or {}).get("text")
            t0 = time.perf_counter()
            watch = asyncio.ensure_future(status_change(driver, shown))
            await driver.choose(tess, rid)
            changed_at = await watch
            if changed_at is not None:
                picks.append(1000 * (changed_at - t0))
        else:
            page = by_id[on_turn]
            other = pages[1] if page is pages[0] else pages[0]
            s = await page.wait_for(lambda s, v=before: s is not None and s["version"] >= v)
            if s["version"] != before or s["seat"] != s["turn"] or not await page.take_turn(s):
                await asyncio.sleep(0.01)
                continue
            await other.wait_for(lambda s, v=before: s is not None and s["version"] > v)
            timing = await page.page.evaluate("window.__timing.taps[window.__timing.taps.length - 1]")
            shown_at = await other.page.evaluate(
                f"Math.min(...Object.entries(window.__timing.shown).filter(e => +e[0] > {before}).map(e => e[1]))")
            taps.append(shown_at - timing["at"])
        for _ in range(500):
            now = await bot.service.table(chat)
            if now is None or now.version != before:
                break
            await asyncio.sleep(0.005)
    return pages


async def status_change(driver: TableDriver, before: str | None, timeout: float = 10.0) -> float | None:
    """When the group's status message stops reading `before` (perf_counter), polled every millisecond."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        status = driver.status_message()
        if status is not None and status.get("text") != before:
            return time.perf_counter()
        await asyncio.sleep(0.001)
    return None


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rounds", nargs="?", type=int, default=3, help="rounds to play (default 3)")
    asyncio.run(run(parser.parse_args().rounds))
