"""The store's change feed (core/changes.py): every saved change of a chat's
game is told, with its version and origin, to this process (every store) and
to every other process on the same server (the Redis kinds: a second store
instance stands for another process). No state travels, only ids."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from unobot.adapters.redis_store import RedisStore
from unobot.changes import Change, follow
from unobot.store import MemoryStore, Store

from .conftest import REDIS_KINDS, _url

CHAT = "-100777"


class Heard:
    """What a follower heard, in order."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.new = asyncio.Event()

    async def __call__(self, change: Change) -> None:
        self.changes.append(change)
        self.new.set()

    async def until(self, test: object, timeout: float = 5.0) -> list[Change]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not test(self.changes):  # type: ignore[operator]
            self.new.clear()
            left = end - loop.time()
            assert left > 0, f"not heard: {self.changes}"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.new.wait(), left)
        return self.changes


async def following(store: Store, heard: Heard, *, others_only: bool) -> asyncio.Task[None]:
    feed = store.changes()
    assert feed is not None
    task = asyncio.get_running_loop().create_task(follow(feed, heard, others_only=others_only))
    await listening(store, feed)
    return task


async def listening(store: Store, feed: Any, timeout: float = 30.0) -> None:
    """Until the follower listens (a save before that is told to nobody): the memory feed
    has its listener; Redis counts the channel's subscriber (a fresh channel: a prefix per
    test), on every node of a cluster (a subscription is one node's). A fixed sleep was
    a guess that a loaded machine could beat."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        if isinstance(store, RedisStore):
            client = store.client
            nodes = {"target_nodes": client.ALL_NODES} if hasattr(client, "get_nodes") else {}
            count = sum(n for _, n in await client.pubsub_numsub(feed.channel, **nodes))
        else:
            count = len(feed._listeners)
        if count:
            return
        assert loop.time() < end, "the follower never listened"
        await asyncio.sleep(0.01)


async def test_every_save_is_told_to_this_process(store: Store) -> None:
    heard = Heard()
    task = await following(store, heard, others_only=False)
    try:
        game_id, _ = await store.create_game(CHAT, b"s1")
        await store.save_game(game_id, b"s2", expected_version=1)
        await store.save_game(game_id, b"s3", expected_version=2)
        changes = await heard.until(lambda cs: any(c.version == 3 for c in cs))
        feed = store.changes()
        assert feed is not None
        assert all(c.chat_id == CHAT and c.game_id == game_id and c.origin == feed.origin for c in changes)
        versions = [c.version for c in changes]
        assert versions == sorted(versions) and versions[-1] == 3  # in order (folded, maybe)
        await store.unbind_chat(CHAT)
        await heard.until(lambda cs: cs[-1].version == 0)
    finally:
        task.cancel()


async def test_a_refused_save_is_not_told(store: Store) -> None:
    heard = Heard()
    task = await following(store, heard, others_only=False)
    try:
        game_id, _ = await store.create_game(CHAT, b"s1")
        await store.save_game(game_id, b"s2", expected_version=1)
        with pytest.raises(Exception, match="conflict|version"):
            await store.save_game(game_id, b"other", expected_version=1)
        await heard.until(lambda cs: any(c.version == 2 for c in cs))
        await asyncio.sleep(0.3)
        assert [c.version for c in heard.changes if c.version > 2] == []
    finally:
        task.cancel()


async def test_its_own_changes_are_skipped_when_asked(store: Store) -> None:
    heard = Heard()
    task = await following(store, heard, others_only=True)
    try:
        game_id, _ = await store.create_game(CHAT, b"s1")
        await store.save_game(game_id, b"s2", expected_version=1)
        await asyncio.sleep(0.5)
        assert heard.changes == []
    finally:
        task.cancel()


async def test_the_memory_store_tells_only_its_own_process() -> None:
    one, other = MemoryStore(), MemoryStore()
    heard = Heard()
    task = await following(other, heard, others_only=False)
    try:
        await one.create_game(CHAT, b"s1")
        await asyncio.sleep(0.2)
        assert heard.changes == []
    finally:
        task.cancel()


@pytest.fixture(params=REDIS_KINDS)
async def two_processes(request: pytest.FixtureRequest) -> AsyncIterator[tuple[RedisStore, RedisStore]]:
    url, prefix = _url(request.param, request), f"t{uuid.uuid4().hex[:8]}"
    one, other = RedisStore.from_url(url, prefix=prefix), RedisStore.from_url(url, prefix=prefix)
    yield one, other
    await one.close()
    await other.close()


async def test_another_process_hears_a_save_promptly(two_processes: tuple[RedisStore, RedisStore]) -> None:
    one, other = two_processes
    heard = Heard()
    task = await following(other, heard, others_only=True)
    try:
        game_id, _ = await one.create_game(CHAT, b"s1")
        loop = asyncio.get_running_loop()
        saved = loop.time()
        await one.save_game(game_id, b"s2", expected_version=1)
        changes = await heard.until(lambda cs: any(c.version == 2 for c in cs), timeout=2.0)
        assert loop.time() - saved < 2.0
        assert changes[-1] == Change(CHAT, game_id, 2, one.changes().origin)
        assert one.changes().origin != other.changes().origin
    finally:
        task.cancel()


async def test_a_change_says_which_front_end_its_saver_showed_it_on(
        two_processes: tuple[RedisStore, RedisStore]) -> None:
    """A process of a Telegram bot shows its own saves (edits the status); the
    bot's other processes, told so by the change, need not edit it again."""
    one, other = two_processes
    heard = Heard()
    task = await following(other, heard, others_only=True)
    try:
        one.changes().shows = "telegram:42"
        game_id, _ = await one.create_game(CHAT, b"s1")
        changes = await heard.until(lambda cs: any(c.game_id == game_id for c in cs), timeout=5.0)
        assert changes[-1] == Change(CHAT, game_id, 1, one.changes().origin, "telegram:42")
        one.changes().shows = ""
        await one.save_game(game_id, b"s2", expected_version=1)
        changes = await heard.until(lambda cs: any(c.version == 2 for c in cs), timeout=5.0)
        assert changes[-1].shown_by == ""
    finally:
        task.cancel()


async def test_another_prefix_hears_nothing(two_processes: tuple[RedisStore, RedisStore],
                                            request: pytest.FixtureRequest) -> None:
    one, _ = two_processes
    elsewhere = RedisStore(one.client, prefix="elsewhere" + uuid.uuid4().hex[:6])
    heard = Heard()
    task = await following(elsewhere, heard, others_only=False)
    try:
        await one.create_game(CHAT, b"s1")
        await asyncio.sleep(0.4)
        assert heard.changes == []
    finally:
        task.cancel()


async def test_a_lost_connection_is_said_as_resync(make_redis_server: object) -> None:
    server = make_redis_server()  # type: ignore[operator]
    prefix = f"t{uuid.uuid4().hex[:8]}"
    one = RedisStore.from_url(server.url, prefix=prefix)
    listener = RedisStore.from_url(server.url, prefix=prefix)
    heard = Heard()
    task = await following(listener, heard, others_only=True)
    try:
        server.stop()
        await asyncio.sleep(0.5)
        server.start()
        await heard.until(lambda cs: any(c.resync for c in cs), timeout=10.0)
        game_id, _ = await one.create_game(CHAT, b"s1")
        await heard.until(lambda cs: any(c.game_id == game_id for c in cs), timeout=5.0)
    finally:
        task.cancel()
        await one.close()
        await listener.close()


async def test_a_shutdown_waits_a_bounded_time_for_a_follower_stuck_in_its_feed() -> None:
    """A feed cancelled mid-read may not end until its connection does (a
    Redis pub/sub read held `unobot web` on SIGTERM): `stop_following` waits
    `wait` seconds at most, and the follower ends once the feed is closed."""
    import time

    from unobot.changes import start_following, stop_following

    released = asyncio.Event()

    class StuckFeed:
        origin = "stuck"
        closed = False

        async def listen(self) -> AsyncIterator[Change]:
            try:
                await asyncio.Event().wait()  # a read that never returns
                yield Change("", "", 0, "")
            finally:
                await released.wait()  # its connection's close, which a cancel does not end

    async def handler(change: Change) -> None:
        raise AssertionError(change)

    task = start_following(StuckFeed(), handler)
    assert task is not None
    await asyncio.sleep(0.05)
    started = time.monotonic()
    await asyncio.wait_for(stop_following(task, wait=0.3), 5.0)  # unbounded, it waited for ever
    assert 0.25 <= time.monotonic() - started < 2.0
    assert not task.done()
    released.set()  # the store closed: the read ends, and so does the follower
    await asyncio.wait({task}, timeout=2.0)
    assert task.done()
