"""Build the python-telegram-bot Application: handlers, rate limiter, job queue, store.

Why a builder function and not a module-level bot: the CLI runs one
Application per process (polling or webhook), the tests run two against
one Redis, and the benchmark runs one next to a bare bot. All of them pass
what differs (token, Bot API address, store, timings) and get the same
wiring.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import BotCommand
from telegram.error import TelegramError
from telegram.ext import Application, BaseRateLimiter

from unobot.chat.i18n import LANGUAGES, gettext_for
from unobot.chat.service import ChatService, Defaults
from unobot.store import Store

from . import handlers, jobs, stickers
from .bot import UnoBot
from .limiter import GroupLimiter
from .runtime import KEY, Options, Runtime
from .scheduler import Scheduler, SchedulerFactory
from .texts import COMMANDS
from .transport import JsonRequest

log = logging.getLogger(__name__)

StoreFactory = Callable[[], Awaitable[Store]]


def build_application(
    token: str,
    *,
    base_url: str | None = None,
    store: Store | None = None,
    store_factory: StoreFactory | None = None,
    defaults: Defaults | None = None,
    service: ChatService | None = None,
    options: Options | None = None,
    rate_limiter: BaseRateLimiter[Any] | None = None,
    concurrent_updates: bool | int = 64,
    set_commands: bool = True,
    scheduler: SchedulerFactory | None = None,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """An Application ready for `run_polling`/`run_webhook` (or manual start in tests).

    Give a `store` (the caller closes it) or a `store_factory` (opened at
    start-up, closed at shutdown). `rate_limiter` defaults to
    AIORateLimiter with RetryAfter honoured up to three times.
    `scheduler` makes the job scheduler from (application, the service's
    clock, the job callbacks); by default python-telegram-bot's JobQueue runs
    the jobs (tests give one that runs on a fake clock).
    Updates run concurrently: the service's compare-and-set keeps games
    consistent, and status edits are ordered by table version.
    """
    if store is None and store_factory is None and service is None:
        raise ValueError("give a store, a store_factory or a service")
    bot = UnoBot(token, base_url=base_url or "https://api.telegram.org/bot",
                 rate_limiter=rate_limiter or GroupLimiter(max_retries=3),
                 request=JsonRequest(), get_updates_request=JsonRequest(connection_pool_size=1))
    app = (
        Application.builder()
        .bot(bot)
        .concurrent_updates(concurrent_updates)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .build()
    )
    app.bot_data["unobot.setup"] = {
        "store": store, "factory": store_factory, "defaults": defaults, "service": service,
        "options": options or Options(), "set_commands": set_commands,
        "scheduler": scheduler,
    }
    handlers.install(app)
    return app


async def _post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Open the store, set up the runtime, publish the command menu.

    run_polling/run_webhook call this after initialize(); code that starts
    the application by hand (tests, embedding) calls `app.post_init(app)`.

    The menu goes out while the store opens (importing a Redis client and
    connecting are most of it): the bot starts taking updates one round
    trip to Telegram sooner, with the menu set.
    """
    setup = app.bot_data["unobot.setup"]
    menu = asyncio.ensure_future(register_commands(app)) if setup["set_commands"] else None
    try:
        await _open_runtime(app, setup)
    except BaseException:
        if menu is not None:
            menu.cancel()
            with contextlib.suppress(BaseException):
                await menu
        raise
    if menu is not None:
        await menu
    if app.job_queue is not None and setup["options"].sticker_owner:
        app.job_queue.run_once(jobs.make_stickers, when=0, name=stickers.JOB)  # tries again after a failure


async def _open_runtime(app: Application[Any, Any, Any, Any, Any, Any], setup: dict[str, Any]) -> None:
    """The store (opened now if the application was given a factory), the service and the runtime."""
    service: ChatService | None = setup["service"]
    store = service.store if service is not None else setup["store"]
    if store is None:
        store = await setup["factory"]()
        setup["owned"] = store
    if service is None:
        service = ChatService(store, defaults=setup["defaults"])
    rt = app.bot_data[KEY] = Runtime(service=service, store=store, options=setup["options"],
                                     bot_username=app.bot.username)
    make_scheduler = setup["scheduler"] or (Scheduler if app.job_queue is not None else None)
    if make_scheduler is not None:
        # The jobs keep the service's time: a timer is due when the service agrees it ran out.
        rt.scheduler = make_scheduler(app, service.clock, jobs.CALLBACKS)
    if rt.scheduler is not None and setup["options"].replan_at_start:
        rt.scheduler.plan("replan", 0, rt.scheduler.now(), {"chat": 0})


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    rt = app.bot_data.get(KEY)
    if rt is not None:  # the status edits and notices on their way go out before the store closes
        try:
            await asyncio.wait_for(asyncio.gather(rt.status.idle(), rt.notices.idle()), 10)
        except TimeoutError:
            log.warning("some status edits or private notices were not sent before shutdown")
    owned = app.bot_data["unobot.setup"].get("owned")
    if owned is not None:
        await owned.close()


async def register_commands(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The command menu in every language (language_code per language; English is
    the default), the languages' calls at once."""
    async def one(lang: str) -> None:
        _ = gettext_for(lang)
        commands = [BotCommand(name, _(description)) for name, description in COMMANDS]
        try:
            await app.bot.set_my_commands(commands, language_code=None if lang == "en" else lang)
        except TelegramError as exc:
            log.warning("setMyCommands (%s) failed: %s", lang, exc)

    await asyncio.gather(*(one(lang) for lang in LANGUAGES))
