"""Commands that open a store, run as a person runs them (subprocesses): a store
that fails is one line, "cannot be reached" only when nothing answered, and
``redis.cluster: true`` in the config makes a plain URL on the command line a
cluster's. Real servers and a real cluster only."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from tests.support.redis_cluster import RedisCluster
from tests.support.redis_server import RedisServer
from unobot.adapters.embedded_redis import free_port
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import open_store, store_options
from unobot.config import load_config

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--players", "3", "--rule", "deck.hand_size=3", "--policy", "basic"]


def unobot(tmp: Path, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp / "config.yaml").write_text(config)
    env = {k: v for k, v in os.environ.items() if k != "UNOBOT_REDIS_URL"}
    env["UNOBOT_CONFIG"] = str(tmp / "config.yaml")
    return subprocess.run([sys.executable, "-m", "unobot.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The output is exactly one line, starting `error: `, and no traceback."""
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), text
    return lines[0]


def prefix() -> str:
    return f"cli{uuid.uuid4().hex[:6]}"


@pytest.mark.parametrize("command", [["audit"], ["replay", "-100"]])
def test_audit_and_replay_say_a_cluster_node_refused_in_one_line(
    command: list[str], redis_cluster: RedisCluster, tmp_path: Path,
) -> None:
    """A plain URL to a cluster node: the node answered, so "refused", with the
    URL to write instead (this printed a traceback before)."""
    done = unobot(tmp_path, f"store: {{prefix: {prefix()}}}\n", *command,
                  "--store", redis_cluster.plain_url)
    line = one_error_line(done)
    assert done.returncode == 2
    assert line.startswith("error: the store (Redis) refused: this Redis is a Redis Cluster node"), line
    assert f"redis+cluster://{redis_cluster.nodes[0].address}" in line, line


def test_audit_says_a_closed_port_cannot_be_reached(tmp_path: Path) -> None:
    done = unobot(tmp_path, "{}\n", "audit", "--store", f"redis://127.0.0.1:{free_port()}/0")
    line = one_error_line(done)
    assert done.returncode == 2 and line.startswith("error: the store (Redis) cannot be reached: "), line


@pytest.mark.parametrize("command", [["audit", "--store"], ["replay", "-100", "--store"],
                                     ["web", "--port", "0", "--redis"], ["telegram", "--redis"]])
def test_a_store_address_that_names_no_redis_is_one_line(command: list[str], tmp_path: Path) -> None:
    """`--store config` or a typo reached redis-py's URL parser, whose ValueError
    escaped as a traceback from audit, replay and web (telegram's said "refused")."""
    config = "telegram: {token: '1:abcdefghijk', base_url: 'http://127.0.0.1:9/bot'}\n"
    done = unobot(tmp_path, config, *command, "redis.example.org:6379")
    line = one_error_line(done)
    assert done.returncode in (1, 2), done.returncode
    assert "'redis.example.org:6379' is not a Redis URL: give redis://" in line, line
    assert "refused" not in line and "cannot be reached" not in line, line


@pytest.mark.parametrize("command", [["audit", "--store"], ["replay", "-100", "--store"],
                                     ["simulate", "--games", "1", "--store"],
                                     ["web", "--port", "0", "--redis"], ["telegram", "--redis"]])
def test_a_port_that_is_no_port_is_one_line(command: list[str], tmp_path: Path) -> None:
    """`redis://127.0.0.1:99999/0`: redis-py's URL parser raised "Port out of
    range 0-65535" as a traceback from every command but telegram."""
    config = "telegram: {token: '1:abcdefghijk', base_url: 'http://127.0.0.1:9/bot'}\n"
    done = unobot(tmp_path, config, *command, "redis://127.0.0.1:99999/0")
    line = one_error_line(done)
    assert done.returncode in (1, 2), done.returncode
    assert "'127.0.0.1:99999' is no host:port (a port is a number, 1-65535)" in line, line


def test_play_says_a_store_address_that_names_no_redis_as_the_players_mistake(tmp_path: Path) -> None:
    """`unobot play --store typo` said "the game store refused" (exit 1): no
    store was asked. Now the address is said to be wrong, with every form
    play takes, memory included (exit 2, as for a wrong option)."""
    done = unobot(tmp_path, "{}\n", "play", "--store", "redis.example.org:6379")
    text = " ".join((done.stdout + done.stderr).split())  # the console wraps at the terminal's width
    assert done.returncode == 2 and "Traceback" not in text, text
    assert text.startswith("error: --store takes memory or a Redis URL (redis://"), text
    assert "'redis.example.org:6379'" in text and "refused" not in text, text


def test_audit_store_config_is_the_configured_store(redis_server: RedisServer, tmp_path: Path) -> None:
    """`--store config` means what it means for `unobot simulate` (the README's command
    line for a cluster uses it): the store the configuration names."""
    done = unobot(tmp_path, f"redis: {{url: '{redis_server.url}'}}\nstore: {{prefix: {prefix()}}}\n",
                  "audit", "--store", "config")
    assert done.returncode == 0 and done.stdout.strip() == "0 games replayed, 0 mismatches", done


def test_audit_says_a_replica_refused(make_redis_server: Callable[[], RedisServer],
                                      tmp_path: Path) -> None:
    primary, replica = make_redis_server(), make_redis_server()
    with redis.Redis(host="127.0.0.1", port=replica.port) as client:
        client.execute_command("REPLICAOF", "127.0.0.1", str(primary.port))
    done = unobot(tmp_path, "{}\n", "audit", "--store", replica.url)
    line = one_error_line(done)
    assert line.startswith("error: the store (Redis) refused: this Redis is a replica"), line
    assert "use the primary's address" in line


def test_redis_cluster_true_makes_a_plain_command_line_url_a_cluster(
    redis_cluster: RedisCluster, tmp_path: Path,
) -> None:
    """`redis.cluster: true` in config.yaml, and a plain redis:// URL of a node on the
    command line (`--store`): read as the config's own URL would be, a cluster, not
    refused with advice to set what is already set."""
    config = f"redis: {{cluster: true, url: {redis_cluster.plain_url}}}\nstore: {{prefix: {prefix()}}}\n"
    done = unobot(tmp_path, config, "audit", "--store", redis_cluster.nodes[1].url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "0 games replayed, 0 mismatches"
    # simulate too (a plain URL there goes through the same reading of the config)
    done = unobot(tmp_path, config, "simulate", "--store", redis_cluster.nodes[2].url,
                  "--games", "3", "--json", *SMALL)
    assert done.returncode == 0, done.stderr
    assert '"ok": true' in done.stdout and '"store": "redis+cluster://' in done.stdout


async def test_store_options_carry_redis_cluster(redis_cluster: RedisCluster, tmp_path: Path) -> None:
    """What `unobot telegram` and `unobot discord` open: `open_store(--redis URL,
    **store_options(config))` is a cluster store for a plain URL when the config says so;
    a unix socket or memory never is."""
    path = tmp_path / "config.yaml"
    path.write_text(f"redis: {{cluster: true, url: {redis_cluster.plain_url}}}\n")
    config = load_config(path, environ={})
    assert store_options(config)["cluster"] is True
    assert "cluster" not in store_options(config, memory=True)
    store = await open_store(redis_cluster.nodes[1].url, data_dir=tmp_path, prefix=prefix(),
                             **store_options(config))
    try:
        assert isinstance(store, RedisStore) and store.cluster
        chats = [f"-81{n}" for n in range(12)]
        for chat in chats:
            await store.create_game(chat, b"x")
        assert sorted([c async for c in store.bound_chats()]) == sorted(chats)
    finally:
        await store.close()


def test_simulate_workers_that_fail_alike_say_it_once(tmp_path: Path) -> None:
    """`unobot simulate --store URL --workers 3`: a closed port is one line before any
    worker starts; a server that fills up under the workers (maxmemory, noeviction)
    is one line too, "refused" with the server's reason: no class names, no line per
    worker, no BrokenBarrierError from the workers the first failure stopped."""
    done = unobot(tmp_path, "{}\n", "simulate", "--store", f"redis://127.0.0.1:{free_port()}/0",
                  "--workers", "3", "--games", "6", *SMALL)
    line = one_error_line(done)
    assert done.returncode == 1 and line.startswith("error: the store (Redis) cannot be reached: "), line

    server = RedisServer(tmp_path / "full", appendonly=False,
                         extra=["--maxmemory", "2mb", "--maxmemory-policy", "noeviction"]).start()
    try:
        with redis.Redis(host="127.0.0.1", port=server.port) as client, \
                pytest.raises(redis.exceptions.OutOfMemoryError):
            for n in range(1_000_000):  # small values: the server stays full for small writes
                client.set(f"filler{n}", os.urandom(500))
        done = unobot(tmp_path, "{}\n", "simulate", "--store", server.url, "--workers", "3",
                      "--games", "6", *SMALL)
        line = one_error_line(done)
        assert done.returncode == 1, line
        assert line.startswith("error: the store (Redis) refused: redis answered OOM"), line
        assert "out of memory" in line and "StoreRefusing" not in line and "worker" not in line
    finally:
        server.stop()


def test_the_console_says_a_replica_refused_and_reads_redis_cluster(
    make_redis_server: Callable[[], RedisServer], redis_cluster: RedisCluster, tmp_path: Path,
) -> None:
    """`unobot play`: a server that answered is "refused" (a replica), and a plain
    node URL on the command line is a cluster's when config.yaml says so (a
    whole auto round plays on the cluster)."""
    primary, replica = make_redis_server(), make_redis_server()
    with redis.Redis(host="127.0.0.1", port=replica.port) as client:
        client.execute_command("REPLICAOF", "127.0.0.1", str(primary.port))
    done = unobot(tmp_path, "{}\n", "play", "--lang", "en", "--auto", "--delay", "0", "--rounds", "1",
                  "--store", replica.url)
    text = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in text, text
    assert "the game store refused: this Redis is a replica" in text, text
    assert "not reachable" not in text
    config = f"redis: {{cluster: true, url: {redis_cluster.plain_url}}}\nstore: {{prefix: {prefix()}}}\n"
    done = unobot(tmp_path, config, "play", "--lang", "en", "--auto", "--delay", "0", "--rounds", "1",
                  "--players", "3", "--seed", "4", "--store", redis_cluster.nodes[1].url)
    text = done.stdout + done.stderr
    assert done.returncode == 0 and "Traceback" not in text, text
    assert "wins the round" in text or "wins the match" in text, text[-2000:]


def test_audit_tells_a_game_that_lost_acknowledged_moves_from_a_clean_one(
    tmp_path: Path, redis_server: RedisServer,
) -> None:
    """Two chats' games, acknowledgement records kept; one loses its last
    acknowledged save (its state and log put back as they were before it, as a
    failover to a lagging replica leaves them): both replay cleanly, and
    ``unobot audit`` fails exactly that one, saying what was lost."""
    import asyncio

    from unobot.chat import commands as c
    from unobot.chat.service import ChatService

    keys = prefix()

    async def play() -> str:
        store = RedisStore.from_url(redis_server.url, prefix=keys, ack_records=True)
        svc = ChatService(store)
        ann, ben = c.Person("1", "Ann"), c.Person("2", "Ben")
        try:
            for chat in ("-901", "-902"):
                assert (await svc.handle(chat, ann, c.NewGame())).ok
                assert (await svc.handle(chat, ben, c.Join())).ok
            victim = await store.chat_game("-902")
            assert victim is not None
            names = store.keys.game(victim)
            before = await store.client.get(names.state)
            before_digest = await store.client.get(names.digest)
            assert (await svc.handle("-902", ann, c.Start())).ok  # acknowledged, then "lost":
            await store.flush_acknowledgements()
            await store.client.set(names.state, before)
            await store.client.set(names.digest, before_digest)
            while await store.client.llen(names.log) > int(before_digest.split(b":")[0]):
                await store.client.rpop(names.log)
            assert (await svc.handle("-901", ann, c.Start())).ok
            await store.flush_acknowledgements()
            return victim
        finally:
            await store.close()

    victim = asyncio.run(play())
    assert redis_server.running, redis_server.log_tail()
    done = unobot(tmp_path, f"store:\n  prefix: {keys}\n", "audit", "--store", redis_server.url)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    mismatches = [line for line in lines if line.startswith("MISMATCH")]
    assert len(mismatches) == 1 and mismatches[0].startswith(
        f"MISMATCH {victim} (chat -902): acknowledged moves lost: version 3 ("), done.stdout
    assert "was acknowledged, the store holds version 2 with" in mismatches[0]
    assert lines[-1] == "2 games replayed, 1 mismatch"
