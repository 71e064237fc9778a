"""The bot may no longer post in a group: its games there end cleanly, and
whoever started each is told privately.

Why: an admin restricts the bot mid-game (or turns "Send messages" off for
every member, the bot included), and from then on Telegram refuses every
message it posts there ("not enough rights to send text messages to the
chat"). Before, nothing else stopped: the turn timer went on removing
players who could not see the game, AI seats played on unseen, every new
round's message, every reply and every lobby was tried and refused again,
and the log filled with the same warning. Nobody was told why the bot had
gone quiet.

Now the first refusal of that kind (`UnoBot` sees every call), or Telegram's
`my_chat_member` update saying the bot was restricted, stops every game of
the group (each forum topic's too), as the person who restricted it (or
the bot itself, when Telegram said only "no rights"), once: the games'
status messages say why (an edit: tried, and let go if Telegram refuses
it too), the one warning goes to the log, and each game's creator
is told in a private message (when they started the bot), in their own
language, why the game stopped and what an admin can do. Nothing is paused
half-way: a game whose group cannot see it is no game, and a new one starts
with /new once the bot may post again (Telegram's next `my_chat_member`
update clears the mark at once; without one it lapses after `runtime.MUTED_FOR`: every
refusal meanwhile, a reply to a command, is one more and not news).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from telegram import ChatMember
from telegram.constants import ChatMemberStatus

from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.table import Table
from unobot.chat.wake import SYSTEM
from unobot.store import StoreError

from . import publish
from .guard import chat_of as chat_of_place
from .guard import is_user_id, telegram_id
from .runtime import runtime

log = logging.getLogger(__name__)


def may_post(member: ChatMember) -> bool:
    """Whether the bot, as this member of a group, may send messages there."""
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "can_send_messages", False))
    return member.status not in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


async def muted(context: Any, chat_id: int, by: c.Person | None = None) -> None:
    """The bot may no longer post in group `chat_id`: stop its games there (as
    `by`, an admin; else as the bot), once, and tell their creators."""
    rt = runtime(context)
    if rt.muted.get(chat_id):
        return
    rt.muted.put(chat_id, True)
    try:
        places = [p async for p in rt.store.bound_chats(str(chat_id))
                  if (value := telegram_id(p)) is not None and chat_of_place(value) == chat_id]
    except StoreError as exc:
        rt.muted.pop(chat_id)  # looked at again on the next refusal
        log.warning("chat %s: the bot may not post there; its games not found: %s", chat_id, exc)
        return
    stopped = 0
    for place in places:
        found = await _stop(context, int(place), by or SYSTEM)
        if found is not None:
            stopped += 1
            _tell_creator(context, *found)
    # Said once a group (`rt.muted`), at warning when it stopped something.
    log.log(logging.WARNING if stopped else logging.INFO,
            "chat %s: the bot may not send messages there; %d game(s) stopped", chat_id, stopped)


def may_post_again(context: Any, chat_id: int) -> None:
    """Telegram says the bot may post in `chat_id` again: forget that it could not."""
    runtime(context).muted.pop(chat_id)


async def _stop(context: Any, place: int, person: c.Person) -> tuple[Table, str] | None:
    """Stop the game of `place`; its status message says why (if it still can).
    The table stopped and its creator's language, or None."""
    rt = runtime(context)
    try:
        outcome = await rt.service.handle(str(place), person, c.Stop())
    except StoreError as exc:
        log.warning("chat %s: the bot may not post there; its game not stopped: %s", place, exc)
        return None
    table = outcome.table
    if not outcome.ok or table is None:
        return None
    _ = gettext_for(table.lang)
    creator_lang = rt.user_langs.get(table.creator) or table.lang  # before `release` forgets it
    await publish.show_stopped(context, place, table, _("Stopped: I may no longer send messages here."))
    return table, creator_lang


def _tell_creator(context: Any, table: Table, lang: str) -> None:
    """The game's creator, privately and in their language: why it stopped, what to do."""
    if not is_user_id(table.creator):
        return
    _ = gettext_for(lang)
    title = str(table.adapter.get("title") or "") or _("the game in chat {chat}").format(chat=table.chat_id)
    text = _("The game you started in {chat} was stopped: an admin took away my right to send messages there. "
             "Once an admin lets me send messages again, start a new game there with /new.").format(chat=title)
    rt = runtime(context)
    rt.notices.submit(int(table.creator), functools.partial(publish.notice, rt, context.bot, table.creator, text))
