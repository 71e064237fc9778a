"""The one status message per game: what it says, and editing it safely.

Why one edited message: the group should not scroll a new message per
move (about one new message per turn at most; here: a lobby, one per round
end, errors addressed to someone). The text is built from the public table
view only (card counts, never cards), so a hand can never reach the group.

Editing: an edit with unchanged text fails with "message is not modified",
and edits can arrive out of order when updates run concurrently. The
`StatusEditor` keeps, per message, the newest table version it was asked
to show, drops older renders, coalesces renders that queue up behind a
slow (rate-limited) edit, and compares with what it last sent. The cache is
per process and short-lived; a stale one only costs a harmless
"not modified" answer, which is swallowed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import NamedTuple

from telegram import Bot, InlineKeyboardMarkup, Message, MessageEntity
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from unobot.chat.bounded import BoundedCache
from unobot.chat.keyed_locks import KeyedLocks
from unobot.chat.status_text import status_text, stopped_text
from unobot.chat.table import Table

from .bot import MAX_TEXT, UnoBot
from .guard import clip16
from .keyboards import table_keyboard
from .limiter import EDIT, WORKER, GroupLimiter, priority
from .transport import Superseded

log = logging.getLogger(__name__)

#: The messages the status editor remembers (the version and the hash of
#: what each shows, a deleted one's replacement), least recently written out
#: first. Only a message still being edited needs them: a game's status
#: message is written on every move, so the live ones stay at the end, and a
#: message pushed out costs at most one "not modified" answer. Each game here
#: leaves two (its lobby-and-play message and its round message): with 4,096
#: a soak of new groups grew for 2,048 games (issue 25).
EDITOR_SIZE = 1024


def is_gone(exc: BaseException) -> bool:
    """The message was deleted (by an admin, or with its chat's history)."""
    return isinstance(exc, BadRequest) and "message to edit not found" in str(exc).lower()


def is_topic_gone(exc: BaseException) -> bool:
    """The forum topic a game is played in was deleted: nothing can be posted
    there again (Telegram tells a bot nothing else of it)."""
    return isinstance(exc, BadRequest) and "message thread not found" in str(exc).lower()


def is_not_modified(exc: BaseException) -> bool:
    """PTB words it "Message is not modified: ..." (capitalised); Telegram lower case."""
    return isinstance(exc, BadRequest) and "message is not modified" in str(exc).lower()


class Status(NamedTuple):
    """A rendered status message: plain text whose first `bold` characters
    are bold, and its buttons.

    Why plain text with an explicit entity and not HTML: the message is
    edited on nearly every move, and names need no escaping this way."""

    text: str
    markup: InlineKeyboardMarkup | None
    bold: int = 0
    #: The text is HTML (the /rules view), not plain text with a bold prefix.
    html: bool = False

    @property
    def entities(self) -> list[MessageEntity] | None:
        if not self.bold:
            return None
        return [MessageEntity(MessageEntity.BOLD, 0, self.bold_units)]

    @property
    def bold_units(self) -> int:
        """The bold prefix's length as Telegram counts it (UTF-16 code units)."""
        return len(self.text[:self.bold].encode("utf-16-le")) // 2

    def key(self) -> tuple[str, int, InlineKeyboardMarkup | None]:
        return self.text, -1 if self.html else self.bold, self.markup


def render(table: Table, *, notes: list[str] | None = None, headline: bool = False,
           final: bool = False, recent: bool = True, now: float | None = None) -> Status:
    """The status message of a table (core's `status_text`: public facts only) and its buttons.
    `now`: the service's clock, for the time a round's clock (blitz) has left, said
    again whenever the status is edited anyway (never edited for the clock alone)."""
    st = status_text(table, notes=notes or (), headline=headline, recent=recent, final=final, now=now)
    head = "\n".join(x for x in (st.headline, st.title) if x)
    markup = None if st.final else table_keyboard(table)
    return Status(clip16("\n".join([head, *st.lines]), MAX_TEXT), markup, min(len(head), MAX_TEXT - 1))


def stopped(table: Table, line: str) -> Status:
    """The status of a game that is gone (stopped, lobby expired): title and why."""
    st = stopped_text(table, line)
    return Status(clip16("\n".join([st.title, *st.lines]), MAX_TEXT), None, min(len(st.title), MAX_TEXT - 1))


async def send(bot: Bot, chat_id: int, status: Status) -> Message:
    return await bot.send_message(chat_id, status.text, entities=status.entities, reply_markup=status.markup)


def note_line(note: str) -> str:
    return f"⚠️ {note}"


class Gone(NamedTuple):
    """A status message found deleted, and the newest status meant for it."""

    version: int
    status: Status


class _Pending(NamedTuple):
    version: int
    status: Status
    still_current: Callable[[int], Awaitable[bool]] | None
    on_gone: Callable[[Gone], Awaitable[None]] | None


class StatusEditor:
    """Edits status messages: newest version wins, equal text is never re-sent,
    and nobody waits for an edit.

    `submit` records the state to show and returns at once; one task per
    message (its worker) sends the newest state recorded, then the newest
    recorded meanwhile, and so on until none is left. So a busy group's edits
    coalesce to what its message budget allows (the limiter paces the
    worker, at priority EDIT: the group's budget and the bot's), the last
    state is always shown, and the update handlers, never waiting on a
    budget, keep serving every other chat. Besides status messages, it
    edits the /rules view an admin's button changed (`Status.html`)."""

    def __init__(self, size: int = EDITOR_SIZE) -> None:
        #: message -> the newest version it was asked to show.
        self._latest: BoundedCache[tuple[int, int], int] = BoundedCache(size)
        #: message -> the hash of what it shows (`Status.key()`): an equal edit is
        #: skipped. A hash and not the text and keyboard: a few bytes per message
        #: instead of a kilobyte, for the `size` messages remembered.
        self._shown: BoundedCache[tuple[int, int], int] = BoundedCache(size)
        self._pending: dict[tuple[int, int], _Pending] = {}
        self._workers: dict[tuple[int, int], asyncio.Task[None]] = {}
        #: a deleted status message -> the one posted in its place.
        self._moved: BoundedCache[tuple[int, int], int] = BoundedCache(size)
        #: message -> its lock, only while in use (core's `KeyedLocks`).
        self._reposting: KeyedLocks[tuple[int, int]] = KeyedLocks()
        #: messages of a game that ended whose last edit is still on its way:
        #: forgotten when their worker is done (`release`).
        self._released: set[tuple[int, int]] = set()

    def release(self, chat_id: int, *message_ids: int) -> None:
        """A game ended: forget its messages (once their last edit is out).

        Why: nothing edits a finished game's messages again, and a bot that
        meets new groups all day would otherwise hold each ended game's
        entries until `size` newer messages pushed them out (issue 25's
        soak: the caps full and churning, the allocator's arenas grew).
        The caps stay, for the messages of the games being played."""
        for message_id in message_ids:
            key = (chat_id, message_id)
            if key in self._workers:
                self._released.add(key)
            else:
                self._forget(key)

    def _forget(self, key: tuple[int, int]) -> None:
        self._released.discard(key)
        self._latest.pop(key)
        self._shown.pop(key)
        self._moved.pop(key)

    def holds(self, chat_id: int) -> int:
        """How many entries the editor keeps for this chat's messages (tests, the soak)."""
        return sum(1 for cache in (self._latest, self._shown, self._moved) for key in cache if key[0] == chat_id)

    def sent(self, chat_id: int, message_id: int, version: int, status: Status) -> None:
        """Record a message just sent with this status, so an equal edit is skipped."""
        key = (chat_id, message_id)
        self._latest.put(key, version)
        self._shown.put(key, hash(status.key()))

    def submit(self, bot: UnoBot, chat_id: int, message_id: int, version: int, status: Status,
               still_current: Callable[[int], Awaitable[bool]] | None = None,
               on_gone: Callable[[Gone], Awaitable[None]] | None = None) -> None:
        """Have `status` shown unless something newer is shown or on its way; returns at once.

        `on_gone(gone)` is called (by the worker) when the message was
        deleted, with the newest status that could not be shown.
        `still_current(version)` guards an edit held back by the flood limit
        (see `transport.EditGuard`)."""
        key = (chat_id, message_id)
        if version < (self._latest.get(key) or 0):
            return  # a newer state was shown or is on its way
        self._latest.put(key, version)
        self._pending[key] = _Pending(version, status, still_current, on_gone)
        if key not in self._workers:
            self._workers[key] = asyncio.get_running_loop().create_task(self._work(bot, key),
                                                                        name=f"unobot-status-{chat_id}")

    async def show(self, bot: UnoBot, chat_id: int, message_id: int, version: int, status: Status,
                   still_current: Callable[[int], Awaitable[bool]] | None = None,
                   on_gone: Callable[[Gone], Awaitable[None]] | None = None) -> None:
        """`submit`, then wait until the message's worker is done (for the few
        callers that must: start-up, tests)."""
        self.submit(bot, chat_id, message_id, version, status, still_current, on_gone)
        worker = self._workers.get((chat_id, message_id))
        if worker is not None and worker is not asyncio.current_task():
            await asyncio.shield(worker)

    async def idle(self) -> None:
        """Wait until every submitted state is shown (or given up)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    def busy(self) -> bool:
        return bool(self._workers)

    async def _work(self, bot: UnoBot, key: tuple[int, int]) -> None:
        WORKER.set("status")  # this task's own context: for the limiter's accounts
        limiter = bot.rate_limiter if isinstance(bot.rate_limiter, GroupLimiter) else None
        try:
            while (pending := self._pending.get(key)) is not None:
                try:
                    if limiter is not None and self._shown.get(key) != hash(pending.status.key()):
                        # Wait for the group's budget first, then take the newest
                        # state: what goes out is never older than what is known.
                        await limiter.acquire(key[0], EDIT)
                    pending = self._pending.pop(key, None)
                    if pending is None:
                        break
                    gone = await self._edit(bot, key, pending, prepaid=limiter is not None)
                    if gone is not None and pending.on_gone is not None:
                        await pending.on_gone(gone)
                except Exception as exc:  # noqa: BLE001 - a worker must outlive any one edit
                    log.warning("status %s/%s: %s", key[0], key[1], exc)
        finally:
            self._workers.pop(key, None)
            if key in self._released:
                self._forget(key)

    async def _edit(self, bot: UnoBot, key: tuple[int, int], pending: _Pending, prepaid: bool = False
                    ) -> Gone | None:
        chat_id, message_id = key
        edit = pending.status
        shown = hash(edit.key())
        if self._shown.get(key) == shown:
            return None
        guard = None if pending.still_current is None else functools.partial(pending.still_current,
                                                                              pending.version)
        try:
            with priority(EDIT, prepaid=prepaid):
                if edit.html:
                    await bot.edit_message_text(edit.text, chat_id=chat_id, message_id=message_id,
                                                parse_mode=ParseMode.HTML, reply_markup=edit.markup)
                else:
                    await bot.edit_quietly(chat_id, message_id, edit.text, bold=edit.bold_units,
                                           markup=edit.markup, still_current=guard)
        except Superseded:
            return None  # a newer state is shown, or on its way from the process that saved it
        except BadRequest as exc:
            if is_gone(exc):
                return Gone(pending.version, edit)
            if not is_not_modified(exc):
                log.warning("status %s/%s not edited: %s", chat_id, message_id, exc)
                return None
        except TelegramError as exc:
            log.warning("status %s/%s not edited: %s", chat_id, message_id, exc)
            return None
        self._shown.put(key, shown)
        return None

    def moved(self, chat_id: int, message_id: int) -> int:
        """The message that replaced a deleted status message (itself if none did)."""
        return self._moved.get((chat_id, message_id)) or message_id

    def replaced(self, chat_id: int, old_id: int, new_id: int) -> None:
        self._moved.put((chat_id, old_id), new_id)

    @contextlib.asynccontextmanager
    async def reposting(self, chat_id: int, old_id: int) -> AsyncIterator[None]:
        """Held while a deleted status message is replaced (or a lobby is
        posted: `old_id` 0): one replacement, however many updates found it
        gone at once. The lock is kept only while someone holds or waits for
        it (every lobby took one, and kept it: issue 25's soak found one
        Lock per game among what grew)."""
        async with self._reposting.hold((chat_id, old_id)):
            yield
