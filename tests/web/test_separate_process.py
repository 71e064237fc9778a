"""A page served by a SEPARATE `unobot web` process, beside `unobot telegram`
on the same Redis: every move made on the page reaches the group's status
message within a couple of seconds (the store's change feed, Redis
pub/sub), not at the bot's next move, and the AI seats move after it.

Both are real processes started from the command line as an operator
starts them; the page is a WebSocket client signed in with Telegram's
`initData` (signed with the bot's token, as Telegram signs it)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.botapi import BotAPIServer
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from tests.telegram.driver import CliBot
from tests.web.test_refusals import init_data
from tests.web.test_telegram_process import next_state, until
from unobot.adapters.web import links

#: What "promptly" means here: the page's move is in the group's status by then.
PROMPT = 2.0


class LinkedBot(CliBot):
    """`unobot telegram` with `web.telegram_app` but without `web.enabled`: the
    page is served elsewhere, the status message still links to it."""

    def start(self) -> CliBot:
        original = Path.write_text

        def write(path: Path, text: str, *a: Any, **k: Any) -> int:
            if path.name == "config.yaml":
                text += "web:\n  telegram_app: table\n"
            return original(path, text, *a, **k)

        Path.write_text = write  # type: ignore[method-assign]
        try:
            return super().start()
        finally:
            Path.write_text = original  # type: ignore[method-assign]


class WebProcess:
    """`unobot web` on the bot's Redis and key prefix, with the bot's token."""

    def __init__(self, server: BotAPIServer, redis_url: str, prefix: str, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.yaml").write_text(
            f"store:\n  prefix: {prefix}\n  data_dir: {folder}\nweb:\n  port: {self.port}\n")
        self.log_path = folder / "web.log"
        # Its Bot API (a Mini App page's group admins are asked of it) is the local one, never Telegram's.
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": server.token, "UNOBOT_TELEGRAM_API_URL": server.base_url,
               "UNOBOT_REDIS_URL": redis_url,
               "UNOBOT_CONFIG": str(folder / "config.yaml")}
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "unobot.cli", "web"], cwd=folder, env=env,
                                            stdout=out, stderr=subprocess.STDOUT)

    async def ready(self) -> None:
        async def up() -> bool:
            assert self.process.poll() is None, self.log()
            try:
                async with aiohttp.ClientSession() as http, http.get(self.url + "/healthz") as r:
                    return r.status == 200
            except aiohttp.ClientError:
                return False

        await until(up, 30, "unobot web never answered")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.log()


class Page:
    """Ann's page on the separate process."""

    def __init__(self, ws: Any, data: str) -> None:
        self.ws, self.data = ws, data

    async def act(self, action_id: str, version: int) -> dict[str, Any]:
        await self.ws.send_str(json.dumps({"type": "act", "id": action_id, "version": version,
                                           "auth": {"init_data": self.data}}))
        # the state after the move: a push of the one the page had (the other process's
        # change feed may repeat it) can arrive first
        while True:
            state = await next_state(self.ws)
            if state["version"] > version:
                return state


async def test_a_move_on_a_separate_web_process_reaches_the_group_promptly(
        redis_server: RedisServer, prefix: str, tmp_path: Path) -> None:
    async with BotAPIServer() as server:
        bot = LinkedBot(server, redis_server.url, prefix, tmp_path / "bot", port=free_port())
        bot.start()
        web = WebProcess(server, redis_server.url, prefix, tmp_path / "web")
        try:
            await bot.ready()
            await web.ready()
            group = server.group(title="Two processes")
            chat = int(group["id"])
            ann = server.user(1, "Ann")
            server.send_command(group, ann, "/new")
            await server.wait_for("sendMessage", lambda p: str(p.get("chat_id")) == str(chat), timeout=20)
            # The status message's "Open the table": a token the other process opens.
            status = await server.wait_for("sendMessage", lambda p: str(p.get("chat_id")) == str(chat), after=0)
            urls = [b.get("url", "") for row in status.params["reply_markup"]["inline_keyboard"] for b in row]
            url = next(u for u in urls if u.startswith("https://t.me/"))
            token = url.split("startapp=")[1]
            assert url.startswith(f"https://t.me/{server.bot_user['username']}/table?startapp=")
            assert links.read_table_token(links.server_secret(None, server.token), token) == str(chat)
            data = init_data(1, "Ann", token=server.token, start=token)
            delays: list[float] = []
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{web.url}/ws") as ws:
                await ws.send_str(json.dumps({"type": "hello", "auth": {"init_data": data}}))
                page = Page(ws, data)
                state = await next_state(ws)
                assert state["phase"] == "lobby" and state["seat"] == 0

                async def moved(action_id: str, version: int, shows: Any) -> dict[str, Any]:
                    """A page move; the group's status shows it within PROMPT seconds."""
                    mark = server.mark()
                    t0 = time.monotonic()
                    after = await page.act(action_id, version)
                    call = await server.wait_for(
                        "editMessageText", lambda p: str(p.get("chat_id")) == str(chat) and shows(str(p["text"])),
                        timeout=PROMPT, after=mark)
                    delays.append(time.monotonic() - t0)
                    assert call is not None
                    return after

                add_ai = next(a for a in state["actions"] if a["kind"] == "add_ai")
                state = await moved(add_ai["choices"][0]["id"], state["version"], lambda t: "(AI)" in t)
                assert len(state["seats"]) == 2
                start = next(a for a in state["actions"] if a["kind"] == "start")
                state = await moved(start["id"], state["version"], lambda t: "Ann" in t)
                # Play on the page until Ann has made two moves of her own in turn;
                # after each, the AI seat (moved by whichever process planned it) moves too.
                own_moves = 0
                deadline = time.monotonic() + 60
                while own_moves < 2 and state["phase"] == "playing":
                    assert time.monotonic() < deadline, "the game never came back to Ann"
                    mine = state["turn"] == state["seat"]
                    if not mine:
                        state = await next_state(ws)
                        continue
                    playable = [h["action"] for h in state["hand"] if h["playable"]]
                    # A Wild starter on Ann's turn (the processes' seeds vary): its colour first,
                    # the only thing offered then (no card is playable yet, no draw).
                    move = playable[0] if playable else next(
                        a for a in state["actions"] if a["kind"] in ("color", "draw", "pass"))
                    if move.get("needs"):
                        choice = move["choices"][0]
                        move = {**move, "id": choice["id"]}
                    before = state["version"]
                    state = await moved(move["id"], before, lambda t: True)
                    own_moves += 1
                    if state["turn"] == state["seat"] or state["phase"] != "playing":
                        continue  # drew and may play it, or the round is over
                    # the AI seat's move follows, and the group shows it too
                    mark = server.mark()
                    while state["turn"] != state["seat"] and state["phase"] == "playing":
                        state = await next_state(ws)
                    await server.wait_for("editMessageText", lambda p: str(p.get("chat_id")) == str(chat),
                                          timeout=10, after=mark)
            print(f"page move -> group status: {', '.join(f'{d:.2f}' for d in delays)} s")
        finally:
            web_log = web.stop()
            bot_log = bot.stop()
        assert "Traceback" not in bot_log, bot_log
        assert "Traceback" not in web_log, web_log
