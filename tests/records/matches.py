"""A whole match played through the chat service by random legal commands:
the records tests' common set-up (a rule switched on, four people seated),
so each test states only what its rule's records must show."""

from __future__ import annotations

import random

from tests.support.chat_worker import command_for
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING, Table

PEOPLE = [c.Person(str(60 + i), name) for i, name in enumerate(("Ana", "Bea", "Cid", "Dan"))]


async def play_match(svc: ChatService, chat: str, settings: list[c.Command], seed: int,
                     people: list[c.Person] = PEOPLE) -> Table:
    """Set the chat's `settings` (as an admin), seat `people`, play random
    legal commands to the match's end and return the finished table (the
    last outcome's: a finished table is archived, not kept)."""
    admin = c.Person(people[0].id, people[0].name, is_admin=True)
    for cmd in settings:
        assert (await svc.handle(chat, admin, cmd)).ok, cmd
    assert (await svc.handle(chat, people[0], c.NewGame())).ok
    for p in people[1:]:
        assert (await svc.handle(chat, p, c.Join())).ok
    assert (await svc.handle(chat, people[0], c.Start())).ok
    rnd = random.Random(seed)
    table = await svc.table(chat)
    for _ in range(6000):
        assert table is not None
        if table.phase not in (PLAYING, BETWEEN_ROUNDS):
            break
        if table.phase == BETWEEN_ROUNDS:
            outcome = await svc.handle(chat, people[0], c.NextRound(version=table.version))
        else:
            assert table.game is not None
            seat = table.seats[table.game.turn]
            outcome = await svc.handle(chat, c.Person(seat.id, seat.name), command_for(table, seat.id, rnd))
        table = outcome.table if outcome.ok and outcome.table is not None else await svc.table(chat)
    assert table is not None and table.phase == FINISHED, "the match did not end"
    return table
