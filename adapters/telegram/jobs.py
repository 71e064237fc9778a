"""JobQueue jobs: turn timers, AI pacing and lobby expiry.

Why jobs carry a table version: a job may fire in a process that has not
seen the latest move, or after a restart, or twice (two processes each
scheduled one). The service refuses a command whose version is not the
table's, so a stale job never acts. Jobs live in one process's memory:
a process that starts walks the store's running games once and re-plans
theirs (`replan_all`), and a process that serves a game it planned
nothing for re-plans when someone opens their hand (`ensure_jobs`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram.ext import ContextTypes, Job, JobQueue

from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.service import Outcome
from unobot.chat.table import LOBBY, PLAYING, Table
from unobot.chat.views import rule_facts
from unobot.store import StoreError, StoreUnavailable

from .runtime import SYSTEM, runtime, telegram_chat

log = logging.getLogger(__name__)


def turn_seconds(table: Table) -> int:
    """Seconds per turn in force: the chat's /timer, else the variant's turn-timer rule."""
    return rule_facts(table)[0]


def _name(kind: str, chat_id: int) -> str:
    return f"{kind}:{chat_id}"


def _registry(jq: JobQueue[Any]) -> dict[str, Job[Any]]:
    """This process's planned jobs by name. Why not `get_jobs_by_name`: it
    walks every job of the process, and this runs on every move."""
    app = jq.application
    return app.bot_data.setdefault("unobot.jobs", {})  # type: ignore[no-any-return]


def _replace(jq: JobQueue[Any], kind: str, chat_id: int, when: float, callback: Any,
             data: dict[str, Any]) -> None:
    name = _name(kind, chat_id)
    registry = _registry(jq)
    _remove(registry.pop(name, None))
    registry[name] = jq.run_once(_done(callback), when=max(0.0, when), data=data, name=name, chat_id=chat_id)


def _done(callback: Any) -> Any:
    """Run a job, then forget it in the registry (unless it was replaced meanwhile)."""
    async def run(context: ContextTypes.DEFAULT_TYPE) -> None:
        job = context.job
        try:
            await callback(context)
        finally:
            if job is not None and job.name and context.job_queue is not None:
                registry = _registry(context.job_queue)
                if registry.get(job.name) is job:
                    del registry[job.name]
    return run


def cancel(jq: JobQueue[Any] | None, chat_id: int, *kinds: str) -> None:
    if jq is None:
        return
    registry = _registry(jq)
    for kind in kinds or ("cont", "timer", "lobby"):
        _remove(registry.pop(_name(kind, chat_id), None))


def _remove(job: Job[Any] | None) -> None:
    """Unplan a job; one that is running now (or already ran) is gone already."""
    if job is not None and not job.removed:
        with contextlib.suppress(JobLookupError):
            job.schedule_removal()


def has_job(jq: JobQueue[Any] | None, kind: str, chat_id: int) -> bool:
    return jq is not None and _name(kind, chat_id) in _registry(jq)


def schedule(context: Any, chat_id: int, table: Table, outcome: Outcome | None = None,
             *, not_before: float = 0.0) -> None:
    """Plan what the table needs next: AI pacing after a pause, the turn timer
    (not sooner than `not_before` seconds from now)."""
    jq = context.job_queue
    if jq is None:
        return
    if table.phase != PLAYING or table.game is None:
        cancel(jq, chat_id, "cont", "timer")
        return
    # The game started: its lobby's expiry has nothing left to close (why here: every
    # start and move passes by, and a job left planned would sit in memory for the
    # whole lobby time, one per game).
    cancel(jq, chat_id, "lobby")
    rt = runtime(context)
    game = table.game
    on_turn = table.seats[game.turn] if 0 <= game.turn < len(table.seats) else None
    if outcome is not None and outcome.paused:
        _replace(jq, "cont", chat_id, rt.options.continue_delay, continue_job,
                 {"chat": chat_id, "version": table.version})
    elif outcome is not None:
        cancel(jq, chat_id, "cont")  # planned for an older version: it would only be refused
    seconds = turn_seconds(table)
    if seconds and on_turn is not None and not on_turn.is_ai:
        due = table.turn_started + seconds - time.time() + rt.options.timer_grace
        _replace(jq, "timer", chat_id, max(due, not_before), timer_job, {"chat": chat_id, "version": table.version})
    else:
        cancel(jq, chat_id, "timer")


def ensure_jobs(context: Any, chat_id: int, table: Table, *, not_before: float = 0.0) -> None:
    """Re-plan missing jobs for a table this process has no jobs for (after a
    restart, or when the process that planned them is gone)."""
    if table.phase != PLAYING or table.game is None:
        return
    game = table.game
    on_turn = table.seats[game.turn] if 0 <= game.turn < len(table.seats) else None
    jq = context.job_queue
    if jq is None:
        return
    if on_turn is not None and on_turn.is_ai and not has_job(jq, "cont", chat_id):
        _replace(jq, "cont", chat_id, runtime(context).options.continue_delay, continue_job,
                 {"chat": chat_id, "version": table.version})
    if not has_job(jq, "timer", chat_id):
        schedule(context, chat_id, table, not_before=not_before)


def schedule_lobby(context: Any, chat_id: int, table: Table) -> None:
    jq = context.job_queue
    if jq is None or table.phase != LOBBY:
        return
    rt = runtime(context)
    due = table.created + rt.options.lobby_seconds - time.time()
    _replace(jq, "lobby", chat_id, due, lobby_job, {"chat": chat_id, "seed": table.seed})


#: A job that found the store down tries again `Options.store_retry` seconds
#: later, this many times (ten minutes by default): the clock it keeps must
#: not be lost to an outage.
RETRIES = 120
STORE_DOWN = "store_unavailable"


def retry(context: ContextTypes.DEFAULT_TYPE, kind: str, callback: Any) -> None:
    """Plan this job again, with the same data, a little later."""
    data = dict(_data(context))
    data["tries"] = int(data.get("tries", 0)) + 1
    if data["tries"] > RETRIES or context.job_queue is None:
        log.error("chat %s: %s job given up after %d tries: the store stayed down", data["chat"], kind, RETRIES)
        return
    _replace(context.job_queue, kind, int(data["chat"]), runtime(context).options.store_retry, callback, data)


def _data(context: ContextTypes.DEFAULT_TYPE) -> dict[str, Any]:
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    return job.data


async def continue_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """AI seats waited long enough for people to jump in, catch or say UNO."""
    from . import flow

    data = _data(context)
    rt = runtime(context)
    outcome = await rt.service.handle(str(data["chat"]), SYSTEM, c.Continue(version=data["version"]))
    if outcome.ok and outcome.changed:
        await flow.after(context, data["chat"], outcome)
    elif outcome.code == STORE_DOWN:
        retry(context, "cont", continue_job)


async def timer_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The turn timer ran out: the service draws and passes for the player."""
    from . import flow

    data = _data(context)
    rt = runtime(context)
    outcome = await rt.service.handle(str(data["chat"]), SYSTEM,
                                      c.Skip(auto=True, version=data["version"]))
    if outcome.ok and outcome.changed:
        await flow.after(context, data["chat"], outcome)
    elif outcome.code == STORE_DOWN:
        retry(context, "timer", timer_job)
    elif outcome.ok and outcome.table is not None and outcome.table.version == data["version"]:
        schedule(context, data["chat"], outcome.table)  # a clock a little behind: try again


async def lobby_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Nobody started the lobby in time: close it."""
    from . import flow

    data = _data(context)
    rt = runtime(context)
    chat = str(data["chat"])
    try:
        table = await rt.service.table(chat)
    except StoreUnavailable:
        retry(context, "lobby", lobby_job)
        return
    # Only the lobby this job was planned for, and only while it is a lobby.
    if table is None or table.phase != LOBBY or table.seed != data["seed"]:
        return
    outcome = await rt.service.handle(chat, SYSTEM, c.Stop())
    if outcome.code == STORE_DOWN:
        retry(context, "lobby", lobby_job)
    elif outcome.ok and outcome.table is not None:
        _ = gettext_for(outcome.table.lang)
        await flow.show_stopped(context, data["chat"], outcome.table,
                                _("Nobody started the game in time; the lobby is closed."))


async def replan_all(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Once at start-up: plan the timers, AI pauses and lobby expiries of the
    games already running, so a restart leaves no game waiting for a clock
    nobody keeps. A table that cannot be read now is left to `ensure_jobs`."""
    from . import flow

    rt = runtime(context)
    planned = 0
    try:
        async for chat in rt.store.bound_chats():
            if not telegram_chat(chat):
                continue
            try:
                table = await rt.service.table(chat)
            except (StoreError, ValueError) as exc:
                log.warning("chat %s: jobs not re-planned: %s", chat, exc)
                continue
            if table is None:
                continue
            if table.phase == LOBBY:
                schedule_lobby(context, int(chat), table)
            else:
                # Nobody could move while no bot ran: the player on turn gets a
                # whole turn from now, not a timeout for the downtime.
                ensure_jobs(context, int(chat), table, not_before=turn_seconds(table))
            # A bot that died right after a move may never have shown it: bring
            # every running game's status message up to date now (queued, paced by
            # each group's budget; an unchanged one costs a "not modified" answer).
            await flow.show(context, int(chat), table)
            planned += 1
    except StoreError as exc:
        log.warning("start-up re-planning stopped: %s", exc)
    log.info("re-planned the jobs of %d running games", planned)
