"""Who and what is no longer there: a member who left the server loses
their seats as `/uno leave` would remove them; a channel or thread deleted,
or a server that removed the bot, has its games stopped.

Why: a member who left the server, or was kicked or banned, mid-game kept
their seat, and every turn of theirs ran the whole turn timer out (and the
timer's skip or kick rules) while the others waited for somebody who could
never come back, often for the rest of the match.

What Discord tells a bot, and so what the bot does (the operator picks with
`discord.members_intent`):

* a ban: always, through the moderation intent (not privileged):
  `on_member_ban`, and their seats in every channel of that server go;
* a leave or a kick: only through the privileged Server Members intent
  (`on_raw_member_remove`), asked for with `discord.members_intent: true`
  and switched on at the Developer Portal too; then at once, as a ban;
* without it, when the turn of a member runs out: the bot looks them up
  (Get Guild Member, which needs no intent) and, when Discord answers
  "Unknown Member", removes the seat instead of applying the timeout; a
  member who is still there, or a lookup that fails, gets the timer's rules;
  with no turn timer (the default), a player's or an admin's `/uno skip`
  looks the member on turn up the same way.

A game whose channel or thread was deleted (`on_guild_channel_delete`,
`on_raw_thread_delete`, or Discord's "Unknown Channel" when its status is
edited: a deletion while no process ran), or whose server removed the bot
(`on_guild_remove`), could never be shown or played again, yet its turn
timers and AI seats went on moving it, each move a refused edit in the log,
until the store expired it: it is stopped as `/uno stop` would (its rounds
archived), and its timers end.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from unobot.chat import commands as c
from unobot.chat.service import ChatService, Outcome
from unobot.chat.table import Table
from unobot.chat.wake import SYSTEM
from unobot.store import StoreError

from .place import chat_id

log = logging.getLogger(__name__)

#: Discord's error codes for a user who is not a member of the guild, and a channel that does not exist.
UNKNOWN_MEMBER = 10007
UNKNOWN_CHANNEL = 10003
#: Seconds a member's lookup may take (`/uno skip` answers within Discord's 3 s: deferred past 2).
LOOKUP_SECONDS = 5.0


async def is_gone(http: Any, guild_id: int, user_id: str) -> bool:
    """Whether Discord says `user_id` is not a member of `guild_id` now. Any
    other answer (a member, an outage, an id that is not Discord's) is False:
    the seat is only removed on Discord's word."""
    if not user_id.isascii() or not user_id.isdecimal():
        return False
    try:  # bounded: a turn timer (or /uno skip) waits for the answer, never for a stalled API
        await asyncio.wait_for(http.get_member(guild_id, int(user_id)), LOOKUP_SECONDS)
    except discord.NotFound as exc:
        return exc.code == UNKNOWN_MEMBER
    except (TimeoutError, discord.HTTPException, OSError) as exc:
        log.info("guild %s: member %s not looked up: %s", guild_id, user_id, exc or "timed out")
    return False


def leave_of(table: Table, user_id: str) -> tuple[c.Person, c.Leave] | None:
    """The `/uno leave` that removes `user_id`'s seat from `table` (on its
    version, so it changes nothing if the table moved on meanwhile), if they
    sit there and have not left it already."""
    seat = table.seat_of(user_id)
    if seat is None or table.has_left(seat) or table.seats[seat].is_ai:
        return None
    return table.seats[seat].person(), c.Leave(version=table.version)


async def leave_guild(service: ChatService, guild_id: int, user_id: str) -> list[tuple[str, Outcome]]:
    """Remove `user_id` from every table of the guild's channels (threads
    included): the outcome of each seat removed, by chat."""
    done: list[tuple[str, Outcome]] = []
    for chat in await guild_chats(service, guild_id):
        try:
            table = await service.table(chat)
        except (StoreError, ValueError) as exc:
            log.warning("chat %s: member %s left; not removed: %s", chat, user_id, exc)
            continue
        leave = leave_of(table, user_id) if table is not None else None
        if leave is None:
            continue
        out = await service.handle(chat, *leave)
        if out.ok:
            done.append((chat, out))
    return done


async def guild_chats(service: ChatService, guild_id: int) -> list[str]:
    """The chats of the guild's channels and threads that hold a game."""
    prefix = chat_id(guild_id, 0)[:-1]  # `dc_<guild>_`
    try:
        return [chat async for chat in service.store.bound_chats(prefix)]
    except StoreError as exc:
        log.warning("guild %s: its tables not found: %s", guild_id, exc)
        return []


async def stop_table(service: ChatService, chat: str) -> bool:
    """Stop the game of `chat`, whose channel is gone: True if one was stopped."""
    try:
        out = await service.handle(chat, SYSTEM, c.Stop())
    except StoreError as exc:
        log.warning("chat %s: its channel is gone; the game not stopped: %s", chat, exc)
        return False
    if out.ok:
        log.info("chat %s: its channel is gone; the game is stopped", chat)
    return out.ok
