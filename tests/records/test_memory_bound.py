"""A chat's records stay under their bound in Redis however long it plays:
real matches (through the chat service, on a real redis-server, the store
opened with the config's ``records`` caps) played well past every cap:
finished games kept (``max_per_chat``), people in the standings
(``max_people_per_chat``: whoever played least recently leaves), archived
game ids remembered (DONE_MAX). Measured with Redis ``MEMORY USAGE`` over
every records key of the chat: once the caps are reached, all but the kept
records stops growing, and the records are at most ``max_per_chat``.
(A finished game's own keys, its live state and log, are not the archive:
they expire with the store's game TTL, 48 hours by default.)"""

from __future__ import annotations

import json
import random
import time
import uuid
from pathlib import Path

import pytest

from tests.support.chat_worker import command_for
from tests.support.redis_server import RedisServer
from unobot.adapters import redis_store
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import open_store, store_options
from unobot.chat import commands as c
from unobot.chat import records
from unobot.chat.service import ChatService
from unobot.chat.table import FINISHED, PLAYING
from unobot.config import load_config

ROOT = Path(__file__).resolve().parents[2]
CHAT = "-100444"
PEOPLE = [c.Person(str(300 + i), f"P{i}") for i in range(24)]
KEPT, CAP, DONE = 3, 10, 6
MATCHES = 30


async def _match(svc: ChatService, people: list[c.Person], seed: int) -> None:
    assert (await svc.handle(CHAT, people[0], c.NewGame())).ok
    for p in people[1:]:
        assert (await svc.handle(CHAT, p, c.Join())).ok
    assert (await svc.handle(CHAT, people[0], c.Start())).ok
    await _drive_people(svc, seed)


async def _drive_people(svc: ChatService, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(3000):
        table = await svc.table(CHAT)
        if table is None:
            return
        assert table.phase == PLAYING and table.game is not None
        seat = table.seats[table.game.turn]
        out = await svc.handle(CHAT, c.Person(seat.id, seat.name), command_for(table, seat.id, rnd))
        assert out.ok, out.error
        if out.table is not None and out.table.phase == FINISHED:
            return
    raise AssertionError("the match did not end")


ARCHIVE_KINDS = {"records", "record", "done", "standings", "seen", "periods"}
"""The chat's keys that are its records (core/chat/records.py); the chat's
other keys are its settings, counters and games (a finished game's own keys
expire with the store's game TTL, see below)."""


async def _chat_bytes(store: RedisStore) -> dict[str, int]:
    """Every records key of the chat (its hash slot's names) with its MEMORY USAGE."""
    out = {}
    async for key in store.client.scan_iter(match=f"{store.keys.prefix}:{{chat:{CHAT}}}*"):
        name = key.decode()
        if name.split("}:", 1)[1].split(":", 1)[0] in ARCHIVE_KINDS:
            out[name] = int(await store.client.memory_usage(key, samples=0) or 0)
        else:  # a game, settings, counters: a finished game's keys go by themselves
            assert ":game:" not in name or 0 < await store.client.ttl(key) <= (store.game_ttl or 0), name
    return out


async def test_a_chat_played_past_every_cap_stays_under_its_bound(
        redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "c.yaml").write_text(f"records: {{max_per_chat: {KEPT}, max_people_per_chat: {CAP}}}\n")
    config = load_config(tmp_path / "c.yaml", environ={})
    monkeypatch.setattr(redis_store, "DONE_MAX", DONE)  # (1000 in play: too many matches for a test)
    store = await open_store(redis_server.url, data_dir=str(ROOT / "data"), prefix=f"mem{uuid.uuid4().hex[:6]}",
                             **store_options(config))
    assert isinstance(store, RedisStore) and (store.archive_max, store.standings_max) == (KEPT, CAP)
    svc = ChatService(store, rng=random.Random(8))
    admin = c.Person("1", "Admin", is_admin=True)
    for rule, option, value in (("deck", "hand_size", 3), ("scoring", "target", 0)):  # a round is a match
        assert (await svc.handle(CHAT, admin, c.SetRule(rule=rule, option=option, value=value))).ok
    rnd = random.Random(3)
    totals: list[int] = []
    other: list[int] = []
    last_played: dict[str, int] = {}
    try:
        for n in range(MATCHES):
            people = rnd.sample(PEOPLE, 3)
            await _match(svc, people, 40 + n)
            for p in people:
                last_played[p.id] = n
            sizes = await _chat_bytes(store)
            totals.append(sum(sizes.values()))
            records_kept = [k for k in sizes if ":record:" in k]
            other.append(sum(v for k, v in sizes.items() if k not in records_kept))
            assert len(records_kept) == min(n + 1, KEPT)
            assert await store.client.zcard(store.keys.done_set(CHAT)) == min(n + 1, DONE)
            for period in records.PERIODS:
                table = await store.standings(CHAT, records.period_key(period, time.time()))
                assert len(table) <= CAP
            assert await store.client.zcard(store.keys.seen(CHAT)) <= CAP
            assert max(sizes[k] for k in records_kept) < 64 * 1024  # one kept match of three: a few KB
        # The people left are the ones who played most recently; the others are gone
        # from the chat's tables and from their own record (/me; the index keeps the chat for /forgetme).
        everyone = await store.standings(CHAT, "all")
        assert len(everyone) == CAP
        # (people of one match tie: kept for sure is whoever at most CAP played as late or later)
        sure = {p for p, n in last_played.items() if sum(m >= n for m in last_played.values()) <= CAP}
        assert len(sure) >= CAP - 2 and sure <= set(everyone)
        gone = [p for p in last_played if p not in everyone]
        assert gone and [p for p in gone if await records.me(store, p) != {}] == []
        # Once every cap is reached, all but the kept records stops growing, and the
        # records are at most KEPT (a record's size varies with its match's length).
        steady = max(other[10:20])
        assert max(other[20:]) <= steady * 1.1, other
        bound = KEPT * 64 * 1024 + steady * 1.1
        assert max(totals[10:]) < bound, (totals, bound)
        print(f"chat bytes after each match: {totals}; without the records: {other}")
    finally:
        await store.close()


async def test_forgetme_reaches_a_chat_whose_standings_dropped_them(redis_server: RedisServer) -> None:
    """A person pushed out of a chat's standings by its bound (they played
    least recently) is still named in the games the chat keeps: `/forgetme`
    must find that chat and replace their name there. It did not: leaving
    the standings also took the chat out of the person's index."""
    store = RedisStore.from_url(redis_server.url, prefix=f"fgd{uuid.uuid4().hex[:6]}", standings_max=3,
                                archive_max=10)
    svc = ChatService(store, rng=random.Random(5))
    admin = c.Person("1", "Admin", is_admin=True)
    for rule, option, value in (("deck", "hand_size", 3), ("scoring", "target", 0)):  # a round is a match
        assert (await svc.handle(CHAT, admin, c.SetRule(rule=rule, option=option, value=value))).ok
    try:
        await _match(svc, PEOPLE[:3], 1)  # P0 plays first...
        await _match(svc, PEOPLE[3:6], 2)  # ...then three others fill the standings' three places
        first = PEOPLE[0]
        assert first.id not in await store.standings(CHAT, "all")
        assert any(p["id"] == first.id for r in await store.archived(CHAT, 10) for p in r["players"])
        assert await records.forget(store, first.id) == 1
        for record in await store.archived(CHAT, 10):
            assert first.id not in [p["id"] for p in record["players"]]
            assert first.id not in {token for entry in record["log"] for token in entry.split()}
            assert first.name not in json.dumps(record)
    finally:
        await store.close()
