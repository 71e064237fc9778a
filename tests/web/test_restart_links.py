"""`unobot web` restarted on the same Redis, with no `web.secret` and no bot
token: the links it handed out still open their tables. The secret it signs
them with is made once and kept in the store (`cli.kept_secret`); one made
anew at each start refused every share link and every seat kept in a
browser ("not valid for any table") while the games were still stored."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import free_port


def serve(tmp_path: Path, redis_url: str, port: int) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNOBOT_")}
    env["UNOBOT_CONFIG"] = str(tmp_path / "config.yaml")
    (tmp_path / "config.yaml").write_text(f"web:\n  port: {port}\n")
    proc = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web", "--redis", redis_url], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    assert proc.stdout is not None
    lines = [proc.stdout.readline()]
    while "web table at" not in lines[-1] and lines[-1] and len(lines) < 50:
        lines.append(proc.stdout.readline())
    assert "web table at" in lines[-1], lines
    return proc


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


async def hello(base: str, auth: dict[str, str]) -> dict[str, Any]:
    """The first answer of the WebSocket that is not the greeting: a state or a refusal."""
    async with aiohttp.ClientSession() as http, http.ws_connect(base.replace("http", "ws") + "/ws") as ws:
        await ws.send_json({"type": "hello", "auth": auth, "lang": "en"})
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            msg: dict[str, Any] = await ws.receive_json(timeout=5)
            if msg["type"] in ("state", "refused", "need_name"):
                return msg
    raise AssertionError("no answer")


async def test_links_outlive_a_restart_without_a_configured_secret(tmp_path: Path,
                                                                   redis_server: RedisServer) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve(tmp_path, redis_server.url, port)
    try:
        async with aiohttp.ClientSession() as http, http.post(
                base + "/api/new", json={"name": "Ana", "variant": "official"}) as r:
            made = await r.json()
        assert (await hello(base, {"player": made["player"]}))["type"] == "state"
    finally:
        stop(proc)
    proc = serve(tmp_path, redis_server.url, port)
    try:
        seat = await hello(base, {"player": made["player"]})
        assert seat["type"] == "state" and seat["seat"] == 0 and seat["phase"] == "lobby", seat
        assert (await hello(base, {"table": made["table"]}))["type"] == "need_name"
    finally:
        stop(proc)
