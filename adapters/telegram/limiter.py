"""The rate limiter: Telegram's message budgets, per group, without one group holding up another.

Why not python-telegram-bot's `AIORateLimiter`: it paces every call that
names a group (`getChatMember` admin checks too), and one 429 anywhere
pauses every call of the bot until it passes. Under a busy group that made
the whole bot wait (issue 15). Here:

* only calls that post into a group (send and edit) spend the group's
  budget (Telegram: about 20 a minute, bursts allowed); admin checks,
  callback and inline answers and private messages spend none of it;
* a 429 for one chat pauses that chat only;
* a call says how much it matters (`PRIORITY`, a context variable set by
  the caller): `NORMAL` (a lobby, a round's message, a re-posted status)
  takes any token; `EDIT` (status edits, which a later edit makes
  redundant anyway) leaves `reserve` tokens, so the next round's message
  does not wait behind edits, unless the chat has seen no status for
  `stale` seconds (then the edit takes any token: a busy group's status
  is never left much older than that); `SHED` (a reply to a command or a refusal,
  which nobody misses in a flood of the same command) takes a token only
  if one is there now, and is dropped (`Shed`) otherwise: it never waits.

A caller that waits here waits alone: the status editor's own task, not an
update handler (see `status.StatusEditor`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

NORMAL, EDIT, SHED = "normal", "edit", "shed"
PRIORITY: ContextVar[str] = ContextVar("unobot_priority", default=NORMAL)
#: Set by a caller that already took the group's token (`GroupLimiter.acquire`)
#: for the call it makes now: waiting first, then building the call, means the
#: call shows the newest state when it goes out (the status editor does so).
PREPAID: ContextVar[bool] = ContextVar("unobot_prepaid", default=False)

#: Methods that post into a chat: they spend the chat's message budget.
POSTING = frozenset({
    "sendMessage", "editMessageText", "editMessageReplyMarkup", "editMessageCaption", "editMessageMedia",
    "sendSticker", "sendPhoto", "sendDocument", "sendAnimation", "copyMessage", "forwardMessage",
    "sendMediaGroup", "sendDice", "sendPoll",
})


class Shed(TelegramError):
    """A call of priority SHED found the group's budget spent: not sent."""


@contextlib.contextmanager
def priority(level: str, *, prepaid: bool = False) -> Any:
    token = PRIORITY.set(level)
    paid = PREPAID.set(prepaid)
    try:
        yield
    finally:
        PREPAID.reset(paid)
        PRIORITY.reset(token)


@dataclass
class Budget:
    """A token bucket: `capacity` tokens, refilled at `rate` a second."""

    tokens: float
    capacity: float
    rate: float
    stamp: float
    blocked_until: float = 0.0
    #: When the last call spent a token (a status shown): see `GroupLimiter.stale`.
    last_post: float = 0.0

    def refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


def _seconds(exc: RetryAfter) -> float:
    value: Any = getattr(exc, "_retry_after", None)
    if value is None:
        value = exc.retry_after
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


class GroupLimiter(BaseRateLimiter[int]):
    def __init__(self, *, group_per_minute: float = 20.0, group_burst: float = 20.0,
                 overall_per_second: float = 30.0, reserve: float = 2.0, stale: float = 3.5,
                 max_retries: int = 3,
                 clock: Callable[[], float] = time.monotonic, size: int = 20000) -> None:
        self.group_rate = group_per_minute / 60.0
        self.group_burst = group_burst
        self.overall_rate = overall_per_second
        self.reserve = reserve
        self.stale = stale
        self.max_retries = max_retries
        self.clock = clock
        self.size = size
        self._groups: OrderedDict[int, Budget] = OrderedDict()
        self._overall: Budget | None = None

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    def budget(self, chat_id: int) -> Budget:
        budget = self._groups.get(chat_id)
        if budget is None:
            budget = Budget(self.group_burst, self.group_burst, self.group_rate, self.clock())
            self._groups[chat_id] = budget
            while len(self._groups) > self.size:
                self._groups.popitem(last=False)
        return budget

    def take_now(self, chat_id: int) -> bool:
        """Spend one token of the group's message budget now, for a message
        that must not wait (the round's, with Next round): True when taken
        (send it `prepaid`), False when there is no group budget to take
        from, or when Telegram itself told the bot to wait in this chat (a
        429: nothing may go sooner, so the message waits like any other).

        The token is taken even when the group has none left: the budget
        goes below zero and the status edits behind the message wait that
        much longer (edits are the posts that can wait: a later one shows
        the same state), so over time the group still posts no more than
        its budget. One message a round ends with: a debt of at most one
        token per round."""
        if chat_id >= 0 or not self.group_rate:
            return False
        budget = self.budget(chat_id)
        now = self.clock()
        if now < budget.blocked_until:
            return False
        budget.refill(now)
        budget.tokens -= 1.0
        budget.last_post = now
        return True

    async def _take(self, budget: Budget, level: str) -> None:
        full = min(1.0 + (self.reserve if level == EDIT else 0.0), budget.capacity)
        rate = budget.rate or 1.0
        while True:
            now = self.clock()
            budget.refill(now)
            # An edit leaves the reserve, unless the chat has shown nothing for
            # `stale` seconds: a status is never left much older than that.
            stale = level == EDIT and now - budget.last_post >= self.stale
            need = 1.0 if stale else full
            if now >= budget.blocked_until and budget.tokens >= need:
                budget.tokens -= 1.0
                budget.last_post = now
                return
            if level == SHED:
                raise Shed("the chat's message budget is spent; this reply is dropped")
            wait = (need - budget.tokens) / rate
            if level == EDIT and not stale:
                wait = min(wait, max(budget.last_post + self.stale - now, (1.0 - budget.tokens) / rate))
            await asyncio.sleep(max(wait, budget.blocked_until - now, 0.001))

    async def acquire(self, chat_id: int, level: str = EDIT) -> None:
        """Wait for (and take) a token of the chat's budget ahead of a call made
        with `PREPAID` set. Private chats have no group budget: no wait."""
        if chat_id < 0 and self.group_rate:
            await self._take(self.budget(chat_id), level)

    async def _take_overall(self) -> None:
        if not self.overall_rate:
            return
        if self._overall is None:
            self._overall = Budget(self.overall_rate, self.overall_rate, self.overall_rate, self.clock())
        await self._take(self._overall, NORMAL)

    @staticmethod
    def _group(data: dict[str, Any]) -> int | None:
        chat_id = data.get("chat_id")
        if isinstance(chat_id, str):
            with contextlib.suppress(ValueError):
                chat_id = int(chat_id) if len(chat_id) < 24 else None
        return chat_id if isinstance(chat_id, int) and chat_id < 0 else None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        level = PRIORITY.get()
        group = self._group(data) if endpoint in POSTING else None
        budget = self.budget(group) if group is not None and self.group_rate else None
        retries = rate_limit_args if rate_limit_args is not None else self.max_retries
        prepaid = PREPAID.get()
        for attempt in range(retries + 1):
            if budget is not None and not (prepaid and attempt == 0):
                await self._take(budget, level)
            if data.get("chat_id") is not None:
                await self._take_overall()
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                wait = _seconds(exc)
                if budget is not None:  # only this chat waits
                    budget.blocked_until = self.clock() + wait + 0.1
                    budget.tokens = 0.0
                if attempt == retries or level == SHED:
                    log.info("flood limit in %s: %s call given up (retry after %ss)", group, endpoint, wait)
                    raise
                if budget is None:
                    await asyncio.sleep(wait + 0.1)
        raise AssertionError("unreachable")  # pragma: no cover
