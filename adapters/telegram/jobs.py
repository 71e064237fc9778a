"""The bot's own jobs: a turn timer ran out, AI seats may move, a rule's
round clock rang, a lobby expired, a chat move to retry, the re-planning at
start-up.

What a table needs and when is core's (`unobot.chat.waker.Waker`, keeping
`wake_plan` on the `Scheduler`'s JobQueue jobs, at points of the chat
service's clock); `CALLBACKS` is what each kind runs (installed by `app.py`).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import ContextTypes

from unobot.chat.wake import KINDS

from . import migrate, publish, stickers
from .runtime import runtime, telegram_chat
from .scheduler import LATE_OK, Callback

log = logging.getLogger(__name__)


def _data(context: ContextTypes.DEFAULT_TYPE) -> dict[str, Any]:
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    return job.data


def wake_job(kind: str) -> Callback:
    """The job of one kind of core's wake plan: the waker sends the table its
    command (retrying through an outage); what changed is shown here."""

    async def run(context: ContextTypes.DEFAULT_TYPE) -> None:
        data = _data(context)
        rt = runtime(context)
        assert rt.waker is not None
        fired = await rt.waker.fire(kind, data["chat"], data)
        if not fired.changed or fired.outcome is None or fired.outcome.table is None:
            return
        if fired.line:
            await publish.show_stopped(context, data["chat"], fired.outcome.table, fired.line)
        else:
            await publish.after(context, data["chat"], fired.outcome)

    return run


async def move_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A chat's move to its supergroup id met a store outage: try it again."""
    data = _data(context)
    await migrate.move(context, int(data["chat"]), int(data["new"]), int(data["tries"]))


async def replan_all(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Once at start-up: the running games' timers (core's `Waker.replan`),
    and every running game's status message brought up to date (a bot that
    died right after a move may never have shown it; queued, paced by each
    group's budget; an unchanged one costs a "not modified" answer)."""
    rt = runtime(context)
    if rt.waker is None:
        return
    async for place, table in rt.waker.replan(rt.store.bound_chats(), lambda chat: int(chat) if telegram_chat(chat)
                                               else None):
        await publish.show(context, place, table)


#: What each kind of planned job runs.
CALLBACKS: dict[str, Callback] = {
    **{kind: wake_job(kind) for kind in KINDS},
    "move": move_job,
    "replan": replan_all,
}


async def make_stickers(context: Any) -> None:
    """The JobQueue job: make (once) or read the card sticker sets; until then
    the hand is text. After a failure it plans itself again, waiting longer
    each time (stickers.FIRST_RETRY, doubled, at most MAX_RETRY)."""
    rt = runtime(context)
    owner = rt.options.sticker_owner
    if not owner:
        return
    tries = int(context.job.data or 0) if context.job is not None else 0
    try:
        rt.stickers = await stickers.ensure(context.bot, rt.store, owner,
                                            rt.bot_username or context.bot.username)
    except stickers.NotReady as exc:
        wait = min(stickers.FIRST_RETRY * 2 ** tries, stickers.MAX_RETRY)
        log.warning("card stickers not ready yet (%s): trying again in %.0f s", exc, wait)
        context.job_queue.run_once(make_stickers, when=wait, data=tries + 1, name=stickers.JOB, job_kwargs=LATE_OK)
        return
    if rt.stickers is not None:
        log.info("card stickers ready: %d cards", len(rt.stickers.bright))
