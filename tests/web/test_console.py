"""`unobot play --web`: the console's own table in a browser too. The
console (a real process in a pty, on a real redis-server) prints a link for
its player only; that link opens the player's seat and hand in Chromium; a
move made on the page is the game's move (the console's next screen shows
the saved state). `--web` on the memory store is refused with a clear line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pexpect

from tests.console.helpers import clean, spawn
from tests.support.redis_server import RedisServer
from tests.web.players import WebPlayer
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.web.links import read_player_token, server_secret
from unobot.chat.table import Table


def test_web_needs_redis() -> None:
    child = spawn("--store", "memory", "--web")
    child.expect(r"--web needs the Redis store")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


async def test_the_console_table_opens_in_a_browser(tmp_path: Path, browser: Any) -> None:
    redis = RedisServer(tmp_path / "redis").start()
    port = free_port()
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  prefix: cw\n  data_dir: {tmp_path}\nweb:\n  port: {port}\n  secret: console-web\n")
    child = spawn("--store", redis.url, "--web", "--players", "2", "--seed", "5", "--name", "Ann",
                  UNOBOT_CONFIG=str(config))
    try:
        child.expect(r"\(your seat only\): (http://\S+)", timeout=60)
        link = re.sub(r"\s", "", clean(child.match.group(1)))  # without the colour codes after it
        assert link.startswith(f"http://127.0.0.1:{port}/?p=")
        page = await WebPlayer.open(browser, link, "Ann")
        s = await page.wait_for(lambda s: s is not None and s["phase"] == "playing", timeout=30)
        assert s["seat"] is not None and len(s["hand"]) >= 7
        assert [p["name"] for p in s["seats"] if p["me"]] == ["Ann"]
        # The page's move is the game's: the store holds it.
        store = RedisStore.from_url(redis.url, prefix="cw")
        try:
            chat = next(iter([c async for c in store.bound_chats()]))
            s = await page.wait_for(lambda s: s is not None and s["turn"] == s["seat"]
                                    and any(a["kind"] == "draw" for a in s["actions"]), timeout=30)
            before = s["version"]
            await page.press("draw")
            s = await page.wait_for(lambda x: x is not None and x["version"] > before)
            game_id = await store.chat_game(chat)
            assert game_id is not None
            stored = await store.load_game(game_id)
            assert stored is not None and stored.version > before
            # The link is for this game only (printed as it started): its token names the chat's game.
            seat = read_player_token(server_secret("console-web", None), link.split("?p=", 1)[1])
            assert seat.chat == f"{chat}#{Table.decode(stored.state, stored.version).seed}" and seat.name == "Ann"
        finally:
            await store.close()
        assert child.isalive(), "the console goes on beside the page"
    finally:
        child.sendline("quit")
        child.close(force=True)
        redis.stop()
