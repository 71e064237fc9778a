"""Moves made by another process, shown in the channel at once.

Why: a page served by a separate `unobot web`, or another shard of the bot
on the same store, saves its moves itself; this process hears of them on
the store's change feed (`core/changes.py`; Redis pub/sub) instead of at
the channel's next move. For each change of a Discord channel's game made
elsewhere, the table is read again, the status message is brought up to
it (paced, newest state wins: `StatusPacer`) and the table's jobs are
planned anew from core's wake plan (the AI seats move, the turn timer is
the new turn's; a job planned on the old version would only be refused as
stale). Changes this process made itself are skipped: it showed them.

Started in `UnoBot.setup_hook`, stopped in `UnoBot.close`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from unobot.changes import Change, start_following, stop_following
from unobot.store import StoreError

from .place import channel_of

if TYPE_CHECKING:
    from .bot import UnoBot

log = logging.getLogger(__name__)

_TASKS: dict[int, asyncio.Task[None]] = {}


def start(bot: UnoBot) -> None:
    async def changed(change: Change) -> None:
        await on_change(bot, change)

    task = start_following(bot.service.store.changes(), changed)
    if task is not None:
        _TASKS[id(bot)] = task


async def stop(bot: UnoBot) -> None:
    await stop_following(_TASKS.pop(id(bot), None))


async def on_change(bot: UnoBot, change: Change) -> None:
    if change.resync or channel_of(change.chat_id) is None:
        return
    chat = change.chat_id
    try:
        table = await bot.service.table(chat)
    except (StoreError, ValueError) as exc:
        log.warning("chat %s: a change made elsewhere not shown: %s", chat, exc)
        return
    bot.waker.cancel(chat)  # what the table needs now, on its new version (core's waker)
    if table is None:
        return
    bot.waker.ensure(chat, table)
    if isinstance(table.adapter.get("status"), int):  # none yet: the opening process is posting it
        await bot.refresh(chat, table)
