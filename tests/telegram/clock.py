"""Time for the Telegram tests: a fake clock, and a scheduler that runs the
bot's jobs when the test moves that clock, never on its own.

The bot process's ChatService is given the `FakeClock` (so tables are
stamped with its time), and the application the `ManualScheduler` (so the
jobs are due on the same clock). `advance(seconds)` moves the clock and runs,
in order of due time, every job due by then: the real callbacks, with a
python-telegram-bot CallbackContext built for a real `Job`, as the JobQueue
would. A job that is not due yet does not run, however long the test takes.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from telegram.ext import CallbackContext, Job

from unobot.adapters.telegram.scheduler import Callback, Scheduler


class FakeClock:
    """Seconds since the epoch, standing still until moved (from a whole
    second: tables keep their times to the hundredth)."""

    def __init__(self, now: float | None = None) -> None:
        self.now = float(int(time.time())) if now is None else now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ManualScheduler(Scheduler):
    """The adapter's scheduler with its queue kept here instead of in the JobQueue."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: [due time, order planned, job] of the jobs planned and not run or unplanned.
        self.pending: list[tuple[float, int, Job[Any]]] = []
        self._order = itertools.count()
        #: (name, due time) of every job run, oldest first.
        self.ran: list[tuple[str, float]] = []

    def _start(self, callback: Callback, at: float, data: dict[str, Any], name: str, chat_id: int) -> Job[Any]:
        job: Job[Any] = Job(callback, data=data, name=name, chat_id=chat_id)
        self.pending.append((at, next(self._order), job))
        return job

    def _stop(self, job: Job[Any] | None) -> None:
        # By identity: a Job without an APScheduler job has no id to compare.
        self.pending = [p for p in self.pending if p[2] is not job]

    def due_at(self, kind: str, chat_id: int) -> float | None:
        """When the job planned under that name is due (None: none is)."""
        job = self.planned.get(f"{kind}:{chat_id}")
        return next((at for at, _, j in self.pending if j is job), None)

    async def run_due(self) -> int:
        """Run every job due by now, earliest first (jobs they plan too, when
        due); how many ran. A job that raises fails the test."""
        ran = 0
        while True:
            due = [p for p in self.pending if p[0] <= self.clock()]
            if not due:
                return ran
            entry = min(due, key=lambda p: (p[0], p[1]))
            self.pending = [p for p in self.pending if p is not entry]
            at, _, job = entry
            self.ran.append((str(job.name), at))
            context = CallbackContext.from_job(job, self.app)
            await job.callback(context)
            ran += 1
            assert ran < 10000, "jobs keep planning jobs that are due at once"
