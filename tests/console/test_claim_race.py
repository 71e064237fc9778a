"""Two consoles of one login started at the same moment: one takes the table.

Before, the claim was read, judged free, then written over whatever was
there: a console that read "free" before the other wrote, and wrote after
the other had read its own claim back, took the table too, and both played
it. Now the claim is a compare-and-set on the store
(`Store.swap_chat_setting`, a Lua script on Redis). Real Redis; the two
consoles run in two threads, each with its own event loop and connection,
and the second one's look at the previous holder (a dead process) is held
until the first has taken the table: the interleaving that let both in.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from tests.support.redis_server import RedisServer
from unobot.adapters.console.claim import KEY, Claim, Holder
from unobot.adapters.redis_store import RedisStore

CHAT = "console.tess"
DEAD, FIRST, SECOND = 4_000_001, 4_000_002, 4_000_003


def test_of_two_consoles_started_together_one_takes_the_table(server: RedisServer) -> None:
    async def leave_a_dead_claim() -> None:
        store = RedisStore.from_url(server.url, prefix="race")
        dead = Holder("dead", DEAD, "here", 1.0)
        await store.update_chat_settings(CHAT, {KEY: dead.as_dict()})
        await store.close()

    asyncio.run(leave_a_dead_claim())
    first_took = threading.Event()
    results: dict[int, Any] = {}

    def alive_for(pid_of_me: int) -> Any:
        def alive(pid: int) -> bool:
            if pid == DEAD:
                if pid_of_me == SECOND:  # judged free, then held until the first has the table
                    assert first_took.wait(10)
                return False
            return True  # FIRST and SECOND run
        return alive

    def console(pid: int) -> None:
        async def start() -> None:
            store = RedisStore.from_url(server.url, prefix="race")
            try:
                claim = Claim(store, CHAT, alive=alive_for(pid))
                claim.me = Holder(claim.me.token, pid, "here", claim.me.seen)
                results[pid] = await claim.take()
                if pid == FIRST:
                    first_took.set()
            finally:
                await store.close()
        asyncio.run(start())

    threads = [threading.Thread(target=console, args=(pid,)) for pid in (SECOND, FIRST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert results[FIRST] is None  # it took the table
    told = results[SECOND]
    assert told is not None and told.pid == FIRST, told  # told who has it, and took nothing
