"""One busy group must not slow another (issue 15): latencies with Telegram's real budgets.

The bot runs with its own rate limiter at Telegram's budgets (20 messages a
minute per group, 30 a second overall: `GroupLimiter()` as in production),
against the local Bot API server and a real redis-server. Groups play:

* the quiet group makes a move now and then; measured: the time from a
  picked card reaching the bot to the group's status message showing it
  (move-to-status latency), first with the other group idle, then while
* the busy group's players pick as fast as people do (5 picks a second:
  draw, pass, play), for `seconds`; measured: the busy group's longest
  time without a status edit while picks keep coming, and whether its
  status shows the final state once they stop.

Printed: the quiet group's p50/p99 idle and busy (goal: busy within 2x of
idle), the busy group's longest gap (goal <= 4 s), picks made, edits sent.

    .venv/bin/python bench/telegram_busy.py [seconds]
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from tests.botapi import BotAPIServer  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.telegram.driver import BotProcess, TableDriver  # noqa: E402
from unobot.adapters.telegram import keyboards  # noqa: E402
from unobot.adapters.telegram.limiter import GroupLimiter  # noqa: E402
from unobot.adapters.telegram.runtime import Options  # noqa: E402
from unobot.chat.table import PLAYING  # noqa: E402

JSON = dict[str, Any]
QUIET_GROUPS = 4
OPTIONS = Options(continue_delay=0.05, lobby_seconds=600, timer_grace=0.1)


@dataclass
class Result:
    idle: list[float] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)
    longest_gap: float = 0.0
    picks: int = 0
    busy_edits: int = 0
    final_shown: bool = False

    @staticmethod
    def pct(values: list[float], q: float) -> float:
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Watch:
    """Stamps, as they happen, the Bot API calls that show a group's status."""

    def __init__(self, server: BotAPIServer) -> None:
        self.server = server
        self.seen = len(server.calls)
        self.stamps: list[tuple[float, str, int]] = []
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while True:
            calls = self.server.calls
            now = time.monotonic()
            for call in calls[self.seen:]:
                if call.method in ("editMessageText", "sendMessage"):
                    chat = call.params.get("chat_id")
                    if isinstance(chat, int):
                        self.stamps.append((now, call.method, chat))
            self.seen = len(calls)
            await asyncio.sleep(0.005)

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


async def start_game(server: BotAPIServer, bot: BotProcess, title: str, first: int) -> TableDriver:
    group = server.group(title=title)
    players = [server.user(first + i, f"{title[0]}{i}") for i in range(2)]
    driver = TableDriver(server, bot, group, players, check_privacy=False)
    assert bot.service is not None
    from unobot.chat import commands as c
    from unobot.chat.commands import Person

    admin = Person("bench", "Bench", None, True)
    # Long rounds: a big hand, no target (the busy group keeps playing).
    await bot.service.handle(driver.chat, admin, c.SetRule(rule="deck", option="hand_size", value=20))
    await driver.command(players[0], "/new")
    await driver.press(players[1], keyboards.JOIN)
    await driver.press(players[0], keyboards.START)
    return driver


async def pick_once(server: BotAPIServer, bot: BotProcess, driver: TableDriver) -> JSON | None:
    """The player on turn opens their hand and picks (the update, returned); does not wait for the status."""
    assert bot.service is not None
    table = await bot.service.table(driver.chat)
    if table is None or table.phase != PLAYING or table.game is None:
        return None
    user = next(p for p in driver.players if str(p["id"]) == table.seats[table.game.turn].id)
    query = server.inline_query(user, f"#{driver.chat}")
    call = await server.wait_answer(query, "answerInlineQuery", timeout=20)
    results = call.params["results"]
    pick = driver.pick(results)
    if pick is None:
        return None
    _message, chosen = server.pick_inline_result(driver.group, user, pick)
    assert chosen is not None
    return chosen


async def quiet_move(server: BotAPIServer, bot: BotProcess, driver: TableDriver, watch: Watch) -> float | None:
    """One move in the quiet group; seconds until its status message was edited."""
    mark = len(watch.stamps)
    start = time.monotonic()
    if not await pick_once(server, bot, driver):
        return None
    chat = driver.group["id"]
    deadline = start + 20
    while time.monotonic() < deadline:
        for stamp, _method, c in watch.stamps[mark:]:
            if c == chat:
                return stamp - start
        await asyncio.sleep(0.005)
    return None


async def measure(server: BotAPIServer, redis_url: str, prefix: str, *, seconds: float = 20.0,
                  rate: float = 5.0, samples: int = 12) -> Result:
    bot = await BotProcess(server, redis_url, prefix, options=OPTIONS, seed=5, real_time=True,
                           rate_limiter=GroupLimiter(max_retries=3)).start()
    result = Result()
    watch = Watch(server)
    try:
        busy = await start_game(server, bot, "Busy", 100)
        # Several quiet groups, taking turns: each stays well within its own budget,
        # so what is measured is what the busy group costs the others.
        quiet = [await start_game(server, bot, f"Quiet{i}", 200 + 10 * i) for i in range(QUIET_GROUPS)]
        await bot.idle(30)
        await asyncio.sleep(3.5)  # the set-up spent some of each group's budget
        watch.start()
        for i in range(samples):
            latency = await quiet_move(server, bot, quiet[i % QUIET_GROUPS], watch)
            if latency is not None:
                result.idle.append(latency)
            await bot.idle(30)
            await asyncio.sleep(0.3)

        stop = asyncio.Event()
        last: list[JSON] = []

        async def hammer() -> None:
            while not stop.is_set():
                tick = time.monotonic()
                chosen = await pick_once(server, bot, busy)
                if chosen is not None:
                    result.picks += 1
                    last[:] = [chosen]
                elif (message := busy.message_with(keyboards.NEXT_ROUND)) is not None:  # a round ended
                    last[:] = [server.press_button(busy.group, busy.players[0], message["message_id"],
                                                   keyboards.NEXT_ROUND)]
                await asyncio.sleep(max(0.0, 1.0 / rate - (time.monotonic() - tick)))

        busy_chat = busy.group["id"]
        began = time.monotonic()
        task = asyncio.get_running_loop().create_task(hammer())
        next_quiet = began + 1.0
        sample = 0
        while time.monotonic() - began < seconds:
            if time.monotonic() >= next_quiet:
                latency = await quiet_move(server, bot, quiet[sample % QUIET_GROUPS], watch)
                sample += 1
                if latency is not None:
                    result.busy.append(latency)
                next_quiet = time.monotonic() + seconds / (samples + 1)
            await asyncio.sleep(0.05)
        ended = time.monotonic()
        stop.set()
        await task
        edits = [t for t, method, chat in watch.stamps if chat == busy_chat and began <= t <= ended]
        result.busy_edits = len(edits)
        points = [began, *edits, ended]
        result.longest_gap = max(b - a for a, b in zip(points, points[1:], strict=False))
        if last:
            await bot.settle(last[0], 60)
        await bot.idle(60)
        table = await bot.service.table(busy.chat) if bot.service else None
        status = busy.status_message()
        if table is not None and table.game is not None and status is not None:
            text = status.get("text", "")
            if table.phase == PLAYING:
                result.final_shown = f"▶ {table.seats[table.game.turn].name} (" in text
            else:  # the round ended: its own message, with the result
                result.final_shown = "Round over" in text or "wins" in text
    finally:
        await watch.stop()
        await bot.stop()
    return result


async def main(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp)).start()
        try:
            async with BotAPIServer() as server:
                r = await measure(server, redis.url, "busy", seconds=seconds)
        finally:
            redis.stop()
    idle50, idle99 = r.pct(r.idle, 0.5), r.pct(r.idle, 0.99)
    busy50, busy99 = r.pct(r.busy, 0.5), r.pct(r.busy, 0.99)
    print(f"quiet group move-to-status, other group idle: p50 {idle50 * 1000:.0f} ms, p99 {idle99 * 1000:.0f} ms")
    print(f"quiet group move-to-status, other group busy: p50 {busy50 * 1000:.0f} ms, p99 {busy99 * 1000:.0f} ms"
          f" (p50 ratio {busy50 / idle50:.2f}, goal <= 2)")
    print(f"busy group: {r.picks} picks in {seconds:.0f} s, {r.busy_edits} status edits, longest without one "
          f"{r.longest_gap:.2f} s (goal <= 4; the budget's refill: 3), final state shown: {r.final_shown}")


if __name__ == "__main__":
    asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0))
