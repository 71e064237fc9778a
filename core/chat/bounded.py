"""A cache that never outgrows its cap: what a front-end process remembers
about the chats and people it met (a chat's game id, who is an admin, the
status message it edited last), oldest entries out first.

Why in core: a bot process meets new chats all day, and every per-chat or
per-person memory that is only written grows with them (issue 25: RSS grew
with every game a soak played). Telegram's adapter had five hand-written
copies of the same loop (an ordered dict, a move to the end, a pop from the
front while too long, and for some an expiry); each front-end needs the
same, and one tested cache states each cap where it is made.

An entry with a lifetime (`ttl`) is trusted that long; the expired entries
at the front leave whenever the cache is written, so a cache whose entries
expire holds what is fresh (the chats of the last minute), not the last
`size` ever seen. Reads do not reorder: the entry written longest ago goes
first, which for a cache of one lifetime is also the one expiring first.

Why not `cachetools`: its FIFOCache and TTLCache would serve (a TTLCache
reorders on reads, which costs a little and changes nothing here); one
class of some forty lines kept core from taking a dependency for it, and
a swap stays local (callers use get, put, pop, clear, `in`, len, iteration).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most `size` entries; each trusted for `ttl` seconds of `clock`
    (None: until it is pushed out by newer ones)."""

    def __init__(self, size: int, ttl: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        if size < 1:
            raise ValueError("a bounded cache holds at least one entry")
        self.size = size
        self.ttl = ttl
        self.clock = clock
        #: key -> (expiry or None, value), in the order written.
        self._entries: OrderedDict[K, tuple[float | None, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value of a fresh entry, else None."""
        hit = self._entries.get(key)
        if hit is None or (hit[0] is not None and hit[0] < self.clock()):
            return None
        return hit[1]

    def put(self, key: K, value: V, ttl: float | None = None) -> None:
        """Write an entry (it becomes the newest); `ttl` overrides the cache's lifetime for it."""
        now = self.clock()
        self._entries.pop(key, None)
        self._sweep(now)
        lifetime = self.ttl if ttl is None else ttl
        self._entries[key] = (None if lifetime is None else now + lifetime, value)

    def pop(self, key: K) -> V | None:
        """Forget an entry; its value if it was fresh."""
        value = self.get(key)
        self._entries.pop(key, None)
        return value

    def clear(self) -> None:
        self._entries.clear()

    def _sweep(self, now: float) -> None:
        """Make room for one entry: the oldest go while the cache is full,
        and the expired ones at the front go too (an entry written with a
        longer lifetime only stops the sweep early: nothing fresh is dropped)."""
        entries = self._entries
        while entries:
            expiry = next(iter(entries.values()))[0]
            if len(entries) >= self.size or (expiry is not None and expiry < now):
                entries.popitem(last=False)
            else:
                break

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[K]:
        """The keys held (fresh or not yet swept), oldest first."""
        return iter(list(self._entries))
