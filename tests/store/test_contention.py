"""Four OS processes fight over the same 20 games on one real redis-server, then on a
real three-primary Redis Cluster.

Each process loops: pick an unfinished game, load it, choose a legal move for
the seat to move, apply it through GameService. Saves race and conflict;
the service recomputes from the newer state (where the move may now be
refused). At the end every game must be exactly what its log replays to,
and every move a process was told it applied must be in the log once, at
the version it was told.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
import uuid
from collections import defaultdict

import pytest

from tests.support.store_worker import SMALL_GAME, ContendJob, ContendReport, contend
from unobot.adapters.redis_store import RedisStore
from unobot.service import GameService, audit
from unobot.state import PLAYING

PROCESSES = 4
GAMES = 20
TIME_LIMIT = 90.0


@pytest.mark.parametrize("kind", ["redis_server", "redis_cluster"])
async def test_four_processes_on_twenty_games_lose_and_double_nothing(
    kind: str, request: pytest.FixtureRequest,
) -> None:
    url = str(request.getfixturevalue(kind).url)
    prefix = f"contend{uuid.uuid4().hex[:6]}"
    store = RedisStore.from_url(url, prefix=prefix)
    service = GameService(store)
    game_ids: list[str] = []
    for g in range(GAMES):
        players = ["ann", "ben", "cy"][: 2 + g % 2]
        outcome = await service.start(f"-100200{g}", "official", players, seed=g,
                                      overrides=SMALL_GAME)
        game_ids.append(outcome.game_id)

    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Barrier(PROCESSES)
    results = ctx.Queue()
    deadline = time.time() + TIME_LIMIT
    procs = [
        ctx.Process(target=contend, args=(ContendJob(i, url, prefix, game_ids,
                                                     seed=1000 + i, deadline=deadline),
                                          ready, results), daemon=True)
        for i in range(PROCESSES)
    ]
    for proc in procs:
        proc.start()
    reports: list[ContendReport] = []
    try:
        while len(reports) < PROCESSES:
            try:
                reports.append(results.get(timeout=TIME_LIMIT + 60))
            except queue.Empty:
                raise AssertionError("a contending process never reported") from None
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
    assert [r.error for r in reports if r.error] == []
    assert not any(r.timed_out for r in reports), "the games did not end in time"

    # Every game ended, and is exactly what its log replays to (cards conserved on the way).
    audits = {game_id: await audit(store, game_id) for game_id in game_ids}
    for game_id, found in audits.items():
        assert found.state.phase != PLAYING, game_id
        # one entry per save: the deal, then one per move; state.moves counts the same moves
        assert found.entries - 1 == found.state.moves, game_id

    # Every applied move is in the log once, at the version its process was told.
    applied: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for report in reports:
        for game_id, version, entry in report.applied:
            applied[game_id].append((version, entry))
    for game_id, found in audits.items():
        log = await store.read_log(game_id)
        versions = sorted(version for version, _ in applied[game_id])
        assert versions == list(range(2, found.version + 1)), f"{game_id}: lost or doubled a save"
        for version, entry in applied[game_id]:
            assert log[version - 1] == entry, (game_id, version)
    total = sum(len(r.applied) for r in reports)
    assert total == sum(a.state.moves for a in audits.values())

    # It really was contended: saves raced, lost, and were recomputed.
    conflicts = sum(r.conflicts for r in reports)
    assert conflicts > 0, "no save ever conflicted: the test did not test contention"
    print(f"\n{total} moves by {PROCESSES} processes on {GAMES} games: {conflicts} conflicts "
          f"recomputed, {sum(r.refused for r in reports)} moves refused after the game moved on, "
          f"{sum(r.gave_up for r in reports)} gave up after max tries")

    for game_id in game_ids:
        await store.delete_game(game_id)
    await store.close()
