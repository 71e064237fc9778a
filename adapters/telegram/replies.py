"""Replies to commands, sent by this process's own tasks: every command is answered.

Why not from the handler: a reply may have to wait for the group's message
budget (about 20 a minute, which a fast game's status edits spend), and a
handler that waited would hold one of python-telegram-bot's update slots.
Why not dropped when the budget is spent (as before, issue 25): an admin's
`/rules` right after a fast game then got no answer at all. Here a reply
goes at once when the group has a token, else as soon as one comes, ahead of
the group's status edits (the limiter's `REPLY` priority: an edit takes no
token while a reply waits for one).

A flood is met by coalescing, not by queueing: while a reply waits, a
second one with the same text in the same chat (a hundred people typing
`/help`, fifty refusals "A game is already running here") is not queued
again: the one waiting answers them all. Only those repeats are dropped
(`shed` counts them); a different command is always answered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .limiter import REPLY, WORKER, priority

log = logging.getLogger(__name__)

Send = Callable[[], Awaitable[object]]


class ReplySender:
    """`submit` queues a reply and returns at once; its own task sends it.

    At most `size` replies wait at a time (a storm in thousands of groups):
    beyond that a new one is dropped with a warning."""

    def __init__(self, size: int = 10000) -> None:
        self.size = size
        self._waiting: dict[tuple[int, str], asyncio.Task[None]] = {}
        #: Replies not sent because the same one was already waiting in that chat.
        self.shed = 0
        self.sent = 0

    def submit(self, chat_id: int, key: str, send: Send) -> bool:
        """Send `send()` (one reply into `chat_id`) from a task of its own; False
        when a reply with the same `key` already waits in that chat (it answers
        this one too) or too many wait."""
        slot = (chat_id, key)
        if slot in self._waiting:
            self.shed += 1
            return False
        if len(self._waiting) >= self.size:
            self.shed += 1
            log.warning("reply in %s dropped: %d replies are waiting", chat_id, len(self._waiting))
            return False
        self._waiting[slot] = asyncio.get_running_loop().create_task(self._send(slot, send),
                                                                     name=f"unobot-reply-{chat_id}")
        return True

    async def _send(self, slot: tuple[int, str], send: Send) -> None:
        WORKER.set("replies")  # this task's own context: for the limiter's accounts
        try:
            with priority(REPLY):
                await send()
            self.sent += 1
        except Exception as exc:  # noqa: BLE001 - a reply that failed is logged, never raised into nothing
            log.info("reply in %s failed: %s", slot[0], exc)
        finally:
            self._waiting.pop(slot, None)

    def busy(self) -> bool:
        return bool(self._waiting)

    async def idle(self) -> None:
        """Wait until every queued reply is sent (or given up)."""
        while self._waiting:
            await asyncio.gather(*list(self._waiting.values()), return_exceptions=True)
