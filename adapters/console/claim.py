"""One console at a time at a person's table: the claim a running `unobot play` keeps.

Why: two terminals of one login open the same chat (`console.<login>`).
The store's compare-and-set keeps every move whole, but each terminal
shows a hand the other has since changed (a number typed in one plays
another card than the one seen), and a second start that answers "no" to
resuming deletes the game the first is playing. So the first to open the
table claims it in the chat's settings, and a second one is told, in the
player's language, where the table is open and exits, changing nothing.

Why a claim in the store and not a lock file: the table lives in the
store, and two consoles may share a Redis from two machines. Why no
heartbeat: the console reads its input in the event loop's thread, so a
timer cannot run while the player thinks. A claim is kept while its
process lives (looked at directly on the same machine, as editors check a
swap file's owner) or, from another machine, until it was last renewed
(each command sent renews it) `STALE_SECONDS` ago: a console killed without
a word does not lock its table for ever.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unobot.store import Store

#: The chat setting the claim is kept under.
KEY = "console_open"
#: A claim from another machine not renewed for this long is taken over (seconds).
STALE_SECONDS = 15 * 60.0
#: How often a command renews the claim at most (seconds).
RENEW_SECONDS = 60.0
#: Swaps a start tries before it takes whoever holds the table then as the answer.
TRIES = 5


@dataclass(frozen=True)
class Holder:
    """Who holds a table: a process on a machine, since when, last seen when."""

    token: str
    pid: int
    host: str
    seen: float

    @classmethod
    def of(cls, value: Any) -> Holder | None:
        if not isinstance(value, dict):
            return None
        try:
            return cls(str(value["token"]), int(value["pid"]), str(value["host"]), float(value["seen"]))
        except (KeyError, TypeError, ValueError):
            return None  # unreadable: nobody's

    def as_dict(self) -> dict[str, Any]:
        return {"token": self.token, "pid": self.pid, "host": self.host, "seen": self.seen}


def process_alive(pid: int) -> bool:
    """Whether a process of that id runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's: it runs
    except OSError:
        return False
    return True


class Claim:
    """This process's claim on one chat's table (`take`, `renew`, `release`)."""

    def __init__(self, store: Store, chat_id: str, *, clock: Callable[[], float] = time.time,
                 alive: Callable[[int], bool] = process_alive) -> None:
        self.store, self.chat_id, self.clock, self.alive = store, chat_id, clock, alive
        self.me = Holder(uuid.uuid4().hex, os.getpid(), socket.gethostname(), clock())
        self.renewed = 0.0

    def holds(self, other: Holder) -> bool:
        """Whether `other` (not this process) still holds the table."""
        if other.token == self.me.token:
            return False
        if other.host == self.me.host:
            return other.pid != self.me.pid and self.alive(other.pid)
        return self.clock() - other.seen < STALE_SECONDS

    async def take(self) -> Holder | None:
        """Claim the table; the holder when another console has it (nothing changed then).

        A compare-and-set on the claim's setting (`Store.swap_chat_setting`):
        of two consoles started at the same moment, the first swap wins and
        the other reads the winner. Written blindly, both read "free", both
        wrote, and both could go on playing the one table."""
        for _ in range(TRIES):
            held = (await self.store.get_chat_settings(self.chat_id)).get(KEY)
            current = Holder.of(held)
            if current is not None and self.holds(current):
                return current
            if await self._swap(held):
                return None
        # Swapped away every time: the others are taking and giving it up as fast as
        # this reads; whoever holds it now is the answer (nobody: taken by the next start).
        current = Holder.of((await self.store.get_chat_settings(self.chat_id)).get(KEY))
        return current if current is not None and self.holds(current) else None

    async def renew(self) -> None:
        """Say this console still has the table (at most every `RENEW_SECONDS`),
        unless another took it over since (a stale claim, taken from another machine)."""
        if self.clock() - self.renewed >= RENEW_SECONDS:
            await self._swap(self.me.as_dict())

    async def release(self) -> None:
        """Give the table up, unless another console took it over since."""
        await self.store.swap_chat_setting(self.chat_id, KEY, self.me.as_dict(), None)

    async def _swap(self, held: Any) -> bool:
        """Write this console's claim where the setting still holds `held`."""
        now = self.clock()
        mine = Holder(self.me.token, self.me.pid, self.me.host, now)
        if not await self.store.swap_chat_setting(self.chat_id, KEY, held, mine.as_dict()):
            return False
        self.me, self.renewed = mine, now
        return True
