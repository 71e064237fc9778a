"""Private notices (the cards a player drew, "a game just opened in ...",
/notify's confirmation), sent by this process's own tasks, never from an
update handler.

Why: a handler that sent them itself would wait for Telegram's bot-wide
budget (about 30 messages a second, all chats together) while holding one
of python-telegram-bot's update slots; under a storm in many chats the
slots filled with such handlers and a quiet player's hand waited 6 to 30 s
(issue 15). Here a handler queues a notice and goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from .limiter import WORKER

log = logging.getLogger(__name__)

Send = Callable[[], Awaitable[None]]


class NoticeSender:
    """Private messages, sent by this process's own tasks: `submit` queues one
    and returns at once.

    One task per recipient (its worker) sends that person's messages in the
    order they were queued, each when the bot-wide budget allows (the rate
    limiter paces the worker, not the handler that queued it). Nothing is
    coalesced: each notice says something else. At most `size` notices wait
    at a time; beyond that a new one is dropped with a warning. A notice
    lost that way, or with a process that dies, costs nothing a player
    needs: their hand says what they drew last (`inline_results`)."""

    def __init__(self, size: int = 10000) -> None:
        self.size = size
        self._queues: dict[int, deque[Send]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._waiting = 0

    def submit(self, user_id: int, send: Send) -> bool:
        """Queue `send` (a coroutine function that sends one message to
        `user_id`); False when it was dropped (too many waiting)."""
        if self._waiting >= self.size:
            log.warning("private notice to %s dropped: %d notices are waiting", user_id, self._waiting)
            return False
        self._queues.setdefault(user_id, deque()).append(send)
        self._waiting += 1
        if user_id not in self._workers:
            self._workers[user_id] = asyncio.get_running_loop().create_task(self._work(user_id),
                                                                            name=f"unobot-notices-{user_id}")
        return True

    async def _work(self, user_id: int) -> None:
        WORKER.set("notices")  # this task's own context: for the limiter's accounts
        try:
            while True:
                queue = self._queues.get(user_id)
                if not queue:
                    self._queues.pop(user_id, None)
                    return
                send = queue.popleft()
                self._waiting -= 1
                try:
                    await send()
                except Exception as exc:  # noqa: BLE001 - a worker must outlive any one notice
                    log.warning("private notice to %s not sent: %s", user_id, exc)
        finally:
            self._workers.pop(user_id, None)

    def busy(self) -> bool:
        return bool(self._workers)

    async def idle(self) -> None:
        """Wait until every queued notice is sent (or given up)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)
