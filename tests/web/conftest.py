"""Fixtures for the web table: a real redis-server, the web server on a free
port (restartable on the same port, as a deploy restarts it), and headless
Chromium from Debian's packages driven by playwright.

Never `playwright install`: the browser is /usr/bin/chromium (`.ci/run`
apt-installs it), launched with the flags below (no sandbox in a
container, no network of its own, no first-run or update chatter).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.web.server import WebConfig, WebTable, start
from unobot.chat.service import ChatService
from unobot.chat.wake import Pacing

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Screenshots and other things a test run leaves to look at (ignored by git).
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
BOT_TOKEN = "123456:web-table-test-token"
_prefixes = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("web-redis")).start()
    yield server
    server.stop()


class WebServer:
    """The web table in this process, on a RedisStore; `restart()` stops it
    (every socket closes, every planned wake is forgotten) and serves again
    on the same port from the same store, as a new process would."""

    def __init__(self, redis_url: str, prefix: str, *, bot_token: str | None = BOT_TOKEN,
                 seed: int = 11) -> None:
        self.redis_url, self.prefix, self.bot_token, self.seed = redis_url, prefix, bot_token, seed
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.secret = b"test secret of the web table"
        self.table: WebTable | None = None
        self.runner: Any = None
        self.store: RedisStore | None = None
        #: Every payload sent to each person, over every run of the server (privacy scans).
        self.sent: dict[str, list[dict[str, Any]]] = {}

    def config(self) -> WebConfig:
        return WebConfig(secret=self.secret, bot_token=self.bot_token, public_url=self.url, poll=0.1,
                         pacing=Pacing(continue_delay=0.05, lobby_seconds=600), keep_payloads=True)

    async def start(self, service: ChatService | None = None, **kw: Any) -> WebServer:
        if service is None:
            self.store = RedisStore.from_url(self.redis_url, prefix=self.prefix)
            service = ChatService(self.store, rng=random.Random(self.seed))
        self.table = WebTable(service, self.config(), **kw)
        self.table.sent = self.sent
        self.runner = await start(self.table, "127.0.0.1", self.port)
        return self

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    @property
    def service(self) -> ChatService:
        assert self.table is not None
        return self.table.service


@pytest.fixture
def prefix() -> str:
    return f"web{next(_prefixes)}"


@pytest.fixture
async def web(redis_server: RedisServer, prefix: str) -> AsyncIterator[WebServer]:
    server = await WebServer(redis_server.url, prefix).start()
    yield server
    await server.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        await b.close()
