"""A group upgraded to a supergroup: the game moves to the new chat id.

Why it matters: Telegram upgrades a group when an admin changes certain
settings or it grows past 200 members, and gives it a new id; every call to
the old id fails from then on. Without this the running game, the chat's
house rules and its counters would stay behind under an id nobody can
reach. Telegram announces the upgrade twice (in the old chat and in the
new one); the old chat's message carries the move, the other is a no-op.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.error import TelegramError

from core.chat.i18n import gettext_for
from core.chat.table import LOBBY

from . import flow, jobs, play
from .runtime import runtime
from .status import render, send

log = logging.getLogger(__name__)


async def on_migrate(update: Update, context: Any) -> None:
    message = update.effective_message
    if message is None or not message.migrate_to_chat_id:
        return
    old, new = message.chat.id, int(message.migrate_to_chat_id)
    rt = runtime(context)
    jobs.cancel(context.job_queue, old)
    table = await rt.service.move_chat(str(old), str(new))
    rt.game_ids.pop(str(old), None)
    if table is None:
        return
    for seat in table.seats:
        if seat.id.isdigit():
            await play.remember_player(context, seat.id, new)
    _ = gettext_for(table.lang)
    status = render(table, notes=[_("This group became a supergroup; the game goes on here.")])
    try:
        sent = await send(context.bot, new, status)
    except TelegramError as exc:
        log.warning("chat %s: status not posted after the upgrade: %s", new, exc)
        return
    current = await flow.adopt(context, new, table, sent.message_id, status)
    if current.phase == LOBBY:
        jobs.schedule_lobby(context, new, current)
    else:
        jobs.ensure_jobs(context, new, current)
