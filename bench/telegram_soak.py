"""Memory of a Telegram bot process over thousands of games: RSS per 1,000 games.

The bot is the real `unobot telegram --webhook` command in a process of its
own (`CliBot` of tests/telegram/driver.py: config file, environment, a real
redis-server, the production rate limiter), and only the bot is measured:
this process holds the local Bot API server of tests/botapi and the players'
drivers (`StoreTurns` over `CliBalancer`: whose turn it is and when an
update was handled are read from the store and the double), and reads the
bot process's RSS from outside (psutil). It plays short games (three
people, three cards, one round), each in a group of its own with players of
its own, as a busy bot meets new chats all day. Between batches the bot's
last deferred status edits are waited for, then the local server forgets
what it recorded (`BotAPIServer.forget`), and the bot process's RSS is
read. The interpreter's blocks and arenas of another process cannot be read
from outside: this mode prints RSS only (and this process's own, which is
not the bot's).

`--in-process` hosts the bot in this process instead (`BotProcess`: the
real Application of adapters/telegram, long polling the double), which
--old-caps, --trim, --types and --trace need (they look inside the bot); its
RSS is then the bot's, the double's and the drivers' together.

Printed: RSS after each batch, and the growth per 1,000 games over the
second half of the run (the first half warms caches up to their caps: a
bounded cache grows, then stays). Issue 25 measured about 29 MB per 1,000
games that did not level off; a bot whose caches are bounded levels off.

    .venv/bin/python bench/telegram_soak.py [games] [groups at once] [batch] [--in-process] [--old-caps] [--trim] [--types N] [--trace N]

In-process, each batch's line also says how many memory blocks the interpreter holds
(`sys.getallocatedblocks`): RSS that grows while they do not is the
allocator's, not a Python object kept. `--trim` has the C allocator hand
its free memory back (`malloc_trim`) before each reading: what that takes
away was free memory the allocator kept, not memory the bot holds.

`--old-caps` puts back the caps before issue 25 (20,000 entries in each of
the runtime's caches, the "My cards" keyboards and their wire forms cached
without a bound), for the "before" figure (only the caps: a finished game's
entries now leave when it ends, whatever the caps). `--types N` prints, after every
batch from a quarter of the run on, the N types whose live objects grew most
since then (cheap: the collector's objects counted). `--trace N` runs
tracemalloc too (slower: use it to find what grows, not for the figures) and
prints the N allocation tracebacks that grew most between a quarter of the
run and its end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import psutil  # noqa: E402

from tests.botapi import BotAPIServer  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402
from tests.telegram.driver import (  # noqa: E402
    BotProcess,
    CliBalancer,
    CliBot,
    StoreReader,
    StoreTurns,
    TableDriver,
)
from tests.telegram.test_cluster_processes import open_game  # noqa: E402
from unobot.adapters.redis_store import RedisStore  # noqa: E402
from unobot.chat import commands as c  # noqa: E402
from unobot.chat.commands import Person  # noqa: E402

#: A table's driver (in-process or through the store).
D = TypeVar("D")

ADMIN = Person("setup", "Setup", None, True)


def rss_mb() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


def arenas() -> int:
    """The interpreter's small-object arenas in use (`sys._debugmallocstats`:
    1 MiB each since Python 3.10): blocks spread over more arenas is RSS
    that grows with no more blocks held."""
    import os
    import re

    with tempfile.TemporaryFile(mode="w+") as out:
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        found = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", out.read())
    return int(found.group(1).replace(",", "")) if found else -1


def malloc_trim() -> None:
    """Hand the C allocator's free memory back to the system (glibc's
    `malloc_trim`): RSS that this takes away was free, not kept."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name:
        ctypes.CDLL(name).malloc_trim(0)


async def new_tables(server: BotAPIServer, service: Any, done: int, count: int,
                     make: Callable[[Any, list[Any], int], D]) -> list[D]:
    """`count` new groups after the `done` made before, three new people
    each, their rules set for a short game (three cards, one round)."""
    drivers = []
    for g in range(done + 1, done + count + 1):
        group = server.group(title=f"Soak {g}")
        players = [server.user(10 * g + i, name) for i, name in enumerate(("Ann", "Ben", "Cid"))]
        driver = make(group, players, g)
        await service.handle(driver.chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=3))
        await service.handle(driver.chat, ADMIN, c.SetRule(rule="scoring", option="target", value=0))
        drivers.append(driver)
    return drivers


async def play_all(drivers: list[D], parallel: int, start: Callable[[D], Awaitable[None]]) -> None:
    """Every driver's game opened by `start` and played to its end, `parallel` at once."""
    queue: asyncio.Queue[D] = asyncio.Queue()
    for driver in drivers:
        queue.put_nowait(driver)

    async def worker() -> None:
        while not queue.empty():
            driver: Any = queue.get_nowait()
            await start(driver)
            await driver.play(max_steps=400)

    await asyncio.gather(*(worker() for _ in range(parallel)))


async def soak(games: int, parallel: int, batch: int, trace: int = 0, trim: bool = False) -> list[tuple[int, float]]:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp) / "redis").start()
        try:
            async with BotAPIServer() as server:
                bot = await BotProcess(server, redis.url, "soak", seed=11, real_time=True).start()
                assert bot.service is not None
                points: list[tuple[int, float]] = []
                first: tracemalloc.Snapshot | None = None
                first_types: dict[str, int] = {}
                played = 0
                g = 0
                started = time.perf_counter()
                while played < games:
                    drivers = await new_tables(
                        server, bot.service, g, min(batch, games - played),
                        lambda group, players, seed: TableDriver(server, bot, group, players, seed=seed, lean=True))
                    g += len(drivers)

                    async def by_commands(driver: TableDriver) -> None:
                        ann, ben, cid = driver.players
                        await driver.command(ann, "/new")
                        await driver.command(ben, "/join")
                        await driver.command(cid, "/join")
                        await driver.press(ann, "g:start")

                    await play_all(drivers, parallel, by_commands)
                    await bot.idle(30)
                    played += len(drivers)
                    del drivers
                    server.forget()
                    gc.collect()
                    if trim:
                        malloc_trim()
                    points.append((played, rss_mb()))
                    if trace and tracemalloc.is_tracing():
                        snapshot = tracemalloc.take_snapshot().filter_traces(TRACE_FILTERS)
                        if first is None and played >= games // 4:
                            first = snapshot
                        elif first is not None and played >= games:
                            print_growth(first, snapshot, trace)
                    if trace:
                        if not first_types and played >= games // 4:
                            first_types = type_counts()
                        elif first_types:
                            print_types(first_types, type_counts(), trace)
                    print(f"{played:6d} games  RSS {points[-1][1]:7.1f} MB  blocks {sys.getallocatedblocks():9d}  arenas {arenas():4d}  "
                          f"({time.perf_counter() - started:5.0f} s)", flush=True)
                await bot.stop()
                return points
        finally:
            redis.stop()


async def quiet(server: BotAPIServer, still: float = 3.0, timeout: float = 120.0) -> None:
    """Until the bot process made no call for `still` seconds: the status
    edits it defers to the groups' budgets are out, so forgetting the
    double's chats does not answer a late edit with "chat not found"."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen, since = len(server.calls), loop.time()
    while loop.time() - since < still and loop.time() < deadline:
        await asyncio.sleep(0.2)
        if len(server.calls) != seen:
            seen, since = len(server.calls), loop.time()


async def soak_process(games: int, parallel: int, batch: int) -> list[tuple[int, float]]:
    """The bot as `unobot telegram --webhook` in a process of its own
    (`CliBot`: config file, environment, the production rate limiter); this
    process holds only the Bot API double, Redis's client and the drivers,
    and reads the bot process's RSS from outside (psutil). Its allocated
    blocks and arenas cannot be read from outside: RSS only."""
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp) / "redis").start()
        try:
            async with BotAPIServer() as server:
                bot = CliBot(server, redis.url, "soak", Path(tmp) / "bot", port=free_port()).start()
                reader = StoreReader(RedisStore.from_url(redis.url, prefix="soak"))
                try:
                    await bot.ready()
                    assert bot.process is not None
                    process = psutil.Process(bot.process.pid)
                    router = CliBalancer(server, [bot], reader, seed=11, timeout=60.0)
                    points: list[tuple[int, float]] = []
                    played = g = 0
                    started = time.perf_counter()
                    while played < games:
                        drivers = await new_tables(
                            server, reader.service, g, min(batch, games - played),
                            lambda group, players, seed: StoreTurns(server, router, group, players, seed=seed,
                                                                    check_privacy=False))
                        g += len(drivers)
                        await play_all(drivers, parallel, lambda driver: open_game(driver, reader))
                        await quiet(server)
                        played += len(drivers)
                        del drivers
                        server.forget()
                        gc.collect()
                        points.append((played, float(process.memory_info().rss) / 2**20))
                        print(f"{played:6d} games  bot process RSS {points[-1][1]:7.1f} MB  "
                              f"(this process, the double and the drivers: {rss_mb():6.1f} MB)  "
                              f"({time.perf_counter() - started:5.0f} s)", flush=True)
                    return points
                finally:
                    log = bot.stop()
                    await reader.close()
                    if "Traceback" in log:
                        print(log[-4000:], file=sys.stderr)
        finally:
            redis.stop()


TRACE_FILTERS = (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>"))


def print_growth(first: tracemalloc.Snapshot, now: tracemalloc.Snapshot, top: int) -> None:
    """The allocation tracebacks whose live allocations grew most since the
    first traced batch, innermost frame first."""
    stats = now.compare_to(first, "traceback")
    total = sum(s.size_diff for s in stats)
    print(f"  traced growth since the first traced batch: {total / 2**20:+.2f} MB", flush=True)
    for stat in stats[:top]:
        print(f"    {stat.size_diff / 2**10:+9.1f} KiB {stat.count_diff:+7d} blocks", flush=True)
        for frame in stat.traceback:
            print(f"        {frame.filename}:{frame.lineno}", flush=True)


def type_counts() -> dict[str, int]:
    """Live objects the collector tracks, by type."""
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        counts[name] = counts.get(name, 0) + 1
    return counts


def print_types(first: dict[str, int], now: dict[str, int], top: int) -> None:
    """The types whose live objects grew most since the first traced batch."""
    diff = sorted(((now.get(k, 0) - first.get(k, 0), k) for k in set(first) | set(now)), reverse=True)
    print("  objects by type, growth since then: " + ", ".join(f"{name} {n:+d}" for n, name in diff[:top] if n),
          flush=True)


def slope(points: list[tuple[int, float]]) -> float:
    """MB per 1,000 games, least squares over the second half of the points."""
    half = points[len(points) // 2:]
    if len(half) < 2:
        return float("nan")
    n = len(half)
    mx = sum(x for x, _ in half) / n
    my = sum(y for _, y in half) / n
    var = sum((x - mx) ** 2 for x, _ in half)
    return 1000.0 * sum((x - mx) * (y - my) for x, y in half) / var if var else float("nan")


def old_caps() -> None:
    """The caches as they were before issue 25 (see the module's docstring)."""
    from unobot.adapters.telegram import bot, keyboards, runtime

    runtime.CACHE_SIZE = 20000
    keyboards.PLAY_KEYBOARDS.size = bot.WIRE_FORMS.size = 2**62  # a finished game's still leave


def median_step(points: list[tuple[int, float]]) -> float:
    """MB per 1,000 games, the median of the batch-to-batch growths: what RSS
    does between the allocator's one-off steps (a new arena shows as a jump
    of several MB once, which a least-squares slope over few points reads as
    steady growth)."""
    steps = sorted(1000.0 * (y1 - y0) / (x1 - x0) for (x0, y0), (x1, y1) in zip(points, points[1:]))
    return steps[len(steps) // 2] if steps else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=2000)
    parser.add_argument("parallel", nargs="?", type=int, default=8)
    parser.add_argument("batch", nargs="?", type=int, default=200)
    parser.add_argument("--in-process", action="store_true",
                        help="host the bot in this process (BotProcess) with the double and the drivers; "
                             "implied by --old-caps, --trim, --types and --trace")
    parser.add_argument("--old-caps", action="store_true", help="the caches' caps before issue 25")
    parser.add_argument("--trace", type=int, default=0, metavar="N",
                        help="run tracemalloc and print the N tracebacks whose allocations grew most")
    parser.add_argument("--trim", action="store_true",
                        help="hand free C-allocator memory back (malloc_trim) before each RSS reading")
    parser.add_argument("--types", type=int, default=0, metavar="N",
                        help="print the N types whose live objects grew most (cheap: no tracemalloc)")
    args = parser.parse_args()
    if not (args.in_process or args.old_caps or args.trim or args.types or args.trace):
        points = asyncio.run(soak_process(args.games, args.parallel, args.batch))
    else:
        if args.old_caps:
            old_caps()
        if args.trace:
            tracemalloc.start(6)
        points = asyncio.run(soak(args.games, args.parallel, args.batch, args.trace or args.types, args.trim))
    first, last = points[0], points[-1]
    print(f"RSS {first[1]:.1f} MB after {first[0]} games, {last[1]:.1f} MB after {last[0]}; "
          f"growth over the second half: {slope(points):.1f} MB per 1,000 games (least squares), "
          f"median batch-to-batch {median_step(points):.1f} MB per 1,000 games")


if __name__ == "__main__":
    main()
