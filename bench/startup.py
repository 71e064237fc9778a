"""Cold start: `unobot --help` against a bare `python -c pass`, and `unobot
telegram`'s first handled update against a bare python-telegram-bot bot's,
in the same run.

    .venv/bin/python bench/startup.py [--runs 9] [--help-runs 15]

First update: a private chat's `/start` is waiting at a local Bot API server
(tests/botapi, started here, a fresh one for each start) when the bot
process is started; the time is from starting the process to the server
receiving the bot's `sendMessage` in that chat. Measured, alternating, for
`unobot telegram` (long polling) with the store `redis.url: memory`, with a
real redis-server's URL (started here), with the embedded default (unobot
starts its own redis-server; a clean stop shuts it down, so every start
pays for it), and for a bare PTB bot script (`Application.builder()`, one
CommandHandler answering `reply_text`, `run_polling()`) on the same server.
Each process is stopped with Ctrl-C (SIGINT) after it answered. Python's
bytecode cache is on (in a folder of the run's, also for `--help`), and each
command runs once untimed first, as an installed bot's modules are compiled
already.

Prints the medians and unobot/bare ratios (the median of each run's ratio:
the runs alternate who goes first, and a busy machine slows a whole run). Goals: first update within 1.2x
of the bare bot, `unobot --help` under 0.2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.botapi import BotAPIServer  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402

BIN = Path(sys.executable).parent
BARE = "bare PTB bot"

BARE_BOT = '''\
import os

from telegram import Update
from telegram.ext import Application, CommandHandler, ContextTypes


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await update.effective_message.reply_text("Hello! Add me to a group to play.")


app = Application.builder().token(os.environ["TELEGRAM_BOT_TOKEN"]).base_url(
    os.environ["UNOBOT_TELEGRAM_API_URL"]).build()
app.add_handler(CommandHandler("start", start))
app.run_polling()
'''


def median_seconds(args: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs + 1):  # the first, not counted, writes the bytecode cache
        t0 = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times[1:])


def cached_bytecode(folder: Path) -> dict[str, str]:
    """The environment with Python's bytecode cache on, in a folder of this run's
    (not in the checkout), as it is for an installed or once-run bot: with
    PYTHONDONTWRITEBYTECODE every start would compile unobot's sources while
    python-telegram-bot's come precompiled."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, all threads) a running process has used so far (Linux: /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return float("nan")
    fields = stat.rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def first_update(command: list[str], env: dict[str, str], cwd: Path, log: Path) -> tuple[float, float]:
    """Seconds from starting `command` to its answer to a waiting /start: wall
    time, and the CPU time the process had used by then (what a busy
    machine disturbs least)."""
    async with BotAPIServer() as server:
        user = server.user(7, "Ann")
        chat = server.private_chat(user)
        server.send_command(chat, user, "/start")
        env = {**env, "TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url}
        with log.open("ab") as out:
            t0 = time.perf_counter()
            process = await asyncio.create_subprocess_exec(*command, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                                           stdout=out, stderr=subprocess.STDOUT)
            try:
                await server.wait_for("sendMessage", lambda p: p.get("chat_id") == chat["id"], timeout=60, after=0)
                elapsed = time.perf_counter() - t0
                cpu = cpu_seconds(process.pid)
            finally:
                if process.returncode is None:
                    process.send_signal(signal.SIGINT)
                try:
                    await asyncio.wait_for(process.wait(), 30)
                except TimeoutError:
                    process.kill()
                    await process.wait()
    return elapsed, cpu


async def first_updates(runs: int, folder: Path) -> dict[str, list[tuple[float, float]]]:
    bare = folder / "bare_bot.py"
    bare.write_text(BARE_BOT)
    config = folder / "config.yaml"
    config.write_text(f"store:\n  data_dir: {folder / 'data'}\n  prefix: startup\n")
    base = {k: v for k, v in cached_bytecode(folder).items() if k not in ("UNOBOT_REDIS_URL", "UNOBOT_DATA_DIR")}
    base["UNOBOT_CONFIG"] = str(config)
    unobot = [str(BIN / "unobot"), "telegram"]
    with RedisServer(folder / "redis-server") as redis:
        kinds: dict[str, tuple[list[str], dict[str, str]]] = {
            BARE: ([sys.executable, str(bare)], base),
            "unobot, memory store": (unobot, {**base, "UNOBOT_REDIS_URL": "memory"}),
            "unobot, redis-server URL": (unobot, {**base, "UNOBOT_REDIS_URL": redis.url}),
            "unobot, embedded (default)": (unobot, base),
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in kinds}
        names = list(kinds)
        for name in names:  # a first start of each, not timed: it writes the bytecode cache
            command, env = kinds[name]
            await first_update(command, env, folder, folder / "bots.log")
        for run in range(runs):
            order = names[run % len(names):] + names[:run % len(names)]  # alternate who goes first
            for name in order:
                command, env = kinds[name]
                times[name].append(await first_update(command, env, folder, folder / "bots.log"))
            print(f"  run {run + 1}: " + ", ".join(f"{n} {times[n][-1][0]:.3f} s (cpu {times[n][-1][1]:.2f})"
                                                   for n in names), flush=True)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="starts of each bot (first update)")
    parser.add_argument("--help-runs", type=int, default=15, help="runs of `unobot --help`")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="unobot-startup-") as folder:
        env = cached_bytecode(Path(folder))
        bare = median_seconds([sys.executable, "-c", "pass"], args.help_runs, env)
        helped = median_seconds([str(BIN / "unobot"), "--help"], args.help_runs, env)
        print(f"python -c pass   {bare:.3f} s")
        print(f"unobot --help    {helped:.3f} s   (unobot's own start: {helped - bare:.3f} s; goal < 0.2 s)")
        print("first handled update (/start in a private chat, answered by sendMessage):", flush=True)
        times = asyncio.run(first_updates(args.runs, Path(folder)))
    for what, index in (("wall time", 0), ("CPU time of the bot process by then", 1)):
        print(f"{what} (median of {args.runs}; x: the median of the runs' ratios to the bare bot, "
              "their range, and the ratio of the medians; goal <= 1.2x):")
        bare_times = [t[index] for t in times[BARE]]
        print(f"  {BARE:28} {statistics.median(bare_times):.3f} s")
        for name, pairs in times.items():
            if name == BARE:
                continue
            values = [t[index] for t in pairs]
            paired = sorted(ours / theirs for ours, theirs in zip(values, bare_times, strict=True))
            print(f"  {name:28} {statistics.median(values):.3f} s  {statistics.median(paired):.2f}x "
                  f"({paired[0]:.2f} to {paired[-1]:.2f}; ratio of medians "
                  f"{statistics.median(values) / statistics.median(bare_times):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
