"""The webhook server: an update is answered 200 only once its handler ran.

Why not python-telegram-bot's webhook server (`Updater.start_webhook`): it
answers 200 as soon as the update is queued, before any handler ran, and
Telegram never sends an update again once it got its 200. A process that
dies (a deploy, the OOM killer) with updates queued loses them: a move
made, gone. Why not PTB's hooks: it has none between "parsed" and
"answered". So this is a small aiohttp server of our own (aiohttp is
already installed with discord.py): it checks the secret, refuses a body
above `MAX_BODY` before reading it whole (a 20 MB body doubled the
process's memory), parses the update, runs it through
`Application.process_update` (every handler, to the end: the move saved or
refused) and only then answers 200. A process killed meanwhile answers
nothing, and Telegram delivers the update again, to whichever process
serves the URL then.

A redelivered update that was already applied changes nothing, whichever
process gets it: each update is handled under a claim in the store that
every process serving the bot shares (core's `delivery.Deliveries`: a
repeat waits for the first copy's outcome and is answered 200 unhandled;
one whose process died meanwhile is handled once the claim's lease ran
out). One that died after saving and before its "done" mark left the
update's key in the table it changed (core's `chat.delivered`): the repeat
changes nothing and says nothing, and the table is shown as it is. A process also remembers the ids it handled (`seen`, bounded), to
answer its own repeats without asking the store. And a move carries the
table version it was made on, so a pick of an old hand is refused by the
service however it arrives.

The same server answers `GET /healthz` (the store pinged) and
`GET /metrics` (Prometheus' text format: `metrics.py`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import signal
import socket
import time
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from unobot.adapters import metrics
from unobot.adapters.startup import WEBHOOK_SERVER, listening_socket
from unobot.chat.bounded import BoundedCache
from unobot.delivery import AGAIN, Again, Deliveries, redelivered
from unobot.store import StoreError

from .app import start_menu
from .runtime import KEY

log = logging.getLogger(__name__)

#: The largest update body read (bytes). Telegram's updates are a few
#: kilobytes (a message of 4,096 characters with its entities, a poll);
#: anything much larger is not Telegram.
MAX_BODY = 1 << 20
#: Update ids remembered per process, to answer a redelivery without handling it again.
SEEN = 4096
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"

App = Application[Any, Any, Any, Any, Any, Any]


class WebhookServer:
    """Serves one Application's webhook at `path` (and /healthz, /metrics)."""

    def __init__(self, app: App, *, path: str, secret: str | None, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.path = "/" + path.lstrip("/")
        self.secret = secret
        self.max_body = max_body
        self.seen: BoundedCache[int, bool] = BoundedCache(SEEN)
        self._deliveries: Deliveries | None = None
        self._runner: web.AppRunner | None = None
        # Commands that met the store down, answered 503 (Telegram sends them again until it is
        # back), whose sender was told so: not told again at each repeat.
        self.told: BoundedCache[int, bool] = BoundedCache(SEEN)
        web_app = web.Application(client_max_size=max_body)
        web_app.router.add_post(self.path, self.on_update)
        web_app.router.add_get("/healthz", self.on_health)
        web_app.router.add_get("/metrics", self.on_metrics)
        self.web_app = web_app

    async def start(self, listen: str, port: int, sock: socket.socket | None = None) -> None:
        """Serve on `listen`:`port`, or on `sock` when it was bound beforehand (`bind`)."""
        self._runner = web.AppRunner(self.web_app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.SockSite(self._runner, sock) if sock is not None else web.TCPSite(self._runner, listen, port)
        await site.start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def on_update(self, request: web.Request) -> web.Response:
        if self.secret is not None and not hmac.compare_digest(
                request.headers.get(SECRET_HEADER, "").encode(), self.secret.encode()):
            return web.Response(status=403)
        length = request.content_length
        if length is not None and length > self.max_body:
            metrics.UPDATES.labels("telegram", "too_large").inc()
            return web.Response(status=413)
        try:
            body = await request.read()  # aiohttp stops at client_max_size: 413 without a length too
            data = json.loads(body)
        except web.HTTPRequestEntityTooLarge:
            metrics.UPDATES.labels("telegram", "too_large").inc()
            return web.Response(status=413)
        except (ValueError, UnicodeDecodeError):
            metrics.UPDATES.labels("telegram", "malformed").inc()
            return web.Response(status=400)
        update_id = data.get("update_id") if isinstance(data, dict) else None
        if isinstance(update_id, int) and update_id in self.seen:
            metrics.UPDATES.labels("telegram", "repeated").inc()
            return web.Response(status=200)  # handled already: Telegram may forget it
        try:
            update = Update.de_json(data, self.app.bot)
        except Exception as exc:  # noqa: BLE001 - an update PTB cannot parse never will be: not asked again
            log.warning("webhook update %s could not be parsed and is skipped (%s: %s)",
                        update_id, type(exc).__name__, exc)
            metrics.UPDATES.labels("telegram", "unparsable").inc()
            return web.Response(status=200)
        started = time.perf_counter()

        # Updates are numbered per bot: the key names the bot, so bots sharing a store never meet.
        key = f"telegram:{self.app.bot.id}:{update_id}" if isinstance(update_id, int) else None

        async def run() -> Again | None:
            # The key goes with the change it makes (core's `chat.delivered`): a repeat whose
            # first copy saved and then died before the "done" mark is known by the table.
            with redelivered(told=update.update_id in self.told, key=key) as again:
                await self.app.process_update(update)  # every handler to its end; their errors go to on_error
            if again.wanted:  # a command met the store down before saving: Telegram sends it again
                self.told.put(update.update_id, True)
                return AGAIN
            self.told.pop(update.update_id)
            return None

        deliveries = self.deliveries()
        if deliveries is None or key is None:
            outcome = "again" if await run() is AGAIN else "handled"
        else:
            outcome = await deliveries.handle(key, run)
        if outcome == "later":  # another process still handles it: Telegram sends it again later
            metrics.UPDATES.labels("telegram", "held_elsewhere").inc()
            return web.Response(status=503, headers={"Retry-After": "5"})
        if outcome == "again":  # it met the store down: Telegram sends it again until it is back
            metrics.UPDATES.labels("telegram", "store_down").inc()
            return web.Response(status=503, headers={"Retry-After": "5"})
        if outcome == "repeated":
            metrics.UPDATES.labels("telegram", "repeated").inc()
        else:
            metrics.HANDLING.labels("telegram").observe(time.perf_counter() - started)
            metrics.UPDATES.labels("telegram", "handled").inc()
        if isinstance(update_id, int):
            self.seen.put(update_id, True)
        return web.Response(status=200)

    def deliveries(self) -> Deliveries | None:
        """The store's shared memory of handled updates (None before the runtime is set up)."""
        if self._deliveries is None:
            rt = self.app.bot_data.get(KEY)
            if rt is not None:
                self._deliveries = Deliveries(rt.store)
        return self._deliveries

    async def on_health(self, request: web.Request) -> web.Response:
        rt = self.app.bot_data.get(KEY)
        if rt is None:
            return web.Response(status=503, text="starting\n")
        try:
            await asyncio.wait_for(rt.store.ping(), 2.0)
        except (StoreError, TimeoutError) as exc:
            return web.Response(status=503, text=f"store unavailable: {type(exc).__name__}\n")
        return web.Response(text="ok\n")

    async def on_metrics(self, request: web.Request) -> web.Response:
        await metrics.refresh()
        body, content_type = metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})


async def serve(app: App, *, listen: str, port: int, path: str, webhook_url: str, secret: str | None,
                allowed_updates: list[str], on_ready: Any = None) -> None:
    """Run `app` behind its webhook until SIGINT/SIGTERM or `app.stop_running()`:
    what `Application.run_webhook` does, with `WebhookServer` in place of PTB's."""
    sock = listening_socket(listen, port, WEBHOOK_SERVER)  # before anything says the bot runs
    server = WebhookServer(app, path=path, secret=secret)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    app.bot_data["unobot.stop"] = stop
    app.bot_data["unobot.setup"]["menu_later"] = True  # once Telegram took the webhook (start_menu)
    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)
        await server.start(listen, port, sock)
        await app.bot.set_webhook(webhook_url, allowed_updates=allowed_updates, secret_token=secret,
                                  max_connections=40)
        start_menu(app)
        await app.start()
        if on_ready is not None:
            on_ready()
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await server.stop()  # no update is taken any more; the ones in hand are done
        sock.close()
        if app.running:
            await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)

