"""Where a game is played stops being a place to play: the bot removed from
its group, or its forum topic closed. Its games there end.

Why: once an admin removes the bot (or bans it), every post and edit in the
group is refused (403), but nothing else stops: turn timers and AI seats
played on unseen, "My cards" still offered the hand of a game nobody could
see, and the records never counted it as stopped. Telegram says so with a
`my_chat_member` update (asked for in `handlers.UPDATE_KINDS`): every game
of the group, each forum topic's too, is stopped then, by whoever removed
the bot (an admin: only they can), and this process forgets it. Nothing is
said in the group: the bot may no longer write there.

An admin who restricts the bot ("Send messages" off) gets the same, with
a word to each game's creator: see `muted`.

A topic closed mid-game (a `forum_topic_closed` service message, which every
bot gets) lets only admins post there: no player could pick a card, while
the turn timer removed them one by one for turns they could not play. Its
game is stopped as `/stop` stops one, by whoever closed it, and its status
message says so (an edit, which a closed topic still allows).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType

from unobot.chat import commands as c
from unobot.chat.status_text import stop_line
from unobot.store import StoreError

from . import publish
from .guard import chat_of as chat_of_place
from .guard import display_name, telegram_id, thread_of, where
from .muted import may_post, may_post_again, muted
from .runtime import runtime

log = logging.getLogger(__name__)

GONE = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})


async def on_my_chat_member(update: Update, context: Any) -> None:
    changed = update.my_chat_member
    if changed is None or changed.chat.type == ChatType.PRIVATE:  # a player who blocked the bot: not a table
        return
    by = changed.from_user
    person = c.Person(str(by.id), display_name(by.full_name, str(by.id)), None, True)
    new, old = changed.new_chat_member, changed.old_chat_member
    if new.status in GONE:
        if old.status not in GONE:
            await stop_all(context, changed.chat.id, person)
        return
    if not may_post(new):  # restricted: "Send messages" taken away (`muted`)
        await muted(context, changed.chat.id, person)
    else:
        may_post_again(context, changed.chat.id)


async def stop_all(context: Any, chat_id: int, person: c.Person) -> None:
    """Stop the games of a group and of every topic of it (their places start with its id)."""
    rt = runtime(context)
    try:
        places = [p async for p in rt.store.bound_chats(str(chat_id))
                  if (value := telegram_id(p)) is not None and chat_of_place(value) == chat_id]
    except StoreError as exc:
        log.warning("chat %s: the bot was removed, its games not found: %s", chat_id, exc)
        return
    for place in places:
        await publish.end_unseen(context, int(place), person, "the bot was removed from its group")


async def on_topic_closed(update: Update, context: Any) -> None:
    message = update.effective_message
    if message is None or thread_of(message) is None or message.from_user is None:
        return
    by = message.from_user  # an admin, or the topic's creator: either may close it
    person = c.Person(str(by.id), display_name(by.full_name, str(by.id)), None, True)
    here = where(update)
    rt = runtime(context)
    try:
        outcome = await rt.service.handle(str(here), person, c.Stop())
    except StoreError as exc:
        log.warning("chat %s: its topic was closed; its game not stopped: %s", here, exc)
        return
    if outcome.ok and outcome.table is not None:
        await publish.show_stopped(context, here, outcome.table, stop_line(outcome.notices))
