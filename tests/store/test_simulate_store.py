"""``unobot simulate --store URL --workers N``: real processes, real servers, audited games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from tests.support.redis_cluster import RedisCluster
from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import ADDRESS_NAME
from unobot.adapters.store_factory import EMBEDDED_SUBDIR

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--players", "3", "--rule", "deck.hand_size=3", "--policy", "basic"]


def simulate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unobot.cli", "simulate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def last_json(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    data: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


def test_workers_on_a_redis_server_persist_and_audit_every_move(redis_server: RedisServer) -> None:
    client = redis.Redis.from_url(redis_server.url)
    before = set(client.scan_iter("unobot-sim:*"))
    two = last_json(simulate("--store", redis_server.url, "--workers", "2", "--games", "12",
                             "--json", *SMALL))
    assert two["workers"] == 2 and two["games"] == 12 and two["ok"] is True
    assert two["audited"] == 12 and two["audit_failures"] == 0 and two["cards_checked"] is True
    assert isinstance(two["moves"], int) and two["moves"] > 12
    assert isinstance(two["seconds"], float) and two["seconds"] > 0
    assert two["moves_per_second"] == pytest.approx(two["moves"] / two["seconds"], rel=0.01)
    # the games are the same whatever the number of workers (a seed per game)
    one = last_json(simulate("--store", redis_server.url, "--workers", "1", "--games", "12",
                             "--json", *SMALL))
    assert (one["moves"], one["wins"]) == (two["moves"], two["wins"])
    assert set(client.scan_iter("unobot-sim:*")) == before  # audited games are deleted
    client.close()


def test_memory_store_and_text_report() -> None:
    done = simulate("--store", "memory", "--games", "5", *SMALL)
    assert done.returncode == 0, done.stderr
    assert "5 games," in done.stdout and "moves persisted" in done.stdout
    assert "audited 5/5: every log replays to its stored state, cards conserved" in done.stdout


def test_memory_store_refuses_several_workers() -> None:
    done = simulate("--store", "memory", "--workers", "2")
    assert done.returncode == 2 and "--workers 1" in done.stderr


def test_a_bad_store_url_is_refused() -> None:
    done = simulate("--store", "localhost:6379")
    assert done.returncode == 2 and "redis://" in done.stderr


def test_an_unreachable_server_is_reported(tmp_path: Path) -> None:
    from unobot.adapters.embedded_redis import free_port

    done = simulate("--store", f"redis://127.0.0.1:{free_port()}/0", "--workers", "2",
                    "--games", "2", *SMALL)
    assert done.returncode == 1 and "error" in done.stderr


def test_embedded_store_on_the_configured_data_dir(tmp_path: Path) -> None:
    data = last_json(simulate("--store", "embedded", "--workers", "2", "--games", "4", "--json",
                              *SMALL, env={"UNOBOT_DATA_DIR": str(tmp_path)}))
    assert data["ok"] is True and data["games"] == 4
    assert str(tmp_path) in str(data["store"])
    # the server it started is stopped again
    assert not (tmp_path / EMBEDDED_SUBDIR / ADDRESS_NAME).exists()


def test_store_config_on_a_cluster_named_by_the_environment(redis_cluster: RedisCluster,
                                                            tmp_path: Path) -> None:
    """``UNOBOT_REDIS_URL=redis+cluster://... unobot simulate --store config``: the spelling
    the README documents, on a real three-primary cluster."""
    env = {"UNOBOT_REDIS_URL": redis_cluster.url, "UNOBOT_CONFIG": str(tmp_path / "none.yaml")}
    (tmp_path / "none.yaml").write_text("{}\n")
    done = last_json(simulate("--store", "config", "--workers", "2", "--games", "8", "--json",
                              *SMALL, env=env))
    assert done["store"] == redis_cluster.url and done["ok"] is True and done["audited"] == 8
    # the same node as a plain URL is refused at start, saying what to write instead
    plain = simulate("--store", redis_cluster.plain_url, "--games", "1", "--json", *SMALL)
    assert plain.returncode != 0 and "redis+cluster://" in plain.stderr


def test_four_workers_ride_through_a_killed_primary_and_honour_wait_replicas(
    tmp_path: Path,
) -> None:
    """A 3+3 cluster and ``redis.wait_replicas: 1``; a primary is SIGKILLed once
    the run's games are on it, its replica takes over, and the old primary
    comes back as the new one's replica (until then, as ``wait_replicas: 1``
    promises, that shard confirms nothing). The run finishes, every game
    audited (acknowledgement records included), and says what it rode through."""
    import time

    config = tmp_path / "config.yaml"
    config.write_text(f"redis:\n  wait_replicas: 1\nstore:\n  data_dir: {tmp_path}\n")
    with RedisCluster(tmp_path / "cluster", primaries=3, replicas=1) as cluster:
        victim = cluster.nodes[1]
        assert cluster.role(victim) == "master"
        run = subprocess.Popen(
            [sys.executable, "-m", "unobot.cli", "simulate", "--store", cluster.url,
             "--workers", "4", "--games", "300", "--json", *SMALL], cwd=ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "UNOBOT_CONFIG": str(config)})
        try:
            deadline = time.monotonic() + 60
            with victim.client() as client:
                while not client.dbsize():  # the run's games reached the victim
                    assert run.poll() is None, run.communicate()
                    assert time.monotonic() < deadline, "no game ever reached the victim"
                    time.sleep(0.05)
            time.sleep(0.5)
            replica = cluster.replica_of(victim)
            cluster.kill(victim)
            while cluster.role(replica) != "master":
                assert time.monotonic() < deadline, "the replica was never promoted"
                time.sleep(0.1)
            victim.start()
            out, err = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                run.kill()
                run.communicate()
    assert run.returncode == 0, err
    data = json.loads(out.strip().splitlines()[-1])
    assert data["ok"] is True and data["audited"] == data["games"] == 300
    assert data["wait_replicas"] == 1
    assert isinstance(data["unavailable"], int) and isinstance(data["unconfirmed"], int)
    assert data["unavailable"] + data["unconfirmed"] > 0, "the kill was never felt"


def test_a_primary_that_cannot_confirm_ends_the_run_with_a_report(
    make_redis_server: Callable[[], RedisServer], tmp_path: Path,
) -> None:
    """``redis.wait_replicas: 1`` on a primary with no replica (as a shard is after
    its only replica was promoted in a failover and its old primary is gone):
    no save there can be confirmed. The run aborted with no JSON, saying
    "cannot be reached" of a server that answered every command. Now the games
    that cannot go on stop where they stood, the rest are audited, and the
    report says what stopped and why (exit 1)."""
    lone = make_redis_server()
    config = tmp_path / "config.yaml"
    config.write_text(f"redis:\n  wait_replicas: 1\nstore:\n  data_dir: {tmp_path}\n")
    done = simulate("--store", lone.url, "--workers", "2", "--games", "4", "--outage-window", "1.5",
                    "--json", *SMALL, env={"UNOBOT_CONFIG": str(config)})
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout.strip().splitlines()[-1])
    assert data["ok"] is False and data["wait_replicas"] == 1
    assert data["stuck_unconfirmed"] == 4 and data["unfinished"] == 4, data
    assert data["audited"] == data["games"] and data["audit_failures"] == 0, data
    assert "cannot be reached" not in done.stderr
    assert "error: 4 games stopped where they stood: a save stayed unconfirmed (redis.wait_replicas 1" \
        in done.stderr, done.stderr[-2000:]
    assert f"127.0.0.1:{lone.port} has 0 connected replica(s)" in done.stderr  # said at start-up
