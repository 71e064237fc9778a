"""Planning the bot's own jobs: turn timers, AI pauses, lobby expiry, retries.

Time is the chat service's: every due time is a point on `service.clock`
(the clock the table's `turn_started` and `created` were stamped with), so
a job is due exactly when the service will agree it is. The `Scheduler`
(`scheduler.py`) turns such a point into a python-telegram-bot JobQueue
job; tests give the application a scheduler of their own whose "now" is a
fake clock, and run what is due when they move it (`tests/telegram/clock.py`).

Why jobs are planned by kind and not by callback: the callbacks
(`jobs.py`) show outcomes (`publish.py`), which plans the next jobs
(here); naming the callback by kind, and installing the callbacks once
(`app.py`), keeps that a line, not a cycle.

Why jobs carry a table version: a job may fire in a process that has not
seen the latest move, or after a restart, or twice (two processes each
planned one). The service refuses a command whose version is not the
table's, so a stale job never acts. Jobs live in one process's memory: a
process that starts walks the store's running games once and re-plans
theirs (`jobs.replan_all`), and a process that serves a game it planned
nothing for re-plans when someone opens their hand (`ensure_jobs`).
"""

from __future__ import annotations

import logging
from typing import Any

from unobot.chat.outcome import Outcome
from unobot.chat.table import LOBBY, PLAYING, Table
from unobot.chat.views import rule_facts

from .runtime import runtime
from .scheduler import Scheduler

log = logging.getLogger(__name__)

#: A job that found the store down tries again `Options.store_retry` seconds
#: later, this many times (ten minutes by default): the clock it keeps must
#: not be lost to an outage.
RETRIES = 120


def scheduler(context: Any) -> Scheduler | None:
    """The process's scheduler (None in an application without a job queue)."""
    return runtime(context).scheduler


def turn_seconds(table: Table) -> int:
    """Seconds per turn in force: the chat's /timer, else the variant's turn-timer rule."""
    return rule_facts(table)[0]


def cancel(context: Any, chat_id: int, *kinds: str) -> None:
    s = scheduler(context)
    if s is not None:
        s.cancel(chat_id, *kinds)


def has_job(context: Any, kind: str, chat_id: int) -> bool:
    s = scheduler(context)
    return s is not None and s.has(kind, chat_id)


def schedule(context: Any, chat_id: int, table: Table, outcome: Outcome | None = None,
             *, not_before: float = 0.0) -> None:
    """Plan what the table needs next: AI pacing after a pause, the turn timer
    (not sooner than `not_before` seconds from now)."""
    s = scheduler(context)
    if s is None:
        return
    if table.phase != PLAYING or table.game is None:
        s.cancel(chat_id, "cont", "timer")
        return
    # The game started: its lobby's expiry has nothing left to close (why here: every
    # start and move passes by, and a job left planned would sit in memory for the
    # whole lobby time, one per game).
    s.cancel(chat_id, "lobby")
    options = runtime(context).options
    game = table.game
    on_turn = table.seats[game.turn] if 0 <= game.turn < len(table.seats) else None
    now = s.now()
    if outcome is not None and outcome.paused:
        s.plan("cont", chat_id, now + options.continue_delay, {"chat": chat_id, "version": table.version})
    elif outcome is not None:
        s.cancel(chat_id, "cont")  # planned for an older version: it would only be refused
    seconds = turn_seconds(table)
    if seconds and on_turn is not None and not on_turn.is_ai:
        due = table.turn_started + seconds + options.timer_grace
        s.plan("timer", chat_id, max(due, now + not_before), {"chat": chat_id, "version": table.version})
    else:
        s.cancel(chat_id, "timer")


def ensure_jobs(context: Any, chat_id: int, table: Table, *, not_before: float = 0.0) -> None:
    """Re-plan missing jobs for a table this process has no jobs for (after a
    restart, or when the process that planned them is gone)."""
    s = scheduler(context)
    if s is None or table.phase != PLAYING or table.game is None:
        return
    game = table.game
    on_turn = table.seats[game.turn] if 0 <= game.turn < len(table.seats) else None
    if on_turn is not None and on_turn.is_ai and not s.has("cont", chat_id):
        s.plan("cont", chat_id, s.now() + runtime(context).options.continue_delay,
               {"chat": chat_id, "version": table.version})
    if not s.has("timer", chat_id):
        schedule(context, chat_id, table, not_before=not_before)


def schedule_lobby(context: Any, chat_id: int, table: Table) -> None:
    s = scheduler(context)
    if s is None or table.phase != LOBBY:
        return
    s.plan("lobby", chat_id, table.created + runtime(context).options.lobby_seconds,
           {"chat": chat_id, "seed": table.seed})


def retry(context: Any, kind: str) -> None:
    """Plan the running job again, with the same data, `Options.store_retry` seconds later."""
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    data = dict(job.data)
    data["tries"] = int(data.get("tries", 0)) + 1
    s = scheduler(context)
    if data["tries"] > RETRIES or s is None:
        log.error("chat %s: %s job given up after %d tries: the store stayed down", data["chat"], kind, RETRIES)
        return
    s.plan(kind, int(data["chat"]), s.now() + runtime(context).options.store_retry, data)
