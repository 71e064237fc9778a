"""The HTTP transport: python-telegram-bot's httpx request, posting JSON bodies.

Why: PTB's `HTTPXRequest` sends every call as an HTML form, each value
JSON-encoded on its own and then percent-encoded. A status edit or a hand
of inline results is mostly JSON punctuation, which percent-encoding
triples in size and, measured, costs more CPU than the rest of the call's
encoding. The Bot API takes `application/json` bodies as well, so calls
without files go out as one JSON document: smaller on the wire, one
encoding pass. Calls that upload files keep PTB's multipart path.

Errors map exactly as PTB's do (a timeout is `TimedOut`, any other httpx
failure `NetworkError`), so retries, the rate limiter and the handlers see
no difference.

One more duty, for several bot processes: an edit that the rate limiter
held back (Telegram's flood limits) may by now show an older state than
an edit another process already sent for a newer one. Such an edit carries
an `EditGuard` (a context variable: the limiter awaits in the caller's
task); when it was held for a while, the guard asks the store whether its
state is still the newest just before it goes out, and a stale one is
dropped (`Superseded`) instead of overwriting the newer status.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

import httpx
from telegram.error import NetworkError, TelegramError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData

HEADERS = {"User-Agent": HTTPXRequest.USER_AGENT, "Content-Type": "application/json"}

#: An edit that waited longer than this (seconds) re-checks before it goes out.
HELD = 0.25


class Superseded(TelegramError):
    """A held-back edit whose state is no longer the newest: not sent."""


@dataclass
class EditGuard:
    #: True while the edit's state is still the newest one saved.
    still_current: Callable[[], Awaitable[bool]]
    since: float = field(default_factory=time.monotonic)

    async def check(self) -> None:
        if time.monotonic() - self.since <= HELD:
            return
        try:
            current = await self.still_current()
        except Exception:  # the store cannot tell (an outage): better shown than lost
            current = True
        if not current:
            raise Superseded("a newer state was saved while this edit waited; it is dropped")


EDIT_GUARD: ContextVar[EditGuard | None] = ContextVar("unobot_edit_guard", default=None)


def _timeout(value: object, default: float | None) -> float | None:
    """A call's own timeout, or the client's when the call left it to the default."""
    return default if isinstance(value, type(BaseRequest.DEFAULT_NONE)) else value  # type: ignore[return-value]


class JsonRequest(HTTPXRequest):
    """`HTTPXRequest` that posts file-less calls as `application/json`."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: object = BaseRequest.DEFAULT_NONE,
        write_timeout: object = BaseRequest.DEFAULT_NONE,
        connect_timeout: object = BaseRequest.DEFAULT_NONE,
        pool_timeout: object = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        guard = EDIT_GUARD.get()
        if guard is not None:
            await guard.check()
        if request_data is None or request_data.contains_files or self._client.is_closed:
            return await super().do_request(url, method, request_data, read_timeout,  # type: ignore[arg-type]
                                            write_timeout, connect_timeout, pool_timeout)  # type: ignore[arg-type]
        defaults = self._client.timeout
        timeout = httpx.Timeout(connect=_timeout(connect_timeout, defaults.connect),
                                read=_timeout(read_timeout, defaults.read),
                                write=_timeout(write_timeout, defaults.write),
                                pool=_timeout(pool_timeout, defaults.pool))
        body = json.dumps(request_data.parameters, ensure_ascii=False, separators=(",", ":")).encode()
        try:
            response = await self._client.request(method=method, url=url, headers=HEADERS,
                                                   timeout=timeout, content=body)
        except httpx.TimeoutException as exc:
            if isinstance(exc, httpx.PoolTimeout):
                raise TimedOut("Pool timeout: every connection of the pool is busy; "
                               "the request was not sent.") from exc
            raise TimedOut from exc
        except httpx.HTTPError as exc:
            raise NetworkError(f"httpx.{type(exc).__name__}: {exc}") from exc
        return response.status_code, response.content
