"""The scheduler of the bot's own jobs: one-shot jobs by name, due at a
point of a clock (the chat service's), run by python-telegram-bot's JobQueue.

It is the `Timers` core's `Waker` keeps a table's wake plan on: what is
planned when is decided there, the same for every front-end. Tests
subclass it (`tests/telegram/clock.py`) to keep the queue themselves and run
what is due when they move a fake clock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from telegram.ext import Application, Job

#: A job callback, as python-telegram-bot calls it (with a CallbackContext).
Callback = Callable[[Any], Coroutine[Any, Any, None]]
Clock = Callable[[], float]
#: Every job of the bot runs however late it comes (`run_once(..., job_kwargs=LATE_OK)`).
#: Why: APScheduler skips a job more than a second late ("Run time of job ... was
#: missed by"), and one is whenever the event loop was held that long (a loaded
#: machine, a storm of updates, a process paused): an AI's pause or a turn timer
#: skipped left its game waiting with the job still counted as planned, the
#: start-up's config check skipped let a broken default variant through. A late
#: job is judged by the service's clock and the table's version like any other.
LATE_OK: dict[str, Any] = {"misfire_grace_time": None}


class Scheduler:
    """One-shot jobs by name (`kind:chat`), due at a point of `clock`, run by
    python-telegram-bot's JobQueue. Planning a name again replaces its job.

    Subclasses change only `_start` / `_stop` (how a job is put on and off a
    queue); the registry, and forgetting a job once it ran, are shared.
    """

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any], clock: Clock,
                 callbacks: dict[str, Callback]) -> None:
        self.app = app
        self.clock = clock
        self.callbacks = callbacks
        #: This process's planned jobs by name. Why not `JobQueue.get_jobs_by_name`:
        #: it walks every job of the process, and this runs on every move.
        self.planned: dict[str, Job[Any]] = {}

    def now(self) -> float:
        return self.clock()

    def plan(self, kind: str, chat_id: int, at: float, data: dict[str, Any]) -> None:
        """Run the `kind` callback for `chat_id` at `at` (on the clock), with `data`."""
        name = f"{kind}:{chat_id}"
        self._stop(self.planned.pop(name, None))
        self.planned[name] = self._start(self._runner(kind), at, {**data, "chat": chat_id}, name, chat_id)

    def cancel(self, chat_id: int, *kinds: str) -> None:
        for kind in kinds or ("cont", "timer", "clock", "lobby"):
            self._stop(self.planned.pop(f"{kind}:{chat_id}", None))

    def has(self, kind: str, chat_id: int) -> bool:
        return f"{kind}:{chat_id}" in self.planned

    def _runner(self, kind: str) -> Callback:
        """The job's callback, then forget the job (unless it was replaced meanwhile)."""
        callback = self.callbacks[kind]

        async def run(context: Any) -> None:
            job = context.job
            try:
                await callback(context)
            finally:
                name = job.name if job is not None else None
                if name and self.planned.get(name) is job:
                    del self.planned[name]
        return run

    def _start(self, callback: Callback, at: float, data: dict[str, Any], name: str, chat_id: int) -> Job[Any]:
        jq = self.app.job_queue
        assert jq is not None
        return jq.run_once(callback, when=max(0.0, at - self.clock()), data=data, name=name, chat_id=chat_id,
                           job_kwargs=LATE_OK)

    def _stop(self, job: Job[Any] | None) -> None:
        """Unplan a job; one that is running now (or already ran) is gone already."""
        if job is not None and not job.removed:
            with contextlib.suppress(JobLookupError):
                job.schedule_removal()


#: Makes a process's scheduler: (application, clock, callbacks by kind) -> Scheduler.
SchedulerFactory = Callable[[Application[Any, Any, Any, Any, Any, Any], Clock, dict[str, Callback]], Scheduler]
