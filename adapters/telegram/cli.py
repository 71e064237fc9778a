"""`unobot telegram`: run the bot with long polling, or behind a webhook.

Settings come from core.config (config.yaml plus environment: the token in
TELEGRAM_BOT_TOKEN, the Bot API address in UNOBOT_TELEGRAM_API_URL, Redis in
UNOBOT_REDIS_URL); the command line overrides the webhook settings.
Several processes may serve one bot behind a webhook when they share a
Redis: nothing about a game is kept in a process.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import logging
import os
import sys
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from unobot.chat.i18n import N_, Msg, gettext_for
from unobot.cli_text import config_error_line, error_line, reader_of, warning_line

if TYPE_CHECKING:
    from unobot.adapters.store_factory import PreparedRedis
    from unobot.config import Config


#: Seconds after start-up at which the default variant is loaded and checked:
#: after the updates that wait at a start (a game opened sooner loads its
#: variant itself, and a broken one is refused with the variant's error).
CONFIG_CHECK_DELAY = 1.0


def register(subparsers: Any) -> None:
    from unobot.cli import fixed_port

    _ = gettext_for("en")
    p = subparsers.add_parser(
        "telegram", help=_("run the Telegram bot (long polling, or --webhook URL)"),
        description=_("Run the Telegram bot. The token comes from TELEGRAM_BOT_TOKEN or config.yaml."))
    p.add_argument("--webhook", metavar="URL", help=_("serve updates at this public https URL instead of polling"))
    p.add_argument("--listen", metavar="HOST", help=_("address the webhook server binds (default 0.0.0.0)"))
    p.add_argument("--port", type=fixed_port, metavar="N", help=_("port the webhook server binds (default 8443)"))
    p.add_argument("--secret", metavar="TOKEN", help=_("webhook secret token Telegram must send"))
    p.add_argument("--redis", metavar="URL", help=_("Redis URL (default: config, else the embedded server)"))
    p.add_argument("--verbose", "-v", action="store_true", help=_("log every update"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from unobot.adapters.startup import pause_gc

    pause_gc()  # nothing made while starting is garbage (app._post_init settles it)
    from unobot.adapters.startup import begin

    # The default variant is loaded once the bot takes updates (`_serve`): it
    # loads every rule plugin, which no first update needs.
    config = begin(args.verbose, check_variant=False)
    if config is None:
        return 2
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if not args.verbose:
        # python-telegram-bot's JobQueue runs every AI pause, turn timer and lobby
        # expiry on APScheduler, which logs four INFO lines a job: the operator's
        # log was mostly "Added job", "Running job", "executed successfully".
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    # A failed start-up is said in one line below; PTB's own traceback of it is noise.
    logging.getLogger("telegram.ext").addFilter(_not_bootstrap)
    token = config.telegram.token
    if not token:
        print(error_line(Msg(N_("no bot token: set {variable} ({source}) or {key}"), variable="TELEGRAM_BOT_TOKEN",
                             source=Msg(N_("from @BotFather")), key="telegram.token")), file=sys.stderr)
        return 2
    hook = config.telegram.webhook
    webhook = args.webhook or hook.url
    from unobot.config import WEBHOOK_SECRET_FORM, WEBHOOK_SECRET_RE

    if args.secret is not None and not WEBHOOK_SECRET_RE.fullmatch(args.secret):
        # Checked as telegram.webhook.secret is: Telegram would refuse it at setWebhook.
        print(error_line(Msg(N_("{option}: {problem}"), option="--secret", problem=Msg(WEBHOOK_SECRET_FORM))),
              file=sys.stderr)
        return 2
    redis_url = args.redis or config.redis.url
    from unobot.adapters.store_factory import PreparedRedis
    from unobot.store import StoreError

    # The embedded redis-server is launched first and boots (a process of its
    # own) while redis-py is imported. Both in this thread: in a second one,
    # next to python-telegram-bot's imports, they cost more, as every file an
    # import reads hands the interpreter lock over to the other thread.
    try:
        prepared = None if redis_url == "memory" else PreparedRedis(redis_url, config.store.data_dir)
    except StoreError as exc:
        print(error_line(startup_reason(exc)), file=sys.stderr)
        return 1
    try:
        return _serve(args, config, token, webhook, prepared)
    finally:
        if prepared is not None:
            prepared.stop_unless_taken()


def _serve(args: argparse.Namespace, config: Config, token: str, webhook: str | None,
           prepared: PreparedRedis | None) -> int:
    from telegram.error import TelegramError

    from unobot.adapters.startup import redact
    from unobot.adapters.store_factory import open_store, store_options
    from unobot.chat.service import Defaults
    from unobot.config import ConfigError, load_config
    from unobot.store import Store, StoreError

    from .app import build_application
    from .handlers import UPDATE_KINDS
    from .runtime import Options

    async def store_factory() -> Store:
        if prepared is None:
            return await open_store(None, data_dir=config.store.data_dir, memory=True,
                                    **store_options(config, memory=True))
        return await prepared.open(prefix=config.store.prefix, **store_options(config))

    game = config.game
    hook = config.telegram.webhook
    listen, port = args.listen or hook.listen, hook.port if args.port is None else args.port

    def ready(app: Any) -> None:
        """One line saying who the bot is, how it takes updates, and its store."""
        from .runtime import KEY
        rt = app.bot_data[KEY]
        lang = reader_of(sys.argv[1:])
        store = rt.persistence.line(lang) if rt.persistence is not None else "-"
        if webhook:
            line = Msg(N_("unobot: running as @{bot} (webhook {url}, serving {address} with /healthz and /metrics); "
                          "store: {store}"), bot=app.bot.username, url=webhook, address=f"{listen}:{port}",
                       store=store)
        else:
            line = Msg(N_("unobot: running as @{bot} (polling); counters: kill -USR1 {pid}; store: {store}"),
                       bot=app.bot.username, pid=os.getpid(), store=store)
        print(line.text(lang), file=sys.stderr, flush=True)
        if not webhook:
            _metrics_on_signal()
        if rt.persistence is not None and rt.persistence.persistent is False:
            print(warning_line(Msg(N_("the store keeps nothing on disk: when it restarts, every running game is "
                                      "lost (Redis: turn on appendonly or save)"))), file=sys.stderr, flush=True)

    app = build_application(
        token, base_url=config.telegram.base_url, store_factory=store_factory,
        defaults=Defaults.of(game),
        options=Options(lobby_seconds=game.lobby_minutes * 60.0, sticker_owner=config.telegram.sticker_owner),
        # Behind a webhook the bot runs once Telegram took the webhook: the line is said then (serve).
        on_ready=None if webhook else ready)
    if config.web.enabled:  # the web table in this process (adapters/web), on the bot's service
        from unobot.adapters.web.cli import attach_telegram

        try:
            attach_telegram(app, config)  # binds web.listen:web.port now
        except OSError as exc:  # the web table's port (said as the webhook's is, in the reader's words)
            print(error_line(startup_reason(exc)), file=sys.stderr)
            return 1
    elif config.web.telegram_app:  # served by a separate `unobot web`: only the button here
        from unobot.adapters.web.cli import attach_telegram_link

        attach_telegram_link(app, config)
    updates = list(UPDATE_KINDS)
    broken: list[str] = []

    async def check_config(context: Any) -> None:
        """The whole configuration, default variant included: a broken one stops
        the bot, as it would have stopped it before it started."""
        try:
            load_config()
        except ConfigError as exc:
            broken.append(config_error_line(exc))
            stop_running(context.application)

    if app.job_queue is not None:
        from .scheduler import LATE_OK

        # However late: the job queue starts only once the bot did (a slow Bot API, a loaded machine).
        app.job_queue.run_once(check_config, when=CONFIG_CHECK_DELAY, name="config-check", job_kwargs=LATE_OK)
    else:  # pragma: no cover - python-telegram-bot's JobQueue is a dependency
        try:
            load_config()
        except ConfigError as exc:
            print(config_error_line(exc), file=sys.stderr)
            return 2
    try:
        if webhook:
            import asyncio

            from .webhook import serve

            path = urlsplit(webhook).path.lstrip("/")
            # Without a secret anyone who finds the URL could post forged updates.
            secret = args.secret or hook.secret or webhook_secret(token)
            # Our own server: an update is answered 200 once handled, not once queued (webhook.py).
            asyncio.run(serve(app, listen=listen, port=port, path=path, webhook_url=webhook,
                              secret=secret, allowed_updates=updates, on_ready=lambda: ready(app)))
        else:
            app.run_polling(allowed_updates=updates)
    except (StoreError, TelegramError, OSError) as exc:
        print(error_line(redact(startup_reason(exc), token)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C while the webhook server started
        return 0
    if broken:
        print(broken[0], file=sys.stderr)
        return 2
    return 0


def _metrics_on_signal() -> None:
    """SIGUSR1 prints the counters (what /metrics serves behind a webhook) to
    stderr: a polling bot has no HTTP server to scrape. `kill -USR1 <pid>`.
    Set from the bot's event loop (the games are counted in the store first)."""
    import asyncio
    import signal

    from unobot.adapters import metrics

    async def show() -> None:
        await metrics.refresh()
        print(metrics.text(), file=sys.stderr, flush=True)

    loop = asyncio.get_running_loop()
    if hasattr(signal, "SIGUSR1"):
        loop.add_signal_handler(signal.SIGUSR1, lambda: loop.create_task(show()))


def stop_running(app: Any) -> None:
    """Stop the bot from a job: the webhook server's `serve` (its stop event),
    or PTB's run_polling."""
    stop = app.bot_data.get("unobot.stop")
    if stop is not None:
        stop.set()
    else:
        app.stop_running()


def webhook_secret(token: str) -> str:
    """The webhook secret when none is configured: derived from the bot token.

    Why not a random one per run: several processes behind one webhook each
    call setWebhook, and Telegram keeps the last secret only, so every other
    process would refuse the updates sent to it. Derived, all processes of
    one bot agree without being told; whoever does not hold the token cannot
    work it out (HMAC-SHA256), and it does not reveal the token. 43 URL-safe
    characters, within what Telegram accepts (1-256 of A-Z, a-z, 0-9, _, -).
    """
    digest = hmac.new(token.encode(), b"unobot telegram webhook secret", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _not_bootstrap(record: logging.LogRecord) -> bool:
    return "Bootstrap" not in str(record.msg) and "Bootstrap" not in " ".join(map(str, record.args or ()))


def startup_reason(exc: BaseException) -> str:
    """Why the bot could not start, in the shared words (`startup.startup_reason`).

    A Bad Request (the webhook's URL or port refused) is python-telegram-bot's
    kind of NetworkError, but the Bot API answered it: "refused", with what it
    said, never "cannot be reached". Said in the operator's language
    (`--lang`, else the locale), with what to check; Telegram's own words
    stay as it said them."""
    from telegram.error import BadRequest, InvalidToken, NetworkError

    from unobot.adapters.startup import startup_reason as reason
    from unobot.chat.i18n import gettext_for
    from unobot.cli_text import reader_of

    if isinstance(exc, BadRequest):
        _ = gettext_for(reader_of(sys.argv[1:]))
        if "webhook" in exc.message.lower():
            return _("the {api} refused the webhook: {problem}. Give --webhook (or telegram.webhook.url) "
                     "a public https:// address on port 443, 80, 88 or 8443.").format(
                api="Telegram Bot API", problem=exc.message)
        return _("the {api} refused: {problem}").format(api="Telegram Bot API", problem=exc.message)
    return reason(exc, "Telegram", "Telegram Bot API", (InvalidToken,), (NetworkError,))
