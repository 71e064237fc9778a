"""Planning the bot's own jobs: turn timers, AI pauses, a rule's round clock, lobby expiry, retries.

What a table needs is core's `wake_plan` (`unobot.chat.wake`), the same plan
every front-end follows; this module only turns its wakes into JobQueue jobs
(kinds `cont`, `timer`, `clock`, `lobby`) and drops the ones it no longer lists.

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
from unobot.chat.wake import CLOCK, CONT, KINDS, LOBBY_EXPIRY, TIMER, Pacing, Wake, due, wake_plan

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


def pacing(context: Any) -> Pacing:
    """The operator's timings, as core's wake plan takes them."""
    options = runtime(context).options
    return Pacing(continue_delay=options.continue_delay, timer_grace=options.timer_grace,
                  lobby_seconds=options.lobby_seconds)


def turn_seconds(table: Table) -> int:
    """Seconds per turn in force: the chat's /timer, else the variant's turn-timer rule."""
    return rule_facts(table)[0]


def cancel(context: Any, chat_id: int, *kinds: str) -> None:
    s = scheduler(context)
    if s is not None:
        s.cancel(chat_id, *(kinds or KINDS))


def has_job(context: Any, kind: str, chat_id: int) -> bool:
    s = scheduler(context)
    return s is not None and s.has(kind, chat_id)


def _plan(s: Scheduler, chat_id: int, wake: Wake, table: Table) -> None:
    data: dict[str, Any] = {"chat": chat_id, "version": wake.version}
    if wake.kind == LOBBY_EXPIRY:
        data["seed"] = table.seed  # only the lobby it was planned for (jobs.lobby_job)
    s.plan(wake.kind, chat_id, wake.when, data)


def _follow(s: Scheduler, chat_id: int, table: Table, plan: list[Wake], kind: str) -> None:
    """Plan `kind` as the plan says, or drop it when the plan has none."""
    wake = due(plan, kind)
    if wake is not None:
        _plan(s, chat_id, wake, table)
    else:
        s.cancel(chat_id, kind)


def schedule(context: Any, chat_id: int, table: Table, outcome: Outcome | None = None,
             *, not_before: float = 0.0) -> None:
    """Plan what the table needs next (core's wake plan, after `outcome`): AI
    pacing after a pause, the turn timer (not sooner than `not_before`
    seconds from now), a rule's round clock. Without an outcome (a timer that
    fired a little early) a planned AI pause is left as it is."""
    s = scheduler(context)
    if s is None:
        return
    if table.phase != PLAYING or table.game is None:
        s.cancel(chat_id, CONT, TIMER, CLOCK)
        return
    # The game started: its lobby's expiry has nothing left to close (why here: every
    # start and move passes by, and a job left planned would sit in memory for the
    # whole lobby time, one per game).
    s.cancel(chat_id, LOBBY_EXPIRY)
    plan = wake_plan(table, s.now(), pacing(context), paused=bool(outcome is not None and outcome.paused),
                     not_before=not_before)
    if outcome is not None:
        _follow(s, chat_id, table, plan, CONT)  # one planned for an older version would only be refused
    _follow(s, chat_id, table, plan, TIMER)
    _follow(s, chat_id, table, plan, CLOCK)


def ensure_jobs(context: Any, chat_id: int, table: Table, *, not_before: float = 0.0) -> None:
    """Re-plan missing jobs for a table this process has no jobs for (after a
    restart, or when the process that planned them is gone)."""
    s = scheduler(context)
    if s is None or table.phase != PLAYING or table.game is None:
        return
    plan = wake_plan(table, s.now(), pacing(context), resume=True, not_before=not_before)
    for kind in (CONT, TIMER, CLOCK):
        wake = due(plan, kind)
        if wake is not None and not s.has(kind, chat_id):
            _plan(s, chat_id, wake, table)


def schedule_lobby(context: Any, chat_id: int, table: Table) -> None:
    s = scheduler(context)
    if s is None or table.phase != LOBBY:
        return
    wake = due(wake_plan(table, s.now(), pacing(context)), LOBBY_EXPIRY)
    if wake is not None:
        _plan(s, chat_id, wake, table)


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
