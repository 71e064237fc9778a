"""What only Redis Cluster adds: scripts that declare their keys, SCAN on every primary,
a plain URL pointed at a cluster node, and a primary that dies mid-game.

The contract suite and the 4-process contention test run on the session's
cluster too (the ``cluster`` store kind in ``conftest.py``); this file holds
the rest. All on real clusters of real ``redis-server`` processes.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid
from pathlib import Path

import pytest

from tests.support.redis_cluster import RedisCluster
from tests.support.store_worker import SMALL_GAME, pick_move
from unobot.adapters import redis_scripts as lua
from unobot.adapters.redis_store import RedisStore, cluster_url
from unobot.errors import MoveError
from unobot.service import GameService, audit
from unobot.state import PLAYING
from unobot.store import StoreError, StoreUnavailable, VersionConflict

SCRIPTS = {name: getattr(lua, name) for name in
           ("SAVE", "CREATE", "BIND", "UNBIND_IF", "DELETE", "QUARANTINE", "INCR_STATS")}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_key_a_script_touches_is_declared(name: str) -> None:
    """A cluster routes a script by its KEYS; a key built inside the script is undeclared.

    (A cluster node lets an undeclared key of the same slot through, so no
    run on a cluster would catch it: the scripts' texts are read instead.)
    """
    calls = re.findall(r"redis\.call\('(\w+)',\s*([^,)]+)", SCRIPTS[name])
    assert calls, name
    for command, first in calls:
        assert first.strip() in ("k",) or first.strip().startswith("KEYS["), (name, command, first)
    for command, *args in re.findall(r"redis\.call\('RENAME',\s*([^,)]+),\s*([^,)]+)", SCRIPTS[name]):
        assert all(arg.strip().startswith("KEYS[") for arg in (command, *args)), name


def test_cluster_urls() -> None:
    assert cluster_url("redis+cluster://h:1") == ("redis://h:1", True)
    assert cluster_url("rediss+cluster://:pw@h:1,g:2") == ("rediss://:pw@h:1,g:2", True)
    assert cluster_url("redis://h:1/0") == ("redis://h:1/0", False)


async def test_bound_chats_walks_every_primary(redis_cluster: RedisCluster) -> None:
    store = RedisStore.from_url(redis_cluster.url, prefix=f"scan{uuid.uuid4().hex[:6]}")
    try:
        chats = [f"-100{n}" for n in range(40)]
        for chat in chats:
            await store.create_game(chat, b"s")
        homes = {redis_cluster.primary_for(store.keys.binding(chat)).port for chat in chats}
        assert len(homes) == 3, "the chats did not spread over the primaries"
        assert sorted([chat async for chat in store.bound_chats()]) == sorted(chats)
    finally:
        await store.close()


async def test_a_plain_url_to_a_cluster_node_says_what_to_change(
    redis_cluster: RedisCluster,
) -> None:
    store = RedisStore.from_url(redis_cluster.plain_url, prefix="plain")
    try:
        with pytest.raises(StoreError, match=r"redis\+cluster://") as raised:
            await store.ping()
        assert not isinstance(raised.value, StoreUnavailable)  # the node answered
        # Without the start-up check: a key whose slot lives elsewhere is MOVED, said so.
        chats = [f"-200{n}" for n in range(20)]
        elsewhere = next(chat for chat in chats
                         if redis_cluster.primary_for(store.keys.binding(chat)).port
                         != redis_cluster.nodes[0].port)
        with pytest.raises(StoreError, match="MOVED.*Redis Cluster node") as raised:
            await store.chat_game(elsewhere)
        assert not isinstance(raised.value, StoreUnavailable)
    finally:
        await store.close()


async def test_a_primary_killed_mid_game_loses_no_accepted_move(tmp_path: Path) -> None:
    """Six games on a 3+3 cluster; the primary of one game's slot is SIGKILLed after
    some moves; its replica takes over; play goes on. Every move the store
    acknowledged is in its game's log at the version it was acknowledged with,
    and every game replays from its log to its stored state.

    Why ``wait_replicas=1``: replication is asynchronous, so without WAIT a
    write acknowledged by the primary just before it died may never have
    reached the replica that takes over.
    """
    with RedisCluster(tmp_path, primaries=3, replicas=1) as cluster:
        store = RedisStore.from_url(cluster.url, prefix="failover", wait_replicas=1,
                                    socket_timeout=1.0, connect_timeout=0.5)
        service = GameService(store)
        rnd = random.Random(7)
        try:
            games = []
            for n in range(6):
                outcome = await service.start(f"-300{n}", "official", ["ann", "ben", "cy"],
                                              seed=n, overrides=SMALL_GAME)
                games.append(outcome.game_id)
            victim = cluster.primary_for(store.keys.state(games[0]))
            acked: list[tuple[str, int, str]] = []
            unavailable = 0
            last_error = ""
            killed_at: float | None = None
            deadline = time.monotonic() + 40
            live = list(games)
            while live:
                assert time.monotonic() < deadline, (
                    f"play did not resume after the failover ({len(acked)} moves acknowledged; "
                    f"last error: {last_error})")
                if killed_at is None and len(acked) >= 30:
                    cluster.kill(victim)
                    killed_at = time.monotonic()
                game_id = live[len(acked) % len(live)]
                try:
                    state, _ = await service.load(game_id)
                    if state.phase != PLAYING:
                        live.remove(game_id)
                        continue
                    move = pick_move(state, rnd)
                    outcome = await service.apply(game_id, move)
                except StoreUnavailable as exc:  # what a player is told; they try again
                    last_error = str(exc)
                    unavailable += 1
                    await asyncio.sleep(0.1)
                    continue
                except (MoveError, VersionConflict):
                    continue
                acked.append((game_id, outcome.version, f"{move.player} {move.text}"))
            assert killed_at is not None
            assert unavailable > 0, "the kill never reached the store: nothing was tested"
            promoted = cluster.primary_for(store.keys.state(games[0]))
            assert promoted.port != victim.port and cluster.role(promoted) == "master"
            for game_id in games:
                found = await audit(store, game_id)
                assert found.state.phase != PLAYING
                log = await store.read_log(game_id)
                for gid, version, entry in acked:
                    if gid == game_id:
                        assert log[version - 1] == entry, (game_id, version, entry)
            print(f"\n{len(acked)} moves acknowledged, {unavailable} 'store unavailable' "
                  "answers during the failover, none lost")
        finally:
            await store.close()
