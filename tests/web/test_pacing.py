"""The web table keeps time as every front-end does: core's `Pacing`."""

from __future__ import annotations

import asyncio

from tests.support.waiting import until
from unobot.adapters.web.server import WebConfig, WebTable
from unobot.chat.service import ChatService
from unobot.chat.wake import Pacing
from unobot.store import MemoryStore


async def test_the_timers_look_at_the_clock_as_often_as_core_s_pacing_says() -> None:
    """A timer on a moved clock rings, looking at the clock as often as
    `Pacing.clock_poll` says, not at a poll of the web table's own (it had
    0.25 s hard-coded). Counted in looks, not timed: over half a second a
    0.01 s poll looks dozens of times, a 0.25 s one at most three, however
    loaded the machine."""
    now = [1000.0]
    looks = [0]

    def clock() -> float:
        looks[0] += 1
        return now[0]

    rang: list[str] = []
    web = WebTable(ChatService(MemoryStore(), clock=clock), WebConfig(pacing=Pacing(clock_poll=0.01)))

    async def ring(kind: str, place: object, data: object) -> None:
        rang.append(kind)

    web.timers.ring = ring
    web.timers.plan("timer", "web.x", now[0] + 5, {})
    before = looks[0]
    await asyncio.sleep(0.5)  # 5 s to go on the service's clock: it only looks
    assert looks[0] - before >= 10, looks[0] - before
    assert rang == []
    now[0] += 10

    async def rung() -> bool:
        return bool(rang)

    await until(rung, 10, "the timer never rang")
    assert rang == ["timer"]
    web.timers.close()
