"""Records of a game of teams (the teams plugin rule): partners win a
match together, so each of them is counted a win and they are rated as a
team, on real Redis through the chat service."""

from __future__ import annotations

import random
import uuid

from tests.records.matches import play_match
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records
from unobot.chat.service import ChatService

CHAT = "-100321"


async def test_partners_share_the_win_and_are_rated_as_a_team(redis_server: RedisServer) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=f"tms{uuid.uuid4().hex[:6]}")
    try:
        svc = ChatService(store, rng=random.Random(1))
        await play_match(svc, CHAT, [c.SetRule(rule="teams", enabled=True),
                                     c.SetRule(rule="deck", option="hand_size", value=3),
                                     c.SetRule(rule="scoring", option="target", value=0)], seed=2)
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
