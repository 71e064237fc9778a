"""Core's waker: the timers a table holds are exactly its wake plan, a timer
that rings does what the plan promised (or nothing, when the table moved
on), a store outage puts a wake off instead of losing it, and the asyncio
timers ring on the service's clock, not the wall clock."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from pathlib import Path
from typing import Any

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import FINISHED, LOBBY, PLAYING
from unobot.chat.wake import CONT, LOBBY_EXPIRY, TIMER, Pacing
from unobot.chat.waker import AsyncioTimers, WakeData, Waker
from unobot.store import MemoryStore

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
ADMIN = c.Person("9", "Boss", is_admin=True)
CHAT = "waker-chat"
PACING = Pacing(continue_delay=2.0, timer_grace=0.5, lobby_seconds=600.0)


class Clock:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


class Recorded:
    """Timers that only remember what was planned (the test rings them)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.planned: dict[tuple[str, Any], tuple[float, WakeData]] = {}

    def now(self) -> float:
        return self.clock()

    def plan(self, kind: str, place: Any, at: float, data: WakeData) -> None:
        self.planned[(kind, place)] = (at, dict(data))

    def cancel(self, place: Any, *kinds: str) -> None:
        for kind in kinds:
            self.planned.pop((kind, place), None)

    def has(self, kind: str, place: Any) -> bool:
        return (kind, place) in self.planned

    def kinds(self) -> set[str]:
        return {kind for kind, _ in self.planned}


async def lobby(svc: ChatService) -> None:
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok


async def test_a_lobby_keeps_one_expiry_however_many_join_and_closes_with_a_line() -> None:
    clock = Clock()
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(1))
    timers = Recorded(clock)
    waker = Waker(svc, timers, PACING)
    await lobby(svc)
    table = await svc.table(CHAT)
    assert table is not None
    waker.after(CHAT, table)
    at, data = timers.planned[(LOBBY_EXPIRY, CHAT)]
    assert at == table.created + 600.0
    clock.now += 60
    out = await svc.handle(CHAT, BEN, c.Join())
    waker.after(CHAT, out.table, out)
    assert timers.planned[(LOBBY_EXPIRY, CHAT)][0] == at  # a join does not move it
    clock.now = at
    fired = await waker.fire(LOBBY_EXPIRY, CHAT, data)
    assert fired.changed and fired.line == "Nobody started the game in time; the lobby is closed."
    assert fired.outcome is not None and fired.outcome.table is not None
    assert fired.outcome.table.phase == FINISHED


async def test_an_expiry_planned_for_another_lobby_closes_nothing() -> None:
    clock = Clock()
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(2))
    timers = Recorded(clock)
    waker = Waker(svc, timers, PACING)
    await lobby(svc)
    table = await svc.table(CHAT)
    assert table is not None
    fired = await waker.fire(LOBBY_EXPIRY, CHAT, {"version": table.version, "seed": table.seed + 1})
    assert not fired.changed
    still = await svc.table(CHAT)
    assert still is not None and still.phase == LOBBY


async def started(clock: Clock, seed: int) -> tuple[ChatService, Recorded, Waker]:
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(seed))
    assert (await svc.handle(CHAT, ADMIN, c.SetTimer(seconds=30))).ok
    await lobby(svc)
    assert (await svc.handle(CHAT, BEN, c.Join())).ok
    timers = Recorded(clock)
    waker = Waker(svc, timers, PACING, retry_after=7.0, retries=2)
    out = await svc.handle(CHAT, ANA, c.Start())
    assert out.ok and out.table is not None and out.table.phase == PLAYING
    waker.after(CHAT, out.table, out)
    return svc, timers, waker


async def test_a_turn_timer_rings_at_its_time_and_a_clock_behind_plans_it_again() -> None:
    clock = Clock()
    svc, timers, waker = await started(clock, 3)
    table = await svc.table(CHAT)
    assert table is not None
    assert LOBBY_EXPIRY not in timers.kinds()  # the game started: nothing left to close
    at, data = timers.planned[(TIMER, CHAT)]
    assert at == table.turn_started + 30 + 0.5
    # Rung two seconds early (another process's clock): nothing is skipped, the timer is planned again.
    clock.now = at - 2
    del timers.planned[(TIMER, CHAT)]
    assert not (await waker.fire(TIMER, CHAT, data)).changed
    assert timers.planned[(TIMER, CHAT)][0] == at
    clock.now = at
    fired = await waker.fire(TIMER, CHAT, data)
    assert fired.changed and fired.outcome is not None and fired.outcome.table is not None
    assert fired.outcome.table.version > table.version
    # Rung again on the old version (a second process planned it too): refused, nothing changes.
    assert not (await waker.fire(TIMER, CHAT, data)).changed
    again = await svc.table(CHAT)
    assert again is not None and again.version == fired.outcome.table.version


async def test_a_store_outage_puts_the_wake_off_and_gives_up_after_its_tries(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "down", appendonly=False).start()
    store = RedisStore.from_url(server.url, prefix="waker")
    clock = Clock()
    try:
        svc = ChatService(store, clock=clock, rng=random.Random(4))
        timers = Recorded(clock)
        waker = Waker(svc, timers, dataclasses.replace(PACING, retry_after=7.0), retries=2)  # the pacing's
        await lobby(svc)
        table = await svc.table(CHAT)
        assert table is not None
        data = {"version": table.version, "seed": table.seed}
        server.stop()
        for tries in (1, 2):
            assert not (await waker.fire(LOBBY_EXPIRY, CHAT, data)).changed
            at, data = timers.planned.pop((LOBBY_EXPIRY, CHAT))
            assert at == clock.now + 7.0 and data["tries"] == tries
        assert not (await waker.fire(LOBBY_EXPIRY, CHAT, data)).changed
        assert (LOBBY_EXPIRY, CHAT) not in timers.planned  # given up: logged, not planned forever
    finally:
        await store.close()
        server.stop()


def test_a_wake_retries_as_the_pacing_says_unless_told_otherwise() -> None:
    svc = ChatService(MemoryStore())
    timers = Recorded(Clock())
    assert Waker(svc, timers).retry_after == Pacing().retry_after == 5.0
    assert Waker(svc, timers, Pacing(retry_after=3.0)).retry_after == 3.0
    assert Waker(svc, timers, Pacing(retry_after=3.0), retry_after=7.0).retry_after == 7.0


async def test_asyncio_timers_ring_on_the_services_clock_and_count_an_ai_pause_as_busy() -> None:
    clock = Clock()
    rang: list[tuple[str, Any, WakeData]] = []

    async def ring(kind: str, place: Any, data: WakeData) -> None:
        rang.append((kind, place, data))

    timers = AsyncioTimers(clock, ring, poll=0.01)
    timers.plan(CONT, CHAT, clock.now + 5, {"version": 1})
    timers.plan(TIMER, CHAT, clock.now + 5, {"version": 1})
    timers.plan(TIMER, "other", clock.now + 5, {"version": 2})
    assert timers.busy() and timers.has(TIMER, CHAT)
    await asyncio.sleep(0.05)
    assert rang == []  # the wall clock moved, the service's did not
    timers.cancel("other")
    clock.now += 5
    for _ in range(100):
        if len(rang) == 2:
            break
        await asyncio.sleep(0.01)
    assert sorted(kind for kind, _, _ in rang) == [CONT, TIMER]
    assert all(place == CHAT for _, place, _ in rang)
    assert not timers.busy() and not timers.has(TIMER, CHAT) and not timers.has(TIMER, "other")
    timers.close()


async def test_start_up_plans_every_table_but_shows_only_those_whose_status_is_recorded() -> None:
    """A process starting while another posts a lobby must not post it again:
    the table is planned (its expiry), but handed to the front-end to show
    only once its status message is recorded."""
    clock = Clock()
    store = MemoryStore()
    svc = ChatService(store, clock=clock, rng=random.Random(3))
    await lobby(svc)
    timers = Recorded(clock)
    waker = Waker(svc, timers, PACING)
    shown = [place async for place, _table in waker.replan(store.bound_chats(), lambda chat: chat)]
    assert shown == [] and timers.has(LOBBY_EXPIRY, CHAT)
    table = await svc.table(CHAT)
    assert table is not None
    await svc.set_adapter_data(CHAT, {"status": 5}, seed=table.seed)
    shown = [place async for place, _table in Waker(svc, Recorded(clock), PACING).replan(
        store.bound_chats(), lambda chat: chat)]
    assert shown == [CHAT]
