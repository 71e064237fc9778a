"""A match the chat stops after rounds were played: the rounds are real, so
it is kept (``unobot audit`` replays it, ``/last`` and ``unobot replay``
say it was stopped) and counted in the standings as a game with its
points, with no winner and no rating change. A stop before any round
finished keeps and counts nothing. All on a real redis-server."""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator

import pytest

from tests.records.test_standings import CHAT, PEOPLE, _open
from tests.support.chat_worker import command_for
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat import records
from unobot.chat.audit import audit_archived, narrate
from unobot.chat.records_text import last_lines
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING

ADMIN = c.Person("11", "Ann", is_admin=True)


@pytest.fixture
async def store(redis_server: RedisServer) -> AsyncIterator[RedisStore]:
    s = RedisStore.from_url(redis_server.url, prefix=f"stop{uuid.uuid4().hex[:6]}")
    yield s
    await s.close()


async def _play_until(svc: ChatService, rounds_done: int, extra_moves: int = 0) -> None:
    """Play the chat's match until ``rounds_done`` rounds are over, then
    ``extra_moves`` moves into the next round."""
    rnd = random.Random(9)
    done = moves = 0
    for _ in range(5000):
        table = await svc.table(CHAT)
        assert table is not None and table.phase in (PLAYING, BETWEEN_ROUNDS)
        if table.phase == BETWEEN_ROUNDS:
            done += 1
            if done == rounds_done and not extra_moves:
                return
            assert (await svc.handle(CHAT, PEOPLE[0], c.NextRound(version=table.version))).ok
            continue
        if done == rounds_done and moves == extra_moves:
            return
        assert table.game is not None
        seat = table.seats[table.game.turn]
        out = await svc.handle(CHAT, c.Person(seat.id, seat.name), command_for(table, seat.id, rnd))
        assert out.ok, out.error
        moves += done == rounds_done
    raise AssertionError("the rounds did not end")


async def _opened(store: RedisStore) -> ChatService:
    svc = ChatService(store, rng=random.Random(3))
    await _open(svc)  # three players, hands of 3, a match to 60 points: a round ends quickly
    return svc


async def test_a_stop_before_any_round_finished_keeps_and_counts_nothing(store: RedisStore) -> None:
    svc = await _opened(store)
    await _play_until(svc, 0, extra_moves=2)
    out = await svc.handle(CHAT, ADMIN, c.Stop())
    assert out.ok and "The game was stopped by Ann." in out.notices
    assert await store.archived(CHAT) == [] and await records.top(store, CHAT, "all") == []


@pytest.mark.parametrize("extra_moves", [0, 3], ids=["between-rounds", "mid-round"])
async def test_a_match_stopped_after_rounds_is_kept_and_counted_with_no_winner(
        store: RedisStore, extra_moves: int) -> None:
    svc = await _opened(store)
    await _play_until(svc, 1, extra_moves)
    table = await svc.table(CHAT)
    assert table is not None and table.game is not None
    scores = {s.id: table.game.scores[i] for i, s in enumerate(table.seats)}
    assert any(scores.values())  # the finished round scored

    out = await svc.handle(CHAT, ADMIN, c.Stop())
    assert out.ok and await svc.table(CHAT) is None  # the chat is free for a new game
    kept = await store.archived(CHAT)
    assert len(kept) == 1
    record = kept[0]
    assert record["stopped"] is True and record["winner"] == -1 and record["rounds"] == 1
    assert {p["id"]: p["score"] for p in record["players"]} == scores
    assert (await audit_archived(record)).ok  # its log replays to the game as the stop found it
    assert "The game was stopped by Ann." in record["moments"]

    for period in records.PERIODS:  # a game played, its points, nobody's win
        lines = {x.player: x for x in await records.top(store, CHAT, period)}
        assert {p: (x.games, x.wins, x.points) for p, x in lines.items()} == \
            {p: (1, 0, max(0, n)) for p, n in scores.items()}
    raw = await store.standings(CHAT, "all")
    assert all(line["rating"] == "" for line in raw.values())  # no result: nobody is rated on it

    said = await last_lines(store, CHAT, "en")
    assert "The match was stopped with no winner (rounds played: 1)." in said
    assert not any("won after" in line for line in said)
    assert "La partida se detuvo sin ganador (rondas jugadas: 1)." in await last_lines(store, CHAT, "es")
    told = narrate(record, "en")
    assert told[0].startswith("Dealt: ") and told[-1] == "The match was stopped with no winner (rounds played: 1)."


async def test_a_match_ended_after_its_rounds_has_its_leader_as_winner_and_replays(store: RedisStore) -> None:
    """The console's ``--rounds N`` (StopAfterRounds): the leader wins and is
    rated, and the kept log replays (the end is no move in the log)."""
    svc = await _opened(store)
    await _play_until(svc, 1)
    out = await svc.handle(CHAT, PEOPLE[0], c.StopAfterRounds())
    assert out.ok and not out.notices
    kept = await store.archived(CHAT)
    assert len(kept) == 1 and kept[0]["stopped"] is False and kept[0]["winner"] >= 0
    assert kept[0]["rounds"] == 1
    assert (await audit_archived(kept[0])).ok
    winner = kept[0]["players"][kept[0]["winner"]]["id"]
    lines = {x.player: x for x in await records.top(store, CHAT, "all")}
    assert lines[winner].wins == 1 and lines[winner].rating > records.display_rating("")


async def test_a_stopped_match_is_counted_once_with_later_ones(store: RedisStore) -> None:
    """A stopped match, then a whole one in the same chat: two games each, one win in all."""
    svc = await _opened(store)
    await _play_until(svc, 1)
    assert (await svc.handle(CHAT, ADMIN, c.Stop())).ok
    from tests.records.test_standings import _drive

    await _open(svc)
    await _drive(svc, random.Random(4), [])
    lines = await records.top(store, CHAT, "all")
    assert [x.games for x in lines] == [2, 2, 2] and sum(x.wins for x in lines) == 1
    assert [r["stopped"] for r in await store.archived(CHAT, 5)] == [False, True]
