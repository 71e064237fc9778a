"""Fixtures: a real redis-server (one per session, a key prefix per test), the
local Discord API and gateway server, and a started bot."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.discord.driver import BotProcess
from tests.discord_api import DiscordAPIServer
from tests.support.redis_server import RedisServer

_prefixes = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("dc-redis")).start()
    yield server
    server.stop()


@pytest.fixture
def prefix() -> str:
    return f"dc{next(_prefixes)}"


@pytest.fixture
async def server() -> AsyncIterator[DiscordAPIServer]:
    async with DiscordAPIServer() as srv:
        yield srv
        assert srv.errors == [], "the local Discord server met a request it does not model"


@pytest.fixture
async def bot(server: DiscordAPIServer, redis_server: RedisServer, prefix: str) -> AsyncIterator[BotProcess]:
    server.guild()
    process = await BotProcess(server, redis_server.url, prefix).start()
    yield process
    await process.stop()
