"""The adapter's own records on a real Redis: /notify subscribers under concurrency, user records."""

from __future__ import annotations

import asyncio

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.telegram import users


async def test_subscribers_are_never_lost_to_a_race(redis_server: RedisServer, prefix: str) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        chat = "-100123"
        added = await asyncio.gather(*(users.subscribe(store, chat, uid) for uid in range(1, 31)))
        assert all(added)
        assert await users.subscribe(store, chat, 7) is False  # once is enough
        # A game opens (the list is taken) while more people subscribe.
        taken, *late = await asyncio.gather(users.take_subscribers(store, chat),
                                            *(users.subscribe(store, chat, uid) for uid in range(31, 41)))
        rest = await users.take_subscribers(store, chat)
        assert sorted(map(int, taken + rest)) == list(range(1, 41))
        assert not set(taken) & set(rest)
        assert await users.take_subscribers(store, chat) == []
        # Subscribers kept as one list (as older versions did) are not lost.
        await store.update_chat_settings(chat, {"notify": ["5", "6"]})
        await users.subscribe(store, chat, 6)
        assert sorted(await users.take_subscribers(store, chat)) == ["5", "6"]
        assert "notify" not in await store.get_chat_settings(chat)
    finally:
        await store.close()


async def test_user_records_have_their_own_keys_and_old_ones_are_read(redis_server: RedisServer, prefix: str) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        await users.remember_game(store, 7, "-100")
        await users.set_private_ok(store, 7, True)
        assert await store.get_chat_settings("tg-user.7") == {"games": ["-100"], "pm": True}
        assert await store.get_chat_settings("user.7") == {}
        # A record an older version kept under user.<id>: read, then carried over once.
        await store.update_chat_settings("user.8", {"games": ["-200", "-300"], "pm": True})
        assert await users.user_record(store, 8) == {"games": ["-200", "-300"], "pm": True}
        assert await store.get_chat_settings("user.8") == {}
        assert await users.remember_game(store, 8, "-300") == ["-300", "-200"]
        assert await users.user_record(store, 8) == {"games": ["-300", "-200"], "pm": True}
    finally:
        await store.close()
