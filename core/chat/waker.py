"""Keeping a table's wake plan: which timers a front-end holds for a table,
and what happens when one rings.

Why in core: Telegram (with python-telegram-bot's JobQueue) and Discord
(with asyncio tasks) each turned `wake_plan` into jobs, ran them, retried
them through a store outage and re-planned the stored games at start-up,
and each did it a little differently. Here is the one way; a front-end
gives only its timers (`Timers`: plan, cancel, ask, on the service's clock)
and shows what a wake did (`Fired`).

A timer carries `WakeData`: the table version it was planned on (a timer
that rings late, twice or after a restart is refused as stale by the
service), the lobby it was planned for (a lobby keeps one expiry however
many people join), and how many times a store outage put it off.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..changes import Change, ChangeFeed, start_following
from ..store import StoreError, StoreUnavailable, StoreUnconfirmed
from . import commands as c
from .i18n import gettext_for
from .outcome import Outcome
from .table import LOBBY, PLAYING, UNPOSTED, Table
from .views import rule_facts
from .wake import CLOCK, CONT, KINDS, LOBBY_EXPIRY, SYSTEM, TIMER, Pacing, Wake, due, wake_plan

log = logging.getLogger(__name__)

#: Outcome codes that say "the store could not serve now": the wake rings again later.
STORE_DOWN = ("store_unavailable", "store_refusing", "store_slow")
#: Kinds of a running game (a lobby's expiry is planned apart).
GAME_KINDS = (CONT, TIMER, CLOCK)
WakeData = dict[str, Any]


class Timers(Protocol):
    """A front-end's one-shot timers, one per (kind, place), at points of
    the chat service's clock. Planning a (kind, place) again replaces its
    timer; when one rings, the front-end calls `Waker.fire` with its data."""

    def now(self) -> float: ...

    def plan(self, kind: str, place: Any, at: float, data: WakeData) -> None: ...

    def cancel(self, place: Any, *kinds: str) -> None: ...

    def has(self, kind: str, place: Any) -> bool: ...


class Service(Protocol):
    """What the waker needs of the chat service."""

    async def handle(self, chat_id: str, person: c.Person, command: c.Command) -> Outcome: ...

    async def table(self, chat_id: str) -> Table | None: ...


@dataclass(frozen=True)
class Fired:
    """What a wake did: the outcome to show (None: nothing changed), and a
    line for the place when the wake closed something (an expired lobby)."""

    outcome: Outcome | None = None
    line: str = ""

    @property
    def changed(self) -> bool:
        return self.outcome is not None and self.outcome.ok and self.outcome.changed


NOTHING = Fired()


class Waker:
    """A table's timers, exactly as `wake_plan` says, on a front-end's `Timers`."""

    def __init__(self, service: Service, timers: Timers, pacing: Pacing | None = None, *,
                 retry_after: float | None = None, retries: int = 120) -> None:
        self.service = service
        self.timers = timers
        self.pacing = pacing or Pacing()
        #: A wake that met a store outage rings again this many seconds later,
        #: at most `retries` times (ten minutes by default): the clock a table
        #: keeps must not be lost to an outage. (Default: the pacing's.)
        self.retry_after = self.pacing.retry_after if retry_after is None else retry_after
        self.retries = retries

    # -- planning ----------------------------------------------------------------------
    def after(self, place: Any, table: Table | None, outcome: Outcome | None = None, *,
              not_before: float = 0.0) -> None:
        """Plan what `table` needs after `outcome` (None: a timer that rang a
        little early; a planned AI pause is then left as it is). A lobby gets
        its expiry; a running game its AI pause, turn timer and round clock
        (no turn timer sooner than `not_before` seconds from now); anything
        else, nothing."""
        if table is None:
            self.cancel(place)
            return
        if table.phase == LOBBY:
            self.timers.cancel(place, *GAME_KINDS)
            if not self.timers.has(LOBBY_EXPIRY, place):
                self._plan_lobby(place, table)
            return
        if table.phase != PLAYING or table.game is None:
            self.cancel(place)
            return
        # The game started: its lobby's expiry has nothing left to close.
        self.timers.cancel(place, LOBBY_EXPIRY)
        plan = wake_plan(table, self.timers.now(), self.pacing,
                         paused=bool(outcome is not None and outcome.paused), not_before=not_before)
        for kind in GAME_KINDS:
            if kind == CONT and outcome is None:
                continue
            self._follow(place, table, plan, kind)

    def ensure(self, place: Any, table: Table, *, not_before: float = 0.0) -> None:
        """Plan the timers a table lacks in this process (a restart, a game
        another process served): only kinds it holds none of."""
        if table.phase == LOBBY:
            if not self.timers.has(LOBBY_EXPIRY, place):
                self._plan_lobby(place, table)
            return
        if table.phase != PLAYING or table.game is None:
            return
        plan = wake_plan(table, self.timers.now(), self.pacing, resume=True, not_before=not_before)
        for kind in GAME_KINDS:
            wake = due(plan, kind)
            if wake is not None and not self.timers.has(kind, place):
                self._plan(place, wake, table)

    def cancel(self, place: Any) -> None:
        self.timers.cancel(place, *KINDS)

    def _plan(self, place: Any, wake: Wake, table: Table) -> None:
        self.timers.plan(wake.kind, place, wake.when, {"version": wake.version, "seed": table.seed})

    def _plan_lobby(self, place: Any, table: Table) -> None:
        wake = due(wake_plan(table, self.timers.now(), self.pacing), LOBBY_EXPIRY)
        if wake is not None:
            self._plan(place, wake, table)

    def _follow(self, place: Any, table: Table, plan: list[Wake], kind: str) -> None:
        wake = due(plan, kind)
        if wake is not None:
            self._plan(place, wake, table)
        else:
            self.timers.cancel(place, kind)

    # -- ringing -----------------------------------------------------------------------
    async def fire(self, kind: str, place: Any, data: WakeData) -> Fired:
        """A timer rang: send the table its command. A store outage plans the
        same wake again a little later; a lobby that is no longer the one the
        timer was planned for, or a stale version, changes nothing."""
        chat = str(place)
        try:
            if kind == LOBBY_EXPIRY:
                table = await self.service.table(chat)
                if table is None or table.phase != LOBBY or table.seed != data.get("seed"):
                    return NOTHING
                out = await self.service.handle(chat, SYSTEM, c.Stop())
            else:
                version = data.get("version")
                command: c.Command = c.Skip(auto=True, version=version) if kind == TIMER \
                    else c.Continue(version=version)
                out = await self.service.handle(chat, SYSTEM, command)
        except StoreError as exc:
            log.warning("chat %s: %s wake met a store outage: %s", chat, kind, exc)
            out = Outcome(ok=False, code="store_unavailable")
        if out.code in STORE_DOWN:
            self._again(kind, place, data)
            return NOTHING
        if not out.ok:
            return NOTHING
        if not out.changed:
            if kind == TIMER and out.table is not None and out.table.version == data.get("version"):
                self.after(place, out.table)  # a clock a little behind: the timer again, at its time
            return NOTHING
        line = ""
        if kind == LOBBY_EXPIRY and out.table is not None:
            _ = gettext_for(out.table.lang)
            line = _("Nobody started the game in time; the lobby is closed.")
        return Fired(out, line)

    def _again(self, kind: str, place: Any, data: WakeData) -> None:
        tries = int(data.get("tries", 0)) + 1
        if tries > self.retries:
            log.error("chat %s: %s wake given up after %d tries: the store stayed down", place, kind, self.retries)
            return
        self.timers.plan(kind, place, self.timers.now() + self.retry_after, {**data, "tries": tries})

    # -- start-up ----------------------------------------------------------------------
    async def replan(self, chats: AsyncIterator[str], place_of: Callable[[str], Any | None]
                     ) -> AsyncIterator[tuple[Any, Table]]:
        """Once at start-up: every stored table of this front-end (`place_of`
        says which chats are its, and where) gets its timers; the player on
        turn gets a whole turn from now (nobody could move while no process
        ran). Yields each table planned that has a status message, for the
        front-end to show. One with none yet is not yielded, as in
        `follow_changes`: the process that opened it may be posting it right
        now (a process starting as someone types /new would post a second
        lobby); if that process died first, the table's next press or timer
        posts it. A table that cannot be read now is left to `ensure`, at its
        next press."""
        planned = 0
        try:
            async for chat in chats:
                place = place_of(chat)
                if place is None:
                    continue
                try:
                    table = await self.service.table(chat)
                except (StoreError, ValueError) as exc:
                    log.warning("chat %s: timers not re-planned: %s", chat, exc)
                    continue
                if table is None:
                    continue
                seconds = rule_facts(table)[0] if table.phase == PLAYING else 0
                self.ensure(place, table, not_before=float(seconds or 0))
                planned += 1
                if table.adapter.get("status"):
                    yield place, table
        except StoreError as exc:
            log.warning("start-up re-planning stopped: %s", exc)
        log.info("re-planned the timers of %d tables", planned)


Ring = Callable[[str, Any, WakeData], Awaitable[None]]


class AsyncioTimers:
    """`Timers` as asyncio tasks that watch the service's clock, for a
    front-end with no job queue of its own (Discord, the web table).

    Why watch instead of sleeping once: the clock is injected (a test moves
    it; a host's clock may jump), so a task looks at it again every `poll`
    seconds until its point has passed, then calls `ring(kind, place, data)`.
    Timers of `busy_kinds` count in `busy()` while they wait (an AI pause is
    work in progress; a turn timer is not)."""

    def __init__(self, clock: Callable[[], float], ring: Ring, *, poll: float = 1.0,
                 busy_kinds: tuple[str, ...] = (CONT,)) -> None:
        self.clock = clock
        self.ring = ring
        self.poll = poll
        self.busy_kinds = busy_kinds
        self._tasks: dict[tuple[str, Any], asyncio.Task[None]] = {}

    def now(self) -> float:
        return self.clock()

    def plan(self, kind: str, place: Any, at: float, data: WakeData) -> None:
        self._stop(self._tasks.pop((kind, place), None))
        self._tasks[(kind, place)] = asyncio.get_running_loop().create_task(self._wait(kind, place, at, data))

    def cancel(self, place: Any, *kinds: str) -> None:
        for kind in kinds or KINDS:
            self._stop(self._tasks.pop((kind, place), None))

    def has(self, kind: str, place: Any) -> bool:
        task = self._tasks.get((kind, place))
        return task is not None and not task.done()

    def busy(self) -> bool:
        return any(not t.done() for (kind, _), t in self._tasks.items() if kind in self.busy_kinds)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _wait(self, kind: str, place: Any, at: float, data: WakeData) -> None:
        while (left := at - self.clock()) > 0:
            await asyncio.sleep(min(left, self.poll))
        if self._tasks.get((kind, place)) is asyncio.current_task():
            del self._tasks[(kind, place)]  # rung: what it plans next is a timer of its own
        await self.ring(kind, place, data)

    @staticmethod
    def _stop(task: asyncio.Task[None] | None) -> None:
        """Stop a waiting timer. One that rang is out of the table already, so
        its ring runs to the end (the service call in it may be half done)."""
        if task is not None and task is not asyncio.current_task():
            task.cancel()


#: Seconds between looks at another process's save the store has not confirmed yet.
RECHECK = 1.0
#: Looks before a follower stops waiting for it (the next change or press reads on).
RECHECKS = 60


async def confirmed_as_stored(service: Any, chat_id: str, version: int | None, *, game_id: str | None = None,
                              unconfirmed: Callable[[StoreUnconfirmed], Awaitable[None]] | None = None) -> bool:
    """Whether the chat's game as another process saved it (at `version`, as this
    process loaded it) may be drawn as made.

    Why: on a store that counts a save only once copies have it
    (``redis.wait_replicas``), another process's save is on the primary before
    its copies confirm it, and only its writer knows (and says "not confirmed
    yet" in its own chat or page). Drawn here as made, a failover may still
    drop it: a status message would have shown a move that never happened.
    The store's barrier (`Store.confirm_stored`) says whether everything saved
    so far is confirmed. False while not (or while the store cannot say), after
    `unconfirmed` is told (the web table marks its pages as waiting); True on a
    store that waits for no copies, or when the game is gone. One check for
    every front-end that follows other processes' saves."""
    store = service.store
    if not store.confirms_copies:
        return True
    try:
        if game_id is None:
            game_id = await store.chat_game(chat_id)
        if game_id is not None:
            await store.confirm_stored(game_id, version)
    except StoreUnconfirmed as exc:
        if unconfirmed is not None:
            await unconfirmed(exc)
        return False
    except StoreUnavailable as exc:
        log.debug("chat %s: cannot confirm what is stored: %s", chat_id, exc)
        return False
    return True


def follow_changes(waker: Waker, feed: ChangeFeed | None, place_of: Callable[[str], Any | None],
                   show: Callable[[Any, Table], Awaitable[None]], *, shows: str = ""
                   ) -> asyncio.Task[None] | None:
    """Follow the store's change feed (`unobot.changes`): each change another
    process made to a table of this front-end's (`place_of` says which, and
    where) re-plans the table's timers on its new version (the AI seats
    move, the turn timer is the new turn's) and hands it to `show`. A table
    with no status message yet is not shown: the process that opened it is
    posting it; unless it is a lobby no process posts (`UNPOSTED`: opened
    from a Mini App page), which `show` posts (its claim keeps one message
    where several processes follow). None when the store has no feed.

    A save the store has not confirmed yet (`confirmed_as_stored`) is not
    shown: the table is looked at again every `RECHECK` seconds and shown once
    what the store holds is confirmed (the move kept, or the game gone on from
    before it when a failover dropped it), as the web table draws it, so every
    front-end shows the same.

    `shows` names the front-end this process shows its own saves on (set as
    the feed's `shows`, so its changes carry it): a change another process
    of that same front-end saved re-plans the timers here but is not shown,
    since its saver showed it (processes of one Telegram bot share a group's
    message budget: one edit per move, not one per process)."""
    if feed is not None and shows:
        feed.shows = shows
    waiting: dict[str, asyncio.Task[None]] = {}

    def forget(chat_id: str, task: asyncio.Task[None]) -> None:
        if waiting.get(chat_id) is task:
            del waiting[chat_id]

    async def recheck(chat_id: str, place: Any) -> None:
        for _ in range(RECHECKS):
            await asyncio.sleep(RECHECK)
            try:
                table = await waker.service.table(chat_id)
            except (StoreError, ValueError):
                continue
            if table is None:
                return
            if await confirmed_as_stored(waker.service, chat_id, table.store_version):
                waker.cancel(place)
                waker.ensure(place, table)
                await show(place, table)
                return
        log.warning("chat %s: a save made elsewhere was never confirmed: not shown", chat_id)

    async def changed(change: Change) -> None:
        if change.resync:  # some changes may be lost: each table catches up at its next move or timer
            log.info("the change feed is back; tables changed meanwhile show at their next move")
            return
        place = place_of(change.chat_id)
        if place is None:
            return
        try:
            table = await waker.service.table(change.chat_id)
        except (StoreError, ValueError) as exc:
            log.warning("chat %s: a change made elsewhere not shown: %s", change.chat_id, exc)
            return
        waker.cancel(place)
        if table is None:
            return
        waker.ensure(place, table)
        if shows and change.shown_by == shows:
            return  # the process that saved it showed it (see the docstring)
        if table.adapter.get("status") or (table.phase == LOBBY and table.adapter.get(UNPOSTED)):
            pending = waiting.pop(change.chat_id, None)
            if pending is not None:
                pending.cancel()  # this newer change is looked at instead
            if not await confirmed_as_stored(waker.service, change.chat_id, table.store_version):
                log.info("chat %s: a save made elsewhere is not confirmed yet: not shown", change.chat_id)
                task = asyncio.get_running_loop().create_task(recheck(change.chat_id, place))
                waiting[change.chat_id] = task
                task.add_done_callback(functools.partial(forget, change.chat_id))
                return
            await show(place, table)

    def stop_waiting(_following: asyncio.Task[None]) -> None:
        for task in list(waiting.values()):
            task.cancel()

    following = start_following(feed, changed)
    if following is not None:  # its looks stop with it (a process shutting down shows nothing more)
        following.add_done_callback(stop_waiting)
    return following
