"""How much does ``appendfsync always`` cost the embedded store, against ``everysec``?

Runs the same sequence of game saves (one EVALSHA each, a ~1 KB state) on
two embedded redis-servers that differ only in appendfsync, in one run on
this machine, and prints the ratio. Why it matters: the embedded default
uses ``always`` so that an accepted move is on disk before the player sees
it; this shows what that guarantee costs on the disk at hand.

    .venv/bin/python bench/store_fsync.py [saves] [data dir]
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time

from unobot.adapters.embedded_redis import EmbeddedRedis
from unobot.adapters.redis_store import RedisStore


async def _saves_per_second(fsync: str, base: str, saves: int) -> float:
    server = EmbeddedRedis(os.path.join(base, fsync), appendfsync=fsync)
    store = RedisStore.from_url(server.start(), server=server)
    try:
        state = os.urandom(1024)
        game_id, version = await store.create_game("bench", state, replace=True)
        started = time.perf_counter()
        for _ in range(saves):
            version = await store.save_game(game_id, state, expected_version=version,
                                            log=["0 play R5"])
        return saves / (time.perf_counter() - started)
    finally:
        await store.close()


async def main(saves: int, where: str | None) -> None:
    with tempfile.TemporaryDirectory(dir=where) as base:
        everysec = await _saves_per_second("everysec", base, saves)
        always = await _saves_per_second("always", base, saves)
    print(f"saves/s  everysec: {everysec:8.0f}   always: {always:8.0f}")
    print(f"ratio everysec/always: {everysec / always:.2f}  "
          f"(always costs {1000 / always - 1000 / everysec:.2f} ms more per save)")


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    asyncio.run(main(count, sys.argv[2] if len(sys.argv) > 2 else None))
