"""Records of a game of teams (the teams plugin rule): partners win a
match together, so each of them is counted a win and they are rated as a
team, on real Redis through the chat service."""

from __future__ import annotations

import random
import uuid

from tests.support.chat_worker import command_for
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING

CHAT = "-100321"
PEOPLE = [c.Person(str(40 + i), name) for i, name in enumerate(("Ana", "Bea", "Cid", "Dan"))]


async def test_partners_share_the_win_and_are_rated_as_a_team(redis_server: RedisServer) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=f"tms{uuid.uuid4().hex[:6]}")
    try:
        svc = ChatService(store, rng=random.Random(1))
        admin = c.Person(PEOPLE[0].id, "Ana", is_admin=True)
        for cmd in (c.SetRule(rule="teams", enabled=True), c.SetRule(rule="deck", option="hand_size", value=3),
                    c.SetRule(rule="scoring", option="target", value=0)):
            assert (await svc.handle(CHAT, admin, cmd)).ok, cmd
        assert (await svc.handle(CHAT, PEOPLE[0], c.NewGame())).ok
        for p in PEOPLE[1:]:
            assert (await svc.handle(CHAT, p, c.Join())).ok
        assert (await svc.handle(CHAT, PEOPLE[0], c.Start())).ok
        rnd = random.Random(2)
        for _ in range(3000):
            table = await svc.table(CHAT)
            if table is None or table.phase not in (PLAYING, BETWEEN_ROUNDS):
                break
            if table.phase == BETWEEN_ROUNDS:
                await svc.handle(CHAT, PEOPLE[0], c.NextRound(version=table.version))
                continue
            assert table.game is not None
            seat = table.seats[table.game.turn]
            await svc.handle(CHAT, c.Person(seat.id, seat.name), command_for(table, seat.id, rnd))
        kept = await records.last(store, CHAT)
        assert kept is not None and kept["teams"] == [0, 1, 0, 1]  # partners sit opposite
        winners = {p["id"] for i, p in enumerate(kept["players"]) if i % 2 == kept["winner"] % 2}
        lines = {x.player: x for x in await records.top(store, CHAT, "all")}
        assert {p for p, x in lines.items() if x.wins == 1} == winners, lines
        won = [lines[p].rating for p in winners]
        lost = [x.rating for p, x in lines.items() if p not in winners]
        assert won[0] == won[1] and lost[0] == lost[1] and min(won) > max(lost), lines
        assert sum(x.wins for x in await records.top(store, CHAT, "week")) == 2
    finally:
        await store.close()
