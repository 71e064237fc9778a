"""config.yaml picks the store: memory, a Redis URL, or the embedded server on the data dir."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.support.fresh_python import fresh_python
from tests.support.redis_cluster import RedisCluster
from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import ADDRESS_NAME
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import EMBEDDED_SUBDIR, open_configured_store, store_options
from unobot.config import ConfigError, load_config
from unobot.store import MemoryStore, StoreUnconfirmed


def config_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    return path


async def test_memory(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, "redis: {url: memory}\nstore: {game_ttl_hours: 1}\n"),
                         environ={})
    store = await open_configured_store(config)
    assert isinstance(store, MemoryStore) and store.game_ttl == 3600
    await store.close()


async def test_a_redis_url_with_prefix_ttl_and_timeouts(tmp_path: Path,
                                                       redis_server: RedisServer) -> None:
    path = config_file(tmp_path, "store: {prefix: cfgtest, game_ttl_hours: 0, socket_timeout: 3.5}\n")
    config = load_config(path, environ={"UNOBOT_REDIS_URL": redis_server.url})
    store = await open_configured_store(config)
    try:
        assert isinstance(store, RedisStore) and store.server is None
        assert store.keys.prefix == "cfgtest" and store.game_ttl is None
        kwargs = store.client.connection_pool.connection_kwargs
        assert kwargs["socket_timeout"] == 3.5 and kwargs["socket_connect_timeout"] == 1.0
        game_id, _ = await store.create_game("-1001", b"x")
        assert await store.game_expires_in(game_id) is None
        await store.delete_game(game_id)
    finally:
        await store.close()


async def test_embedded_on_the_data_dir(tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, "store: {data_dir: state}\n"), environ={})
    store = await open_configured_store(config)
    try:
        assert isinstance(store, RedisStore) and store.server is not None
        assert (tmp_path / "state" / EMBEDDED_SUBDIR / ADDRESS_NAME).exists()
    finally:
        await store.close()
    assert not (tmp_path / "state" / EMBEDDED_SUBDIR / ADDRESS_NAME).exists()


async def test_redis_cluster_true_opens_a_cluster_store(tmp_path: Path,
                                                        redis_cluster: RedisCluster) -> None:
    """``redis.cluster: true`` with the plain URL of one node (here from the environment)."""
    path = config_file(tmp_path, "redis: {cluster: true}\nstore: {prefix: cfgcluster}\n")
    config = load_config(path, environ={"UNOBOT_REDIS_URL": redis_cluster.nodes[1].url})
    assert config.redis.cluster and config.redis.url is not None
    assert config.redis.url.startswith("redis+cluster://")
    store = await open_configured_store(config)
    try:
        assert isinstance(store, RedisStore) and store.cluster
        chats = [f"-7{n}" for n in range(12)]
        for chat in chats:
            await store.create_game(chat, b"x")
        assert sorted([c async for c in store.bound_chats()]) == sorted(chats)
    finally:
        await store.close()


async def test_wait_replicas_reaches_the_store(tmp_path: Path, redis_server: RedisServer,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """`redis.wait_replicas` (and `redis.wait_aof`) are handed to the store, which then
    WAITs on every save: a lone server has no replica, so the save is not
    acknowledged (StoreUnconfirmed, the shortfall logged), though it stands on the
    server."""
    path = config_file(tmp_path, "redis: {wait_replicas: 1}\nstore: {prefix: cfgwait}\n")
    config = load_config(path, environ={"UNOBOT_REDIS_URL": redis_server.url})
    assert store_options(config)["wait_replicas"] == 1  # what `unobot telegram` opens its store with
    assert "wait_replicas" not in store_options(config, memory=True)
    store = await open_configured_store(config)
    try:
        assert isinstance(store, RedisStore) and store.wait_replicas == 1
        assert store_options(config)["wait_aof"] is False
        with caplog.at_level(logging.WARNING, logger="unobot.adapters.redis_store"), \
                pytest.raises(StoreUnconfirmed) as raised:
            await store.create_game("-1002", b"x")
        assert any("0 of 1 replicas acknowledged" in r.getMessage() for r in caplog.records), caplog.text
        receipt = raised.value.receipt
        assert receipt is not None and receipt.version == 1
        game_id = receipt.game_id
        stored = await store.load_game(game_id)
        assert stored is not None and stored.state == b"x" and stored.version == 1
        await store.delete_game(game_id)
    finally:
        await store.close()
    unset = await open_configured_store(load_config(config_file(tmp_path, "store: {prefix: cfgwait}\n"),
                                                    environ={"UNOBOT_REDIS_URL": redis_server.url}))
    try:
        assert isinstance(unset, RedisStore) and unset.wait_replicas == 0
    finally:
        await unset.close()


def test_a_cluster_needs_a_url(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="redis.cluster: a Redis Cluster needs a redis://"):
        load_config(config_file(tmp_path, "redis: {url: memory, cluster: true}\n"), environ={})


def test_a_memory_store_does_not_import_redis() -> None:
    """redis-py takes a tenth of a second to import: `--redis memory` and `--help` skip it."""
    code = ("import asyncio, sys\n"
            "from unobot.adapters.store_factory import open_store\n"
            "store = asyncio.run(open_store(None, data_dir='.', memory=True))\n"
            "print(type(store).__name__, 'redis' in sys.modules)\n")
    assert fresh_python(code).split() == ["MemoryStore", "False"]


def test_wait_aof_is_read_and_checked(tmp_path: Path) -> None:
    """`redis.wait_aof`: false unless set; true reaches the store's options; anything
    else is refused with the key named."""
    assert load_config(config_file(tmp_path, "{}\n"), environ={}).redis.wait_aof is False
    config = load_config(config_file(tmp_path, "redis: {wait_aof: true, wait_replicas: 1}\n"),
                         environ={"UNOBOT_REDIS_URL": "redis://127.0.0.1:1/0"})
    assert config.redis.wait_aof is True and store_options(config)["wait_aof"] is True
    with pytest.raises(ConfigError, match="redis.wait_aof: expected true or false"):
        load_config(config_file(tmp_path, "redis: {wait_aof: yes please}\n"), environ={})
