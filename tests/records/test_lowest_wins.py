"""Records of a match whose rules rank the lowest score best (the
progressive-scoring plugin rule): the summary, the ratings and the
standings must put the others behind the winner by their totals, lowest
first, as the rules do; the totals are points against, not points scored."""

from __future__ import annotations

import random
import uuid

from tests.records.matches import play_match
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records, records_text
from unobot.chat.service import ChatService

PEOPLE = [c.Person("21", "Ann"), c.Person("22", "Bob"), c.Person("23", "Cid")]


async def _progressive_match(svc: ChatService, chat: str, seed: int) -> None:
    await play_match(svc, chat, [c.SetRule(rule="deck", option="hand_size", value=5),
                                 c.SetRule(rule="progressive-scoring", enabled=True),
                                 c.SetRule(rule="progressive-scoring", option="target", value=40)], seed, PEOPLE)


async def test_a_lowest_wins_match_ranks_the_lowest_totals_first(redis_server: RedisServer) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=f"low{uuid.uuid4().hex[:6]}")
    try:
        seen = 0
        for seed in range(1, 40):
            chat = f"-100888{seed}"  # a chat of its own: its ratings come from this one match
            await _progressive_match(ChatService(store, rng=random.Random(seed)), chat, seed)
            kept = await records.last(store, chat)
            assert kept is not None and kept["lowest_wins"] is True
            players, winner = kept["players"], kept["winner"]
            scores = [p["score"] for p in players]
            assert scores[winner] == min(scores)  # the rules' winner: the lowest total
            others = sorted((s for s in range(3) if s != winner), key=lambda s: scores[s])
            if scores[others[0]] < scores[others[1]]:  # a clear second place: the lower total
                seen += 1
                second, third = (players[s]["name"] for s in others)
                lines = records_text.summary_lines(kept, "en")
                named = [line.split(":")[0] for line in lines[2:5]]  # after the title and who won
                assert named == [players[winner]["name"], second, third], lines
                break
        assert seen, "no match with a clear second place"
        # The second place (the lower total) was rated above the third.
        rated = {x.name: x.rating for x in await records.top(store, chat, "all")}
        assert rated[second] > rated[third], rated
        # Totals against are not counted as points scored.
        assert all(x.points == 0 for x in await records.top(store, chat, "week"))
    finally:
        await store.close()
