"""`turn_left`: the seconds the person on turn has before the turn timer passes
the turn on, for a front-end's clock (the web table's); None when no clock
runs (no timer, no round being played, an AI on turn, which is never timed)."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.views import turn_left
from unobot.store import MemoryStore


async def test_the_seconds_left_for_a_person_and_none_for_an_ai_or_no_timer() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(4))
    ana = c.Person("1", "Ana")
    lobby = (await svc.handle("fast", ana, c.NewGame(variant="fast"))).table
    assert lobby is not None and turn_left(lobby, lobby.turn_started) is None
    assert (await svc.handle("fast", ana, c.AddAI())).ok
    table = (await svc.handle("fast", ana, c.Start())).table
    assert table is not None and table.game is not None
    start = table.turn_started
    if table.seats[table.game.turn].is_ai:
        assert turn_left(table, start) is None
        table.game.turn = next(i for i, seat in enumerate(table.seats) if not seat.is_ai)
    assert turn_left(table, start) == 15
    assert turn_left(table, start + 4.5) == 10.5
    assert turn_left(table, start + 60) == 0
    plain = (await svc.handle("plain", ana, c.NewGame(variant="official"))).table
    assert plain is not None
    assert (await svc.handle("plain", ana, c.AddAI())).ok
    started = (await svc.handle("plain", ana, c.Start())).table
    assert started is not None and turn_left(started, started.turn_started) is None
