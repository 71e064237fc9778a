"""Table changes told across processes: which chat's game was saved, by whom.

Why: several processes may serve one store (a bot, `unobot web` beside it,
gateway shards). A move made in one of them must reach what the others
show (the group's status message, the pages open on that table) and plan
(the AI seats' moves, a turn timer) at once, not at their next move. The
store is what they all share, so the store tells: every saved change of a
chat's game (created, saved, deleted, unbound) is announced as a `Change`
on the store's `ChangeFeed` (`Store.changes()`), and whoever follows it
re-reads that chat's table.

A change carries no state and no cards: only the chat, the game, the
version saved and the `origin` (the store instance that saved it, one per
process), so a follower can skip what its own process already showed, and
`shown_by`, the front-end that process shows its saves on itself (the feed's
`shows`, say ``telegram:<bot id>``), so the other processes of that same
front-end skip them too: several processes of one Telegram bot share each
group's message budget, and the process that saved a move edits the status
message; a second, equal edit from each follower would only spend it. A
follower re-reads the table itself (a change may arrive after a newer one
was saved: the table read is the truth, "latest state wins").

The memory store tells the changes of its own process (`LocalFeed`); the
Redis store tells every process on the server (pub/sub, in
`adapters/redis_store.py`). Core never imports redis: this module is the
port, with the in-process implementation and the follower loop (`follow`)
every front-end uses.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # at run time asyncio is imported where it is used: `unobot --help`
    import asyncio  # reaches this module (through the store) and loads no asyncio

log = logging.getLogger(__name__)

#: The chat of a `Change` that says "changes may have been missed" (a feed
#: that lost its connection and is back): re-read every table you show.
RESYNC = ""


@dataclass(frozen=True, slots=True)
class Change:
    """A chat's game was saved: `version` is the version saved; 0 when the
    chat's game went (deleted, or the chat unbound); -1 when the store does
    not know it (a chat bound again to a game)."""

    chat_id: str
    game_id: str
    version: int
    origin: str
    #: The front-end the saving process showed this change on itself ("" none known).
    shown_by: str = ""

    @property
    def resync(self) -> bool:
        return self.chat_id == RESYNC


class ChangeFeed(Protocol):
    """Where a store tells its changes (see the module's docstring)."""

    #: This store instance's name in the changes it announces.
    origin: str
    #: The front-end this process shows its own saves on (its changes' `shown_by`);
    #: set by that front-end at start-up, "" until then.
    shows: str
    #: The store was closed: its listening has ended and will not start again.
    closed: bool

    def listen(self) -> AsyncIterator[Change]:
        """The changes from now on, of every process (this one's too), until
        the iteration is closed or cancelled, or the store closed. Changes of one chat that come
        faster than they are taken may be folded into the newest one."""
        ...


def new_origin() -> str:
    """A store instance's name: random, so two processes never share one."""
    return secrets.token_hex(6)


class LocalFeed:
    """The changes of this process's store, told to this process's listeners.

    Each listener keeps the newest change per chat (bounded by the number of
    chats, however slow it is): latest state wins."""

    def __init__(self) -> None:
        self.origin = new_origin()
        self.shows = ""
        self.closed = False
        self._listeners: set[_Listener] = set()

    def announce(self, chat_id: str, game_id: str, version: int) -> None:
        change = Change(chat_id, game_id, version, self.origin, self.shows)
        for listener in self._listeners:
            listener.put(change)

    async def listen(self) -> AsyncIterator[Change]:
        listener = _Listener()
        self._listeners.add(listener)
        try:
            while not self.closed:
                change = await listener.get()
                if change is None:
                    return
                yield change
        finally:
            self._listeners.discard(listener)

    def close(self) -> None:
        """The store closed: every listening ends."""
        self.closed = True
        for listener in self._listeners:
            listener.ready.set()


class _Listener:
    """One listener's pending changes: the newest per chat, in arrival order."""

    def __init__(self) -> None:
        import asyncio

        self.pending: dict[str, Change] = {}
        self.ready = asyncio.Event()

    def put(self, change: Change) -> None:
        self.pending.pop(change.chat_id, None)  # moved to the end: the order is the newest's
        self.pending[change.chat_id] = change
        self.ready.set()

    async def get(self) -> Change | None:
        """The next change; None once woken with none (the feed closed)."""
        while not self.pending:
            self.ready.clear()
            await self.ready.wait()
            if not self.pending:
                return None
        chat = next(iter(self.pending))
        return self.pending.pop(chat)


Handler = Callable[[Change], Awaitable[None]]


async def follow(feed: ChangeFeed, handler: Handler, *, others_only: bool = True,
                 retry: float = 1.0) -> None:
    """Call `handler` for every change of `feed` (with `others_only`, not the
    ones this process's own store made: those it showed already), until
    cancelled. A handler that fails is logged and the next change goes on.
    A feed keeps its own connection (and says `RESYNC` when it is back); one
    that fails anyway is listened to again after `retry` seconds, and the
    handler is told `RESYNC` (something may have been missed). Ends when the
    store is closed."""
    import asyncio

    while not feed.closed:
        try:
            async for change in feed.listen():
                if others_only and change.origin == feed.origin and not change.resync:
                    continue
                await _call(handler, change)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # asked to stop: an error on the way out is no failure
                raise asyncio.CancelledError() from exc
            log.warning("the store's change feed failed (%s); listening again in %.1f s", exc, retry)
        if feed.closed:
            return
        await asyncio.sleep(retry)
        await _call(handler, Change(RESYNC, "", 0, ""))


async def _call(handler: Handler, change: Change) -> None:
    import asyncio

    try:
        await handler(change)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("a change of chat %r was not handled", change.chat_id)


def start_following(feed: ChangeFeed | None, handler: Handler, *,
                    others_only: bool = True) -> asyncio.Task[None] | None:
    """`follow` in a task of its own (None when the store has no feed)."""
    import asyncio

    if feed is None:
        return None
    return asyncio.get_running_loop().create_task(follow(feed, handler, others_only=others_only))


#: How long a shutdown waits for the follower to end once cancelled.
STOP_WAIT = 1.0


async def stop_following(task: asyncio.Task[None] | None, wait: float = STOP_WAIT) -> None:
    """Cancel the follower and wait for it, `wait` seconds at most.

    Why bounded: a feed cancelled in the middle of a read may not end until
    its connection does (seen with a Redis pub/sub read: `unobot web` then
    never stopped on SIGTERM). Every front-end closes its store right after
    this, which ends such a read; a shutdown never waits on the network."""
    import asyncio

    if task is None:
        return
    task.cancel()
    done, _pending = await asyncio.wait({task}, timeout=wait)
    for finished in done:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            finished.result()  # retrieved, so no "exception never retrieved" at exit
