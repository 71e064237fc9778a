"""Moves made by another process, shown in the group at once.

Why: a page served by a separate `unobot web` (or another bot process on
the same store) saves its moves itself; this process learns of them from
the store's change feed (`core/changes.py`; Redis pub/sub) instead of at
the group's next move. For each change of a Telegram chat made elsewhere,
the table is read again, the group's status message is brought up to it
(paced and ordered by version, as every edit: `publish.show`) and the
table's jobs are planned anew from core's wake plan (the AI seats move,
the turn timer is the new turn's). A job planned on the old version would
only be refused as stale, so all are replaced. A table whose status
message is not recorded yet is not shown: the process that opened it is
posting it (showing it here would post a second one). Changes this process made
itself are skipped: it showed them already.

Started after the runtime is up (`app._post_init`), stopped at shutdown.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import CallbackContext

from unobot.changes import Change, start_following, stop_following
from unobot.store import StoreError

from . import publish
from .guard import telegram_id
from .runtime import KEY

log = logging.getLogger(__name__)

TASK = "unobot.remote"


def start(app: Any) -> None:
    """Follow the store's changes (a store without a feed: nothing to follow)."""
    rt = app.bot_data[KEY]

    async def changed(change: Change) -> None:
        await on_change(app, change)

    app.bot_data[TASK] = start_following(rt.store.changes(), changed)


async def stop(app: Any) -> None:
    await stop_following(app.bot_data.pop(TASK, None))


async def on_change(app: Any, change: Change) -> None:
    """Show and plan one chat's table as another process left it."""
    if change.resync:  # some changes may be lost: each chat catches up at its next move or job
        log.info("the change feed is back; tables changed meanwhile show at their next move")
        return
    chat_id = telegram_id(change.chat_id)
    if chat_id is None:
        return
    rt = app.bot_data[KEY]
    try:
        table = await rt.service.table(change.chat_id)
    except (StoreError, ValueError) as exc:
        log.warning("chat %s: a change made elsewhere not shown: %s", change.chat_id, exc)
        return
    waker = rt.waker
    if waker is not None:  # what the table needs now, on its new version (core's waker)
        waker.cancel(chat_id)
        if table is not None:
            waker.ensure(chat_id, table)
    if table is not None and table.adapter.get("status"):  # none yet: the process that opened it posts it
        await publish.show(CallbackContext(app), chat_id, table)
