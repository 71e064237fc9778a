"""`unobot telegram` as an operator starts it (issue 25): one line saying who
the bot is, how it takes updates and what its store keeps; a warning for a
Redis that keeps nothing on disk (and no "nothing was lost" after its
outage); no token ever printed; a health endpoint and Prometheus metrics
behind a webhook, the same counters on SIGUSR1 when polling."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from aiohttp import ClientSession, ClientTimeout

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.test_cli import free_port, run_to_exit

ROOT = Path(__file__).resolve().parents[2]


class Run:
    """A running `unobot telegram`; `output` is all it printed, once it stopped."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.output = ""


@asynccontextmanager
async def unobot(server: BotAPIServer, redis_url: str, prefix: str, tmp: Path, *args: str,
                 config: str = "") -> AsyncIterator[Run]:
    """`config`: more of config.yaml, after the store's section."""
    path = tmp / "config.yaml"
    path.write_text(f"store:\n  prefix: {prefix}\n  data_dir: {tmp}\n{config}")
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
           "UNOBOT_REDIS_URL": redis_url, "UNOBOT_CONFIG": str(path)}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "telegram", *args,
                                                   cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                                   stderr=subprocess.STDOUT)
    run = Run(process)
    try:
        yield run
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
        try:
            output, _ = await asyncio.wait_for(process.communicate(), 20)
        except TimeoutError:
            process.kill()
            output, _ = await process.communicate()
        run.output = output.decode(errors="replace")


def ready_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("unobot: running as")]
    assert len(lines) == 1, output
    return lines[0]


async def test_a_polling_start_says_who_the_bot_is_and_that_its_store_persists(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    async with unobot(server, redis_server.url, prefix, tmp_path) as run:
        await server.wait_for("getUpdates", timeout=20, after=0)
        group = server.group()
        update = server.send_command(group, server.user(1, "Ann"), "/new")
        await server.wait_answer(update, "sendMessage", timeout=30)
        # A second /new meets the chat's game: the store's answer, not its failure.
        update = server.send_command(group, server.user(2, "Ben"), "/new")
        answer = await server.wait_answer(update, "sendMessage", timeout=30)
        assert "already waiting for players" in answer.params["text"], answer.params
        assert run.process.pid is not None
        os.kill(run.process.pid, signal.SIGUSR1)  # the counters, printed
        await asyncio.sleep(1.0)
    line = ready_line(run.output)
    assert f"@{server.bot_user['username']}" in line and "(polling)" in line, line
    assert "store: Redis (append-only file" in line, line
    assert "warning" not in run.output.lower(), run.output
    assert server.token not in run.output and server.token.split(":")[1] not in run.output
    assert 'unobot_updates_total{frontend="telegram",outcome="admitted"}' in run.output, run.output
    assert 'unobot_store_seconds_count{frontend="telegram",op="create_game"} 2.0' in run.output, run.output
    # A chat that has a game is no store error (an operator alerts on them), and
    # the lobby's expiry job is not logged line by line (APScheduler's INFO).
    assert "unobot_store_errors_total{" not in run.output, run.output
    assert "apscheduler" not in run.output, run.output


async def test_a_redis_that_keeps_nothing_is_said_and_its_outage_promises_nothing(
        server: BotAPIServer, prefix: str, tmp_path: Path) -> None:
    """A Redis with neither snapshots nor the append-only file: a warning at
    start-up; once it is gone, the players are not told "nothing was lost"."""
    with RedisServer(tmp_path / "volatile", appendonly=False) as volatile:
        async with unobot(server, volatile.url, prefix, tmp_path) as run:
            await server.wait_for("getUpdates", timeout=20, after=0)
            group = server.group()
            ann = server.user(1, "Ann")
            update = server.send_command(group, ann, "/new")
            await server.wait_answer(update, "sendMessage", timeout=30)
            volatile.stop()
            update = server.send_command(group, server.user(2, "Ben"), "/join")
            answer = await server.wait_answer(update, "sendMessage", timeout=30)
    line = ready_line(run.output)
    assert "keeps nothing on disk" in line, line
    assert "warning: the store keeps nothing on disk" in run.output, run.output
    text = answer.params["text"]
    assert "nothing was lost" not in text and "keeps nothing on disk" in text, text


async def test_a_rejected_token_is_not_printed(server: BotAPIServer, tmp_path: Path) -> None:
    server.rejected_tokens.add(server.token)
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
                                   "UNOBOT_REDIS_URL": "memory"}, tmp_path)
    assert code == 1, out
    assert "error: Telegram refused the bot token" in out, out
    secret = server.token.split(":")[1]
    assert server.token not in out and secret not in out, out


async def test_a_webhook_bot_serves_health_and_metrics(server: BotAPIServer, redis_server: RedisServer,
                                                       prefix: str, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/unobot/hook"
    async with unobot(server, redis_server.url, prefix, tmp_path, "--webhook", url, "--listen", "127.0.0.1",
                      "--port", str(port)) as run:
        await server.wait_for("setWebhook", timeout=20, after=0)
        await server.wait_for("setMyCommands", timeout=20, after=0)  # sent once Telegram took the webhook
        group = server.group()
        update = server.send_command(group, server.user(1, "Ann"), "/new")
        await server.wait_answer(update, "sendMessage", timeout=30)
        async with ClientSession(timeout=ClientTimeout(total=10)) as session:
            async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert response.status == 200 and (await response.text()).strip() == "ok"
            async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                assert response.status == 200
                metrics = await response.text()
            # A body above the cap is refused before it is read.
            async with session.post(url, data=b"x" * (2 << 20), headers={
                    "X-Telegram-Bot-Api-Secret-Token": server.webhook_secret or ""}) as response:
                assert response.status == 413
    assert 'unobot_updates_total{frontend="telegram",outcome="admitted"}' in metrics, metrics
    assert 'unobot_games_running{frontend="telegram"} 1.0' in metrics, metrics
    assert "# TYPE unobot_update_seconds summary" in metrics and "# TYPE unobot_store_errors_total counter" in metrics
    line = ready_line(run.output)
    assert f"(webhook {url}, serving 127.0.0.1:{port} with /healthz and /metrics); store: Redis (" in line, line


async def test_a_webhook_port_in_use_stops_the_bot_before_it_says_it_runs(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    """Another process holds the port: one line naming the address, exit 1,
    and nothing a running bot does first (no "running as ... serving" line,
    no command menu posted, no webhook set)."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        url = f"http://127.0.0.1:{port}/unobot/hook"
        async with unobot(server, redis_server.url, prefix, tmp_path, "--webhook", url, "--listen", "127.0.0.1",
                          "--port", str(port)) as run:
            await asyncio.wait_for(run.process.wait(), 30)
    assert run.process.returncode == 1, run.output
    assert f"error: the bot could not start: the webhook server cannot listen on 127.0.0.1:{port}: " \
        in run.output, run.output
    assert "running as" not in run.output and "setMyCommands" not in run.output, run.output
    assert not server.calls_to("setMyCommands") and not server.calls_to("setWebhook")


async def test_a_web_table_port_in_use_stops_the_bot_before_it_says_it_runs(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    """`web.enabled` with web.port taken: the same one line, naming the web table."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with unobot(server, redis_server.url, prefix, tmp_path,
                          config=f"web:\n  enabled: true\n  port: {port}\n") as run:
            await asyncio.wait_for(run.process.wait(), 30)
    assert run.process.returncode == 1, run.output
    assert f"error: the bot could not start: the web table cannot listen on 127.0.0.1:{port}: " \
        in run.output, run.output
    assert "running as" not in run.output and "setMyCommands" not in run.output, run.output
    assert not server.calls_to("setMyCommands")


async def test_a_webhook_telegram_refuses_stops_the_bot_with_what_it_said(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    """setWebhook refused (here: not an http(s) URL; in production also a port
    Telegram does not post to): "refused" with Telegram's words, not "cannot
    be reached"; no "running as" line before it and no command menu sent by
    a client that is closing ("setMyCommands failed" once per language)."""
    port = free_port()
    async with unobot(server, redis_server.url, prefix, tmp_path, "--webhook", f"ftp://127.0.0.1:{port}/hook",
                      "--listen", "127.0.0.1", "--port", str(port)) as run:
        await asyncio.wait_for(run.process.wait(), 30)
    assert run.process.returncode == 1, run.output
    assert "error: the Telegram Bot API refused the webhook: Bad webhook: an https url must be provided" \
        in run.output, run.output
    assert "a public https:// address on port 443, 80, 88 or 8443" in run.output, run.output  # what to do
    assert "running as" not in run.output and "setMyCommands" not in run.output, run.output
    assert not server.calls_to("setMyCommands")


async def test_a_webhook_secret_telegram_would_refuse_is_said_before_the_start(
        server: BotAPIServer, tmp_path: Path) -> None:
    """`--secret` is checked as `telegram.webhook.secret` is (Telegram takes
    1-256 of A-Z a-z 0-9 _ -): one line, exit 2, before the bot starts."""
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
                                   "UNOBOT_REDIS_URL": "memory"}, tmp_path,
                                  "--webhook", "https://bot.example.org/hook", "--secret", "not a secret!")
    assert code == 2, out
    assert out.strip() == "error: --secret: Telegram accepts 1-256 characters: letters, digits, _ and -", out
    assert not server.calls_to("getMe")


async def test_a_turn_timer_due_while_the_process_was_held_still_rings(
        server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    """The bot's process is held past a turn timer (SIGSTOP here; a loaded
    machine or a storm of updates holds its event loop the same way). APScheduler
    skipped a job more than a second late ("was missed by"): the timer never
    rang and the game waited for a player who had run out of time."""
    async with unobot(server, redis_server.url, prefix, tmp_path,
                      config="game:\n  turn_seconds: 3\n") as run:
        await server.wait_for("getUpdates", timeout=20, after=0)
        group = server.group()
        ann, ben = server.user(1, "Ann"), server.user(2, "Ben")
        for user, command in ((ann, "/new"), (ben, "/join"), (ann, "/start")):
            await server.wait_answer(server.send_command(group, user, command), timeout=30)
        assert run.process.pid is not None
        os.kill(run.process.pid, signal.SIGSTOP)
        await asyncio.sleep(5.5)  # the timer was due at 3 s
        mark = server.mark()
        os.kill(run.process.pid, signal.SIGCONT)
        await server.wait_for("editMessageText", lambda p: "ran out of time" in p.get("text", ""),
                              timeout=10, after=mark)
    assert "was missed by" not in run.output, run.output


async def test_a_listen_address_that_is_no_host_is_named(server: BotAPIServer, tmp_path: Path) -> None:
    """`--listen 999.1.1.1`: said as a port in use is, naming what could not listen where."""
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
                                   "UNOBOT_REDIS_URL": "memory"}, tmp_path,
                                  "--webhook", "https://bot.example.org/hook", "--listen", "999.1.1.1")
    assert code == 1, out
    assert out.strip().startswith("error: the bot could not start: the webhook server cannot listen on "
                                  "999.1.1.1:8443: "), out
