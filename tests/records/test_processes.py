"""Two OS processes ending matches of one chat at once count each match
exactly once (issue #27): two spawned processes, each with the store opened
through adapters/store_factory and its own ChatService (two bot processes'
worth), start together at a barrier and race for every command of one
chat's matches on one real redis-server (who opens the table, who joins,
who plays the move that ends each match: every round is a match, so the
finishing step is raced dozens of times). Afterwards the chat's standings,
for every period, are exactly the sum of the kept matches, each match was
told "finished" to one process only, every match started was kept, and the
chat's counters agree."""

from __future__ import annotations

import multiprocessing
import queue
import time
import uuid
from collections import Counter

from tests.support.records_worker import PEOPLE, RecordsJob, RecordsReport, contend_records
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records
from unobot.chat.audit import audit_archived
from unobot.chat.service import ChatService

CHAT = "-100999"
MATCHES = 30
TIME_LIMIT = 120.0


async def test_two_processes_ending_matches_of_one_chat_count_each_once(redis_server: RedisServer) -> None:
    url, prefix = redis_server.url, f"rproc{uuid.uuid4().hex[:6]}"
    store = RedisStore.from_url(url, prefix=prefix)
    admin = c.Person("admin", "Admin", is_admin=True)
    svc = ChatService(store)
    for rule, option, value in (("deck", "hand_size", 3), ("scoring", "target", 0)):  # a round is a match
        assert (await svc.handle(CHAT, admin, c.SetRule(rule=rule, option=option, value=value))).ok

    ctx = multiprocessing.get_context("spawn")
    ready, results = ctx.Barrier(2), ctx.Queue()
    deadline = time.time() + TIME_LIMIT
    procs = [ctx.Process(target=contend_records, daemon=True,
                         args=(RecordsJob(i, url, prefix, CHAT, MATCHES, deadline), ready, results))
             for i in range(2)]
    for proc in procs:
        proc.start()
    reports: list[RecordsReport] = []
    try:
        while len(reports) < 2:
            try:
                reports.append(results.get(timeout=TIME_LIMIT + 60))
            except queue.Empty:
                raise AssertionError("a worker did not report back") from None
    finally:
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
    try:
        assert not [r.error for r in reports if r.error]
        assert all(r.commands > 50 and r.refused > 0 for r in reports), reports  # they did race
        kept = await store.archived(CHAT, 1000)
        seeds = [int(r["state"]["seed"]) for r in kept]
        assert len(kept) >= MATCHES and len(set(seeds)) == len(kept)
        started = [s for r in reports for s in r.started]
        ended = [s for r in reports for s in r.ended]
        # Every match started was kept, once; each was told "finished" to one process only.
        assert Counter(started) == Counter(seeds)
        assert Counter(ended) == Counter(seeds)
        print({r.worker: (r.commands, r.refused, len(r.started), len(r.ended)) for r in reports})
        assert [r for r in kept if not (await audit_archived(r)).ok] == []

        # The standings are the sum of the kept matches, in every period: none twice, none missed.
        want: dict[str, tuple[int, int, int]] = {}
        for record in kept:
            for seat, p in enumerate(record["players"]):
                games, wins, points = want.get(p["id"], (0, 0, 0))
                want[p["id"]] = (games + 1, wins + (seat == record["winner"]), points + max(0, p["score"]))
        assert set(want) == {p.id for p in PEOPLE}
        for period in records.PERIODS:
            got = {x.player: (x.games, x.wins, x.points) for x in await records.top(store, CHAT, period)}
            assert got == want, period
        assert sum(w for _, w, _ in want.values()) == len(kept)
        assert (await store.get_stats("chat", CHAT)).get("matches") == len(kept)
        for p in PEOPLE:
            assert (await store.get_stats("user", p.id)).get("matches") == want[p.id][0]
            assert (await records.me(store, p.id))[CHAT].games == want[p.id][0]
    finally:
        await store.close()
