"""A bot process stand-in for the records contention test: after a barrier,
it plays one chat's matches in a tight loop through the adapters' path (the
store opened by adapters/store_factory with the shipped config's options, a
ChatService over it), racing another such process for every command: who
opens the table, who joins, who plays the move that ends the match. It
reports the matches it started and those it was told it ended (by seed)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.chat_worker import command_for
from unobot.adapters.store_factory import open_store, store_options
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING
from unobot.config import load_config

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [c.Person("21", "Ann"), c.Person("22", "Bob"), c.Person("23", "Cid")]


@dataclass
class RecordsJob:
    worker: int
    url: str
    prefix: str
    chat: str
    matches: int
    deadline: float


@dataclass
class RecordsReport:
    worker: int
    started: list[int] = field(default_factory=list)
    ended: list[int] = field(default_factory=list)
    commands: int = 0
    refused: int = 0
    error: str = ""


async def _play(job: RecordsJob, report: RecordsReport) -> None:
    config = load_config(ROOT / "config.yaml", environ={})
    store = await open_store(job.url, data_dir=str(ROOT / "data"), prefix=job.prefix, **store_options(config))
    svc = ChatService(store, rng=random.Random(1000 + job.worker))
    rnd = random.Random(job.worker)
    try:
        while time.time() < job.deadline:
            table = await svc.table(job.chat)
            playing = table is not None and table.phase in (PLAYING, BETWEEN_ROUNDS)
            if not playing and (await store.get_stats("chat", job.chat)).get("matches", 0) >= job.matches:
                return  # enough matches ended, and none is running
            person = PEOPLE[rnd.randrange(3)]
            if table is None or table.phase == FINISHED:  # (finished: the other process is keeping it)
                cmd: c.Command = c.NewGame()
            elif table.phase == LOBBY:
                seated = {s.id for s in table.seats}
                missing = [p for p in PEOPLE if p.id not in seated]
                cmd = c.Join() if missing else c.Start()
                person = rnd.choice(missing) if missing else \
                    next(p for p in PEOPLE if p.id == table.creator)
            elif table.phase == BETWEEN_ROUNDS:
                cmd = c.NextRound(version=table.version)
            else:
                assert table.game is not None
                seat = table.seats[table.game.turn]
                person = c.Person(seat.id, seat.name)
                cmd = command_for(table, seat.id, rnd)
            out = await svc.handle(job.chat, person, cmd)
            report.commands += 1
            if not out.ok:
                report.refused += 1
            elif out.changed and out.table is not None:
                if isinstance(cmd, c.Start) and out.table.phase == PLAYING:
                    report.started.append(out.table.seed)
                if out.table.phase == FINISHED:
                    report.ended.append(out.table.seed)
        raise TimeoutError(f"worker {job.worker}: {job.matches} matches did not end in time")
    finally:
        await store.close()


def contend_records(job: RecordsJob, ready: Any, results: Any) -> None:
    """Run in a spawned process: wait for the other, then play."""
    report = RecordsReport(job.worker)
    try:
        ready.wait()
        asyncio.run(_play(job, report))
    except Exception as exc:  # reported to the test, which fails with it
        report.error = repr(exc)
    results.put(report)
