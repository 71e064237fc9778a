"""The one session layer: load a stored value with its version, run a pure
step on it, save with compare-and-set, retry on conflict, remember the last
saved version.

Why optimistic concurrency and not locks: several bot processes (webhook
workers, a timer firing while a player taps a card) may touch one game. A
change is computed from the version it loaded and saved only if nobody saved
in between; otherwise it is computed again from the newer value, where it
is judged again (it may now be refused). Within one process changes to one
game are also serialised (an asyncio lock), so conflicts only cost work
across processes.

The engine-level `GameService` (core/service.py) and the chat-level
`ChatService` (core/chat/service.py) both run every change through here:
the guarantees the contention, restart and audit tests prove hold for the
path real games take.

Remembering: after its own save (or load) the session keeps the value and
version of a game (up to `cache_size` games, least recently used dropped),
so the next change costs one store round trip (the save). A step that
refuses or changes nothing on a remembered value is run again on a freshly
loaded one before the answer counts: nobody is told "not your turn" from an
old picture.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .store import GameNotFound, Store, VersionConflict

T = TypeVar("T")
DEFAULT_MAX_TRIES = 8
DEFAULT_CACHE_SIZE = 1024


class Codec(Protocol[T]):
    """How a session turns stored bytes into values and back, and copies a
    remembered value for a step (cheaper than decoding it again)."""

    def decode(self, data: bytes, version: int) -> T: ...

    def encode(self, value: T) -> bytes: ...

    def copy(self, value: T, version: int) -> T: ...


@dataclass
class Change(Generic[T]):
    """What a step did: the new value and its log entries (`result` is the
    step's own answer, handed back to the caller). `delete`: remove the game
    instead of saving it (a lobby everyone left)."""

    value: T
    log: Sequence[str]
    result: Any = None
    delete: bool = False


@dataclass
class Saved(Generic[T]):
    """A change that reached the store."""

    game_id: str
    version: int
    value: T
    result: Any = None
    deleted: bool = False


Step = Callable[[T], "Change[T] | None"]
"""A pure change: from a value (the step's own copy), a Change, or None
for "nothing to do". It may raise to refuse; it may run several times."""


class Session(Generic[T]):
    """Compare-and-set changes of stored values of one kind (see the module)."""

    def __init__(self, store: Store, codec: Codec[T], *, max_tries: int = DEFAULT_MAX_TRIES,
                 cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        if max_tries < 1:
            raise ValueError("max_tries must be at least 1")
        self.store = store
        self.codec = codec
        self.max_tries = max_tries
        self.cache_size = cache_size
        #: Saves that lost a compare-and-set race and were computed again (the
        #: one number that shows whether processes fight over the same games).
        self.conflicts = 0
        self._known: OrderedDict[str, tuple[int, T]] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    # -- remembering ----------------------------------------------------------------
    def remember(self, game_id: str, version: int, value: T) -> None:
        """Keep a private copy (callers keep the original and may change it)."""
        if self.cache_size <= 0:
            return
        held = self._known.get(game_id)
        if held is not None and held[0] > version:
            return  # a load that finished after a newer save of ours
        self._known[game_id] = (version, self.codec.copy(value, version))
        self._known.move_to_end(game_id)
        while len(self._known) > self.cache_size:
            self._known.popitem(last=False)

    def forget(self, game_id: str | None = None) -> None:
        """Drop what the session remembers of a game (or of all games)."""
        if game_id is None:
            self._known.clear()
        else:
            self._known.pop(game_id, None)

    def recall(self, game_id: str) -> tuple[T, int] | None:
        """The remembered value (a fresh copy) and version, if any."""
        held = self._known.get(game_id)
        if held is None:
            return None
        return self.codec.copy(held[1], held[0]), held[0]

    def lock(self, game_id: str) -> asyncio.Lock:
        found = self._locks.get(game_id)
        if found is None:
            found = self._locks[game_id] = asyncio.Lock()
        return found

    # -- reading --------------------------------------------------------------------
    async def load(self, game_id: str) -> tuple[T, int]:
        """The stored value and version (remembered for the next change).
        Raises GameNotFound."""
        stored = await self.store.load_game(game_id)
        if stored is None:
            self._known.pop(game_id, None)
            raise GameNotFound(game_id)
        value = self.codec.decode(stored.state, stored.version)
        self.remember(game_id, stored.version, value)
        return value, stored.version

    # -- changing ---------------------------------------------------------------------
    async def update(self, game_id: str, step: Step[T], *, use_memory: bool = True) -> Saved[T] | None:
        """Take the game (remembered, else loaded), run `step`, save with its version.

        On a conflict the step runs again on the stored game the refusal
        brought (or a fresh load), up to `max_tries` saves; after that the
        last VersionConflict is raised. A refusal (any exception of the
        step) or "nothing to do" (None) counts only when judged on the
        stored value. Returns the saved change, or None when there was
        nothing to do. Raises GameNotFound when the game is gone.
        """
        last: VersionConflict | None = None
        async with self.lock(game_id):
            # Taken out while we work: a failure below leaves nothing stale behind.
            held = self._known.pop(game_id, None)
            if not use_memory:
                held = None
            brought: tuple[int, bytes] | None = None  # the stored game a conflict brought back
            attempt = 0
            while attempt < self.max_tries:
                if brought is not None:
                    version, value = brought[0], self.codec.decode(brought[1], brought[0])
                    fresh, brought = True, None
                elif held is not None:
                    version, value = held[0], self.codec.copy(held[1], held[0])
                    fresh, held = False, None
                else:
                    stored = await self.store.load_game(game_id)
                    if stored is None:
                        raise GameNotFound(game_id)
                    version, value = stored.version, self.codec.decode(stored.state, stored.version)
                    fresh = True
                start = value
                if fresh:
                    start = self.codec.copy(value, version)  # the step may change its own copy
                try:
                    change = step(start)
                except Exception:
                    if fresh:
                        self.remember(game_id, version, value)
                        raise
                    continue  # refused on a remembered value: judge again on the stored one
                if change is None:
                    if fresh:
                        self.remember(game_id, version, value)
                        return None
                    continue  # "nothing to do" must hold for the stored value too
                attempt += 1
                if change.delete:
                    await self.store.delete_game(game_id)
                    return Saved(game_id, version, change.value, change.result, deleted=True)
                encoded = self.codec.encode(change.value)
                try:
                    new_version = await self.store.save_game(
                        game_id, encoded, expected_version=version, log=change.log)
                except VersionConflict as exc:
                    self.conflicts += 1
                    last = exc
                    if exc.current is not None:
                        brought = (exc.current.version, exc.current.state)
                    await asyncio.sleep(random.uniform(0, 0.002 * attempt))  # de-synchronise
                    continue
                self.remember(game_id, new_version, change.value)
                return Saved(game_id, new_version, change.value, change.result)
        assert last is not None
        raise last
