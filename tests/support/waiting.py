"""Waiting in a test for something another process or task does."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def until(check: Callable[[], Awaitable[T]], timeout: float, what: str) -> T:
    """Ask `check` every 20 ms until it answers something true (returned), or
    fail with `what` after `timeout` seconds. Why a poll: the thing awaited
    happens in a bot process or a server the test only sees from outside."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await check()
        if found:
            return found
        if loop.time() > deadline:
            raise AssertionError(what)
        await asyncio.sleep(0.02)
