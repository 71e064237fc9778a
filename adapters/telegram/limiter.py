"""The rate limiter: Telegram's message budgets, without one chat holding up another.

Why not python-telegram-bot's `AIORateLimiter`: it paces every call that
names a chat (`getChatMember` admin checks too), and one 429 anywhere
pauses every call of the bot until it passes. Under a busy group that made
the whole bot wait (issue 15). Here:

* only calls that post into a chat (`POSTING`: send and edit; what
  Telegram counts as messages) spend a budget: the group's (about 20 a
  minute, bursts allowed) and the bot's own (about 30 a second, all chats
  together). Answers (`answerInlineQuery`, `answerCallbackQuery`) and
  reads (`getChatMember`, `getChat`...) spend none and never wait here;
  nor do edits of a picked inline result's message (no chat named: they
  answer the player who picked it);
* a 429 for one chat pauses that chat only;
* a call says how much it matters (`PRIORITY`, a context variable set by
  the caller): `NORMAL` (a lobby, a round's message, a re-posted status,
  a private notice) takes any token; `EDIT` (status edits, which a later
  edit makes redundant anyway) leaves `reserve` tokens of the group's
  budget, so a new message does not wait behind edits, unless the chat
  has seen no status for `stale` seconds (then the edit takes any token:
  a busy group's status is never left older than that; and even then it
  leaves `room` tokens, so a command's reply finds one); `REPLY` (a reply
  to a command or a refusal: `replies.ReplySender` sends it from a task of
  its own) takes the group's next token, ahead of the edits (no edit takes
  a token while a reply waits for one in that group), and leaves the
  bot-wide budget's `overall_reserve` to the posts that must go (status
  edits, notices); `SHED` (a post nobody misses) takes a token only if
  both budgets have one now, and is dropped (`Shed`) otherwise: it never
  waits.

A caller that waits here waits alone: the status editor's or the notice
sender's own task, never an update handler, except for the one message a
handler must post itself (a lobby). `WORKER` says who waits; `waited`
counts the calls that did, by endpoint and waiter, for tests and
benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter

from .guard import split_place

log = logging.getLogger(__name__)

NORMAL, EDIT, SHED, REPLY = "normal", "edit", "shed", "reply"
PRIORITY: ContextVar[str] = ContextVar("unobot_priority", default=NORMAL)
#: Set by a caller that already took the tokens (`GroupLimiter.acquire`, `take_now`)
#: for the call it makes now: waiting first, then building the call, means the
#: call shows the newest state when it goes out (the status editor does so).
PREPAID: ContextVar[bool] = ContextVar("unobot_prepaid", default=False)
#: Who makes the call: "handler" (an update handler or a job), or the name of
#: the background worker whose task it is ("status", "notices").
WORKER: ContextVar[str] = ContextVar("unobot_worker", default="handler")

#: Methods that post into a chat: they spend the chat's message budget and the bot's.
POSTING = frozenset({
    "sendMessage", "editMessageText", "editMessageReplyMarkup", "editMessageCaption", "editMessageMedia",
    "sendSticker", "sendPhoto", "sendDocument", "sendAnimation", "sendVideo", "sendVoice", "sendAudio",
    "sendLocation", "sendContact", "sendVenue", "copyMessage", "copyMessages", "forwardMessage",
    "forwardMessages", "sendMediaGroup", "sendDice", "sendPoll",
})


class Shed(TelegramError):
    """A call of priority SHED found a budget spent: not sent."""


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
    #: Replies waiting for this budget's next token: edits wait behind them.
    replies: int = 0

    def refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def spend(self, now: float) -> None:
        """One post, now (after `refill`): a token less, and the chat has shown something."""
        self.tokens -= 1.0
        self.last_post = now


def _seconds(exc: RetryAfter) -> float:
    value: Any = getattr(exc, "_retry_after", None)
    if value is None:
        value = exc.retry_after
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)


class GroupLimiter(BaseRateLimiter[int]):
    """Telegram's budgets: `group_per_minute` per group (a burst of
    `group_burst`), `overall_per_second` for the whole bot.

    `stale`: a status edit waits for the group's reserve unless the group
    has shown nothing for this long. 3.0 s is exactly the group budget's
    refill (20 a minute: one token every 3 s): a busy group's edits, once
    they spent the budget down to the reserve, go out one every 3 s, each
    taking the token the last 3 s refilled, so the reserve stays. Shorter
    would not show more: edits faster than the refill only spend the
    reserve, then wait 3 s for each token anyway. A reply or a round's
    message in the group spends a token too, and the edit after it waits
    for the next one (up to 3 s more): the budget allows no more posts.

    `room`: the tokens even a stale edit leaves, so that a command typed
    after a fast game finds one at once (issue 25: the edits had spent the
    group's budget to zero, and every reply was dropped). Edits still go
    one every 3 s in a busy group: each takes the token the last 3 s
    refilled beyond the room."""

    def __init__(self, *, group_per_minute: float = 20.0, group_burst: float = 20.0,
                 overall_per_second: float = 30.0, overall_reserve: float = 10.0, reserve: float = 2.0,
                 stale: float = 3.0, room: float = 1.0, max_retries: int = 3,
                 clock: Callable[[], float] = time.monotonic, size: int = 4096) -> None:
        self.group_rate = group_per_minute / 60.0
        self.group_burst = group_burst
        self.overall_rate = overall_per_second
        self.overall_reserve = min(overall_reserve, max(0.0, overall_per_second - 1.0))
        self.reserve = reserve
        self.stale = stale
        self.room = room
        self.max_retries = max_retries
        self.clock = clock
        self.size = size
        self._groups: OrderedDict[int, Budget] = OrderedDict()
        self._overall: Budget | None = None
        #: (endpoint, `WORKER`) -> how many calls waited for a budget.
        self.waited: Counter[tuple[str, str]] = Counter()

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    def budget(self, chat_id: int) -> Budget:
        """The group's budget; a group met anew (or again after a rest) gets a full one.

        The budgets are kept least recently used first, and a new one makes
        room: the budgets at the front that are at rest leave (full again,
        not blocked by a 429, no reply waiting, nothing posted for `stale`
        seconds: a fresh budget is the same), then, beyond `size`, the
        oldest. So the limiter holds the groups of the last minute or so,
        not every group it met (issue 25's soak: one budget per game, kept)."""
        budget = self._groups.get(chat_id)
        if budget is not None:
            self._groups.move_to_end(chat_id)
            return budget
        now = self.clock()
        while self._groups:
            oldest = next(iter(self._groups.values()))
            if len(self._groups) < self.size and not self._at_rest(oldest, now):
                break
            self._groups.popitem(last=False)
        budget = self._groups[chat_id] = Budget(self.group_burst, self.group_burst, self.group_rate, now)
        return budget

    def _at_rest(self, budget: Budget, now: float) -> bool:
        refilled = budget.tokens + (now - budget.stamp) * budget.rate
        return refilled >= budget.capacity and now >= budget.blocked_until and not budget.replies \
            and now - budget.last_post >= self.stale

    def overall(self) -> Budget | None:
        """The bot-wide budget (None: not paced)."""
        if not self.overall_rate:
            return None
        if self._overall is None:
            self._overall = Budget(self.overall_rate, self.overall_rate, self.overall_rate, self.clock())
        return self._overall

    def _group_budget(self, chat_id: int | None) -> Budget | None:
        if chat_id is not None:
            chat_id = split_place(chat_id)[0]  # a forum topic spends its chat's budget
        return self.budget(chat_id) if chat_id is not None and chat_id < 0 and self.group_rate else None

    def take_now(self, chat_id: int) -> bool:
        """Spend the tokens of a message that must not wait (the round's, with
        Next round) now: one of the group's budget and one of the bot's. True
        when taken (send it `prepaid`), False when there is nothing to take
        from, or when Telegram itself told the bot to wait in this chat (a
        429: nothing may go sooner, so the message waits like any other).

        The tokens are taken even when none are left: the budget goes below
        zero and the status edits behind the message wait that much longer
        (edits are the posts that can wait: a later one shows the same
        state), so over time the group still posts no more than its budget.
        One message a round ends with: a debt of at most one token per
        round."""
        group = self._group_budget(chat_id)
        overall = self.overall()
        if group is None and overall is None:
            return False
        now = self.clock()
        if group is not None and now < group.blocked_until:
            return False
        for budget in (group, overall):
            if budget is not None:
                budget.refill(now)
                budget.spend(now)
        return True

    def _need(self, budget: Budget, level: str, now: float, *, bot_wide: bool = False) -> float:
        """Tokens `budget` must hold for a call of `level` to take one now."""
        if bot_wide:
            return 1.0 + (self.overall_reserve if level in (SHED, REPLY) else 0.0)
        if level == EDIT:
            if budget.replies:
                return float("inf")  # a reply waits for this group's next token: it goes first
            if now - budget.last_post < self.stale:
                # An edit leaves the reserve, unless the chat has shown nothing for
                # `stale` seconds: a status is never left older than that.
                return min(1.0 + self.reserve, budget.capacity)
            return min(1.0 + self.room, budget.capacity)
        return 1.0

    async def _take(self, budget: Budget, level: str, endpoint: str, *, bot_wide: bool = False) -> None:
        if level == REPLY and not bot_wide:
            budget.replies += 1
            try:
                await self._wait_for(budget, level, endpoint, bot_wide=False)
            finally:
                budget.replies -= 1
            return
        await self._wait_for(budget, level, endpoint, bot_wide=bot_wide)

    async def _wait_for(self, budget: Budget, level: str, endpoint: str, *, bot_wide: bool) -> None:
        rate = budget.rate or 1.0
        waited = False
        while True:
            now = self.clock()
            budget.refill(now)
            need = self._need(budget, level, now, bot_wide=bot_wide)
            if now >= budget.blocked_until and budget.tokens >= need:
                budget.spend(now)
                return
            if level == SHED:
                raise Shed("a message budget is spent; this reply is dropped")
            if not waited:
                waited = True
                self.waited[endpoint, WORKER.get()] += 1
            if need == float("inf"):  # behind a reply: look again once it had its turn
                await asyncio.sleep(min(0.05, 1.0 / rate))
                continue
            wait = (need - budget.tokens) / rate
            if level == EDIT and not bot_wide and need > 1.0:
                # Wake when the edit may take any token (`stale`), if that is sooner.
                stale_need = min(1.0 + self.room, budget.capacity)
                wait = min(wait, max(budget.last_post + self.stale - now, (stale_need - budget.tokens) / rate))
            await asyncio.sleep(max(wait, budget.blocked_until - now, 0.001))

    def _take_or_shed(self, group: Budget | None, overall: Budget | None) -> None:
        """Both tokens of a SHED call now, or neither (`Shed`)."""
        now = self.clock()
        for budget, bot_wide in ((group, False), (overall, True)):
            if budget is None:
                continue
            budget.refill(now)
            if now < budget.blocked_until or budget.tokens < self._need(budget, SHED, now, bot_wide=bot_wide):
                raise Shed("a message budget is spent; this reply is dropped")
        for budget in (group, overall):
            if budget is not None:
                budget.spend(now)

    async def _take_both(self, group: Budget | None, overall: Budget | None, level: str, endpoint: str) -> None:
        if level == SHED:
            self._take_or_shed(group, overall)
            return
        if group is not None:
            await self._take(group, level, endpoint)
        if overall is not None:
            await self._take(overall, level, endpoint, bot_wide=True)

    async def acquire(self, chat_id: int, level: str = EDIT, endpoint: str = "editMessageText") -> None:
        """Wait for (and take) the tokens of a call into `chat_id` made next
        with `PREPAID` set: the group's (a group) and the bot's."""
        await self._take_both(self._group_budget(chat_id), self.overall(), level, endpoint)

    @staticmethod
    def _chat(data: dict[str, Any]) -> int | None:
        chat_id = data.get("chat_id")
        if isinstance(chat_id, str):
            with contextlib.suppress(ValueError):
                chat_id = int(chat_id) if len(chat_id) < 24 else None
        return chat_id if isinstance(chat_id, int) and not isinstance(chat_id, bool) else None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat = self._chat(data) if endpoint in POSTING else None
        if chat is None:  # an answer, a read, a picked result's message: no budget
            return await callback(*args, **kwargs)
        level = PRIORITY.get()
        group = self._group_budget(chat)
        overall = self.overall()
        retries = rate_limit_args if rate_limit_args is not None else self.max_retries
        prepaid = PREPAID.get()
        for attempt in range(retries + 1):
            if not (prepaid and attempt == 0):
                await self._take_both(group, overall, level, endpoint)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                wait = _seconds(exc)
                if group is not None:  # only this chat waits
                    group.blocked_until = self.clock() + wait + 0.1
                    group.tokens = 0.0
                if attempt == retries or level == SHED:
                    log.info("flood limit in %s: %s call given up (retry after %ss)", chat, endpoint, wait)
                    raise
                if group is None:
                    self.waited[endpoint, WORKER.get()] += 1
                    await asyncio.sleep(wait + 0.1)
        raise AssertionError("unreachable")  # pragma: no cover
