"""The web table keeps time as every front-end does: core's `Pacing`."""

from __future__ import annotations

import asyncio

from unobot.adapters.web.server import WebConfig, WebTable
from unobot.chat.service import ChatService
from unobot.chat.wake import Pacing
from unobot.store import MemoryStore


async def test_the_timers_look_at_the_clock_as_often_as_core_s_pacing_says() -> None:
    """A timer on a moved clock rings within `Pacing.clock_poll`, not after
    a poll of the web table's own (it had 0.25 s hard-coded)."""
    now = [1000.0]
    rang: list[str] = []
    web = WebTable(ChatService(MemoryStore(), clock=lambda: now[0]),
                   WebConfig(pacing=Pacing(clock_poll=0.01)))

    async def ring(kind: str, place: object, data: object) -> None:
        rang.append(kind)

    web.timers.ring = ring
    web.timers.plan("timer", "web.x", now[0] + 5, {})
    await asyncio.sleep(0.05)  # the timer's first look: 5 s to go
    now[0] += 10
    await asyncio.sleep(0.1)
    assert rang == ["timer"]
    web.timers.close()
