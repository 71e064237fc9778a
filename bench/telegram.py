"""Updates per second through whole Telegram games, against a bare bot, in one run.

Both bots run python-telegram-bot 22 with the same settings (long polling
against the local Bot API server of tests/botapi, concurrent updates, the
same rate limiter without client-side pacing). `unobot` plays whole games
among three people per group (commands, buttons, inline queries, picked
results, through the chat service and a real redis-server); the bare bot
gets the same number and mix of updates and only answers each one with a
single call (answerInlineQuery, answerCallbackQuery, sendMessage). The same
driver delivers the updates to both and waits for each to be handled, with
several groups playing at once.

Printed: updates per second of each, their ratio (goal >= 0.8), the new
group messages per turn unobot itself sends (goal <= 1), and, on their own
line, all new group messages per turn: unobot's plus what the players post
(each pick of an inline result posts a "via @bot" message; /new and /join
are typed). A turn is a change of the player on turn, not a move: a draw
and then a pass are one turn. The driver counts turns from the status
message it reads anyway (no store reads while timed); after the timed part
the games' move logs are read to check that count.

    .venv/bin/python bench/telegram.py [games a run] [groups at once] [runs] [--bare-json]

unobot posts JSON bodies (adapters/telegram/transport.py); the bare bot
keeps PTB's default form encoding, as a bare bot would, unless --bare-json
gives it the same transport to show what the rest of unobot costs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

# Run as a script, this file's folder comes first on sys.path, and this file
# is called telegram.py: put the project root there instead, so `import
# telegram` finds python-telegram-bot and `tests` is importable.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from telegram import InlineQueryResultArticle, InputTextMessageContent, Update  # noqa: E402
from telegram.ext import (  # noqa: E402
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
)

from tests.botapi import BotAPIServer  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.telegram.driver import BotProcess, TableDriver, no_throttle  # noqa: E402
from unobot.adapters.telegram.transport import JsonRequest  # noqa: E402
from unobot.chat import commands as c  # noqa: E402
from unobot.chat.commands import Person  # noqa: E402

if TYPE_CHECKING:
    from unobot.adapters.redis_store import RedisStore

ADMIN = Person("bench", "Bench", None, True)
CONCURRENT = 64
#: Whether the bare bot posts JSON bodies like unobot (`--bare-json`) or PTB's default forms.
BARE_JSON = False
#: CPU seconds of this process (bot, driver and Bot API server) in the last run of each.
CPU: dict[str, float] = {}


@dataclass
class Counts:
    """What one run of unobot put into its groups, and in how many turns."""

    sends: int = 0  # new messages unobot sent to the groups (sendMessage)
    picks: int = 0  # "via @bot" messages the players' picks posted
    typed: int = 0  # commands the players typed (/new, /join)
    turns: int = 0  # changes of the player on turn, as the driver saw them in the status
    logged_turns: int = 0  # the same, counted in the games' move logs after the run
    moves: int = 0

    @property
    def messages(self) -> int:
        return self.sends + self.picks + self.typed

    def add(self, other: Counts) -> None:
        for name in ("sends", "picks", "typed", "turns", "logged_turns", "moves"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def log_turns(log: list[str]) -> int:
    """Turns in a game's move log: runs of entries by one seat ("<seat> <move>"),
    a new round starting a new turn ("next_round")."""
    turns, last = 0, None
    for entry in log:
        who = entry.split(" ", 1)[0]
        if entry == "next_round":
            last = None
        elif who.isdigit() and who != last:
            turns, last = turns + 1, who
    return turns


async def logged_turns(store: RedisStore, chats: list[str]) -> int:
    """Turns in the move logs of every game of `chats` (the key prefix is the run's own)."""
    total = 0
    for chat in chats:
        prefix = store.keys.games_prefix(chat)
        async for key in store.client.scan_iter(match=f"{prefix}*:state"):
            nonce = (key.decode() if isinstance(key, bytes) else key)[len(prefix):-len(":state")]
            total += log_turns(await store.read_log(f"{chat}#{nonce}"))
    return total


async def play_unobot(server: BotAPIServer, redis_url: str, games: int, parallel: int, run: int
                      ) -> tuple[float, int, list[list[tuple[str, int]]], Counts]:
    """Whole games through unobot; returns (seconds, updates, traces, counts)."""
    bot = await BotProcess(server, redis_url, f"bench{run}", seed=11, real_time=True).start()
    assert bot.service is not None and bot.store is not None
    drivers = []
    for g in range(games):
        group = server.group(title=f"Bench {g}")
        players = [server.user(1000 * (g + 1) + i, name) for i, name in enumerate(("Ann", "Ben", "Cid"))]
        driver = TableDriver(server, bot, group, players, seed=g, lean=True)
        chat = driver.chat
        await bot.service.handle(chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=5))
        await bot.service.handle(chat, ADMIN, c.SetRule(rule="scoring", option="target", value=0))
        drivers.append(driver)
    sends_before = len([p for p in server.calls_to("sendMessage") if p["chat_id"] < 0])
    queue: asyncio.Queue[TableDriver] = asyncio.Queue()
    for driver in drivers:
        queue.put_nowait(driver)

    async def worker() -> None:
        while not queue.empty():
            driver = queue.get_nowait()
            ann, ben, cid = driver.players
            await driver.command(ann, "/new")
            await driver.command(ben, "/join")
            await driver.command(cid, "/join")
            await driver.press(ann, "g:start")
            await driver.play()

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(worker() for _ in range(parallel)))
    seconds = time.perf_counter() - started
    CPU["unobot"] = time.process_time() - cpu
    counts = Counts(
        sends=len([p for p in server.calls_to("sendMessage") if p["chat_id"] < 0]) - sends_before,
        picks=sum(kind == "via_bot" for d in drivers for kind, _user in d.trace),
        typed=sum(kind == "message" for d in drivers for kind, _user in d.trace),
        turns=sum(d.stats.turns for d in drivers),
        logged_turns=await logged_turns(bot.store, [d.chat for d in drivers]),
        moves=sum(d.stats.moves for d in drivers))
    await bot.stop()
    return seconds, sum(d.stats.updates for d in drivers), [d.trace for d in drivers], counts


# -- the bare bot -------------------------------------------------------------------------

async def bare_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text("ok", do_quote=False)


async def bare_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.callback_query is not None
    await update.callback_query.answer("ok")


async def bare_inline(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.inline_query is not None
    await update.inline_query.answer(
        [InlineQueryResultArticle(id="1", title="R5", input_message_content=InputTextMessageContent("R5"))],
        cache_time=0, is_personal=True)


async def bare_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.chosen_inline_result is not None
    await context.bot.send_message(context.bot_data["group"], "played")


async def play_bare(server: BotAPIServer, traces: list[list[tuple[str, int]]], parallel: int) -> tuple[float, int]:
    builder = (Application.builder().token(server.token).base_url(server.base_url)
               .rate_limiter(no_throttle()).concurrent_updates(CONCURRENT))
    if BARE_JSON:
        builder = builder.request(JsonRequest()).get_updates_request(JsonRequest(connection_pool_size=1))
    app: Any = builder.build()
    app.add_handler(CommandHandler("new", bare_message))
    app.add_handler(CallbackQueryHandler(bare_button))
    app.add_handler(InlineQueryHandler(bare_inline))
    app.add_handler(ChosenInlineResultHandler(bare_chosen))
    await app.initialize()
    await app.updater.start_polling(timeout=1, poll_interval=0)
    await app.start()
    group = server.group(title="Bare")
    user = server.user(99, "Zed")
    app.bot_data["group"] = group["id"]
    lobby = await app.bot.send_message(group["id"], "lobby", reply_markup={"inline_keyboard": [[
        {"text": "Join", "callback_data": "j"}]]})

    async def deliver(update: dict[str, Any]) -> None:
        await server.wait_consumed(update, timeout=10)
        await asyncio.wait_for(app.update_queue.join(), 10)

    queue: asyncio.Queue[list[tuple[str, int]]] = asyncio.Queue()
    for trace in traces:
        queue.put_nowait(trace)
    count = 0

    async def worker() -> None:
        nonlocal count
        while not queue.empty():
            for kind, _user in queue.get_nowait():
                if kind == "message":
                    update = server.send_command(group, user, "/new")
                elif kind == "callback_query":
                    update = server.press_button(group, user, lobby.message_id, "j")
                elif kind == "inline_query":
                    update = server.inline_query(user, "")
                elif kind == "chosen_inline_result":
                    update = server.choose_inline_result(user, "1")
                else:  # the "via @bot" message a pick posts
                    update = server.via_bot_message(group, user, "R5")
                await deliver(update)
                count += 1

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(worker() for _ in range(parallel)))
    seconds = time.perf_counter() - started
    CPU["bare"] = time.process_time() - cpu
    await app.updater.stop()
    await app.stop()
    await app.shutdown()
    return seconds, count


async def main(games: int, parallel: int, repeats: int) -> None:
    """Alternate the two bots `repeats` times and compare medians and best
    runs: the machine may be busy with other work; alternating spreads that
    over both, and a best run is the one least disturbed."""
    logging.basicConfig(level=logging.WARNING)
    ours: list[float] = []
    bare: list[float] = []
    cpu_ours: list[float] = []
    cpu_bare: list[float] = []
    total = Counts()  # over all runs
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp) / "redis").start()
        try:
            for run in range(repeats):
                async with BotAPIServer() as server:
                    seconds, updates, traces, counts = await play_unobot(server, redis.url, games, parallel, run)
                total.add(counts)
                ours.append(updates / seconds)
                async with BotAPIServer() as server:
                    bare_seconds, bare_updates = await play_bare(server, traces, parallel)
                bare.append(bare_updates / bare_seconds)
                cpu_ours.append(CPU["unobot"] / updates)
                cpu_bare.append(CPU["bare"] / bare_updates)
                print(f"  run: unobot {ours[-1]:7.1f}/s, bare {bare[-1]:7.1f}/s, ratio {ours[-1] / bare[-1]:.2f}; "
                      f"CPU a update: unobot {1000 * CPU['unobot'] / updates:.2f} ms, "
                      f"bare {1000 * CPU['bare'] / bare_updates:.2f} ms", flush=True)
        finally:
            redis.stop()
    mine, theirs = statistics.median(ours), statistics.median(bare)
    paired = statistics.median(o / b for o, b in zip(ours, bare, strict=True))
    print(f"games: {games} a run, groups at once: {parallel}, runs: {repeats}, updates a run: {updates}")
    print(f"unobot    {mine:8.1f} updates/s (median)")
    print(f"bare PTB  {theirs:8.1f} updates/s (median)")
    print(f"ratio unobot/bare: {paired:.2f} (median of the runs' ratios; goal >= 0.8); "
          f"{mine / theirs:.2f} (ratio of medians), {max(ours) / max(bare):.2f} (best runs)")
    print(f"by CPU time a update: {min(cpu_bare) / min(cpu_ours):.2f} (best runs: unobot "
          f"{1000 * min(cpu_ours):.2f} ms, bare {1000 * min(cpu_bare):.2f} ms)")
    turns = max(1, total.turns)
    print(f"new group messages per turn: {total.sends / turns:.3f}  "
          f"({total.sends} sent by unobot, {total.turns} turns, {total.moves} moves, all runs; goal <= 1)")
    print(f"all new group messages per turn: {total.messages / turns:.3f}  "
          f"({total.sends} by unobot + {total.picks} picks via @bot + {total.typed} typed commands "
          f"= {total.messages}, {total.turns} turns)")
    if total.logged_turns != total.turns:
        print(f"  note: the games' move logs count {total.logged_turns} turns, the driver saw {total.turns}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=10, help="games a run (default 10)")
    parser.add_argument("groups", nargs="?", type=int, default=4, help="groups playing at once (default 4)")
    parser.add_argument("runs", nargs="?", type=int, default=3, help="alternated runs of each bot (default 3)")
    parser.add_argument("--bare-json", action="store_true",
                        help="give the bare bot unobot's JSON transport too (isolates the rest of unobot's cost)")
    ns = parser.parse_args()
    BARE_JSON = ns.bare_json
    asyncio.run(main(ns.games, ns.groups, ns.runs))
