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
no difference. The transport reads no CA file for an `http://` Bot API
address and one, shared, for `https://` (`TlsWhenNeeded`): that file is
most of what building a client costs at start-up.

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
import ssl
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.request import getproxies

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


@cache
def tls_context() -> ssl.SSLContext:
    """The TLS settings httpx would make (certifi's CAs, or $SSL_CERT_FILE /
    $SSL_CERT_DIR), made once a process: reading the CA file is most of a
    client's construction (~45 ms), and every client here can share them."""
    return httpx.create_ssl_context()


class TlsWhenNeeded(httpx.AsyncBaseTransport):
    """The client's transport, made at its first request for each scheme:
    `https://` with the shared `tls_context()` (verified as httpx verifies),
    `http://` (a local Bot API server) without reading any CA file.

    Why: a bot on `http://127.0.0.1:8081/bot` never needs TLS, yet each
    httpx client would read the CA file when made, before the bot's first
    request (two clients: about 0.1 s of a 0.6 s start).
    """

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._by_scheme: dict[str, httpx.AsyncHTTPTransport] = {}

    def _transport(self, scheme: str) -> httpx.AsyncHTTPTransport:
        found = self._by_scheme.get(scheme)
        if found is None:
            # A plain-http pool never starts TLS; its context (no CAs, verification
            # on) would refuse any certificate if it ever did.
            verify = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT) if scheme == "http" else tls_context()
            found = self._by_scheme[scheme] = httpx.AsyncHTTPTransport(verify=verify, **self._options)
        return found

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._transport(request.url.scheme).handle_async_request(request)

    async def aclose(self) -> None:
        for transport in self._by_scheme.values():
            await transport.aclose()


class JsonRequest(HTTPXRequest):
    """`HTTPXRequest` that posts file-less calls as `application/json`, over a
    `TlsWhenNeeded` transport."""

    def _build_client(self) -> httpx.AsyncClient:
        kwargs = dict(self._client_kwargs)
        if kwargs.get("transport") is not None or kwargs.get("proxy") is not None or getproxies():
            # Socket options, or a proxy (given, or in the environment, which httpx
            # honours only for a client that makes its own transport): PTB's client.
            return httpx.AsyncClient(**kwargs)
        limits: httpx.Limits = kwargs["limits"]
        kwargs["transport"] = TlsWhenNeeded(limits=limits, http1=kwargs["http1"], http2=kwargs["http2"])
        return httpx.AsyncClient(**kwargs)

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
