"""The chat path under contention: four OS processes, each with its own
ChatService (as four webhook workers of a bot would), play the same eight
chats on one real redis-server. Every change a process was told it saved
must be in the store exactly once (the tables' versions account for every
acknowledged change, none twice), and every table must be exactly what its
log replays to (core/chat/audit.py)."""

from __future__ import annotations

import multiprocessing
import queue
import time
import uuid
from collections import Counter

from tests.support.chat_worker import ChatJob, ChatReport, contend_chats
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.audit import audit_table
from unobot.chat.service import ChatService

PROCESSES = 4
CHATS = 8
TIME_LIMIT = 60.0


async def test_four_bot_processes_on_eight_chats_lose_and_double_nothing(redis_server: RedisServer) -> None:
    url, prefix = redis_server.url, f"chats{uuid.uuid4().hex[:6]}"
    store = RedisStore.from_url(url, prefix=prefix)
    svc = ChatService(store)
    admin = c.Person("admin", "Admin", is_admin=True)
    chats = [f"-1007{i}" for i in range(CHATS)]
    started: dict[str, int] = {}
    for i, chat in enumerate(chats):
        people = [c.Person(f"{i}{n}", f"P{n}") for n in range(2 + i % 2)]
        for rule, option, value in (("deck", "hand_size", 4), ("scoring", "target", 150)):
            assert (await svc.handle(chat, admin, c.SetRule(rule=rule, option=option, value=value))).ok
        assert (await svc.handle(chat, people[0], c.NewGame())).ok
        for p in people[1:]:
            assert (await svc.handle(chat, p, c.Join())).ok
        out = await svc.handle(chat, people[0], c.Start())
        assert out.ok and out.table is not None
        started[chat] = out.table.version

    ctx = multiprocessing.get_context("spawn")
    ready, results = ctx.Barrier(PROCESSES), ctx.Queue()
    deadline = time.time() + TIME_LIMIT
    procs = [ctx.Process(target=contend_chats, daemon=True,
                         args=(ChatJob(i, url, prefix, chats, 500 + i, deadline), ready, results))
             for i in range(PROCESSES)]
    for proc in procs:
        proc.start()
    reports: list[ChatReport] = []
    try:
        while len(reports) < PROCESSES:
            try:
                reports.append(results.get(timeout=TIME_LIMIT + 30))
            except queue.Empty:
                raise AssertionError("a worker did not report back") from None
    finally:
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
    assert not [r.error for r in reports if r.error]
    acked = [a for r in reports for a in r.acked]
    assert len(acked) > 100, len(acked)
    # No version was acknowledged twice (two processes both told "saved" for one change).
    doubled = [k for k, n in Counter(acked).items() if n > 1]
    assert not doubled, doubled[:5]
    for chat in chats:
        mine = sorted(v for ch, v in acked if ch == chat)
        game_id = await store.chat_game(chat)
        if game_id is None:  # the match ended: every version from the start to its end was acked once
            assert mine == list(range(started[chat] + 1, started[chat] + 1 + len(mine)))
            continue
        table = await svc.table(chat)
        assert table is not None
        # Every change since the start is one an acknowledged command made.
        assert mine == list(range(started[chat] + 1, table.version + 1)), (chat, mine[-3:], table.version)
        result = await audit_table(store, game_id)
        assert result.ok, result.problem
    await store.close()
