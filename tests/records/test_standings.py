"""Standings count every match exactly once, whichever process ends it:
two ChatServices (two bot processes' worth: each its own Redis client and
cache) drive the matches of one chat at once on one real redis-server; the
chat's tables must count each finished match once, and a second archive of
a match (both processes think they ended it) must change nothing."""

from __future__ import annotations

import asyncio
import random
import uuid

import pytest

from tests.support.chat_worker import command_for
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING
from unobot.store import MemoryStore, Store

CHAT = "-100555"
PEOPLE = [c.Person("11", "Ann"), c.Person("12", "Bob"), c.Person("13", "Cid")]
MATCHES = 4


async def _drive(svc: ChatService, rnd: random.Random, ended: list[str]) -> None:
    """Play the chat's running match (whoever's turn it is) until it is over."""
    for _ in range(3000):
        table = await svc.table(CHAT)
        if table is None or table.phase not in (PLAYING, BETWEEN_ROUNDS):
            return
        if table.phase == BETWEEN_ROUNDS:
            cmd: c.Command = c.NextRound(version=table.version)
            person = PEOPLE[0]
        else:
            assert table.game is not None
            seat = table.seats[table.game.turn]
            person = c.Person(seat.id, seat.name)
            cmd = command_for(table, seat.id, rnd)
        out = await svc.handle(CHAT, person, cmd)
        if out.ok and out.changed and out.table is not None and out.table.phase == FINISHED:
            ended.append(str(out.table.seed))
        await asyncio.sleep(0)
    raise AssertionError("the match did not end")


async def _open(svc: ChatService) -> None:
    admin = c.Person("11", "Ann", is_admin=True)
    for rule, option, value in (("deck", "hand_size", 3), ("scoring", "target", 60)):
        assert (await svc.handle(CHAT, admin, c.SetRule(rule=rule, option=option, value=value))).ok
    assert (await svc.handle(CHAT, PEOPLE[0], c.NewGame())).ok
    for p in PEOPLE[1:]:
        assert (await svc.handle(CHAT, p, c.Join())).ok
    assert (await svc.handle(CHAT, PEOPLE[0], c.Start())).ok


async def test_two_services_ending_matches_of_one_chat_count_each_once(redis_server: RedisServer) -> None:
    prefix = f"std{uuid.uuid4().hex[:6]}"
    one, two = (RedisStore.from_url(redis_server.url, prefix=prefix) for _ in range(2))
    a, b = ChatService(one, rng=random.Random(1)), ChatService(two, rng=random.Random(2))
    try:
        ended: list[str] = []
        for n in range(MATCHES):
            await _open(a if n % 2 else b)
            await asyncio.gather(_drive(a, random.Random(10 + n), ended), _drive(b, random.Random(20 + n), ended))
        assert len(ended) == MATCHES  # each match was told "finished" to exactly one service
        kept = await one.archived(CHAT, 50)
        assert len(kept) == MATCHES and len({r["game_id"] for r in kept}) == MATCHES
        for period in records.PERIODS:
            lines = await records.top(one, CHAT, period)
            assert {x.player for x in lines} == {p.id for p in PEOPLE}
            assert all(x.games == MATCHES for x in lines), lines
            assert sum(x.wins for x in lines) == MATCHES
        # Both processes archive the same match again, at once: nothing changes.
        before = await one.standings(CHAT, "all")
        last = kept[0]
        table = await a.table(CHAT)
        assert table is None  # the chat's last match is over and unbound
        again = await asyncio.gather(
            one.archive_game(CHAT, last["game_id"], last),
            two.archive_game(CHAT, last["game_id"], last))
        assert again == [False, False]
        assert await one.standings(CHAT, "all") == before
        # A player's own record across chats, and the last game's summary.
        mine = await records.me(two, "12")
        assert list(mine) == [CHAT] and mine[CHAT].games == MATCHES
        summary = await records.last(two, CHAT)
        assert summary is not None and summary["game_id"] == last["game_id"]
        assert 0 <= summary["winner"] < 3 and len(summary["players"]) == 3
    finally:
        await one.close()
        await two.close()


async def _finished_match(store: Store) -> None:
    svc = ChatService(store, rng=random.Random(5))
    await _open(svc)
    await _drive(svc, random.Random(6), [])


async def test_ratings_move_with_results_and_forget_and_reset() -> None:
    store = MemoryStore()
    await _finished_match(store)
    summary = await records.last(store, CHAT)
    assert summary is not None
    winner = summary["players"][summary["winner"]]["id"]
    lines = {x.player: x for x in await records.top(store, CHAT, "all")}
    fresh = records.display_rating("")
    assert lines[winner].rating > fresh  # the winner's rating went up, the others' down
    assert all(x.rating < lines[winner].rating for p, x in lines.items() if p != winner)
    # Forgetting a person: their lines go, their name leaves the kept log.
    name = next(p["name"] for p in summary["players"] if p["id"] == "12")
    assert await records.forget(store, "12") == 1
    assert "12" not in {x.player for x in await records.top(store, CHAT, "week")}
    kept = await records.last(store, CHAT)
    assert kept is not None and name not in repr(kept["log"]) and name not in repr(kept["players"])
    assert records.FORGOTTEN in repr(kept["players"])
    assert await records.me(store, "12") == {}
    assert not any((await store.get_stats("user", "12")).values())  # /stats forgets them too
    assert (await store.get_stats("user", "11")).get("matches") == 1
    # An admin's reset clears every period; the kept game stays.
    await records.reset(store, CHAT)
    assert await records.top(store, CHAT, "all") == [] and await records.top(store, CHAT, "month") == []
    assert await records.last(store, CHAT) is not None


async def test_the_archive_of_a_chat_stays_under_its_bound_played_past_it(redis_server: RedisServer) -> None:
    """Real matches past ``archive_max``: the chat keeps exactly that many
    records in Redis (no stray record key), the standings count them all."""
    prefix = f"cap{uuid.uuid4().hex[:6]}"
    store = RedisStore.from_url(redis_server.url, prefix=prefix)
    store.archive_max = 2
    try:
        for _ in range(4):
            await _finished_match(store)
        keys = [k async for k in store.client.scan_iter(match=f"{prefix}:*record:*")]
        assert len(keys) == 2 and len(await store.archived(CHAT, 50)) == 2
        assert all(x.games == 4 for x in await records.top(store, CHAT, "all"))
        sizes = [await store.client.memory_usage(k) or 0 for k in keys]
        assert max(sizes) < 64 * 1024  # one kept match of three players: a few KB
    finally:
        await store.close()


async def test_a_match_whose_process_stopped_before_keeping_it_is_kept_by_the_next_new(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The save that ends a match and its archive are two steps: a process that
    dies between them leaves the finished game bound to the chat, and the
    next /new there keeps and counts it (once: the archive is keyed by game id)."""
    store = MemoryStore()
    finish = records.finish

    async def crash(*args: object, **kwargs: object) -> bool:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(records, "finish", crash)
    svc = ChatService(store, rng=random.Random(5))
    await _open(svc)
    with pytest.raises(RuntimeError):
        await _drive(svc, random.Random(6), [])
    assert await store.archived(CHAT) == []
    monkeypatch.setattr(records, "finish", finish)
    other = ChatService(store, rng=random.Random(7))
    assert (await other.handle(CHAT, PEOPLE[1], c.NewGame())).ok
    kept = await store.archived(CHAT)
    assert len(kept) == 1 and kept[0]["winner"] >= 0
    assert all(x.games == 1 for x in await records.top(store, CHAT, "all"))
    from unobot.chat.audit import audit_archived

    assert (await audit_archived(kept[0])).ok


async def test_a_forgotten_person_leaves_kept_games_that_still_audit(redis_server: RedisServer) -> None:
    """/forgetme rewrites the kept game, and `unobot audit` must still replay
    it to the game it ended as: the deal's players and the kept state change
    together, and a short name or id (a member called "a") is replaced as a
    whole word, never inside the moves (``0 play B6``, ``2 draw``)."""
    from unobot.chat.audit import audit_archived

    store = RedisStore.from_url(redis_server.url, prefix=f"fgt{uuid.uuid4().hex[:6]}")
    people = [c.Person("11", "Ann"), c.Person("2", "a"), c.Person("13", "Cid")]
    try:
        svc = ChatService(store, rng=random.Random(5))
        admin = c.Person("11", "Ann", is_admin=True)
        for rule, option, value in (("deck", "hand_size", 3), ("scoring", "target", 60)):
            assert (await svc.handle(CHAT, admin, c.SetRule(rule=rule, option=option, value=value))).ok
        assert (await svc.handle(CHAT, people[0], c.NewGame())).ok
        for p in people[1:]:
            assert (await svc.handle(CHAT, p, c.Join())).ok
        assert (await svc.handle(CHAT, people[0], c.Start())).ok
        rnd = random.Random(6)
        for _ in range(3000):
            table = await svc.table(CHAT)
            if table is None or table.phase not in (PLAYING, BETWEEN_ROUNDS):
                break
            if table.phase == BETWEEN_ROUNDS:
                assert (await svc.handle(CHAT, people[0], c.NextRound(version=table.version))).ok
                continue
            assert table.game is not None
            seat = table.seats[table.game.turn]
            await svc.handle(CHAT, c.Person(seat.id, seat.name), command_for(table, seat.id, rnd))
        kept = await records.last(store, CHAT)
        assert kept is not None and (await audit_archived(kept)).ok
        assert await records.forget(store, "2") == 1
        after = await records.last(store, CHAT)
        assert after is not None
        assert (await audit_archived(after)).ok, await audit_archived(after)
        moves = [e for e in kept["log"] if e[:1].isdigit() or e == "next round"]
        assert [e for e in after["log"] if e[:1].isdigit() or e == "next round"] == moves
        assert "2" not in after["state"]["p"] and [p["name"] for p in after["players"]] == ["Ann", records.FORGOTTEN, "Cid"]
        assert "2" not in [p["id"] for p in after["players"]]  # the id said who it was as well as the name
    finally:
        await store.close()
