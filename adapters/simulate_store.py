"""``unobot simulate --store URL --workers N``: whole games through the real store.

Why it exists: ``unobot simulate`` alone measures the engine; this measures
what a deployment does per move (load, engine, compare-and-set save of the
state and its log entry) with N operating-system processes, each with its
own connection, as N bot workers would. Every move is persisted; at the end
every game is audited (:func:`core.service.audit`: its log replays from the
deal to exactly the stored state, the version counts every save once, no
card appears or vanishes), so the number printed is for moves that are
provably all there.

``URL`` is ``memory`` (in this process; then ``--workers`` must be 1),
``embedded`` (the embedded redis-server on the configured data dir; one
already running there is reused and left running), ``config`` (what the
bot would use: ``redis.url`` / ``$UNOBOT_REDIS_URL`` with ``redis.cluster``,
else the embedded server), or a ``redis://``, ``rediss://``, ``unix://``,
``redis+cluster://`` or ``rediss+cluster://`` URL (a Redis Cluster). Games are written under the key prefix
``<store.prefix>-sim`` so they never mix with a bot's chats, and are
deleted once audited (kept, and named, when an audit fails).

Timing: each worker connects and compiles the rules first, then all start
together (a barrier); ``seconds`` is from that start to the last worker's
last move. Auditing happens after every worker has finished, in parallel,
and is not timed.

Outages (a failover, a restart): a worker does what a bot's player does.
"Not reachable" or "refused": it waits (backing off, up to
``OUTAGE_WINDOW`` seconds per outage), reloads the game and moves again from
what is stored (the lost reply may or may not have saved the move; the
stored game says). "Not confirmed" (``redis.wait_replicas`` /
``redis.wait_aof`` are honoured as by the bot): it asks the store until the
save is confirmed or known lost, and goes on from the stored game. The
report counts both, and the audit also compares each game with its
acknowledgement record (moves acknowledged then lost would show there).
A save still unconfirmed after the window (``--outage-window``; a shard
whose only replica was promoted has none left to confirm anything) stops
its game where it stood and the worker goes on with its next game (asking
only ``STUCK_WINDOW`` from then on); the report counts them as
``stuck_unconfirmed``, says why on stderr, and exits 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import multiprocessing
import queue
import random
import re
import secrets
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from unobot import simulate_text as sim_text
from unobot.adapters.embedded_redis import EmbeddedRedis
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.store_factory import EMBEDDED_SUBDIR, PLAIN_SCHEMES, store_failure_reason
from unobot.ai import POLICIES
from unobot.chat.i18n import N_, Msg
from unobot.cli_text import error_line, os_problem, reader_of
from unobot.config import (
    CLUSTER_SCHEMES,
    URL_SCHEMES,
    ConfigError,
    load_config,
    redis_address_problem,
)
from unobot.engine import legal_moves
from unobot.service import AuditError, GameService, audit
from unobot.state import PLAYING
from unobot.store import (
    MemoryStore,
    Receipt,
    Store,
    StoreError,
    StoreUnavailable,
    StoreUnconfirmed,
    acknowledgement_problem,
)

MAX_MOVES = 100_000
"""Moves after which a game counts as unfinished (as ``core.simulate`` does)."""
CONFIGURED = "config"
"""``--store config``: the store config.yaml and $UNOBOT_REDIS_URL name."""
START_TIMEOUT = 180.0
"""Seconds to wait for every worker to be connected and ready."""
OUTAGE_WINDOW = 60.0
"""Seconds one store call is retried through an outage before the worker gives up."""
STUCK_WINDOW = 5.0
"""Seconds an unconfirmed save is asked about once one of the worker's saves stayed
unconfirmed for a whole ``OUTAGE_WINDOW`` (its shard lacks the replicas to confirm:
the next game there would wait as long for nothing)."""


@dataclass(frozen=True)
class Job:
    """What one worker process is told (picklable: it crosses a spawn)."""

    index: int
    workers: int
    url: str | None  # None: the in-process memory store
    prefix: str
    game_ttl: float | None
    connect_timeout: float
    socket_timeout: float
    run_id: str
    variant: str
    players: int
    games: int
    seed: int
    policies: tuple[str, ...]
    overrides: dict[str, Any] | None
    cards: bool
    wait_replicas: int = 0
    wait_aof: bool = False
    outage_window: float = OUTAGE_WINDOW
    #: Who reads the report (`--lang`, else the locale): a worker's failure is said in it.
    lang: str = "en"


@dataclass
class WorkerReport:
    """What one worker did; ``error`` is set instead when it failed."""

    index: int
    games: list[str] = field(default_factory=list)
    moves: int = 0
    unfinished: int = 0
    wins: list[int] = field(default_factory=list)
    conflicts: int = 0
    #: Store calls answered "not reachable" / "refused" (then retried).
    unavailable: int = 0
    #: Saves not confirmed at first, and of those, lost in a failover (then replayed).
    unconfirmed: int = 0
    lost: int = 0
    #: Games left where they stood: a save of theirs stayed unconfirmed past the window.
    stuck: int = 0
    #: What the store said of the first of them.
    stuck_why: str = ""
    started: float = 0.0
    finished: float = 0.0
    audited: int = 0
    audit_errors: list[str] = field(default_factory=list)
    error: str | None = None
    #: The error only echoes another worker's (a barrier it aborted): not reported on its own.
    echo: bool = False
    #: Seconds a store call is retried through an outage (``--outage-window``).
    window: float = OUTAGE_WINDOW


# --------------------------------------------------------------------------- one worker


def _my_games(job: Job) -> range:
    return range(job.index, job.games, job.workers)


async def _through(make: Any, report: WorkerReport) -> Any:
    """``await make()``, retried while the store is unavailable (not when unconfirmed)."""
    give_up = time.monotonic() + report.window
    pause = 0.05
    while True:
        try:
            return await make()
        except StoreUnconfirmed:
            raise
        except StoreUnavailable:
            report.unavailable += 1
            if time.monotonic() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.5)


async def _settle(store: Store, receipt: Receipt | None, report: WorkerReport) -> None:
    """Ask until an unconfirmed save is confirmed or known lost (as the chat layer does)."""
    report.unconfirmed += 1
    if receipt is None:
        return
    give_up = time.monotonic() + (min(STUCK_WINDOW, report.window) if report.stuck else report.window)
    while True:
        try:
            if not await store.confirm_save(receipt):
                report.lost += 1
            return
        except StoreUnavailable:
            if time.monotonic() > give_up:
                raise
        await asyncio.sleep(0.2)


async def _play(job: Job, service: GameService, report: WorkerReport) -> None:
    """Play this worker's share of the games through the service."""
    names = [f"p{i + 1}" for i in range(job.players)]
    seats = [POLICIES[job.policies[i % len(job.policies)]] for i in range(job.players)]
    report.wins = [0] * job.players
    store = service.store
    for g in _my_games(job):
        rnd = random.Random(job.seed * 1_000_003 + g)  # per game: results do not depend on -w
        chat = f"sim{job.run_id}-{g}"
        deal = functools.partial(service.start, chat, job.variant, names,
                                 seed=job.seed * 1_000_003 + g, overrides=job.overrides,
                                 dealer=g % job.players, replace=True)
        try:
            game_id, state = await _one_game(job, service, store, deal, chat, seats, rnd, report)
        except StoreUnconfirmed as exc:
            # Why not the whole run: with redis.wait_replicas N, a primary left with fewer
            # replicas (its own was promoted in a failover) confirms nothing until one joins.
            # Its games cannot go on; the others can, and the report says what stopped.
            report.stuck += 1
            report.unfinished += 1
            report.stuck_why = report.stuck_why or str(exc)
            if exc.receipt is not None and exc.receipt.game_id not in report.games:
                report.games.append(exc.receipt.game_id)  # its deal: audited, then deleted, as every game
            continue
        report.moves += state.moves
        if state.phase == PLAYING:
            report.unfinished += 1
        elif state.winner >= 0:
            report.wins[state.winner] += 1
    report.conflicts = service.conflicts


async def _one_game(job: Job, service: GameService, store: Store, deal: Any, chat: str,
                    seats: list[Any], rnd: random.Random, report: WorkerReport) -> tuple[str, Any]:
    """Deal one game and play it to its end (or ``MAX_MOVES``); its id and last state.
    Raises :class:`StoreUnconfirmed` when a save of it stays unconfirmed past the window."""
    try:
        outcome = await _through(deal, report)
        game_id, state = outcome.game_id, outcome.state
    except StoreUnconfirmed as exc:
        await _settle(store, exc.receipt, report)
        game_id = await _through(functools.partial(store.chat_game, chat), report)
        if not game_id:  # the new game was lost: deal again
            game_id = (await _through(deal, report)).game_id
        state = (await _through(functools.partial(service.load, game_id), report))[0]
    report.games.append(game_id)
    applies = 0
    while state.phase == PLAYING and applies < MAX_MOVES:
        seat = state.turn
        move = seats[seat](state, seat, legal_moves(state, seat), rnd)
        applies += 1
        try:
            state = (await service.apply(game_id, move)).state
            continue
        except StoreUnconfirmed as exc:
            await _settle(store, exc.receipt, report)
        except StoreUnavailable:
            report.unavailable += 1
        # Whether that move was saved, the stored game says: go on from it.
        state = (await _through(functools.partial(service.load, game_id), report))[0]
    return game_id, state


async def _audit(store: Store, job: Job, report: WorkerReport) -> None:
    """Audit this worker's games (and their acknowledgement records); delete each that
    passes (why: a run leaves nothing behind)."""
    flush = getattr(store, "flush_acknowledgements", None)
    if flush is not None:
        await flush()
    for game_id in report.games:
        try:
            found = await _through(functools.partial(audit, store, game_id, cards=job.cards),
                                   report)
            log = await _through(functools.partial(store.read_log, game_id), report)
            record = await _through(functools.partial(store.acknowledgement, game_id), report)
            problem = acknowledgement_problem(record, found.version, log)
            if problem:
                raise AuditError(f"{game_id}: {problem}")
        except AuditError as exc:
            report.audit_errors.append(str(exc))
            continue
        report.audited += 1
        await _through(functools.partial(store.delete_game, game_id), report)


def _open(job: Job) -> RedisStore:
    assert job.url is not None
    return RedisStore.from_url(job.url, prefix=job.prefix, game_ttl=job.game_ttl,
                               connect_timeout=job.connect_timeout,
                               socket_timeout=job.socket_timeout,
                               wait_replicas=job.wait_replicas, wait_aof=job.wait_aof)


async def _warm_up(job: Job) -> None:
    """Compile the variant's rules before the clock starts (a first game would pay it)."""
    from unobot.engine import new_game

    new_game(job.variant, [f"p{i + 1}" for i in range(job.players)], 0, job.overrides)


def worker_main(job: Job, ready: Any, played: Any, results: Any) -> None:
    """Entry of a worker process: connect, wait for all, play, wait for all, audit, report."""
    report = WorkerReport(job.index, window=job.outage_window)

    async def run() -> None:
        store = _open(job)
        try:
            await store.ping()
            await _warm_up(job)
            ready.wait(START_TIMEOUT)
            report.started = time.monotonic()
            service = GameService(store)
            await _play(job, service, report)
            report.finished = time.monotonic()
            played.wait(START_TIMEOUT + 3600)
            await _audit(store, job, report)
        finally:
            await store.close()

    try:
        asyncio.run(run())
    except BaseException as exc:  # reported to the parent, which prints it
        report.error = _describe(exc, job.lang)
        report.echo = isinstance(exc, threading.BrokenBarrierError)
        with contextlib.suppress(Exception):
            ready.abort()
            played.abort()
    results.put(asdict(report))


def _describe(exc: BaseException, lang: str = "en") -> str:
    """One line for a failure: a store's in the words every command uses (in the reader's
    language), anything else with its class (a bug to look into)."""
    if isinstance(exc, StoreError):
        return store_failure_reason(exc, lang)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


# --------------------------------------------------------------------------- the command


class WorkerDied(RuntimeError):
    """A worker process that ended without a report (killed, crashed): said in the reader's words."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.text())
        self.msg = msg


def _redact(url: str) -> str:
    """The URL without its password (why: the report is printed and logged)."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _fail(message: str | Msg, code: int = 2) -> int:
    """`error: ...` on stderr, in the reader's language (`--lang`, else the locale):
    a `Msg` is said in it, a plain text (a server's own words) as it is."""
    print(error_line(message), file=sys.stderr)
    return code


def simulate_store(args: argparse.Namespace, overrides: dict[str, Any], policies: list[str]) -> int:
    """The ``unobot.simulate_store`` entry point (called by ``core.cli``)."""
    try:
        config = load_config()
    except ConfigError as exc:
        from unobot.cli_text import config_error_line

        print(config_error_line(exc), file=sys.stderr)
        return 2
    url = str(args.store).strip()
    if url == CONFIGURED:
        url = config.redis.url or "embedded"
    workers = int(args.workers)
    given = getattr(args, "outage_window", None)
    window = float(OUTAGE_WINDOW if given is None else given)
    if window <= 0:
        return _fail(Msg(N_("{option} must be more than 0 seconds"), option="--outage-window"))
    if workers < 1:
        return _fail(Msg(N_("{option} must be at least {least}"), option="--workers", least=1))
    if args.games < 1 or args.players < 2:
        return _fail(Msg(N_("{option} must be at least {least}"), option="--games", least=1) if args.games < 1
                     else Msg(N_("{option} must be at least {least}"), option="--players", least=2))
    if url == "memory" and workers != 1:
        return _fail(Msg(N_("--store memory lives in one process: use --workers 1, or a Redis URL")))
    if url not in ("memory", "embedded") and not url.startswith(URL_SCHEMES):
        return _fail(Msg(N_("--store {url}: give memory, embedded, config, or a redis://, rediss://, "
                            "unix://, redis+cluster:// or rediss+cluster:// URL"), url=repr(url)))
    if url not in ("memory", "embedded") and (problem := redis_address_problem(url)) is not None:
        return _fail(Msg("--store {problem}", problem=problem))  # the option, then what is wrong (a Msg)
    if config.redis.cluster and url.startswith(PLAIN_SCHEMES):
        # `redis.cluster: true` makes a plain URL a cluster's here too, as for the bot
        scheme = next(plain for plain in PLAIN_SCHEMES if url.startswith(plain))
        url = CLUSTER_SCHEMES[scheme] + url[len(scheme):]
    job = Job(
        index=0, workers=workers, url=None, prefix=f"{config.store.prefix}-sim",
        game_ttl=config.store.game_ttl, connect_timeout=config.store.connect_timeout,
        # a bot answers chats and wants a quick "unavailable"; N busy workers on a few cores
        # may wait longer for a reply than that without anything being wrong
        socket_timeout=max(config.store.socket_timeout, 10.0), run_id=secrets.token_hex(3),
        variant=args.variant, players=args.players, games=args.games, seed=args.seed,
        policies=tuple(policies), overrides=overrides or None, cards=not args.no_check,
        wait_replicas=config.redis.wait_replicas, wait_aof=config.redis.wait_aof, outage_window=window,
        lang=reader_of(sys.argv[1:]),
    )
    server: EmbeddedRedis | None = None
    shown = url
    try:
        if url == "embedded":
            server = EmbeddedRedis(config.store.data_dir / EMBEDDED_SUBDIR)
            url = server.start()
            shown = f"embedded ({server.data_dir})"
        if url == "memory":
            reports = asyncio.run(_run_in_process(job))
        else:
            job = _with(job, url=url)
            asyncio.run(_check(job))  # one clear error here beats one per worker
            reports = _run_processes(job)
    except StoreError as exc:
        return _fail(store_failure_reason(exc, reader_of(sys.argv[1:])), 1)
    except (OSError, RuntimeError) as exc:
        why: str | Msg = exc.msg if isinstance(exc, WorkerDied) else os_problem(exc) if isinstance(exc, OSError) \
            else str(exc)
        return _fail(Msg(N_("store {store}: {problem}"), store=_redact(shown), problem=why), 1)
    finally:
        if server is not None and not server.reused:
            server.stop()
    return _report(args, job, _redact(shown), reports)


async def _check(job: Job) -> None:
    """Connect once and ping, as every worker will (a cluster node named by a plain
    URL, a replica, a closed port: said once, before any worker starts)."""
    store = _open(job)
    try:
        await store.ping()
    finally:
        await store.close()


def _with(job: Job, **changes: Any) -> Job:
    return Job(**{**asdict(job), **changes})


async def _run_in_process(job: Job) -> list[WorkerReport]:
    store = MemoryStore(game_ttl=job.game_ttl)
    report = WorkerReport(0, window=job.outage_window)
    await _warm_up(job)
    report.started = time.monotonic()
    await _play(job, GameService(store), report)
    report.finished = time.monotonic()
    await _audit(store, job, report)
    return [report]


def _run_processes(job: Job) -> list[WorkerReport]:
    """Start one spawned process per worker and collect their reports."""
    ctx = multiprocessing.get_context("spawn")  # why spawn: no inherited sockets or loops
    ready = ctx.Barrier(job.workers)
    played = ctx.Barrier(job.workers)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=worker_main, args=(_with(job, index=i), ready, played, results),
                    name=f"unobot-sim-{i}", daemon=True)
        for i in range(job.workers)
    ]
    for proc in procs:
        proc.start()
    reports: list[WorkerReport] = []
    try:
        while len(reports) < job.workers:
            try:
                raw = results.get(timeout=1.0)
            except queue.Empty:
                dead = [p for p in procs if p.exitcode not in (None, 0)]
                if dead and results.empty():
                    with contextlib.suppress(Exception):
                        ready.abort()
                        played.abort()
                    time.sleep(0.5)
                    if results.empty():
                        raise WorkerDied(Msg(N_("worker {name} died (exit code {code})"), name=dead[0].name,
                                             code=dead[0].exitcode)) from None
                continue
            reports.append(WorkerReport(**raw))
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
    return sorted(reports, key=lambda r: r.index)


def _report(args: argparse.Namespace, job: Job, shown: str, reports: list[WorkerReport]) -> int:
    failed = [r for r in reports if r.error]
    if failed:
        # each cause once: workers that failed alike say the same line, and a worker
        # stopped by another's failure (an aborted barrier) only echoes it
        causes = [r for r in failed if not r.echo] or failed
        for error in dict.fromkeys(str(r.error) for r in causes):
            print(error_line(error), file=sys.stderr)
        return 1
    games = sum(len(r.games) for r in reports)
    moves = sum(r.moves for r in reports)
    seconds = max(r.finished for r in reports) - min(r.started for r in reports)
    wins = [sum(r.wins[i] for r in reports) for i in range(job.players)]
    audit_errors = [e for r in reports for e in r.audit_errors]
    audited = sum(r.audited for r in reports)
    data = {
        "store": shown, "workers": job.workers, "variant": job.variant, "players": job.players,
        "policy": args.policy, "games": games, "moves": moves, "seconds": round(seconds, 3),
        "moves_per_second": round(moves / seconds, 1) if seconds > 0 else None,
        "unfinished": sum(r.unfinished for r in reports), "wins": wins,
        "conflicts": sum(r.conflicts for r in reports),
        "wait_replicas": job.wait_replicas, "wait_aof": job.wait_aof,
        "unavailable": sum(r.unavailable for r in reports),
        "unconfirmed": sum(r.unconfirmed for r in reports),
        "lost_unconfirmed": sum(r.lost for r in reports),
        "stuck_unconfirmed": sum(r.stuck for r in reports),
        "audited": audited, "audit_failures": len(audit_errors),
        "cards_checked": job.cards,
        "ok": not audit_errors and audited == games and not any(r.stuck for r in reports),
    }
    # Said to the operator in their language (`--lang`, else the locale); the JSON line is for
    # scripts and the same in every language.
    lang = reader_of(sys.argv[1:])
    for error in audit_errors:
        print(sim_text.audit_failed_line(error, job.prefix, lang), file=sys.stderr)
    if data["stuck_unconfirmed"]:
        why = next(r.stuck_why for r in reports if r.stuck_why)
        print(error_line(sim_text.stuck_text(data["stuck_unconfirmed"], job.wait_replicas, why)), file=sys.stderr)
    if args.json:
        print(json.dumps(data))
    else:
        print(sim_text.persisted_line(games, moves, seconds, data["moves_per_second"], job.workers, shown, lang))
        print(sim_text.audit_line(audited, games, len(audit_errors), job.cards, data["conflicts"], wins,
                                  data["unfinished"], lang))
        if data["unavailable"] or data["unconfirmed"]:
            print(sim_text.outages_line(data["unavailable"], data["unconfirmed"], data["lost_unconfirmed"], lang))
    return 0 if data["ok"] else 1
