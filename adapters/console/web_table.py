"""`unobot play --web`: the console's own table in a browser too.

What a console player expects of "Open the table": the same game on a
second screen (a phone on the sofa, a laptop beside the terminal), their
own hand as cards, playable from there as from the terminal. So the page
is served for the console's chat, and the link printed when a game starts
is a player link for the console's person and that game only
(`links.player_token`, signed with the web table's secret, valid `HOURS`;
"Play again" prints the next game's); a move made on the page is the same move
(the same store, the same compare-and-set saves): the terminal shows it at
its next line (a command typed against the older table is refused as
stale and the table is shown again).

Why a thread with a loop and a store connection of its own: the console
reads its prompts with a blocking read, which would freeze a server on the
console's own loop. The thread's server is then "another process" on the
same Redis (the embedded server, or `--store URL`), and the store's change
feed carries each side's moves to the other. A memory store cannot be
shared with it: `--web` needs Redis.

`--web` binds `web.listen` and `web.port` (config.yaml); for a phone on the
LAN set `web.listen: 0.0.0.0` and `web.public_url: http://<this machine>:8080`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unobot.config import Config

#: Hours the console player's link stays valid.
HOURS = 12.0


@dataclass
class ServedTable:
    """The web table running in its own thread; `stop()` ends it."""

    #: The console person's link to one game (its seed): valid for that game only.
    link_for: Callable[[int], str]
    thread: threading.Thread
    loop: asyncio.AbstractEventLoop
    stopping: asyncio.Event = field(repr=False)

    def stop(self, timeout: float = 5.0) -> None:
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(timeout)


def serve(config: Config, redis_url: str, prefix: str, chat: str, person: str, name: str,
          lang: str) -> ServedTable:
    """Start the web table for `chat` in a thread (on its own connection to
    `redis_url`); return the console person's link once it listens. Raises
    OSError when the address cannot be bound."""
    from unobot.adapters.redis_store import RedisStore
    from unobot.adapters.web.cli import web_config
    from unobot.adapters.web.server import WebTable, start
    from unobot.chat.service import ChatService, Defaults

    wc = web_config(config)  # one secret for the server and the link (a random one, without a token)
    wc.browser_tables = False  # only the console's table is served
    wc.places = ("console",)  # a page opened without its link is told the console prints it
    ready = threading.Event()
    failed: list[BaseException] = []
    held: dict[str, Any] = {}

    async def main() -> None:
        stopping = asyncio.Event()
        held["stopping"] = stopping
        held["loop"] = asyncio.get_running_loop()
        store = RedisStore.from_url(redis_url, prefix=prefix)
        game = config.game
        service = ChatService(store, defaults=Defaults(variant=game.default_variant, lang=lang))
        table = held["table"] = WebTable(service, wc)
        try:
            runner = await start(table, config.web.listen, config.web.port)
        except OSError as exc:
            failed.append(exc)
            ready.set()
            await store.close()
            return
        ready.set()
        try:
            await stopping.wait()
        finally:
            await runner.cleanup()
            await store.close()

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # reported to the console, never a traceback in its screen
            failed.append(exc)
            ready.set()

    thread = threading.Thread(target=run, name="unobot-web-table", daemon=True)
    thread.start()
    ready.wait(15)
    if failed:
        raise OSError(str(failed[0]))
    if "table" not in held or not ready.is_set():
        raise OSError("the web table did not start")
    served: Any = held["table"]

    def link_for(seed: int) -> str:  # pure: it only signs a token with the server's secret
        return str(served.player_link(chat, person, name, seconds=HOURS * 3600.0, game=seed, lang=lang))

    return ServedTable(link_for, thread, held["loop"], held["stopping"])
