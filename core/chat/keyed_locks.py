"""One asyncio lock per key (a chat, a message), kept only while in use.

Why: a front-end serialises some work per chat (a chat's move to a
supergroup, the re-post of a deleted status message), and a dict of locks
that is only ever written keeps one lock for every chat the process met
(issue 25's soak found one Lock per game among what grew). Here a key's
lock leaves as soon as nobody holds it or waits for it; a later user makes
a fresh one, which is the same as a released one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class KeyedLocks(Generic[K]):
    """`async with locks.hold(key):` runs one holder of `key` at a time."""

    def __init__(self) -> None:
        #: key -> (its lock, how many hold or wait for it)
        self._locks: dict[K, tuple[asyncio.Lock, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]

    def __contains__(self, key: object) -> bool:
        return key in self._locks

    def __len__(self) -> int:
        return len(self._locks)
