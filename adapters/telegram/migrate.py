"""A group upgraded to a supergroup: the game moves to the new chat id.

Why it matters: Telegram upgrades a group when an admin changes certain
settings or it grows past 200 members, and gives it a new id; every call to
the old id fails from then on. Without this the running game, the chat's
house rules and its counters would stay behind under an id nobody can
reach. Telegram announces the upgrade twice (in the old chat and in the
new one); either may come first or alone, so both ask for the move, which
is safe to repeat (the second finds nothing left to move).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from telegram import Update
from telegram.error import TelegramError

from unobot.chat.i18n import gettext_for
from unobot.delivery import ask_again
from unobot.store import StoreError

from . import inline_handlers, publish
from .guard import is_user_id
from .runtime import runtime
from .status import render, send

log = logging.getLogger(__name__)


async def on_migrate(update: Update, context: Any) -> None:
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:  # said in the old group
        old, new = message.chat.id, int(message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:  # said in the new supergroup
        old, new = int(message.migrate_from_chat_id), message.chat.id
    else:
        return
    await move(context, old, new)


async def move(context: Any, old: int, new: int, tries: int = 0) -> None:
    """Move the chat's game, rules and counters (once, however many times
    Telegram says so: the store call is safe to repeat), then show the game
    in the new chat. A store outage is retried by a job."""
    rt = runtime(context)
    async with rt.moving.hold(old):  # both announcements at once: one after the other
        if rt.waker is not None:
            rt.waker.cancel(old)
        try:
            table = await rt.service.move_chat(str(old), str(new))
        except StoreError as exc:
            if ask_again(exc, changes=True) is not None:  # Telegram sends the service message again (503)
                log.warning("chat %s -> %s: move failed, to be delivered again: %s", old, new, exc)
                return
            scheduler = rt.scheduler
            if rt.waker is not None and tries < rt.waker.retries and scheduler is not None:
                log.warning("chat %s -> %s: move failed, trying again: %s", old, new, exc)
                scheduler.plan("move", old, scheduler.now() + rt.options.retry_after,
                               {"chat": old, "new": new, "tries": tries + 1})
            else:
                log.error("chat %s -> %s: move given up: %s", old, new, exc)
            return
        rt.finder.moved(str(old))
        if table is None:
            return
        for seat in table.seats:
            if is_user_id(seat.id):
                with contextlib.suppress(StoreError):
                    await inline_handlers.remember_player(context, seat.id, new)
        _ = gettext_for(table.lang)
        status = render(table, notes=[_("This group became a supergroup; the game goes on here.")],
                        now=rt.service.clock())
        try:
            sent = await send(context.bot, new, status)
        except TelegramError as exc:
            log.warning("chat %s: status not posted after the upgrade: %s", new, exc)
            return
        current = await publish.adopt(context, new, table, sent.message_id, status) or table
        if rt.waker is not None:
            rt.waker.ensure(new, current)
