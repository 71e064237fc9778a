"""Each delivery handled once, whichever process gets it, and none dropped.

Why: a chat platform sends an update again when it got no answer in time
(Telegram's webhook: a slow answer, a lost connection, a process that died
holding it), and the repeat may reach another process serving the same
bot. Handled twice, a repeated `/new` says "A game is already running
here" and a move already applied is refused aloud. A memory of handled
updates per process misses every repeat that lands elsewhere, so the
memory is the store's, shared by every process that shares the store.

Why a claim with a lease, not a "seen" mark set on arrival: a mark set
before handling would make a process that dies mid-update drop it for
good (the repeat would be answered as handled). A mark set only after
handling would let a repeat arriving meanwhile run beside the first. So
the first process *claims* the delivery for a short lease, renews it while
its handler runs, and marks it done only once the handler finished (the
move saved or refused: acknowledged means saved). A repeat that finds it
claimed waits for the outcome: done, it is answered without handling; the
lease ran out (the holder died), it takes the claim over and handles it;
still held after ``wait`` seconds, it is answered "not yet" (the platform
sends it again later).

When the store cannot be asked (an outage), the update is handled without
a claim: the handler meets the same outage and says so to the people, which
is what they need; a handler that applied nothing returns :data:`AGAIN`,
and the platform is answered "not yet" to send it again once the store is
back (Telegram's webhook: 503). A repeat in that moment may be handled
twice (the move's table version refuses the second).

The one window left: a handler that saved and whose process died before
the done mark. The repeat is handled again; the table it changed keeps the
delivery's key (`chat.delivered`, written with the change), so the chat
service answers it as done: nothing changed, nothing said.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Literal

from .store import Store, StoreError

log = logging.getLogger(__name__)

#: Seconds a claim holds without renewal: how long a repeat of an update
#: whose process died waits before it is handled elsewhere.
LEASE = 10.0
#: Seconds a handled delivery is remembered. Telegram repeats an update it
#: got no answer for within minutes; an hour bounds the store's memory at
#: an hour of updates (a key of about 60 bytes each).
KEEP = 3600.0
#: Seconds a repeat waits for the holder's outcome before it is answered "not yet".
WAIT = 20.0
#: Seconds between looks at a claim held by another process.
POLL = 0.1

Outcome = Literal["handled", "repeated", "later", "again"]


class Again:
    """What a handler returns when its delivery must come again (it met the store
    down before anything of it was applied: the platform is answered "not yet").
    Its claim is let go, never marked done: the store back meanwhile, a done mark
    would answer the repeat "handled" and drop it for good."""


AGAIN = Again()


class Redelivery:
    """The delivery being handled will come again if it asks (a webhook answered 503).

    Why a context variable: the refusal that finds the store down is the chat
    service's (`ChatService.fail`), deep under the platform's handlers, and the
    answer to the platform is the webhook server's, far above them. The
    server sets one per delivery; the service marks it `wanted` when a command
    that would change a game met the store down before anything was saved, and
    tells the person once (`told`: an earlier delivery of it said so) that it
    will be handled when the store is back. Not set (polling, Discord's
    gateway: nothing is delivered again), the person is told to try again."""

    __slots__ = ("key", "owner", "saved", "told", "wanted")

    def __init__(self, *, told: bool = False, key: str | None = None) -> None:
        self.told = told
        #: The delivery's key (`Deliveries.handle`'s): a table it changed keeps it, so a
        #: repeat after the "done" mark was lost is known as one (`chat.delivered`).
        self.key = key
        self.wanted = False
        #: A command of this delivery was carried out (`ChatService.handle` answered it): from
        #: then on an outage is no reason to deliver it again (it would be made twice).
        self.saved = False
        # Only the task handling the delivery asks: a task it starts (a status edit, an AI
        # move planned on the event loop) copies the context, and its own command is never
        # delivered again.
        self.owner = asyncio.current_task()


_redelivery: ContextVar[Redelivery | None] = ContextVar("unobot_redelivery", default=None)


@contextlib.contextmanager
def redelivered(*, told: bool = False, key: str | None = None) -> Iterator[Redelivery]:
    """Handle a delivery (in this context) that its platform sends again on request."""
    found = Redelivery(told=told, key=key)
    token = _redelivery.set(found)
    try:
        yield found
    finally:
        _redelivery.reset(token)


def redelivery() -> Redelivery | None:
    """The delivery in hand's `Redelivery`, when its platform sends it again on request
    (None in any other task, even one started while handling it)."""
    found = _redelivery.get()
    if found is None or found.owner is not asyncio.current_task():
        return None
    return found


def ask_again(error: BaseException, *, changes: bool) -> Redelivery | None:
    """A front-end's own path met the store down: shall its delivery come again?

    Why: the chat service marks a command that met an outage itself
    (`ChatService.fail`), but a front-end reads and writes the store around
    it too (the table a button belongs to, the chat's language, a settings
    menu, a group's migration); an outage met there was answered as handled
    (a webhook's 200) and the press or pick was gone. Same rule as the
    service's: an update that would change a game or a setting (`changes`),
    met the store down (not slow, not unconfirmed: those may have been
    saved) before anything of it was carried out, is marked `wanted` and
    its `Redelivery` returned: the platform is answered "not yet" and sends
    it again; tell the person `REDELIVERED_OUTAGE` unless `told`. None: a
    reading update, no redelivery (polling, a gateway), or something was
    saved already; tell the person to try again."""
    from .store import StoreSlow, StoreUnavailable, StoreUnconfirmed

    if not changes or not isinstance(error, StoreUnavailable) or isinstance(error, StoreSlow | StoreUnconfirmed):
        return None
    again = redelivery()
    if again is None or again.saved:
        return None
    again.wanted = True
    return again


class Deliveries:
    """Runs each delivery's handler once across the processes sharing `store`."""

    def __init__(self, store: Store, *, lease: float = LEASE, keep: float = KEEP,
                 wait: float = WAIT, poll: float = POLL) -> None:
        self.store = store
        self.lease = lease
        self.keep = keep
        self.wait = wait
        self.poll = poll
        # An owner names one handling, not one process: a repeat reaching the
        # process still handling the first copy must wait for it too.
        self._process = secrets.token_hex(6)
        self._count = itertools.count()

    async def handle(self, key: str, handler: Callable[[], Awaitable[object]]) -> Outcome:
        """Run `handler` unless `key` was (or is being) handled elsewhere.

        ``"handled"``: it ran here (to its end: its errors propagate, and the
        claim is let go so the next delivery runs it). ``"repeated"``: it was
        handled, answer the platform as such. ``"later"``: another process is
        still at it after ``wait`` seconds; answer "not yet". ``"again"``: the
        handler returned :data:`AGAIN` (nothing applied, the store was down): the
        claim is let go, and the platform is answered "not yet".
        """
        owner = f"{self._process}-{next(self._count)}"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait
        while True:
            try:
                claim = await self.store.claim_delivery(key, owner, self.lease)
            except StoreError as exc:
                log.warning("delivery %s handled without a claim: the store did not answer (%s)", key, exc)
                return "again" if await handler() is AGAIN else "handled"
            if claim == "done":
                return "repeated"
            if claim == "mine":
                break
            if loop.time() + self.poll > deadline:
                return "later"
            await asyncio.sleep(self.poll)
        renewing = asyncio.create_task(self._renew(key, owner))
        try:
            result = await handler()
        except BaseException:
            renewing.cancel()
            with contextlib.suppress(StoreError):
                await asyncio.shield(self.store.release_delivery(key, owner))
            raise
        renewing.cancel()
        if result is AGAIN:
            with contextlib.suppress(StoreError):  # the lease runs out by itself if the store is down
                await self.store.release_delivery(key, owner)
            return "again"
        try:
            await self.store.finish_delivery(key, self.keep)
        except StoreError as exc:
            # Handled all the same; only a repeat of it would be handled again (and a move
            # already applied is refused by its version).
            log.warning("delivery %s handled but not marked done (%s)", key, exc)
        return "handled"

    async def _renew(self, key: str, owner: str) -> None:
        """Keep the claim while the handler runs (a third of the lease at a time)."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                if await self.store.claim_delivery(key, owner, self.lease) != "mine":
                    log.warning("delivery %s: the claim was lost while handling it", key)
                    return
            except StoreError as exc:
                log.info("delivery %s: the claim could not be renewed (%s)", key, exc)
