"""Publishing an outcome: after the service answered, update the status
message, plan the next jobs, tell players privately what only they may know.

Every handler and job that changed a table ends here, so the group sees the
same kind of message whoever (or whichever process) made the change.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from typing import Any

from telegram.error import Forbidden, TelegramError

from unobot.chat.commands import Person, Stop
from unobot.chat.lobby import unposted_notes
from unobot.chat.service import Outcome
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from unobot.chat.wake import SYSTEM
from unobot.store import StoreError, StoreUnavailable

from . import users
from .bot import forget_wire
from .guard import is_user_id
from .keyboards import forget_play_keyboards
from .limiter import NORMAL, GroupLimiter, priority
from .pages import pages
from .runtime import Runtime, runtime
from .status import Gone, Status, is_topic_gone, render, send, stopped

log = logging.getLogger(__name__)


async def after(context: Any, chat_id: int, outcome: Outcome, *, note: str | None = None) -> None:
    """Show a successful outcome and plan what comes next."""
    table = outcome.table
    if table is None:
        return
    waker = runtime(context).waker
    if waker is not None:
        waker.after(chat_id, table, outcome)
    notes = outcome.status_notes()  # a move's line is among the last moves the status shows already
    if note:
        notes.append(note)
    # In the players' languages before a finished game's release forgets them.
    private = private_lines(context, outcome) if outcome.private and runtime(context).options.private_notices \
        else None
    if outcome.round_over and table.phase in (BETWEEN_ROUNDS, FINISHED):
        await new_round_message(context, chat_id, table, notes)
    else:
        await show(context, chat_id, table, notes=notes)
    if private is not None:
        send_private(context, private)


async def show(context: Any, chat_id: int, table: Table, *, notes: list[str] | None = None,
               final: bool = False) -> None:
    """Edit the game's status message to show `table`; post it anew if it was
    deleted, or if none was recorded (the store failed right after the lobby
    was posted)."""
    message_id = table.adapter.get("status")
    if not message_id and notes is None:  # a lobby a Mini App page opened: what /new's path would say
        notes = unposted_notes(table)
    status = render(table, notes=notes, final=final, now=runtime(context).service.clock())
    if not message_id:
        if table.phase in (LOBBY, PLAYING, BETWEEN_ROUNDS):
            await repost(context, chat_id, table, 0, Gone(table.version, status))
        return
    rt = runtime(context)
    current = rt.status.moved(chat_id, int(message_id))

    async def still_current(version: int) -> bool:
        newest = await rt.service.table(str(chat_id))
        return newest is None or newest.version <= version

    async def on_gone(gone: Gone) -> None:
        await repost(context, chat_id, table, current, gone)

    # Returns at once: the message's own worker sends the edit when the group's budget allows.
    rt.status.submit(context.bot, chat_id, current, table.version, status, still_current, on_gone)


async def repost(context: Any, chat_id: int, table: Table, gone_id: int, gone: Gone) -> None:
    """The status message was deleted (an admin tidying up, a cleared
    history), or none was recorded (`gone_id` 0): the game goes on, so post
    the newest status at the bottom and make it the game's status message,
    in the store and in this process. Updates that find the message gone
    at once make one replacement (in this process by its lock, across
    processes by `claim`); the later ones edit it."""
    rt = runtime(context)
    async with rt.status.reposting(chat_id, gone_id):
        replacement = rt.status.moved(chat_id, gone_id)
        if replacement != gone_id:
            rt.status.submit(context.bot, chat_id, replacement, gone.version, gone.status)
            return
        if not gone_id:
            # None was recorded when this table was read: the lobby may have been
            # posted and recorded meanwhile (fifty people typing /new and /join at
            # once; `open_lobby` holds this lock while it posts): then edit that one.
            fresh = await rt.service.table(str(chat_id))
            recorded = fresh.adapter.get("status") if fresh is not None and fresh.seed == table.seed else None
            if recorded:
                rt.status.submit(context.bot, chat_id, rt.status.moved(chat_id, int(recorded)), gone.version,
                                 gone.status)
                return
        try:
            message = await send(context.bot, chat_id, gone.status)
        except TelegramError as exc:
            if is_topic_gone(exc):
                await end_unseen(context, chat_id, SYSTEM, "its forum topic was deleted")
                return
            log.warning("chat %s: status message not re-posted: %s", chat_id, exc)
            return
        saved = await claim(context, chat_id, table, message.message_id, gone.status, replacing=gone_id,
                            version=gone.version)
        winner = saved.adapter.get("status") if saved is not None else None
        if winner:
            rt.status.replaced(chat_id, gone_id, int(winner))


async def adopt(context: Any, chat_id: int, table: Table, message_id: int, status: Status,
                *, save: bool = True, version: int | None = None,
                extra: dict[str, Any] | None = None) -> Table | None:
    """Make a message just sent (showing `status`, of `version`) the game's
    status message: in the store, so every process edits that one
    (`save=False` when the game is over and nothing will), and in this
    process's editor, so an equal edit is not sent. Returns the saved table;
    None when nothing was saved (not asked, a store outage, another game):
    then the store keeps the old id, whose next edit fails and posts the
    status again."""
    rt = runtime(context)
    saved = None
    if save:
        try:
            saved = await rt.service.set_adapter_data(str(chat_id), {"status": message_id, **(extra or {})},
                                                      seed=table.seed)
        except StoreUnavailable:
            saved = None
    rt.status.sent(chat_id, message_id, table.version if version is None else version, status)
    return saved


async def claim(context: Any, chat_id: int, table: Table, message_id: int, status: Status, *,
                replacing: int = 0, version: int | None = None,
                extra: dict[str, Any] | None = None) -> Table | None:
    """Make a status message just posted the game's (as `adopt`), unless
    another process's, posted meanwhile for the same reason (a lobby just
    opened, a status found deleted), was recorded first (core's
    `claim_status`): then this one is deleted and the game shown on that
    one, so a chat keeps one status message however many processes serve
    it. Returns the saved table (its status the winner's), or None when
    nothing was saved."""
    rt = runtime(context)
    try:
        saved = await rt.service.claim_status(str(chat_id), message_id, seed=table.seed, replacing=replacing,
                                              extra=extra)
    except StoreUnavailable:
        saved = None
    shown = table.version if version is None else version
    winner = saved.adapter.get("status") if saved is not None else None
    if saved is None or not winner or int(winner) == message_id:
        rt.status.sent(chat_id, message_id, shown, status)
        return saved
    try:
        await context.bot.delete_message(chat_id, message_id)
    except TelegramError as exc:
        log.info("chat %s: a second status message %s not deleted: %s", chat_id, message_id, exc)
    rt.status.submit(context.bot, chat_id, rt.status.moved(chat_id, int(winner)), shown, status)
    return saved


async def show_stopped(context: Any, chat_id: int, table: Table, line: str) -> None:
    """The game is gone (stopped, or the lobby expired): say so, drop the buttons."""
    waker = runtime(context).waker
    if waker is not None:
        waker.cancel(chat_id)
    message_id = table.adapter.get("status")
    if not message_id:
        return
    rt = runtime(context)
    current = rt.status.moved(chat_id, int(message_id))
    rt.status.submit(context.bot, chat_id, current, table.version + 1, stopped(table, line))
    release(context, chat_id, table, int(message_id), current)


async def new_round_message(context: Any, chat_id: int, table: Table, notes: list[str]) -> None:
    """A round (or the match) ended: close the old status message and post a
    new one at the bottom of the chat, with the result and "Next round".

    The one new group message a round costs; it becomes the status message,
    so the next round is followed where people are looking.

    It goes out at once, whatever the group's message budget (issue 15:
    "Next round" in front of the players within a second of the round
    ending). Not by luck of timing: it is sent here, by the handler (or
    job) that ended the round, not queued behind the status worker's
    coalescing, and it pays for itself with `take_token_now` (a token of
    the group's budget and one of the bot's), which never waits. Were it to
    wait for a token like any post, a group whose budget quick moves,
    command replies or a flood answer had spent would see it 3 s (20 a
    minute) or more after the round ended.
    """
    rt = runtime(context)
    old = table.adapter.get("status")
    ended = [int(old), rt.status.moved(chat_id, int(old))] if old else []
    if old:  # the old message keeps the standings, without the moves shown below
        rt.status.submit(context.bot, chat_id, ended[1], table.version, render(table, final=True, recent=False))
    status = render(table, notes=notes, headline=True, now=rt.service.clock())
    try:
        with priority(NORMAL, prepaid=take_token_now(context.bot, chat_id)):
            message = await send(context.bot, chat_id, status)
    except TelegramError as exc:
        if is_topic_gone(exc):
            await end_unseen(context, chat_id, SYSTEM, "its forum topic was deleted")
            return
        log.warning("chat %s: round message not sent: %s", chat_id, exc)
        if table.phase == FINISHED:
            release(context, chat_id, table, *ended)
        return
    await adopt(context, chat_id, table, message.message_id, status, save=table.phase == BETWEEN_ROUNDS)
    if table.phase == FINISHED:  # the match is over: nothing edits these again
        release(context, chat_id, table, *ended, message.message_id)


async def end_unseen(context: Any, chat_id: int, person: Person, why: str) -> None:
    """Stop the game of a place nobody can see any more (the bot removed from
    its group, its forum topic deleted), as `person` (an admin): its timers and
    AI seats would play on unseen, and "My cards" offer its hands. Nothing is
    said there: nothing can be. A store outage leaves it to the next try."""
    rt = runtime(context)
    if rt.waker is not None:
        rt.waker.cancel(chat_id)
    try:
        outcome = await rt.service.handle(str(chat_id), person, Stop())
    except StoreError as exc:
        log.warning("chat %s: %s; its game not stopped: %s", chat_id, why, exc)
        return
    table = outcome.table
    if outcome.ok and table is not None:
        status = table.adapter.get("status")
        release(context, chat_id, table, *([int(status)] if status else []))
        log.info("chat %s: %s; its game stopped", chat_id, why)


def release(context: Any, chat_id: int, table: Table, *message_ids: int) -> None:
    """A game ended: this process forgets what it kept for it (its status
    messages in the editor, its "My cards" keyboard, its players' languages),
    now and not when a cap pushes them out (issue 25: a bot meeting new
    groups and people all day). A player's language is learnt again from
    their next update, in whatever game (`handlers.learn_language`)."""
    rt = runtime(context)
    rt.status.release(chat_id, *message_ids)
    for seat in table.seats:
        rt.user_langs.pop(seat.id)
    for markup in forget_play_keyboards(str(chat_id)):
        forget_wire(markup)


def take_token_now(bot: Any, chat_id: int) -> bool:
    """Spend the tokens of the round's message now, the group's and the
    bot's (`GroupLimiter.take_now`); False without a group limiter."""
    limiter = getattr(bot, "rate_limiter", None)
    return isinstance(limiter, GroupLimiter) and limiter.take_now(chat_id)


def private_lines(context: Any, outcome: Outcome) -> dict[str, list[str]]:
    """The service's private lines, in each player's own language where it is
    known (their Telegram app's, as their hand is shown) and not the chat's."""
    rt = runtime(context)
    table = outcome.table
    out = dict(outcome.private)
    if table is None:
        return out
    for person_id in outcome.private:
        lang = rt.user_langs.get(person_id)
        if lang and lang != table.lang and (lines := outcome.private_for(person_id, lang)):
            out[person_id] = lines
    return out


def send_private(context: Any, private: dict[str, list[str]]) -> None:
    """Private lines (the cards someone drew) to players who started the bot:
    queued for the process's notice sender, which sends each when the
    bot-wide budget allows; the caller does not wait (a lost one is said
    again by the player's hand)."""
    rt = runtime(context)
    bot = context.bot
    for person_id, lines in private.items():
        if is_user_id(person_id):  # not AI seats, nor anonymous admins
            rt.notices.submit(int(person_id), functools.partial(notice, rt, bot, person_id, "\n".join(lines)))


async def notice(rt: Runtime, bot: Any, person_id: str, text: str) -> None:
    """Send one private notice, if the person started the bot (asked of the store once a minute)."""
    ok = rt.private_ok.get(person_id)
    if ok is None:
        try:
            ok = bool((await users.user_record(rt.store, person_id)).get("pm"))
        except StoreUnavailable:
            return
        rt.private_ok.put(person_id, ok)
    if not ok:
        return
    try:
        for page in pages(text):  # a long no-mercy draw's cards: every one said, in as many messages as it takes
            await bot.send_message(int(person_id), page)
    except Forbidden:  # they blocked the bot
        rt.private_ok.put(person_id, False)
        with contextlib.suppress(StoreUnavailable):
            await users.set_private_ok(rt.store, person_id, False)
    except TelegramError as exc:
        log.info("private notice to %s failed: %s", person_id, exc)
