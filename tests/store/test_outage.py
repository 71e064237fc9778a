"""Redis goes away and comes back: typed errors, nothing half-written, play goes on."""

from __future__ import annotations

import os
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path

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


async def test_out_of_memory_refuses_writes_with_the_store_message_and_reads_go_on(
    tmp_path: Path,
) -> None:
    """A real server filled to its ``maxmemory`` with ``noeviction``: every write is a
    :class:`StoreUnavailable` that says out of memory (redis-py strips the OOM code
    from the text, so the class is what tells it), and every read still answers."""
    server = RedisServer(tmp_path / "oom", appendonly=False,
                         extra=["--maxmemory", "3mb", "--maxmemory-policy", "noeviction"]).start()
    store = RedisStore.from_url(server.url, prefix="oom")
    try:
        game_id, _ = await store.create_game(CHAT, b"s1", log=["0 deal"])
        await store.update_chat_settings(CHAT, {"language": "es"})
        filler = os.urandom(200_000)  # random: the envelope compresses states
        with pytest.raises(StoreUnavailable, match="out of memory") as raised:
            for n in range(200):  # 40 MB at most: far past the limit
                await store.create_game(f"-900{n}", filler)
        assert "OOM" in str(raised.value)
        # That was a 200 KB request over the limit; small ones too, from here on.
        with pytest.raises(StoreUnavailable, match="out of memory"):
            for n in range(20_000):
                await store.incr_stats("user", f"fill{n}", {"games": 1})
        writes: list[Callable[[], Awaitable[object]]] = [
            lambda: store.save_game(game_id, filler, expected_version=1, log=["0 draw"]),
            lambda: store.create_game("-100557", filler),
            lambda: store.update_chat_settings(CHAT, {"language": filler.hex()}),
            lambda: store.incr_stats("user", 1, {"games": 1}),
        ]
        for write in writes:
            with pytest.raises(StoreUnavailable, match="out of memory"):
                await write()
        game = await store.load_game(game_id)  # reads keep working
        assert game is not None and (game.version, game.state) == (1, b"s1")
        assert await store.read_log(game_id) == ["0 deal"]
        assert await store.chat_game(CHAT) == game_id
        assert await store.get_chat_settings(CHAT) == {"language": "es"}
        assert await store.get_stats("user", 1) == {}
        # Memory freed: writes go through again.
        await store.client.flushall()
        again, _ = await store.create_game(CHAT, b"s")
        assert await store.chat_game(CHAT) == again
    finally:
        await store.close()
        server.stop()


def test_an_error_inside_a_script_is_told_by_the_wrapped_code() -> None:
    """A command inside a Lua script that hits maxmemory comes back wrapped
    (`Error running script ... -OOM ...`): it is still the OOM outage, with the
    store's message, never a bare "redis refused" (seen once in CI)."""
    from redis.exceptions import ResponseError

    from unobot.adapters.redis_store import _translate
    from unobot.store import StoreUnavailable

    text = ("Error running script (call to f_0015070e): @user_script:29: "
            "@user_script: 29: -OOM command not allowed when used memory > 'maxmemory'.")
    assert isinstance(_translate(ResponseError(text)), StoreUnavailable)
    # as redis-py parses the server's reply: `ERR Error running script ...`, status code ERR
    assert isinstance(_translate(ResponseError(text, status_code="ERR")), StoreUnavailable)
    assert not isinstance(_translate(ResponseError("unknown command", status_code="ERR")), StoreUnavailable)
    assert not isinstance(_translate(ResponseError("WRONGTYPE Operation against a key")), StoreUnavailable)


async def test_a_connection_closed_under_a_command_is_an_outage_not_a_crash(redis_server: RedisServer) -> None:
    """redis-py's asyncio connection, closed by another task while a command
    writes on it (a cluster client dropping a failed node's connections in a
    failover), raises AttributeError from inside the driver (8.1; 8.2 checks
    first and raises its own ConnectionError); either way the store says
    "not reachable", as for any lost connection, and goes on afterwards. An
    AttributeError of anything else is a bug and is not hidden."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from unobot.adapters import redis_store

    store = RedisStore.from_url(redis_server.url, prefix="closed-under")
    try:
        game_id, _ = await store.create_game(CHAT, b"s1", log=["0 deal"])
        connection = store.client.connection_pool.make_connection()  # type: ignore[union-attr]
        await connection.connect()
        connection._writer = None  # what a concurrent disconnect leaves behind, after the "connected?" check
        gone: BaseException
        try:
            await connection._send_packed_command([b"PING\r\n"])  # the step that then fails
        except AttributeError as exc:  # redis-py 8.1 and older
            assert redis_store._connection_gone(exc)
            gone = exc
        except RedisConnectionError as exc:  # redis-py 8.2: the driver says it is a lost connection itself
            gone = exc
        else:
            raise AssertionError("redis-py no longer fails either way: re-check _connection_gone")
        finally:
            await connection.disconnect(nowait=True)

        async def closed() -> object:
            raise gone

        said = "closed under the command" if isinstance(gone, AttributeError) else "not reachable|unavailable|closed"
        with pytest.raises(StoreUnavailable, match=said):
            await store._call(closed)

        async def bug() -> object:
            raise AttributeError("'Table' object has no attribute 'x'")

        with pytest.raises(AttributeError):
            await store._call(bug)
        assert (await store.load_game(game_id)).state == b"s1"  # and the store goes on
    finally:
        await store.close()


async def test_a_move_whose_save_was_not_answered_is_said_to_maybe_count_and_does_once(
    make_redis_server: Callable[[], RedisServer],
) -> None:
    """A paused Redis (SIGSTOP) takes the save and answers nothing: the player is
    not told "nothing was lost, try again" of a move that lands once Redis runs
    again, but that it may still count and to look at the table first; a plain
    outage (Redis gone, nothing sent) keeps "nothing was lost"."""
    import random as _random

    from unobot.chat import commands as c
    from unobot.chat.render import error_text
    from unobot.chat.service import ChatService
    from unobot.chat.views import hand_view

    server = make_redis_server()
    store = RedisStore.from_url(server.url, prefix="slow", socket_timeout=0.5)
    svc = ChatService(store, rng=_random.Random(5))
    ana, ben = c.Person("1", "Ana"), c.Person("2", "Ben")
    try:
        assert (await svc.handle(CHAT, ana, c.NewGame())).ok
        assert (await svc.handle(CHAT, ben, c.Join())).ok
        table = (await svc.handle(CHAT, ana, c.Start())).table
        assert table is not None and table.game is not None
        mover = ana if table.game.turn == 0 else ben
        before = table.version
        hv = hand_view(table, mover.id)
        assert hv is not None
        cmd: c.Command = c.Draw()
        for hc in hv.cards:
            if hc.playable and hc.moves and hc.moves[0].color is None and hc.moves[0].target is None:
                cmd = c.Play(hc.card.text)
                break
        assert server.process is not None
        server.process.send_signal(signal.SIGSTOP)
        try:
            out = await svc.handle(CHAT, mover, cmd)
        finally:
            server.process.send_signal(signal.SIGCONT)
        assert not out.ok and out.code == "store_slow", out
        assert out.error == error_text("store_slow", "en") and "nothing was lost" not in out.error
        after = await svc.table(CHAT)  # read again (not the cache): the save landed, once
        assert after is not None and after.version == before + 1 and after.game is not None
        server.stop()  # now gone: nothing is sent, nothing can land
        on_turn = ana if after.seats[after.game.turn].id == ana.id else ben
        gone = await svc.handle(CHAT, on_turn, c.Draw())
        assert gone.code == "store_unavailable" and "nothing was lost" in gone.error
    finally:
        await store.close()
