"""Fixtures: a real redis-server (one per session, a key prefix per test), the
local Bot API server, and a started bot process."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.botapi import BotAPIServer
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess

_prefixes = itertools.count(1)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("tg-redis")).start()
    yield server
    server.stop()


@pytest.fixture
def prefix() -> str:
    return f"tg{next(_prefixes)}"


@pytest.fixture
async def server() -> AsyncIterator[BotAPIServer]:
    async with BotAPIServer() as srv:
        yield srv
        assert srv.errors == [], "the local Bot API server crashed while handling a request"


@pytest.fixture
async def bot(server: BotAPIServer, redis_server: RedisServer, prefix: str) -> AsyncIterator[BotProcess]:
    process = await BotProcess(server, redis_server.url, prefix).start()
    yield process
    await process.stop()
