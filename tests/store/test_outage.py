"""Redis goes away and comes back: typed errors, nothing half-written, play goes on."""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.store import StoreUnavailable

CHAT = "-100555"


@pytest.mark.parametrize("how", ["stop", "kill"])
async def test_outage_raises_store_unavailable_and_recovers(
    make_redis_server: Callable[[], RedisServer], how: str
) -> None:
    server = make_redis_server()
    store = RedisStore.from_url(server.url, prefix="outage")
    try:
        game_id, _ = await store.create_game(CHAT, b"s1", log=["0 deal"])
        assert await store.save_game(game_id, b"s2", expected_version=1, log=["0 play R5"]) == 2
        await store.update_chat_settings(CHAT, {"language": "es"})
        await store.incr_stats("user", 1, {"games": 1})

        server.stop() if how == "stop" else server.kill()

        operations: list[Callable[[], Awaitable[object]]] = [
            lambda: store.ping(),
            lambda: store.load_game(game_id),
            lambda: store.save_game(game_id, b"s3", expected_version=2, log=["1 draw"]),
            lambda: store.create_game("-100556", b"x"),
            lambda: store.delete_game(game_id),
            lambda: store.read_log(game_id),
            lambda: store.game_expires_in(game_id),
            lambda: store.chat_game(CHAT),
            lambda: store.bind_chat(CHAT, game_id),
            lambda: store.unbind_chat(CHAT),
            lambda: store.unbind_chat(CHAT, game_id),
            lambda: store.get_chat_settings(CHAT),
            lambda: store.update_chat_settings(CHAT, {"language": "en"}),
            lambda: store.clear_chat_settings(CHAT),
            lambda: store.incr_stats("user", 1, {"games": 1}),
            lambda: store.get_stats("user", 1),
        ]
        for operation in operations:
            with pytest.raises(StoreUnavailable):
                await operation()

        server.start()  # same port, same data dir

        game = await store.load_game(game_id)  # the same store object goes on
        assert game is not None and (game.version, game.state) == (2, b"s2")
        assert await store.read_log(game_id) == ["0 deal", "0 play R5"]
        assert await store.chat_game(CHAT) == game_id
        assert await store.get_chat_settings(CHAT) == {"language": "es"}
        assert await store.get_stats("user", 1) == {"games": 1}
        assert await store.chat_game("-100556") is None
        assert await store.save_game(game_id, b"s3", expected_version=2, log=["1 draw"]) == 3
        assert await store.read_log(game_id) == ["0 deal", "0 play R5", "1 draw"]
    finally:
        await store.close()


async def test_unreachable_server_is_unavailable_from_the_start(
    make_redis_server: Callable[[], RedisServer],
) -> None:
    server = make_redis_server()
    url = server.url
    server.stop()
    store = RedisStore.from_url(url)
    try:
        with pytest.raises(StoreUnavailable):
            await store.create_game(CHAT, b"s")
    finally:
        await store.close()


async def test_a_hung_server_times_out_and_writes_all_or_nothing(
    make_redis_server: Callable[[], RedisServer],
) -> None:
    """SIGSTOP: connections are accepted, nothing answers. The save's outcome is
    unknown to the caller (the server may run it once resumed), but it is whole."""
    server = make_redis_server()
    store = RedisStore.from_url(server.url, prefix="hung", socket_timeout=0.5)
    try:
        game_id, _ = await store.create_game(CHAT, b"s1", log=["0 deal"])
        assert server.process is not None
        server.process.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(StoreUnavailable):
                await store.save_game(game_id, b"s2", expected_version=1, log=["0 play R5"])
            with pytest.raises(StoreUnavailable):
                await store.load_game(game_id)
        finally:
            server.process.send_signal(signal.SIGCONT)
        game = await store.load_game(game_id)
        assert game is not None
        seen = (game.version, game.state, await store.read_log(game_id))
        assert seen in [(1, b"s1", ["0 deal"]), (2, b"s2", ["0 deal", "0 play R5"])]
        version = await store.save_game(game_id, b"s3", expected_version=game.version)
        assert version == game.version + 1
    finally:
        await store.close()
