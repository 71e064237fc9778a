"""`unobot web` as a process: it starts, serves the page, its assets and card
pictures, opens a browser-only table, and stops cleanly on SIGTERM; and the
player links Discord and the console hand out open that player's seat."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.web import links
from unobot.adapters.web.cli import player_link
from unobot.chat import commands as c
from unobot.config import Config, TelegramConfig, WebTableConfig


async def test_unobot_web_serves_and_stops(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "UNOBOT_CONFIG": str(tmp_path / "config.yaml")}
    (tmp_path / "config.yaml").write_text(f"web:\n  port: {port}\n")
    proc = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web", "--redis", "memory"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        until_ready(proc, f"web table at http://127.0.0.1:{port}/")
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            for path, kind in (("/", "text/html"), ("/static/app.js", "javascript"),
                               ("/static/style.css", "text/css"), ("/cards/W%2B4.png", "image/png")):
                async with http.get(base + path) as r:
                    assert r.status == 200 and kind in r.headers["Content-Type"], path
                    assert len(await r.read()) > 100
            async with http.get(base + "/static/../cli.py") as r:
                assert r.status == 404
            async with http.post(base + "/api/new", json={"name": "Ana", "variant": "official"}) as r:
                made = await r.json()
                assert made["link"].startswith(base + "/?t=")
            async with http.post(base + "/api/new", json={"name": "", "lang": "es"}) as r:
                assert r.status == 400 and "nombre" in (await r.json())["error"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0


async def test_a_player_link_opens_that_players_seat_of_that_game(web: WebServer) -> None:
    config = Config(telegram=TelegramConfig(token=None),
                    web=WebTableConfig(secret=web.secret.decode(), public_url=web.url))
    svc = web.service
    chat = "discord.42"
    assert (await svc.handle(chat, c.Person("7", "Dee"), c.NewGame(variant="official"))).ok
    table = await svc.table(chat)
    assert table is not None
    link = player_link(config, chat, "7", "Dee", game=table.seed)
    token = link.split("?p=")[1]
    viewer = links.read_player_token(web.secret, token)
    assert viewer.person == "7" and viewer.chat == f"{chat}#{table.seed}"
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{web.url}/ws") as ws:
        await ws.send_json({"type": "hello", "auth": {"player": token}})
        got = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            msg = await ws.receive_json(timeout=5)
            got.append(msg)
            if msg["type"] == "state":
                break
        assert got[-1]["type"] == "state" and got[-1]["seat"] == 0
    await asyncio.sleep(0)


def test_a_public_url_that_is_no_web_address_is_refused(tmp_path: Path) -> None:
    """`--public-url ftp://x` was served ("web table at ftp://x/") and every
    share link made from it; web.public_url and $UNOBOT_WEB_URL were checked."""
    (tmp_path / "config.yaml").write_text("")
    done = subprocess.run([sys.executable, "-m", "unobot.cli", "web", "--redis", "memory", "--public-url", "ftp://x"],
                          env={**os.environ, "UNOBOT_CONFIG": str(tmp_path / "config.yaml")}, cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and done.stderr.strip() == "error: --public-url: 'ftp://x' is not an http(s) URL", \
        done.stderr


def test_a_redis_that_keeps_nothing_on_disk_is_said_at_start_up(tmp_path: Path) -> None:
    """As `unobot telegram` says it: a web table (or a Discord bot) on a Redis with neither
    snapshots nor an append-only file loses every game when Redis restarts, and its log
    said nothing of it."""
    port = free_port()
    env = {**os.environ, "UNOBOT_CONFIG": str(tmp_path / "config.yaml")}
    (tmp_path / "config.yaml").write_text(f"web:\n  port: {port}\n")
    with RedisServer(tmp_path / "volatile", appendonly=False) as volatile:
        proc = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web", "--redis", volatile.url], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
        try:
            lines = until_ready(proc, "web table at ")
            assert any("WARNING" in line and "the store keeps nothing on disk" in line for line in lines), lines
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=10) == 0


def until_ready(proc: subprocess.Popen[str], ready: str) -> list[str]:
    """The lines `unobot web` printed up to its ready line (which `ready` begins), the last."""
    assert proc.stdout is not None
    lines = [proc.stdout.readline()]
    while ready not in lines[-1] and lines[-1] and len(lines) < 50:
        lines.append(proc.stdout.readline())
    assert lines[-1].startswith(ready), lines
    return lines


def test_the_start_up_lines_are_in_the_operators_language(tmp_path: Path) -> None:
    """The ready line and the store's warning were English to an operator whose errors
    were already Spanish (`LC_ALL`, `LANG`, `--lang`): they follow the same reader."""
    env = {**os.environ, "UNOBOT_CONFIG": str(tmp_path / "config.yaml"), "LANG": "es_ES.UTF-8"}
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        env.pop(name, None)
    (tmp_path / "config.yaml").write_text("")
    with RedisServer(tmp_path / "volatile", appendonly=False) as volatile:
        proc = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web", "--redis", volatile.url, "--port", "0"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
        try:
            lines = until_ready(proc, "mesa web en http://127.0.0.1:")
            assert any("el almacén no guarda nada en disco" in line for line in lines), lines
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=10) == 0


async def test_what_the_store_keeps_is_said_in_the_readers_words(redis_server: RedisServer,
                                                                 tmp_path: Path) -> None:
    """The store's part of `unobot telegram`'s and `unobot discord`'s ready line, asked of
    the server itself (this one writes an append-only file), in each reader's language."""
    from unobot.adapters.store_factory import open_store, store_persistence

    store = await open_store(redis_server.url, data_dir=tmp_path, prefix="persist")
    try:
        found = await store_persistence(store)
    finally:
        await store.close()
    assert found.persistent is True
    assert found.line("en").startswith("Redis (append-only file"), found.line("en")
    assert found.line("es").startswith("Redis (archivo append-only"), found.line("es")
    memory = await store_persistence(await open_store(None, data_dir=tmp_path, memory=True))
    assert memory.persistent is False
    assert memory.line("de") == "Arbeitsspeicher (in diesem Prozess: nichts übersteht einen Halt)"


def test_the_server_knows_where_its_tables_are_played() -> None:
    """What a page opened without a link is told comes from the configuration: Telegram
    groups when the Mini App is set up (its button exists), Discord channels when `/uno
    table` is offered; the console's own server says the console."""
    from unobot.adapters.web.cli import web_config
    from unobot.config import DiscordConfig

    def places(**kw: object) -> tuple[str, ...]:
        web = kw.pop("web", WebTableConfig())
        return web_config(Config(web=web, **kw)).places  # type: ignore[arg-type]

    assert places(telegram=TelegramConfig(token="1:x")) == ()  # no Mini App: no button to press
    assert places(telegram=TelegramConfig(token="1:x"), web=WebTableConfig(telegram_app="table")) == ("telegram",)
    assert places(discord=DiscordConfig(token="d"), web=WebTableConfig(enabled=True)) == ("discord",)
    assert places(telegram=TelegramConfig(token="1:x"), discord=DiscordConfig(token="d"),
                  web=WebTableConfig(enabled=True, telegram_app="t")) == ("telegram", "discord")
