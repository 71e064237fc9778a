"""Core's bounded cache: never more than its cap, the oldest written out
first, an expired entry never returned and swept out when the cache is
written (on a clock the test moves itself: no sleep)."""

from __future__ import annotations

import pytest

from unobot.chat.bounded import BoundedCache


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_cap_holds_and_the_oldest_written_goes_first() -> None:
    cache: BoundedCache[str, int] = BoundedCache(3)
    for i, key in enumerate("abcd"):
        cache.put(key, i)
    assert list(cache) == ["b", "c", "d"] and len(cache) == 3
    assert cache.get("a") is None and cache.get("b") == 1
    cache.get("b")  # a read does not make an entry newer
    cache.put("c", 20)  # a write does
    cache.put("e", 4)
    assert list(cache) == ["d", "c", "e"]
    for i in range(1000):
        cache.put(f"k{i}", i)
    assert len(cache) == 3


def test_an_expired_entry_is_not_returned_and_leaves_at_the_next_write() -> None:
    clock = Clock()
    cache: BoundedCache[str, bool] = BoundedCache(100, ttl=10.0, clock=clock)
    for i in range(50):
        cache.put(f"old{i}", False)
    assert cache.get("old0") is False and "old0" in cache  # a false value is still a hit
    clock.now += 11
    assert cache.get("old0") is None and "old0" not in cache
    assert len(cache) == 50  # not swept by reading
    cache.put("new", True)
    assert list(cache) == ["new"]


def test_a_longer_lifetime_only_stops_the_sweep_early() -> None:
    clock = Clock()
    cache: BoundedCache[str, int] = BoundedCache(10, ttl=1.0, clock=clock)
    cache.put("long", 1, ttl=60.0)
    cache.put("short", 2)
    clock.now += 5
    cache.put("next", 3)
    assert list(cache) == ["long", "short", "next"]  # "short" expired but sits behind a fresh one
    assert cache.get("short") is None and cache.get("long") == 1


def test_no_lifetime_means_until_pushed_out() -> None:
    clock = Clock()
    cache: BoundedCache[int, str] = BoundedCache(2, clock=clock)
    cache.put(1, "a")
    clock.now += 10 ** 9
    assert cache.get(1) == "a"


def test_pop_and_clear_forget() -> None:
    cache: BoundedCache[str, int] = BoundedCache(4)
    cache.put("a", 1)
    assert cache.pop("a") == 1 and cache.pop("a") is None and len(cache) == 0
    cache.put("b", 2)
    cache.clear()
    assert list(cache) == []


def test_a_cache_holds_at_least_one_entry() -> None:
    with pytest.raises(ValueError):
        BoundedCache(0)
