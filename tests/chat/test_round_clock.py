"""A rule's round clock in a chat (blitz): the chat applies `time_up` when
the clock has run out, on the next action or turn timer; a player cannot
send it."""

from __future__ import annotations

import random

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING
from unobot.store import MemoryStore

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
ADMIN = c.Person("9", "Boss", is_admin=True)
CHAT = "blitz-chat"


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


async def test_the_round_ends_when_its_clock_rings_and_no_player_can_ring_it() -> None:
    clock = Clock()
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(3))
    assert (await svc.handle(CHAT, ADMIN, c.SetRule(rule="blitz", option="minutes", value=2))).ok
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    assert (await svc.handle(CHAT, BEN, c.Join())).ok
    out = await svc.handle(CHAT, ANA, c.Start())
    assert out.ok and out.table.phase == PLAYING
    mover = [ANA, BEN][out.table.game.turn]
    # A player cannot end the round by sending the clock's move.
    forged = await svc.handle(CHAT, mover, c.PluginMove(text="time_up"))
    assert not forged.ok and forged.code == "not_allowed"
    # Before the clock rings nothing happens on its own.
    clock.now += 119
    out = await svc.handle(CHAT, mover, c.Continue())
    assert out.table.phase == PLAYING
    # After it, the next action ends the round: fewest points in hand wins.
    clock.now += 2
    out = await svc.handle(CHAT, mover, c.Continue())
    assert out.ok and out.changed and out.table.phase in (BETWEEN_ROUNDS, FINISHED)
    assert any(e.kind == "time_up" for e in out.events)
    assert any("Time is up!" in n for n in out.notices)
    game = out.table.game
    points = [sum(card.value for card in hand) for hand in game.hands]
    assert points[game.winner] == min(points)
