"""Core's KeyedLocks: one holder of a key at a time, no lock kept once nobody uses it."""

from __future__ import annotations

import asyncio

from unobot.chat.keyed_locks import KeyedLocks


def test_one_holder_per_key_and_nothing_kept_after() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    order: list[str] = []

    async def one(key: str, tag: str) -> None:
        async with locks.hold(key):
            order.append(f"{tag}+")
            assert key in locks
            await asyncio.sleep(0.01)
            order.append(f"{tag}-")

    async def main() -> None:
        await asyncio.gather(one("a", "a1"), one("a", "a2"), one("b", "b1"))

    asyncio.run(main())
    # a1 and a2 never overlap; b1 runs beside a1
    assert order.index("a1-") < order.index("a2+")
    assert order.index("b1+") < order.index("a1-")
    assert len(locks) == 0 and "a" not in locks
