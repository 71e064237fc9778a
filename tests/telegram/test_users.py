"""The adapter's own records on a real Redis: /notify subscribers under concurrency."""

from __future__ import annotations

import asyncio

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.telegram import state


async def test_subscribers_are_never_lost_to_a_race(redis_server: RedisServer, prefix: str) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    try:
        chat = "-100123"
        added = await asyncio.gather(*(state.subscribe(store, chat, uid) for uid in range(1, 31)))
        assert all(added)
        assert await state.subscribe(store, chat, 7) is False  # once is enough
        # A game opens (the list is taken) while more people subscribe.
        taken, *late = await asyncio.gather(state.take_subscribers(store, chat),
                                            *(state.subscribe(store, chat, uid) for uid in range(31, 41)))
        rest = await state.take_subscribers(store, chat)
        assert sorted(map(int, taken + rest)) == list(range(1, 41))
        assert not set(taken) & set(rest)
        assert await state.take_subscribers(store, chat) == []
        # Subscribers kept as one list (as older versions did) are not lost.
        await store.update_chat_settings(chat, {"notify": ["5", "6"]})
        await state.subscribe(store, chat, 6)
        assert sorted(await state.take_subscribers(store, chat)) == ["5", "6"]
        assert "notify" not in await store.get_chat_settings(chat)
    finally:
        await store.close()
