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
import functools
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from telegram import BotCommand
from telegram.error import TelegramError
from telegram.ext import Application, BaseRateLimiter, CallbackContext

from unobot.adapters import metrics
from unobot.adapters.metrics import MeteredStore
from unobot.adapters.startup import settle_gc
from unobot.adapters.store_factory import store_persistence
from unobot.changes import stop_following
from unobot.chat.bounded import BoundedCache
from unobot.chat.i18n import LANGUAGES, gettext_for
from unobot.chat.service import ChatService, Defaults
from unobot.chat.waker import Waker, follow_changes
from unobot.store import Store, StoreError

from . import handlers, jobs, muted, publish, stickers
from .bot import UnoBot
from .guard import chat_of, telegram_id
from .limiter import GroupLimiter
from .replies import ReplySender
from .runtime import KEY, Options, Runtime, private_lang, telegram_chat, user_langs
from .scheduler import LATE_OK, Scheduler, SchedulerFactory
from .texts import COMMANDS
from .transport import JsonRequest

log = logging.getLogger(__name__)

FRONTEND = "telegram"
#: Where the application keeps its follower of the store's change feed (core's `follow_changes`).
FOLLOWING = "unobot.following"

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
    on_ready: Callable[[Application[Any, Any, Any, Any, Any, Any]], None] | None = None,
    langs: BoundedCache[str, str] | None = None,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """An Application ready for `run_polling`/`run_webhook` (or manual start in tests).

    Give a `store` (the caller closes it) or a `store_factory` (opened at
    start-up, closed at shutdown). `rate_limiter` defaults to
    AIORateLimiter with RetryAfter honoured up to three times.
    `scheduler` makes the job scheduler from (application, the service's
    clock, the job callbacks); by default python-telegram-bot's JobQueue runs
    the jobs (tests give one that runs on a fake clock).
    `on_ready(app)` is called once the bot is set up, before it takes
    updates (the command line says who the bot is).
    `langs` is where the people's app languages are learnt (`runtime.user_langs()`);
    a caller giving its own `service` made it with
    `reader_lang=functools.partial(runtime.private_lang, langs)` over the same
    `langs`, so that a private chat speaks its person's language.
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
        .application_class(UnoApplication)
        .bot(bot)
        .concurrent_updates(concurrent_updates)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .build()
    )
    app.bot_data["unobot.setup"] = {
        "store": store, "factory": store_factory, "defaults": defaults, "service": service,
        "options": options or Options(), "set_commands": set_commands,
        "scheduler": scheduler, "on_ready": on_ready, "langs": langs if langs is not None else user_langs(),
    }
    handlers.install(app)
    bot.when_muted(functools.partial(_on_muted, app))
    return app


def _on_muted(app: Application[Any, Any, Any, Any, Any, Any], chat_id: int) -> None:
    """A post refused in `chat_id` for want of the right to send (`UnoBot._post`): its games
    end (`muted.muted`), in a task of its own (the refused call goes on to its caller)."""
    if KEY not in app.bot_data:  # not set up yet (start-up)
        return
    app.create_task(muted.muted(CallbackContext(app), chat_id), name=f"unobot-muted-{chat_id}")


class UnoApplication(Application[Any, Any, Any, Any, Any, Any]):
    """python-telegram-bot's Application, without its persistence book-keeping
    when there is no persistence.

    Why: PTB 22 marks the chat and the user of every update it handled for its
    persistence (`_mark_for_persistence_update`), and only a persistence run
    empties those two sets. unobot keeps games in its own store and gives PTB
    no persistence, so the sets only grew: one entry for every chat and every
    person the process ever met (found by the soak's tracemalloc, `bench/
    telegram_soak.py --trace`). With no persistence there is nothing to mark.
    `tests/telegram/test_ptb_private.py` pins the private method's shape."""

    def _mark_for_persistence_update(self, *, update: object | None = None, job: Any = None) -> None:
        if self.persistence is not None:
            super()._mark_for_persistence_update(update=update, job=job)


async def _post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Open the store, set up the runtime; then the command menu, not waited for.

    run_polling/run_webhook call this after initialize(); code that starts
    the application by hand (tests, embedding) calls `app.post_init(app)`.

    The menu is the chats' list of commands, which no update needs: the bot
    takes its first updates meanwhile, and a restart whose menu Telegram has
    already (the store remembers it) sends none (shutdown waits for it).
    """
    setup = app.bot_data["unobot.setup"]
    await _open_runtime(app, setup)
    rt = app.bot_data[KEY]
    if rt.waker is not None:  # moves other processes save (a separate `unobot web`) show here at once
        app.bot_data[FOLLOWING] = follow_changes(
            rt.waker, rt.store.changes(), telegram_id,
            lambda place, table: publish.show(CallbackContext(app), place, table),
            shows=f"telegram:{app.bot.id}")  # this bot's other processes edit the status of what they save
    if not setup.get("menu_later"):
        start_menu(app)
    if app.job_queue is not None and setup["options"].sticker_owner:
        # tries again after a failure
        app.job_queue.run_once(jobs.make_stickers, when=0, name=stickers.JOB, job_kwargs=LATE_OK)
    if setup.get("on_ready") is not None:
        setup["on_ready"](app)
    settle_gc()  # the bot is ready: what start-up made is frozen out of collection (a no-op in tests)


def start_menu(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Send the command menu in the background (not waited for: no update needs it).

    Called by post_init, or, when `setup["menu_later"]` says so, by whoever
    starts the bot once it really runs: the webhook's `serve`, after Telegram
    took the webhook. A start that fails there then sends no menu from a
    client that is closing (which logged "setMyCommands failed: This
    HTTPXRequest is not initialized!" once per language above the line that
    says why the bot stopped)."""
    setup = app.bot_data["unobot.setup"]
    if setup["set_commands"] and setup.get("menu") is None:
        setup["menu"] = asyncio.ensure_future(register_commands(app, app.bot_data[KEY].store))


async def settled(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Wait for what start-up left running in the background (the command menu):
    for code that starts the application by hand and then counts its calls."""
    menu = app.bot_data["unobot.setup"].get("menu")
    if menu is not None:
        await menu


async def _open_runtime(app: Application[Any, Any, Any, Any, Any, Any], setup: dict[str, Any]) -> None:
    """The store (opened now if the application was given a factory), the service and the runtime."""
    service: ChatService | None = setup["service"]
    store = service.store if service is not None else setup["store"]
    persistence = None
    if store is None:
        # A store of its own (the command line's): its calls timed for the metrics,
        # and whether it keeps anything on disk told at start-up.
        opened = await setup["factory"]()
        setup["owned"] = opened
        persistence = await store_persistence(opened)
        store = cast(Store, MeteredStore(opened, FRONTEND))
    if service is None:
        # On a store that keeps nothing on disk an outage promises nothing (its restart loses every game).
        # A private chat speaks its person's language until /language.
        service = ChatService(store, defaults=setup["defaults"], settings_from=settings_places,
                              settings_followers=settings_followers,
                              reader_lang=functools.partial(private_lang, setup["langs"]),
                              keeps_nothing=persistence is not None and persistence.persistent is False)
    rt = app.bot_data[KEY] = Runtime(service=service, store=store, options=setup["options"],
                                     bot_username=app.bot.username, persistence=persistence,
                                     user_langs=setup["langs"])
    if isinstance(app.bot.rate_limiter, GroupLimiter):
        limiter = app.bot.rate_limiter
        metrics.set_wait_source(FRONTEND, lambda: dict(limiter.waited))
    metrics.set_games_counter(FRONTEND, functools.partial(metrics.count_bound_games, store, telegram_chat))
    make_scheduler = setup["scheduler"] or (Scheduler if app.job_queue is not None else None)
    if make_scheduler is not None:
        # The jobs keep the service's time: a timer is due when the service agrees it ran out.
        rt.scheduler = make_scheduler(app, service.clock, jobs.CALLBACKS)
        rt.waker = Waker(service, rt.scheduler, setup["options"])
    if rt.scheduler is not None and setup["options"].replan_at_start:
        rt.scheduler.plan("replan", 0, rt.scheduler.now(), {"chat": 0})


def settings_places(chat_id: str) -> tuple[str, ...]:
    """Where a place's settings are kept (core's `ChatService(settings_from=...)`):
    a forum topic's are its chat's. A game per topic (its place is the chat id
    the service sees, see `guard.place`); one variant, house rules, language
    and timer per chat."""
    value = telegram_id(chat_id)
    return (str(chat_of(value)) if value is not None else chat_id,)


def settings_followers(place: str) -> str | None:
    """The start of the places that take their settings from `place` (core's
    `ChatService(settings_followers=...)`): a group's forum topics, whose
    places are the group's id followed by the topic's (`guard.place`); none
    for a topic or a private chat."""
    value = telegram_id(place)
    return place if value is not None and value < 0 and chat_of(value) == value else None


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    await stop_following(app.bot_data.pop(FOLLOWING, None))
    menu = app.bot_data["unobot.setup"].get("menu")
    if menu is not None and not menu.done():  # a bot stopped right after starting: its menu still goes out
        try:
            await asyncio.wait_for(menu, 5)
        except (TimeoutError, asyncio.CancelledError):
            log.warning("the command menu was not set before shutdown")
    rt = app.bot_data.get(KEY)
    if rt is not None:  # the status edits and notices on their way go out before the store closes
        try:
            await asyncio.wait_for(asyncio.gather(rt.status.idle(), rt.notices.idle(),
                                                  uno_replies(app).idle()), 10)
        except TimeoutError:
            log.warning("some status edits or private notices were not sent before shutdown")
    owned = app.bot_data["unobot.setup"].get("owned")
    if owned is not None:
        await owned.close()


def uno_replies(app: Application[Any, Any, Any, Any, Any, Any]) -> ReplySender:
    """The application's reply sender (on its bot: see `UnoBot.replies`)."""
    return cast(UnoBot, app.bot).replies


#: Where the store remembers the menu last set (per bot), and for how long it is
#: trusted: after a day it is set again, in case someone changed it meanwhile
#: (in @BotFather, or another version of the bot).
MENU_KEY = "bot.menu"
MENU_TRUSTED = 24 * 3600.0


def menus() -> dict[str, list[tuple[str, str]]]:
    """The command menu of each language: (command, its description in that language)."""
    return {lang: [(name, gettext_for(lang)(description)) for name, description in COMMANDS]
            for lang in LANGUAGES}


def menu_code(lang: str) -> str:
    """The Bot API's language_code for a catalogue: two letters (ISO 639-1), so
    `pt_BR` is `pt` and `zh_CN` is `zh`."""
    return lang.split("_")[0]


def menu_languages() -> list[str]:
    """One catalogue per two-letter code (Telegram keys menus by two letters:
    `zh` gets Simplified Chinese, the first; a `zh-hant` user then reads it)."""
    seen: dict[str, str] = {}
    for lang in LANGUAGES:
        seen.setdefault(menu_code(lang), lang)
    return list(seen.values())


async def register_commands(app: Application[Any, Any, Any, Any, Any, Any], store: Store | None = None) -> None:
    """The command menu in every language (language_code per language; English is
    the default), the languages' calls at once.

    With a `store`, only when the menu differs from the one the store says
    this bot set less than `MENU_TRUSTED` ago: several processes of one bot,
    or a restart, do not set it again (each call is a Bot API round trip).
    """
    wanted = menus()
    digest = hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()
    if store is not None:
        try:
            record = await store.get_chat_settings(MENU_KEY)
        except StoreError:
            record = {}
        at = record.get("at")
        if record.get("bot") == app.bot.id and record.get("digest") == digest \
                and isinstance(at, (int, float)) and 0 <= time.time() - at < MENU_TRUSTED:
            return

    async def one(lang: str) -> bool:
        commands = [BotCommand(name, description) for name, description in wanted[lang]]
        try:
            await app.bot.set_my_commands(commands, language_code=None if lang == "en" else menu_code(lang))
        except TelegramError as exc:
            log.warning("setMyCommands (%s) failed: %s", lang, exc)
            return False
        return True

    if all(await asyncio.gather(*(one(lang) for lang in menu_languages()))) and store is not None:
        with contextlib.suppress(StoreError):  # not remembered: the next start sets it again
            await store.update_chat_settings(MENU_KEY, {"bot": app.bot.id, "digest": digest, "at": time.time()})
