"""How often a place's status may change: one update in flight per place,
at most one per interval, and the newest state next ("latest state wins":
states that came in between are never sent).

Why in core: every platform budgets the messages a bot posts or edits in
one place (Discord about five in five seconds per channel, Telegram about
twenty a minute per group), and a busy table changes faster than that. A
front-end hands each new state here with its table version and says how
to send one; an older version than one already handed is dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from .bounded import BoundedCache

T = TypeVar("T")

#: Places whose last version a pacer remembers (its memory stays bounded).
PLACES = 4096


class Pacer(Generic[T]):
    """Paced updates of each place's status: `send(place, state)` runs in a
    task of the pacer's own, never in the caller's."""

    def __init__(self, send: Callable[[str, T], Awaitable[None]], interval: float, places: int = PLACES) -> None:
        self.send = send
        self.interval = interval
        self._want: dict[str, T] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        #: The version last handed per place, for the places seen last (a bot
        #: meets new channels all day; a place forgotten only lets an old state
        #: through once, which its next state then replaces).
        self._shown: BoundedCache[str, int] = BoundedCache(places)
        self._sending = 0

    def reset(self, place: str) -> None:
        """A new game in the place: its versions start again."""
        self._shown.pop(place)
        self._want.pop(place, None)

    @property
    def pending(self) -> bool:
        """A state is waiting or being sent (tests and a clean stop wait for it)."""
        return bool(self._want) or self._sending > 0

    def show(self, place: str, version: int, state: T) -> None:
        """Hand the place's newest state (dropped if older than one handed already)."""
        if version < (self._shown.get(place) or 0):
            return
        self._shown.put(place, version)
        self._want[place] = state
        worker = self._workers.get(place)
        if worker is None or worker.done():
            self._workers[place] = asyncio.get_running_loop().create_task(self._work(place))

    async def _work(self, place: str) -> None:
        try:
            while place in self._want:
                state = self._want.pop(place)
                self._sending += 1
                try:
                    await self.send(place, state)
                finally:
                    self._sending -= 1
                await asyncio.sleep(self.interval)
        finally:
            if self._workers.get(place) is asyncio.current_task():
                del self._workers[place]

    def close(self) -> None:
        for task in self._workers.values():
            task.cancel()
