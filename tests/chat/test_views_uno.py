"""Views ask whichever rule owns the UNO calls: uno-call, or strict-uno,
which replaces it (a rule's data is read through the rule)."""

from __future__ import annotations

import random

import pytest

from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.views import table_view
from unobot.engine import apply
from unobot.moves import UNO, Move
from unobot.store import MemoryStore


@pytest.mark.parametrize("rules", [{}, {"strict-uno": {}}])
async def test_a_said_uno_shows_whichever_rule_owns_it(rules: dict[str, dict[str, object]]) -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(2))
    ana, ben = c.Person("1", "Ana"), c.Person("2", "Ben")
    for rule in rules:
        assert (await svc.handle("chat", c.Person("9", "Boss", is_admin=True), c.SetRule(rule=rule))).ok
    await svc.handle("chat", ana, c.NewGame())
    await svc.handle("chat", ben, c.Join())
    table = (await svc.handle("chat", ana, c.Start())).table
    game = table.game
    seat = game.turn
    del game.hands[seat][2:]  # two cards: UNO may be said now
    game.legal = None
    table.game, _ = apply(game, Move(UNO, seat))
    line = table_view(table, "en").players[seat]
    assert line.said_uno
