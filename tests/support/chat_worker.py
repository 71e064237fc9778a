"""A bot process stand-in for the chat-path contention test: it plays the
people of several chats through its own ChatService on a shared Redis, as a
webhook worker of the Telegram or Discord adapter would, and reports every
change the service said it saved (chat, the table's version after it)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, PLAYING, Table
from unobot.chat.views import hand_view

COLORS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}


@dataclass
class ChatJob:
    worker: int
    url: str
    prefix: str
    chats: list[str]
    seed: int
    deadline: float


@dataclass
class ChatReport:
    worker: int
    acked: list[tuple[str, int]] = field(default_factory=list)
    refused: int = 0
    error: str = ""


def command_for(table: Table, person_id: str, rnd: random.Random) -> c.Command:
    hv = hand_view(table, person_id)
    assert hv is not None
    if hv.colors:
        return c.NameColor(color=COLORS[rnd.choice(list(COLORS))], version=table.version)
    plays = [m for hc in hv.cards if hc.playable for m in hc.moves]
    if plays and (rnd.random() < 0.85 or not (hv.draw or hv.pass_)):
        m = rnd.choice(plays)
        target = table.seats[m.target].id if m.target is not None else None
        return c.Play(m.card.text, COLORS.get(m.color or ""), target, version=table.version)
    if hv.draw:
        return c.Draw(version=table.version)
    return c.Pass(version=table.version)


async def _play(job: ChatJob, report: ChatReport) -> None:
    store = RedisStore.from_url(job.url, prefix=job.prefix)
    svc = ChatService(store, rng=random.Random(job.seed))
    rnd = random.Random(job.seed)
    try:
        while time.time() < job.deadline:
            live = []
            for chat in job.chats:
                table = await svc.table(chat)
                if table is not None and table.phase in (PLAYING, BETWEEN_ROUNDS):
                    live.append((chat, table))
            if not live:
                return
            chat, table = rnd.choice(live)
            if table.phase == BETWEEN_ROUNDS:
                cmd: c.Command = c.NextRound(version=table.version)
                person = c.Person(table.seats[0].id, table.seats[0].name)
            else:
                assert table.game is not None
                seat = table.seats[table.game.turn]
                person = c.Person(seat.id, seat.name)
                cmd = command_for(table, seat.id, rnd)
            out = await svc.handle(chat, person, cmd)
            if out.ok and out.changed and out.table is not None:
                report.acked.append((chat, out.table.version))
            elif not out.ok:
                report.refused += 1
    finally:
        await store.close()


def contend_chats(job: ChatJob, ready: Any, results: Any) -> None:
    report = ChatReport(job.worker)
    try:
        ready.wait()
        asyncio.run(_play(job, report))
    except Exception as exc:  # reported to the test, which fails with it
        report.error = repr(exc)
    results.put(report)
