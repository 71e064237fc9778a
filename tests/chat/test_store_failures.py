"""What players are told, and what the log says, when the store fails them:
a server that answered with a refusal (out of memory) is never "not
reachable", and a failing store is logged once per reason per minute, not
once per command. Real redis-servers only."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import redis

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.store import StoreRefusing

ANA = c.Person("1", "Ana")
BEN = c.Person("2", "Ben")
CAT = c.Person("3", "Cat")
LUZ = c.Person("4", "Luz", lang="es")
CHAT = "-100777"
LOGGER = "unobot.chat.service"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]


async def test_a_full_store_is_refusing_not_unreachable_and_logged_once_a_minute(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """A real server filled to ``maxmemory`` (noeviction): a join is refused with the
    "cannot save right now" text (in the person's language), never "not reachable";
    the log gets one warning with the server's reason, and the next one only a
    minute later, counting what it held back; once memory is freed the join goes through."""
    server = RedisServer(tmp_path / "full", appendonly=False,
                         extra=["--maxmemory", "3mb", "--maxmemory-policy", "noeviction"]).start()
    store = RedisStore.from_url(server.url, prefix="full")
    svc = ChatService(store)
    clock = Clock()
    svc.store_warnings.clock = clock
    try:
        assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
        assert (await svc.handle(CHAT, BEN, c.Join())).ok
        await fill(server, store)
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            out = await svc.handle(CHAT, CAT, c.Join())
            assert not out.ok and out.code == "store_refusing"
            assert "cannot save right now" in out.error and "not reachable" not in out.error
            spanish = await svc.handle(CHAT, LUZ, c.Join())
            assert spanish.code == "store_refusing" and "no puede guardar" in spanish.error
            for _ in range(4):
                assert (await svc.handle(CHAT, CAT, c.Join())).code == "store_refusing"
            logged = warnings(caplog)
            assert len(logged) == 1, logged
            assert "the store refused" in logged[0] and "out of memory" in logged[0], logged
            assert "OOM" in logged[0]
            clock.now += 30  # still within the minute: nothing more
            await svc.handle(CHAT, CAT, c.Join())
            assert len(warnings(caplog)) == 1
            clock.now += 31
            await svc.handle(CHAT, CAT, c.Join())
            logged = warnings(caplog)
            assert len(logged) == 2 and "(6 more like it not logged in the last 60 s)" in logged[1], logged
        with server_client(server) as raw:
            raw.flushall()
        # the table was in the flushed memory too: a new game goes through again
        assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
        assert (await svc.handle(CHAT, CAT, c.Join())).ok
    finally:
        await store.close()
        server.stop()


async def test_an_unreachable_store_says_so_and_each_reason_is_logged_on_its_own(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """A stopped server is "not reachable" (to players and in the log); a refusal
    that follows it is another reason, logged at once even within the minute."""
    server = RedisServer(tmp_path / "gone").start()
    store = RedisStore.from_url(server.url, prefix="gone", connect_timeout=0.5, socket_timeout=0.5)
    svc = ChatService(store)
    svc.store_warnings.clock = Clock()
    replica = RedisServer(tmp_path / "replica", appendonly=False).start()
    refusing = RedisStore.from_url(replica.url, prefix="gone", retry_window=0.2)
    other = ChatService(refusing)
    other.store_warnings = svc.store_warnings  # one log limiter, two reasons
    try:
        assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
        server.stop()
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            for _ in range(3):
                out = await svc.handle(CHAT, BEN, c.Join())
                assert out.code == "store_unavailable" and "not reachable" in out.error
            logged = warnings(caplog)
            assert len(logged) == 1 and "the store is not reachable" in logged[0], logged
            assert f"127.0.0.1:{server.port}" in logged[0]
            # a replica answers every write with READONLY: refused, logged on its own
            with server_client(replica) as raw:
                raw.execute_command("REPLICAOF", "127.0.0.1", str(server.port))
            out = await other.handle(CHAT, ANA, c.NewGame())
            assert out.code == "store_refusing", out
            logged = warnings(caplog)
            assert len(logged) == 2 and "READONLY" in logged[1] and "replica" in logged[1], logged
    finally:
        await store.close()
        await refusing.close()
        replica.stop()
        server.stop()


async def fill(server: RedisServer, store: RedisStore) -> None:
    """Write until the server says OOM: big raw values first, then the store's own
    small writes (a big request's buffer counts while it is read and is freed
    after: only small writes on the store's connection leave the server full)."""
    with server_client(server) as raw, pytest.raises(redis.exceptions.OutOfMemoryError):
        for n in range(100):  # 10 MB at most: far past the limit
            raw.set(f"filler{n}", os.urandom(100_000))
    with pytest.raises(StoreRefusing, match="out of memory"):
        for n in range(20_000):
            await store.incr_stats("user", f"fill{n}", {"games": 1})
    # Then well past the limit, not just at it: a buffer freed a moment later (the raw
    # client's, a script's) could bring the server back under it, and the next write
    # would go through (seen once in a loaded run). The limit is lifted for one more
    # value and put back; noeviction keeps it all, so every write is refused.
    with server_client(server) as raw:
        limit = raw.config_get("maxmemory")["maxmemory"]
        raw.config_set("maxmemory", 0)
        raw.set("ballast", os.urandom(500_000))
        raw.config_set("maxmemory", limit)


def server_client(server: RedisServer) -> redis.Redis:
    return redis.Redis(host="127.0.0.1", port=server.port, socket_timeout=5)
