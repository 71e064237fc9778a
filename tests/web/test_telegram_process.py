"""`unobot telegram` with `web.enabled`: one process serves the bot and its
web table. Its status message gets "Open the table" (the Mini App's direct
link, a token only this bot's secret makes), the page of a group member
opens with their Telegram `initData`, and a move made on the page shows in
the group's status message, published by the bot itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from tests.support.waiting import until
from tests.telegram.driver import CliBot
from tests.web.test_refusals import init_data
from unobot.adapters.web import links


class WebCliBot(CliBot):
    """`unobot telegram --webhook ...` with a config.yaml that turns the web table on."""

    def __init__(self, *args: Any, web_port: int, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.web_port = web_port

    def start(self) -> CliBot:
        original = Path.write_text

        def write(path: Path, text: str, *a: Any, **k: Any) -> int:
            if path.name == "config.yaml":
                text += (f"web:\n  enabled: true\n  port: {self.web_port}\n  telegram_app: table\n"
                         f"  public_url: http://127.0.0.1:{self.web_port}\n")
            return original(path, text, *a, **k)

        Path.write_text = write  # type: ignore[method-assign]
        try:
            return super().start()
        finally:
            Path.write_text = original  # type: ignore[method-assign]


async def test_the_bot_process_serves_its_tables(redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    async with BotAPIServer() as server:
        web_port = free_port()
        bot = WebCliBot(server, redis_server.url, prefix, tmp_path / "bot", port=free_port(), web_port=web_port)
        bot.start()
        try:
            await bot.ready()
            base = f"http://127.0.0.1:{web_port}"
            group = server.group(title="One process")
            chat = str(group["id"])
            ann = server.user(1, "Ann")
            server.send_command(group, ann, "/new")

            async def web_button() -> str | None:
                for message in server.messages.get(group["id"], {}).values():
                    for b in server.buttons(group, message["message_id"]):
                        if str(b.get("url", "")).startswith("https://t.me/"):
                            return str(b["url"])
                return None

            url = await until(web_button, 20, f"no Open the table button: {bot.log()}")
            assert url.startswith(f"https://t.me/{server.bot_user['username']}/table?startapp=")
            token = url.split("startapp=")[1]
            assert links.read_table_token(links.server_secret(None, server.token), token) == chat
            data = init_data(1, "Ann", token=server.token, start=token)
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{base}/ws") as ws:
                await ws.send_str(json.dumps({"type": "hello", "auth": {"init_data": data}}))
                state = await next_state(ws)
                assert state["phase"] == "lobby" and state["seat"] == 0
                add_ai = next(a for a in state["actions"] if a["kind"] == "add_ai")
                await ws.send_str(json.dumps({"type": "act", "id": add_ai["choices"][0]["id"],
                                              "version": state["version"], "auth": {"init_data": data}}))
                state = await next_state(ws)
                assert len(state["seats"]) == 2

            async def group_shows_it() -> bool:
                texts = [m.get("text", "") for m in server.messages.get(group["id"], {}).values()]
                return any("(AI)" in t for t in texts)

            await until(group_shows_it, 20, "the group's status never showed the page's move")
        finally:
            log = bot.stop()
        assert "Traceback" not in log, log


async def next_state(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads((await ws.receive(timeout=10)).data)
        if msg["type"] == "state":
            return msg  # type: ignore[no-any-return]
        assert msg["type"] != "refused", msg
