"""The web table with the Discord bot: real discord.py against the local
Discord API and gateway (tests/discord_api), real Chromium.

* `unobot discord` with `web.enabled` serves the page in the bot's process
  (`attach_discord`, as the command line calls it); `/uno table` answers a
  member, and only them (ephemeral), with a link button signed for them and
  for this game; the page opens their seat and their hand; a move made on
  the page shows in the channel's status message, made by the bot itself.
* Another member's link opens their own seat, never Ann's; a tampered one
  is refused.
* A page served by ANOTHER process (its own store connection) reaches the
  channel's status message through the store's change feed, and the AI
  seat moves after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.discord.driver import FAST, BotProcess, client_idle
from tests.discord_api import DiscordAPIServer, Member
from tests.support.redis_server import RedisServer
from tests.web.conftest import WebServer
from tests.web.players import WebPlayer
from tests.web.test_telegram_process import next_state, until
from unobot.adapters.discord.bot import UnoBot
from unobot.adapters.discord.cli import use_api
from unobot.adapters.discord.place import chat_id, settings_places
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.web import links
from unobot.adapters.web.cli import attach_discord
from unobot.chat.service import ChatService
from unobot.chat.views import table_view
from unobot.config import Config, DiscordConfig, TelegramConfig, WebTableConfig

SECRET = "discord web table secret"


class WebBot(BotProcess):
    """The bot as `unobot discord` starts it with `web:` configured."""

    def __init__(self, server: DiscordAPIServer, redis_url: str, prefix: str, config: Config) -> None:
        super().__init__(server, redis_url, prefix, options=FAST)
        self.config = config
        self.web: Any = None

    async def start(self) -> WebBot:
        use_api(self.server.base_url, self.server.gateway_url)
        self.store = RedisStore.from_url(self.redis_url, prefix=self.prefix)
        self.service = ChatService(self.store, settings_from=settings_places, rng=random.Random(7))
        self.client = UnoBot(self.service, options=self.options)
        self.web = await attach_discord(self.client, self.config)
        self._run = asyncio.create_task(self.client.start(self.server.token))
        await asyncio.wait_for(self._ready(0), 10)
        await client_idle(self.client)
        return self

    async def stop(self) -> None:
        if self.web is not None:
            await self.web.cleanup()
            self.web = None
        await super().stop()


def config_for(server: DiscordAPIServer, *, port: int | None, enabled: bool) -> Config:
    url = f"http://127.0.0.1:{port}" if port else "http://127.0.0.1:9"
    return Config(telegram=TelegramConfig(token=None), discord=DiscordConfig(token=server.token),
                  web=WebTableConfig(enabled=enabled, port=port or 9, public_url=url, secret=SECRET))


@pytest.fixture
async def server() -> AsyncIterator[DiscordAPIServer]:
    async with DiscordAPIServer() as srv:
        yield srv
        assert srv.errors == [], "the local Discord server met a request it does not model"


async def newer_state(ws: Any, version: int) -> dict[str, Any]:
    """The first state sent after `version` (states queued before it are passed over)."""
    while True:
        s = await next_state(ws)
        if s["version"] > version:
            return s


async def answered(server: DiscordAPIServer, bot: BotProcess, sent: Any) -> Any:
    sent = await server.answer(sent)
    await bot.idle()
    return sent


def link_of(message: Any) -> str:
    for row in message.components:
        for comp in row.get("components", []):
            if comp.get("style") == 5:
                return str(comp["url"])
    raise AssertionError(f"no link button: {message.components}")


async def table_link(server: DiscordAPIServer, bot: BotProcess, member: Member, channel: int) -> str:
    sent = await answered(server, bot, await server.slash(member, channel, "uno", "table"))
    assert sent.message is not None and sent.message.viewer == member.id, "the link must be the member's alone"
    assert "yours alone" in sent.message.content
    return link_of(sent.message)


def status_text(server: DiscordAPIServer, channel: int) -> str:
    shown = [m for m in server.channel_messages(channel) if not m.ephemeral]
    return shown[-1].content if shown else ""


async def test_uno_table_links_the_member_to_their_own_seat(server: DiscordAPIServer, redis_server: RedisServer,
                                                            prefix: str, browser: Any) -> None:
    guild = server.guild()
    channel = guild.channels[0]
    port = free_port()
    bot = await WebBot(server, redis_server.url, prefix, config_for(server, port=port, enabled=True)).start()
    try:
        assert "table" in [o["name"] for c in server.commands for o in c.get("options", [])]
        ann, bob = server.member("Ann"), server.member("Bob")
        sent = await answered(server, bot, await server.slash(bob, channel, "uno", "table"))
        assert sent.message is not None and "no game" in sent.message.content.lower()
        await answered(server, bot, await server.slash(ann, channel, "uno", "new"))
        link = await table_link(server, bot, ann, channel)
        assert link.startswith(f"http://127.0.0.1:{port}/?p=")
        table = await bot.service.table(chat_id(guild.id, channel))  # type: ignore[union-attr]
        assert table is not None
        viewer = links.read_player_token(SECRET.encode(), link.split("?p=")[1])
        assert (viewer.person, viewer.chat) == (str(ann.id), f"{chat_id(guild.id, channel)}#{table.seed}")
        bob_link = await table_link(server, bot, bob, channel)
        assert bob_link != link

        page = await WebPlayer.open(browser, link, "Ann")
        s = await page.wait_for(lambda s: s is not None and s["phase"] == "lobby")
        assert s["seat"] == 0
        await page.press("add_ai")
        if await page.page.is_visible("#picker[open]"):
            await page.page.click("#choices button >> nth=0")
        await page.wait_for(lambda s: s is not None and len(s["seats"]) == 2)
        await until(lambda: asyncio.sleep(0, "(AI)" in status_text(server, channel)), 5,
                    "the channel's status never showed the page's move")
        await page.press("start")
        s = await page.wait_for(lambda s: s is not None and s["phase"] == "playing")
        assert len(s["hand"]) == 7

        # Bob's link: Bob's view (no seat: watching), never Ann's hand.
        async with aiohttp.ClientSession() as http, http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
            await ws.send_str(json.dumps({"type": "hello", "auth": {"player": bob_link.split("?p=")[1]}}))
            seen = await next_state(ws)
            assert seen["seat"] is None and seen["hand"] == []
            forged = bob_link.split("?p=")[1][:-3] + "AAA"
            await ws.send_str(json.dumps({"type": "hello", "auth": {"player": forged}}))
            refused = json.loads((await ws.receive(timeout=5)).data)
            assert refused["type"] == "refused" and refused["code"] == "bad_link"
        await page.page.context.close()
    finally:
        await bot.stop()


@contextlib.asynccontextmanager
async def bot_and_page_elsewhere(server: DiscordAPIServer, redis_url: str,
                                 prefix: str) -> AsyncIterator[tuple[WebBot, WebServer]]:
    """The bot serving no page, and `unobot web` in its stead (its own store connection,
    so its own origin on the feed), both signing links with the configured secret."""
    bot = await WebBot(server, redis_url, prefix, config_for(server, port=None, enabled=False)).start()
    web = WebServer(redis_url, prefix, bot_token=None)
    web.secret = SECRET.encode()
    await web.start()
    try:
        yield bot, web
    finally:
        await web.stop()
        await bot.stop()


async def test_a_page_of_another_process_reaches_the_channel(server: DiscordAPIServer, redis_server: RedisServer,
                                                             prefix: str) -> None:
    """The bot serves no page; `unobot web` elsewhere does (here: its own store
    connection, so its own origin on the feed)."""
    guild = server.guild()
    channel = guild.channels[0]
    async with bot_and_page_elsewhere(server, redis_server.url, prefix) as (bot, web):
        ann = server.member("Ann")
        await answered(server, bot, await server.slash(ann, channel, "uno", "new"))
        link = await table_link(server, bot, ann, channel)  # made from the config: web.public_url + web.secret
        token = link.split("?p=")[1]
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{web.url}/ws") as ws:
            auth = {"player": token}
            await ws.send_str(json.dumps({"type": "hello", "auth": auth}))
            s = await next_state(ws)
            add_ai = next(a for a in s["actions"] if a["kind"] == "add_ai")
            await ws.send_str(json.dumps({"type": "act", "id": add_ai["choices"][0]["id"], "version": s["version"],
                                          "auth": auth}))
            s = await next_state(ws)

            async def shows_ai() -> bool:
                return "(AI)" in status_text(server, channel)

            # (in the lobby nothing else edits the status: only the change feed can bring it)
            await until(shows_ai, 10, "the channel never showed the other process's move")
            start = next(a for a in s["actions"] if a["kind"] == "start")
            await ws.send_str(json.dumps({"type": "act", "id": start["id"], "version": s["version"], "auth": auth}))
            s = await next_state(ws)
            while s["phase"] == "playing" and s["turn"] != s["seat"]:
                s = await next_state(ws)  # the AI seat began: it moves, planned by a process
            assert s["phase"] == "playing" and s["turn"] == s["seat"]
            playable = [h["action"] for h in s["hand"] if h["playable"]]
            # (a Wild starter on Ann's turn: its colour, all she is offered then)
            move = playable[0] if playable else next(a for a in s["actions"] if a["kind"] in ("color", "draw"))
            move_id = move["choices"][0]["id"] if move.get("needs") else move["id"]
            await ws.send_str(json.dumps({"type": "act", "id": move_id, "version": s["version"], "auth": auth}))
            s = await newer_state(ws, s["version"])
            # The AI seat answered at once (in the same save, or planned after a pause):
            # the channel's status shows the table as it is after both.

            async def status_caught_up() -> bool:
                await bot.idle()
                t = await bot.service.table(chat_id(guild.id, channel))  # type: ignore[union-attr]
                if t is None or t.game is None:
                    return False
                lines = table_view(t, "en").recent
                if not any("(AI)" in line for line in lines[-2:]):
                    return False  # the AI seat has not answered yet
                text = status_text(server, channel)
                return f"Turn: {t.seats[t.game.turn].name}" in text and lines[-1] in text

            await until(status_caught_up, 10, "the AI seat's answer to the page's move never showed")


async def test_unobot_discord_serves_the_web_table(server: DiscordAPIServer, redis_server: RedisServer, prefix: str,
                                                   tmp_path: Any) -> None:
    """`unobot discord` as an operator runs it, with `web.enabled`: the page is
    served by the bot's process and `/uno table` is registered with Discord."""
    import os
    import signal
    import sys

    from tests.discord.test_cli import ROOT

    server.guild()
    port = free_port()
    config = tmp_path / "config.yaml"
    config.write_text(f"store:\n  prefix: {prefix}\n  data_dir: {tmp_path}\n"
                      f"web:\n  enabled: true\n  port: {port}\n  secret: {SECRET}\n")
    env = {**os.environ, "DISCORD_BOT_TOKEN": server.token, "UNOBOT_DISCORD_API_URL": server.base_url,
           "UNOBOT_DISCORD_GATEWAY_URL": server.gateway_url, "UNOBOT_REDIS_URL": redis_server.url,
           "UNOBOT_CONFIG": str(config)}
    log = (tmp_path / "discord.log").open("wb")
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "unobot.cli", "discord", cwd=ROOT, env=env,
                                                   stdout=log, stderr=asyncio.subprocess.STDOUT)
    try:
        await asyncio.wait_for(server.identified.wait(), 30)

        async def synced() -> bool:
            return bool(server.commands)

        await until(synced, 30, "the slash commands were never registered")
        subs = [o["name"] for c in server.commands for o in c.get("options", [])]
        assert "table" in subs, subs
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/healthz") as r:
            assert r.status == 200
    finally:
        # Ctrl-C once the bot is up (the gateway's first session settled: discord.py can lose
        # a cancellation that comes while it is still connecting, with or without the web table)
        await asyncio.sleep(1.0)
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), 20)
        except TimeoutError:
            process.kill()
            await process.wait()
        log.close()
    output = (tmp_path / "discord.log").read_text(errors="replace")
    assert process.returncode == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]


async def test_a_discord_admins_link_makes_them_an_admin_on_the_page(server: DiscordAPIServer,
                                                                     redis_server: RedisServer, prefix: str) -> None:
    """A member with Manage Server is the channel's admin in Discord (settings, stop, a lobby
    they did not open); their `/uno table` link is signed so, and the page offers them the
    same: the settings panel and Stop. A plain member's link does not, and an old link
    (made before the flag existed) still reads as a plain member's."""
    guild = server.guild()
    channel = guild.channels[0]
    async with bot_and_page_elsewhere(server, redis_server.url, prefix) as (bot, web):
        ann, mod = server.member("Ann"), server.member("Mod", manage_guild=True)
        await answered(server, bot, await server.slash(ann, channel, "uno", "new"))
        mod_link = await table_link(server, bot, mod, channel)
        ann_link = await table_link(server, bot, ann, channel)
        assert links.read_player_token(SECRET.encode(), mod_link.split("?p=")[1]).admin
        assert not links.read_player_token(SECRET.encode(), ann_link.split("?p=")[1]).admin
        for link, admin in ((mod_link, True), (ann_link, False)):
            async with aiohttp.ClientSession() as http, http.ws_connect(f"{web.url}/ws") as ws:
                auth = {"player": link.split("?p=")[1]}
                await ws.send_str(json.dumps({"type": "hello", "auth": auth}))
                s = await next_state(ws)
                assert s["admin"] is admin
                # Ann opened the lobby: Stop is hers (creator) and the admin's
                assert s["stop"] is not None
                if admin:  # and the settings panel, with the chat's settings to change
                    await ws.send_str(json.dumps({"type": "settings", "auth": auth}))
                    while True:
                        msg = json.loads((await ws.receive(timeout=10)).data)
                        if msg["type"] == "settings":
                            break
                    assert msg["admin"] is True and msg["groups"]
        plain = links.player_token(SECRET.encode(), "discord.1.2#3", str(mod.id), "Mod", 4e9, "en")  # no flag
        assert not links.read_player_token(SECRET.encode(), plain).admin
