"""Opening a lobby in a group: its status message posted (the game's from now on), the
opener remembered, the chat's subscribers told.

Why a module of its own: both a command (`/new`, `handlers`) and a button ("Play
again" under a finished match, `buttons`) open lobbies, and `handlers` imports
`buttons`; here neither imports the other.
"""

from __future__ import annotations

import logging

from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.chat.i18n import gettext_for, known
from unobot.chat.service import Outcome
from unobot.chat.views import variant_title
from unobot.chat.wake import SYSTEM

from . import inline_handlers, publish, users
from .guard import chat_of, display_name, is_user_id
from .runtime import runtime
from .status import render, send
from .texts import esc

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE


async def open_lobby(context: Context, chat_id: int, chat_title: str, person: Person, outcome: Outcome) -> None:
    """Post the lobby (the game's status message from now on) and remember it."""
    rt = runtime(context)
    table = outcome.table
    assert table is not None
    status = render(table, notes=outcome.notices, now=rt.service.clock())
    # Held while the lobby is posted and recorded: a /join handled meanwhile
    # finds no status message yet, and must edit this one, not post another
    # (`publish.repost`).
    async with rt.status.reposting(chat_id, 0):
        try:
            message = await send(context.bot, chat_id, status)
        except TelegramError as exc:  # nobody can see or join it: do not leave it blocking /new
            log.warning("chat %s: lobby not posted: %s", chat_id, exc)
            await rt.service.handle(str(chat_id), SYSTEM, c.Stop())
            return
        if rt.waker is not None:
            rt.waker.after(chat_id, table)  # the lobby's expiry
        # The chat's title: a player in two games picks one by it.
        await publish.claim(context, chat_id, table, message.message_id, status,
                            extra={"title": display_name(chat_title, "")} if chat_title else None)
    if is_user_id(person.id):
        await inline_handlers.remember_player(context, person.id, chat_id)
    await notify_subscribers(context, chat_id, chat_title, table.lang, table.variant, person.id)


async def notify_subscribers(context: Context, chat_id: int, title: str, lang: str, variant: str,
                             opener: str) -> None:
    """Tell the people who asked (/notify) that a game opened here: queued for
    the notice sender, so /new waits for no private message."""
    rt = runtime(context)
    subscribers = await users.take_subscriptions(rt.store, str(chat_of(chat_id)))

    def said(reader: str) -> str:
        _ = gettext_for(reader)
        return esc(_("A game of {variant} just opened in {chat}. Join it there!").format(
            variant=variant_title(variant, reader), chat=title or _("your group")))

    texts: dict[str, str] = {}
    bot = context.bot
    for user_id, own in subscribers.items():
        if user_id == opener or not is_user_id(user_id):
            continue
        reader = known(own) or lang  # a private notice: in the subscriber's own language when known
        text = texts.get(reader) or texts.setdefault(reader, said(reader))

        async def send(user_id: str = user_id, text: str = text) -> None:
            try:
                await bot.send_message(int(user_id), text, parse_mode=ParseMode.HTML)
            except TelegramError as exc:
                log.info("notify %s failed: %s", user_id, exc)

        rt.notices.submit(int(user_id), send)
