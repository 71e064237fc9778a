"""The bot's own jobs: a turn timer ran out, AI seats may move, a rule's
round clock rang, a lobby expired, a chat move to retry, the re-planning at
start-up.

They are planned by kind (`planning.py`, from core's wake plan), at points of
the chat service's clock; `CALLBACKS` is what each kind runs (installed by
`app.py`).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import ContextTypes

from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.table import LOBBY
from unobot.store import StoreError, StoreUnavailable

from . import migrate, publish, stickers
from .planning import ensure_jobs, retry, schedule, schedule_lobby, turn_seconds
from .runtime import SYSTEM, runtime, telegram_chat
from .scheduler import Callback

log = logging.getLogger(__name__)

STORE_DOWN = "store_unavailable"


def _data(context: ContextTypes.DEFAULT_TYPE) -> dict[str, Any]:
    job = context.job
    assert job is not None and isinstance(job.data, dict)
    return job.data


async def continue_job(context: ContextTypes.DEFAULT_TYPE, kind: str = "cont") -> None:
    """AI seats waited long enough for people to jump in, catch or say UNO."""
    data = _data(context)
    rt = runtime(context)
    outcome = await rt.service.handle(str(data["chat"]), SYSTEM, c.Continue(version=data["version"]))
    if outcome.ok and outcome.changed:
        await publish.after(context, data["chat"], outcome)
    elif outcome.code == STORE_DOWN:
        retry(context, kind)


async def clock_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A rule's round clock (blitz's `round_seconds`) ran out: `Continue` rings it."""
    await continue_job(context, "clock")


async def timer_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The turn timer ran out: the service draws and passes for the player."""
    data = _data(context)
    rt = runtime(context)
    outcome = await rt.service.handle(str(data["chat"]), SYSTEM,
                                      c.Skip(auto=True, version=data["version"]))
    if outcome.ok and outcome.changed:
        await publish.after(context, data["chat"], outcome)
    elif outcome.code == STORE_DOWN:
        retry(context, "timer")
    elif outcome.ok and outcome.table is not None and outcome.table.version == data["version"]:
        schedule(context, data["chat"], outcome.table)  # a clock a little behind: try again


async def lobby_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Nobody started the lobby in time: close it."""
    data = _data(context)
    rt = runtime(context)
    chat = str(data["chat"])
    try:
        table = await rt.service.table(chat)
    except StoreUnavailable:
        retry(context, "lobby")
        return
    # Only the lobby this job was planned for, and only while it is a lobby.
    if table is None or table.phase != LOBBY or table.seed != data["seed"]:
        return
    outcome = await rt.service.handle(chat, SYSTEM, c.Stop())
    if outcome.code == STORE_DOWN:
        retry(context, "lobby")
    elif outcome.ok and outcome.table is not None:
        _ = gettext_for(outcome.table.lang)
        await publish.show_stopped(context, data["chat"], outcome.table,
                                   _("Nobody started the game in time; the lobby is closed."))


async def move_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A chat's move to its supergroup id met a store outage: try it again."""
    data = _data(context)
    await migrate.move(context, int(data["chat"]), int(data["new"]), int(data["tries"]))


async def replan_all(context: ContextTypes.DEFAULT_TYPE) -> None:
    """Once at start-up: plan the timers, AI pauses and lobby expiries of the
    games already running, so a restart leaves no game waiting for a clock
    nobody keeps. A table that cannot be read now is left to `ensure_jobs`."""
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
            await publish.show(context, int(chat), table)
            planned += 1
    except StoreError as exc:
        log.warning("start-up re-planning stopped: %s", exc)
    log.info("re-planned the jobs of %d running games", planned)


#: What each kind of planned job runs.
CALLBACKS: dict[str, Callback] = {
    "cont": continue_job,
    "timer": timer_job,
    "clock": clock_job,
    "lobby": lobby_job,
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
        context.job_queue.run_once(make_stickers, when=wait, data=tries + 1, name=stickers.JOB)
        return
    if rt.stickers is not None:
        log.info("card stickers ready: %d cards", len(rt.stickers.bright))
