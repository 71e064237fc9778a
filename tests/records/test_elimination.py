"""Records of an elimination match (the elimination plugin rule): nobody
keeps points there, so the order the others left in is their place. The
summary, the ratings and the final table must put who lasted longer ahead
of who left first (they all read 0 points: by score alone every loser tied,
and the first one out was rated as well as the last)."""

from __future__ import annotations

import random
import uuid

from tests.records.matches import PEOPLE, play_match
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records, records_text
from unobot.chat.match_text import by_standing, match_winner
from unobot.chat.service import ChatService
from unobot.chat.views import table_view

CHAT = "-100777"


async def test_who_lasted_longer_is_placed_and_rated_ahead(redis_server: RedisServer) -> None:
    store = RedisStore.from_url(redis_server.url, prefix=f"elm{uuid.uuid4().hex[:6]}")
    try:
        svc = ChatService(store, rng=random.Random(3))
        table = await play_match(svc, CHAT, [c.SetRule(rule="elimination", enabled=True),
                                             c.SetRule(rule="deck", option="hand_size", value=3)], seed=4)
        assert table.game is not None
        gone = list(table.game.match["eliminated"])  # first out first
        assert len(gone) == 3
        names = [p.name for p in PEOPLE]
        # best first: the winner, then the last one out, ..., the first one out
        expected = [names[table.game.winner]] + [names[s] for s in reversed(gone)]

        view = table_view(table, "en")
        assert [p.name for p in by_standing(view.players, view.lowest_wins)] == expected
        assert match_winner(view, "en") == f"{expected[0]} wins the match!"  # no "with 0 points"

        kept = await records.last(store, CHAT)
        assert kept is not None
        lines = records_text.summary_lines(kept, "en")
        assert [line.split(":")[0] for line in lines[2:6]] == expected, lines

        rated = {x.name: x.rating for x in await records.top(store, CHAT, "all")}
        ratings = [rated[n] for n in expected]
        assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == 4, rated
    finally:
        await store.close()
