"""The Redis store's change feed (``core/changes.py``): Redis pub/sub.

Why pub/sub and not keyspace notifications: a notification says a key was
written, not whose game at which version, and needs the server configured
(``notify-keyspace-events``), which a managed Redis may not allow. A
``PUBLISH`` after each save works on any Redis (a cluster carries it to
every node) and says exactly what a follower needs.

Channel ``<prefix>:changes``; each message is JSON
``{"c": chat, "g": game id, "v": version, "o": origin}``, with ``"s": shown by``
when the saving process shows its saves on a front-end itself: no state, no card.

Why the saves do not wait for their message: a save's latency is a move's
latency, and the message is a hint (followers re-read the table). The
messages go out in order from one worker per store, soon after their save;
`close()` sends the ones still due. A message lost to an outage costs
followers a late refresh, never a wrong one: when the listening
connection comes back, the feed says `RESYNC` and they re-read every table
they show.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from unobot.changes import RESYNC, Change, new_origin

log = logging.getLogger(__name__)

#: Messages waiting to go out at most (a store that cannot publish keeps the newest).
MAX_DUE = 10_000


class RedisFeed:
    """Announces a store's changes on its channel and listens to every process's."""

    def __init__(self, client: Any, channel: str, *, retry: float = 0.5) -> None:
        self.client = client
        self.channel = channel
        self.origin = new_origin()
        self.shows = ""
        self.retry = retry
        self._due: deque[str] = deque(maxlen=MAX_DUE)
        self._worker: asyncio.Task[None] | None = None
        #: The store closed: nothing more is announced, listening ends.
        self.closed = False
        self._listening: set[Any] = set()

    # -- announcing ------------------------------------------------------------------
    def announce(self, chat_id: str, game_id: str, version: int) -> None:
        """Queue the message of a saved change (sent by the worker, in order)."""
        if self.closed:
            return
        raw: dict[str, Any] = {"c": chat_id, "g": game_id, "v": version, "o": self.origin}
        if self.shows:
            raw["s"] = self.shows
        self._due.append(json.dumps(raw, separators=(",", ":")))
        if self._worker is None or self._worker.done():
            try:
                self._worker = asyncio.get_running_loop().create_task(self._send())
            except RuntimeError:  # no loop (a store used from sync code): nobody listens either
                self._due.clear()

    async def _send(self) -> None:
        while self._due:
            message = self._due[0]
            try:
                await self.client.publish(self.channel, message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an outage: this hint is lost, the save is not
                log.debug("change not announced: %s", exc)
            if self._due and self._due[0] is message:
                self._due.popleft()

    async def close(self, timeout: float = 1.0) -> None:
        """At the store's close: send what is due, end every listening."""
        self.closed = True
        worker = self._worker
        if worker is not None and not worker.done():
            try:
                await asyncio.wait_for(asyncio.shield(worker), timeout)
            except (TimeoutError, asyncio.CancelledError):
                worker.cancel()
        for pubsub in list(self._listening):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pubsub.aclose(), timeout)

    # -- listening -------------------------------------------------------------------
    async def listen(self) -> AsyncIterator[Change]:
        """Every process's changes; after a lost connection, `RESYNC` once it is
        back. Ends when the store is closed."""
        lost = False
        while not self.closed:
            pubsub = None
            try:
                initialize = getattr(self.client, "initialize", None)
                if initialize is not None:  # a cluster client reads its slot map first
                    await initialize()
                pubsub = self.client.pubsub()
                self._listening.add(pubsub)
                await pubsub.subscribe(self.channel)
                if lost:
                    lost = False
                    yield Change(RESYNC, "", 0, "")
                while not self.closed:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    change = parse(message.get("data"))
                    if change is not None:
                        yield change
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection: listen again, then say what may be missed
                if cancelling():  # a driver that turned our cancellation into an error
                    raise asyncio.CancelledError() from exc
                if self.closed:
                    return
                if not lost:
                    log.warning("change feed: lost the connection (%s); listening again", exc)
                lost = True
            finally:
                if pubsub is not None:
                    self._listening.discard(pubsub)
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
            await asyncio.sleep(self.retry)


def cancelling() -> bool:
    """This task was asked to stop (whatever the exception that came out of it)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def parse(data: Any) -> Change | None:
    """A message's change (None for one this version cannot read)."""
    try:
        raw = json.loads(data)
        change = Change(str(raw["c"]), str(raw["g"]), int(raw["v"]), str(raw["o"]), str(raw.get("s", "")))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return None if change.resync else change
