"""`unobot telegram` as a person runs it: a separate process, polling or behind a webhook."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from unobot.adapters.telegram.cli import webhook_secret

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def unobot(server: BotAPIServer, redis: RedisServer, prefix: str, tmp: Path, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    config = tmp / "config.yaml"
    config.write_text(f"store:\n  prefix: {prefix}\n  data_dir: {tmp}\n")
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
           "UNOBOT_REDIS_URL": redis.url, "UNOBOT_CONFIG": str(config)}
    process = subprocess.Popen([sys.executable, "-m", "unobot.cli", "telegram", *args], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        yield process
    finally:
        process.send_signal(signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        # (PTB itself may log a timed-out final getUpdates while it stops; ours must log nothing bad.)
        text = output.decode(errors="replace")
        assert "ERROR adapters" not in text and "update failed" not in text, text


async def test_polling(server: BotAPIServer, redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    with unobot(server, redis_server, prefix, tmp_path):
        await server.wait_for("getUpdates", timeout=20, after=0)
        # The command menu goes out beside polling, not before it (one call per language).
        for _ in range(200):
            if server.my_commands(language_code="es"):
                break
            await asyncio.sleep(0.05)
        assert server.my_commands(language_code="es")
        group = server.group()
        update = server.send_command(group, server.user(1, "Ann"), "/new")
        call = await server.wait_answer(update, "sendMessage", timeout=30)
        assert "Ann" in call.params["text"]


async def test_webhook_with_secret(server: BotAPIServer, redis_server: RedisServer, prefix: str,
                                   tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/unobot/hook"
    with unobot(server, redis_server, prefix, tmp_path, "--webhook", url, "--listen", "127.0.0.1",
                "--port", str(port), "--secret", "s3cret"):
        call = await server.wait_for("setWebhook", timeout=20, after=0)
        assert call.params["url"] == url and call.params["secret_token"] == "s3cret"
        group = server.group()
        update = server.send_command(group, server.user(1, "Ann"), "/new")
        await server.wait_answer(update, "sendMessage", timeout=30)
        forged = server.send_command(group, server.user(2, "Mallory"), "/join", queue=False)
        assert await server.post_update_to(url, forged, secret_token="wrong") == 403


async def test_webhook_without_secret_gets_one(server: BotAPIServer, redis_server: RedisServer, prefix: str,
                                               tmp_path: Path) -> None:
    """No secret configured: one is derived from the token, so a forged post without
    it is refused, and every process of the bot sets the same one."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/unobot/hook"
    with unobot(server, redis_server, prefix, tmp_path, "--webhook", url, "--listen", "127.0.0.1",
                "--port", str(port)):
        call = await server.wait_for("setWebhook", timeout=20, after=0)
        secret = str(call.params.get("secret_token") or "")
        assert len(secret) >= 32 and server.token not in secret
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret)  # what Telegram accepts
        assert secret == webhook_secret(server.token) != webhook_secret(server.token + "x")
        group = server.group()
        update = server.send_command(group, server.user(1, "Ann"), "/new")
        await server.wait_answer(update, "sendMessage", timeout=30)
        forged = server.send_command(group, server.user(2, "Mallory"), "/join", queue=False)
        assert await server.post_update_to(url, forged, secret_token=None) == 403
        assert await server.post_update_to(url, forged, secret_token="guess") == 403


async def run_to_exit(env_changes: dict[str, str], tmp: Path, *args: str,
                      drop: tuple[str, ...] = ()) -> tuple[int, str]:
    """Run `unobot telegram [args]` until it exits (the local Bot API server keeps answering meanwhile)."""
    config = tmp / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp}\n")
    env = {**os.environ, "UNOBOT_CONFIG": str(config), **env_changes}
    for name in drop:
        env.pop(name, None)
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "telegram", *args,
                                                   cwd=ROOT, env=env,
                                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    return int(process.returncode or 0), output.decode(errors="replace")


async def test_unreachable_redis_or_api_is_one_line(server: BotAPIServer, tmp_path: Path) -> None:
    dead = free_port()
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
                             "UNOBOT_REDIS_URL": f"redis://127.0.0.1:{dead}/0"}, tmp_path)
    assert code == 1 and "Traceback" not in out, out
    assert [line for line in out.splitlines() if line.startswith("error:")] == [line for line in out.splitlines()
                                                                                if "error" in line.lower()], out
    assert "error: the store (Redis) cannot be reached" in out, out
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": "1:AA", "UNOBOT_REDIS_URL": "memory",
                             "UNOBOT_TELEGRAM_API_URL": f"http://127.0.0.1:{dead}/bot"}, tmp_path)
    assert code == 1 and "Traceback" not in out, out
    assert out.strip().splitlines()[-1].startswith("error: the Telegram Bot API cannot be reached"), out


async def test_a_broken_default_variant_stops_the_bot_in_one_line(server: BotAPIServer, tmp_path: Path) -> None:
    """The default variant is loaded once the bot takes updates (it loads every rule
    plugin, which the first update does not need); a broken one stops the bot with
    the config's error, file and line, and exit status 2, as before it started."""
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp_path}\ngame:\n  default_variant: offical\n")
    env = {**os.environ, "UNOBOT_CONFIG": str(config), "TELEGRAM_BOT_TOKEN": server.token,
           "UNOBOT_TELEGRAM_API_URL": server.base_url, "UNOBOT_REDIS_URL": "memory"}
    user = server.user(7, "Ann")
    chat = server.private_chat(user)
    update = server.send_command(chat, user, "/start")
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "telegram", cwd=ROOT, env=env,
                                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    out = output.decode(errors="replace")
    assert process.returncode == 2 and "Traceback" not in out, out
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "game.default_variant" in errors[0] and "did you mean 'official'?" in errors[0], out
    assert f"{config}:4" in errors[0], out  # the file and the line
    # The check came after start-up: the bot had talked to the Bot API (before 0e9ca5a it
    # stopped before its first call).
    assert [c.method for c in server.calls[:1]] == ["getMe"], [c.method for c in server.calls]
    # The /start that waited at start-up was served, or, when the check came first (it runs a
    # wall-clock second after start-up: on a loaded machine before the first getUpdates), it
    # is still the server's to send again: never taken and left unanswered.
    answered = [c for c in server.calls if c.method == "sendMessage" and c.params.get("chat_id") == chat["id"]]
    kept = [u for u in server.pending_updates if u["update_id"] == update["update_id"]]
    assert answered or kept, [c.method for c in server.calls]


async def test_a_bot_that_cannot_start_stops_the_embedded_server_it_started(tmp_path: Path) -> None:
    """The embedded redis-server is launched first thing (it boots while redis-py
    loads); a bot that then fails to start (here: no Bot API) stops it again."""
    dead = free_port()
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": "1:AA", "UNOBOT_TELEGRAM_API_URL": f"http://127.0.0.1:{dead}/bot"},
                                  tmp_path, drop=("UNOBOT_REDIS_URL",))
    assert code == 1 and "Traceback" not in out, out
    assert out.strip().splitlines()[-1].startswith("error: the Telegram Bot API cannot be reached"), out
    data = tmp_path / "redis"
    assert (data / "redis.log").is_file(), "the embedded server was never started"
    assert not (data / "embedded.json").exists(), "the embedded server was left running"
    pid = int((data / "redis.pid").read_text()) if (data / "redis.pid").exists() else None
    if pid is not None:  # redis-server removes its pid file on a clean shutdown
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_a_store_that_answered_is_refused_not_unreachable(server: BotAPIServer, tmp_path: Path) -> None:
    """A Redis that answered (here a replica, which would refuse every write) is "refused",
    with what to do; "cannot be reached" is kept for a store nothing answered at."""
    with RedisServer(tmp_path / "primary") as primary, RedisServer(tmp_path / "replica") as replica:
        with redis.Redis(host="127.0.0.1", port=replica.port) as client:
            client.execute_command("REPLICAOF", "127.0.0.1", str(primary.port))
        code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": server.token,
                                       "UNOBOT_TELEGRAM_API_URL": server.base_url,
                                       "UNOBOT_REDIS_URL": replica.url}, tmp_path)
    assert code == 1 and "Traceback" not in out, out
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: the store (Redis) refused: this Redis is a replica"), out
    assert "use the primary's address" in errors[0] and "cannot be reached" not in out, out


def test_command_menus_use_two_letter_language_codes() -> None:
    """Telegram keys a command menu by a two-letter ISO 639-1 code: pt_BR is
    `pt`, zh_CN `zh` (zh_TW shares it: one menu a code), never a catalogue's name."""
    from unobot.adapters.telegram.app import menu_code, menu_languages
    from unobot.chat.i18n import LANGUAGES

    codes = [menu_code(lang) for lang in menu_languages()]
    assert all(len(code) == 2 and code.isalpha() and code.islower() for code in codes)
    assert len(codes) == len(set(codes)) and set(codes) == {lang.split("_")[0] for lang in LANGUAGES}
    assert menu_code("pt_BR") == "pt" and menu_code("zh_TW") == "zh"


def test_the_rules_keyboard_keeps_telegrams_limits_with_every_language() -> None:
    """At most 8 buttons a row and 100 in all, callback data up to 64 bytes, whatever the languages shipped."""
    from unobot.adapters.telegram.keyboards import menu, rules_keyboard
    from unobot.chat.i18n import LANGUAGES

    for lang in LANGUAGES:
        markup = rules_keyboard(menu({"variant": "crazy", "rules": {}, "timer": 0, "lang": lang}, lang))
        rows = markup.inline_keyboard
        assert all(len(row) <= 8 for row in rows) and sum(map(len, rows)) <= 100
        assert all(len((b.callback_data or "").encode()) <= 64 for row in rows for b in row)
        codes = {b.callback_data for row in rows for b in row if str(b.callback_data).startswith("r:lang:")}
        assert codes == {f"r:lang:{code}" for code in LANGUAGES}  # every language reachable


async def test_a_slow_start_still_checks_the_default_variant(server: BotAPIServer, tmp_path: Path) -> None:
    """The check is a job due a second after the command built the bot; the
    job queue runs only once the bot started. A start slower than that (a
    slow Bot API here; a loaded machine, a first embedded Redis) made
    APScheduler skip it ("Run time of job ... was missed by"), so a broken
    default variant went unnoticed and the bot ran on."""
    server.slow["getMe"] = 3.0
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp_path}\ngame:\n  default_variant: offical\n")
    env = {**os.environ, "UNOBOT_CONFIG": str(config), "TELEGRAM_BOT_TOKEN": server.token,
           "UNOBOT_TELEGRAM_API_URL": server.base_url, "UNOBOT_REDIS_URL": "memory"}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "telegram", cwd=ROOT, env=env,
                                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), 30)
    except TimeoutError:
        process.kill()
        output, _ = await process.communicate()
    out = output.decode(errors="replace")
    assert "was missed by" not in out, out
    assert process.returncode == 2 and "game.default_variant" in out, out


async def test_a_refused_webhook_is_said_in_the_operators_language_with_what_to_do(
        server: BotAPIServer, tmp_path: Path) -> None:
    """setWebhook refused (here: an address that is not https) was printed in English,
    "the Telegram Bot API refused: ...", to an operator whose locale is Spanish, and
    without saying what to change. Telegram's own words stay as they were."""
    code, out = await run_to_exit({"TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
                                   "UNOBOT_REDIS_URL": "memory", "LANG": "es_ES.UTF-8", "LC_ALL": "",
                                   "LANGUAGE": ""},
                                  tmp_path, "--webhook", "ftp://example.org/hook", "--port", str(free_port()))
    assert code == 1 and "Traceback" not in out, out
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, out
    assert "the Telegram Bot API refused" not in out, out
    assert "an https url must be provided for webhook" in errors[0].lower(), out  # Telegram's words, as said
    assert "rechaz" in errors[0] and "443" in errors[0] and "--webhook" in errors[0], out
