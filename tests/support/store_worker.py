"""Worker processes for the store's contention and restart tests (real processes, real Redis).

Two uses:

* :func:`contend` runs in a spawned process (``multiprocessing``): it loops
  over a shared set of games, loading one, choosing a legal move for the
  seat to move and applying it through :class:`core.service.GameService`,
  until every game has ended. It returns what it applied, so the test can
  prove that no move was lost or applied twice.
* ``python -m tests.support.store_worker play|resume ...`` is a bot stand-in
  the restart test starts with ``subprocess`` and kills with SIGKILL. ``play``
  deals games in chats and plays them round-robin, printing a line after
  every move the store acknowledged; ``resume`` finds each chat's game
  through the chat binding and plays it to its end.

Why real processes: the claims under test (compare-and-set across
processes, nothing lost when a process dies mid-save) are about separate
connections and separate address spaces; coroutines in one process would
not exercise them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from unobot import engine
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import open_store
from unobot.errors import MoveError
from unobot.moves import PLAY, Move
from unobot.service import GameService
from unobot.state import PLAYING, GameState
from unobot.store import Store, VersionConflict

SMALL_GAME = {"deck": {"hand_size": 3}}
"""Overrides for short games (a few dozen moves), so the tests stay quick."""


def pick_move(state: GameState, rnd: random.Random) -> Move:
    """A legal move for the seat to move: a card most of the time (games end), else anything."""
    moves = engine.legal_moves(state, state.turn)
    plays = [m for m in moves if m.kind == PLAY]
    if plays and rnd.random() < 0.85:
        return rnd.choice(plays)
    return rnd.choice(moves)


# --------------------------------------------------------------------------- contention


@dataclass
class ContendJob:
    """One contending process's orders (picklable)."""

    index: int
    url: str
    prefix: str
    game_ids: list[str]
    seed: int
    deadline: float  # time.time() after which the worker gives up


@dataclass
class ContendReport:
    index: int
    applied: list[tuple[str, int, str]] = field(default_factory=list)  # game, version, entry
    refused: int = 0  # moves the engine refused after a conflict (the game moved on)
    gave_up: int = 0  # applies that lost max_tries races in a row
    conflicts: int = 0
    loads: int = 0
    timed_out: bool = False
    error: str | None = None


def contend(job: ContendJob, ready: Any, results: Any) -> None:
    """Process entry: contend for the games until all have ended; put a report on ``results``."""
    report = ContendReport(job.index)
    try:
        asyncio.run(_contend(job, ready, report))
    except BaseException as exc:  # the test prints it
        report.error = f"{type(exc).__name__}: {exc}"
    results.put(report)


async def _contend(job: ContendJob, ready: Any, report: ContendReport) -> None:
    store = RedisStore.from_url(job.url, prefix=job.prefix)
    service = GameService(store)
    rnd = random.Random(job.seed)
    finished: set[str] = set()
    try:
        await store.ping()
        engine.rules_of((await service.load(job.game_ids[0]))[0])  # compile before the start
        ready.wait(120)
        while len(finished) < len(job.game_ids):
            if time.time() > job.deadline:
                report.timed_out = True
                break
            game_id = rnd.choice([g for g in job.game_ids if g not in finished])
            state, _ = await service.load(game_id)
            report.loads += 1
            if state.phase != PLAYING:
                finished.add(game_id)
                continue
            move = pick_move(state, rnd)
            try:
                outcome = await service.apply(game_id, move)
            except MoveError:
                report.refused += 1
                continue
            except VersionConflict:
                report.gave_up += 1
                continue
            report.applied.append((game_id, outcome.version, f"{move.player} {move.text}"))
    finally:
        report.conflicts = service.conflicts
        await store.close()


# --------------------------------------------------------------------------- restart


async def _open(args: argparse.Namespace) -> Store:
    if args.url:
        return RedisStore.from_url(args.url, prefix=args.prefix)
    return await open_store(None, data_dir=args.data_dir, prefix=args.prefix)


def _say(*words: object) -> None:
    print(*words, flush=True)


async def play(args: argparse.Namespace) -> None:
    """Deal a game in each chat, then play them round-robin until killed (or all end)."""
    store = await _open(args)
    service = GameService(store)
    rnd = random.Random(args.seed)
    games: dict[str, GameState] = {}
    for i in range(args.chats):
        chat = f"{args.chat_prefix}{i}"
        players = ["ann", "ben", "cy"][: 2 + i % 2]
        outcome = await service.start(chat, "official", players, seed=args.seed + i,
                                      overrides=SMALL_GAME, replace=True)
        games[outcome.game_id] = outcome.state
        _say("created", chat, outcome.game_id)
    _say("dealt")
    while any(s.phase == PLAYING for s in games.values()):
        for game_id, state in list(games.items()):
            if state.phase != PLAYING:
                continue
            outcome = await service.apply(game_id, pick_move(state, rnd))
            games[game_id] = outcome.state
            _say("moved", game_id, outcome.version)  # printed only after the store said yes
            if args.pause:
                await asyncio.sleep(args.pause)
    _say("all ended")
    await store.close()


async def resume(args: argparse.Namespace) -> None:
    """Find each chat's game through its binding, play it to its end; print one JSON line."""
    store = await _open(args)
    service = GameService(store)
    rnd = random.Random(args.seed + 1)
    found: dict[str, Any] = {}
    server = getattr(store, "server", None)
    for i in range(args.chats):
        chat = f"{args.chat_prefix}{i}"
        game_id = await store.chat_game(chat)
        if game_id is None:
            found[chat] = None
            continue
        state, version = await service.load(game_id)
        entry = {"game_id": game_id, "resumed_at_version": version,
                 "resumed_at_moves": state.moves}
        while state.phase == PLAYING:
            state = (await service.apply(game_id, pick_move(state, rnd))).state
        entry["final_moves"] = state.moves
        found[chat] = entry
    _say(json.dumps({"games": found, "reused_server": bool(server and server.reused),
                     "server_pid": getattr(server, "pid", None)}))
    await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="store_worker")
    parser.add_argument("mode", choices=["play", "resume"])
    parser.add_argument("--url", help="a Redis URL; without it, the embedded server on --data-dir")
    parser.add_argument("--data-dir")
    parser.add_argument("--prefix", default="unobot")
    parser.add_argument("--chats", type=int, default=6)
    parser.add_argument("--chat-prefix", default="-100777")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between moves")
    args = parser.parse_args(argv)
    asyncio.run(play(args) if args.mode == "play" else resume(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
