"""What `unobot telegram`'s cold start relies on (bench/startup.py times it; no timing here).

* The HTTP clients read no CA file for an `http://` Bot API address (a
  local server), and one, shared, for `https://`: reading it is most of
  what making an httpx client costs (PTB's own client reads it when made).
* With `redis.url: memory` the command never imports redis-py.
* The command menu (two setMyCommands calls) goes out after the store is
  open, without holding up the first update, and only when the store does
  not say this bot set the same menu less than a day ago.
* `unobot --help` imports none of the heavy packages (each command imports
  what it needs when it runs).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import ssl
import sys
from pathlib import Path
from typing import Any

import pytest
from telegram.request import HTTPXRequest

from tests.botapi import BotAPIServer
from tests.support.fresh_python import fresh_python
from unobot.adapters.telegram import transport
from unobot.adapters.telegram.app import menu_languages
from unobot.adapters.telegram.transport import JsonRequest, TlsWhenNeeded

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ca_reads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every CA file an SSL context reads from now on (the shared context is forgotten first)."""
    reads: list[Any] = []
    load = ssl.SSLContext.load_verify_locations

    def counted(self: ssl.SSLContext, *args: Any, **kwargs: Any) -> None:
        reads.append(args or kwargs)
        load(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    transport.tls_context.cache_clear()
    yield reads
    transport.tls_context.cache_clear()


async def test_no_ca_file_for_an_http_api_one_shared_for_https(server: BotAPIServer, ca_reads: list[Any]) -> None:
    plain = HTTPXRequest()
    assert len(ca_reads) == 1  # what the probe sees: PTB's client reads the CA file when made
    await plain.shutdown()
    ca_reads.clear()

    requests = [JsonRequest(), JsonRequest(connection_pool_size=1)]
    try:
        for request in requests:
            await request.initialize()
            code, body = await request.do_request(f"{server.base_url}{server.token}/getMe", "POST")
            assert code == 200 and json.loads(body)["ok"] is True
        assert ca_reads == []  # an http:// Bot API: no TLS, no CA file

        pools = [request._client._transport for request in requests]
        assert all(isinstance(pool, TlsWhenNeeded) for pool in pools)
        tls = [pool._transport("https") for pool in pools]  # type: ignore[attr-defined]
        assert len(ca_reads) == 1  # https: read once, for every client
        for made in tls:
            context = made._pool._ssl_context
            assert context is transport.tls_context()
            assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
        plain_context = pools[0]._transport("http")._pool._ssl_context  # type: ignore[attr-defined]
        assert plain_context.verify_mode == ssl.CERT_REQUIRED and plain_context.check_hostname  # fails closed
    finally:
        for request in requests:
            await request.shutdown()


async def test_a_proxy_in_the_environment_keeps_httpx_own_transport(monkeypatch: pytest.MonkeyPatch,
                                                                     ca_reads: list[Any]) -> None:
    """httpx honours $HTTPS_PROXY only in a client that makes its own transport."""
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
    request = JsonRequest()
    try:
        client = request._client
        assert not isinstance(client._transport, TlsWhenNeeded)
        assert any("https" in str(pattern.pattern) and mounted is not None
                   for pattern, mounted in client._mounts.items())
    finally:
        await request.shutdown()


PROBE = """\
import atexit, ssl, sys
reads = []
load = ssl.SSLContext.load_verify_locations
def counted(self, *args, **kwargs):
    reads.append(args)
    return load(self, *args, **kwargs)
ssl.SSLContext.load_verify_locations = counted
atexit.register(lambda: print(f"PROBE redis={'redis' in sys.modules} ca_reads={len(reads)}", flush=True))
from unobot.cli import main
sys.exit(main(["telegram"]))
"""


async def test_unobot_telegram_with_a_memory_store(server: BotAPIServer, tmp_path: Path) -> None:
    """The command as a person runs it (http:// local API, memory store): the first
    update is answered, the menu is set in both languages, redis-py was never
    imported, no CA file was read."""
    user = server.user(7, "Ann")
    chat = server.private_chat(user)
    update = server.send_command(chat, user, "/start")
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  data_dir: {tmp_path}\n")
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
           "UNOBOT_REDIS_URL": "memory", "UNOBOT_CONFIG": str(config)}
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env.pop(name, None)
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", PROBE, cwd=tmp_path, env=env,
                                                   stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    try:
        answer = await server.wait_answer(update, "sendMessage", timeout=30)
        assert answer.params["chat_id"] == chat["id"]
        # A memory store remembers no menu: this start sets it, in every language.
        await server.wait_for("setMyCommands", lambda p: p.get("language_code") == "es", timeout=30, after=0)
        await server.wait_for("setMyCommands", lambda p: not p.get("language_code"), timeout=30, after=0)
    finally:
        process.send_signal(signal.SIGINT)
        output, _ = await asyncio.wait_for(process.communicate(), 30)
    text = output.decode(errors="replace")
    assert "PROBE redis=False ca_reads=0" in text, text
    assert [call.method for call in server.calls].count("setMyCommands") == len(menu_languages())
    assert server.my_commands(language_code="es") and server.my_commands()


def test_help_imports_no_heavy_package() -> None:
    code = ("import contextlib, sys\n"
            "from unobot.cli import main\n"
            "with contextlib.redirect_stdout(None), contextlib.suppress(SystemExit):\n"
            "    main(['--help'])\n"
            "heavy = ('asyncio', 'yaml', 'redis', 'telegram', 'httpx', 'rich', 'pluggy', 'discord')\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n")
    assert fresh_python(code, cwd=ROOT) == "[]"


def test_help_imports_only_the_command_modules() -> None:
    """Every command's `register` runs for `unobot --help`: one that imports its
    work at the top (the card drawing, the decks, the store: ~40 ms of CPU, a
    third of the help) slows every help, and every other command's start."""
    code = ("import contextlib, sys\n"
            "from importlib.metadata import distribution\n"
            "from unobot.cli import main\n"
            "with contextlib.redirect_stdout(None), contextlib.suppress(SystemExit):\n"
            "    main(['--help'])\n"
            "commands = {ep.value.partition(':')[0] for ep in distribution('unobot').entry_points\n"
            "            if ep.group == 'unobot.commands'}\n"
            "allowed = {'unobot', 'unobot.cli', 'unobot.cli_text', 'unobot.chat', 'unobot.chat.i18n',\n"
            "           'unobot.adapters', 'unobot.plain_text'}\n"  # plain_text: a terminal that is not UTF-8
            "allowed |= {name.rpartition('.')[0] for name in commands} | commands\n"
            "print(sorted(m for m in sys.modules if m.startswith('unobot') and m not in allowed))\n")
    assert fresh_python(code, cwd=ROOT) == "[]"


async def test_the_menu_is_set_again_only_when_it_changed_or_is_a_day_old(
        server: BotAPIServer, redis_server: Any, prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several processes of one bot, or a restart, set the menu once: the store
    remembers what this bot set, and when (a day later it is set again, in case
    someone changed it in @BotFather)."""
    from telegram.ext import Application

    from unobot.adapters.redis_store import RedisStore
    from unobot.adapters.telegram import app as app_module
    from unobot.adapters.telegram.app import MENU_KEY, MENU_TRUSTED, register_commands

    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    bot_app = Application.builder().token(server.token).base_url(server.base_url).build()
    await bot_app.initialize()

    def sets() -> int:
        """How many menus were set, in rounds of one per language."""
        count = [call.method for call in server.calls].count("setMyCommands")
        assert count % len(menu_languages()) == 0
        return count // len(menu_languages())

    try:
        await register_commands(bot_app, store)
        assert sets() == 1 and server.my_commands(language_code="es") and server.my_commands()
        await register_commands(bot_app, store)  # a restart, or a second process
        assert sets() == 1
        record = await store.get_chat_settings(MENU_KEY)
        assert record["bot"] == bot_app.bot.id

        await store.update_chat_settings(MENU_KEY, {"at": record["at"] - MENU_TRUSTED - 1})
        await register_commands(bot_app, store)  # a day old: set again
        assert sets() == 2

        translated = app_module.menus()
        translated["es"][0] = (translated["es"][0][0], "otra descripción")
        monkeypatch.setattr(app_module, "menus", lambda: translated)
        await register_commands(bot_app, store)  # another menu (a new version of the bot)
        assert sets() == 3
        assert server.my_commands(language_code="es")[0]["description"] == "otra descripción"

        await store.update_chat_settings(MENU_KEY, {"bot": bot_app.bot.id + 1})
        await register_commands(bot_app, store)  # the record is another bot's
        assert sets() == 4
        await register_commands(bot_app)  # no store: always
        assert sets() == 5
    finally:
        await bot_app.shutdown()
        await store.close()
