"""`unobot web`: serve the web table on its own; and the same server inside a bot.

Alone it serves browser-only tables (anyone with a table's link picks a
name and sits down; AI seats are added from the lobby as in a chat) and,
with a bot token configured, Telegram Mini App tables of groups whose bot
runs elsewhere on the same store. Inside `unobot telegram` (config.yaml
`web: enabled: true`) it shares the bot's ChatService, and every move made
on a page updates the group's status message through the bot's own
publishing (`attach_telegram`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from unobot.chat.i18n import gettext_for

if TYPE_CHECKING:
    import socket

    from unobot.adapters.startup import ListenError
    from unobot.chat.service import ChatService
    from unobot.config import Config
    from unobot.store import Store

    from .server import OutcomeHook, WebConfig, WebTable


def register(subparsers: Any) -> None:
    from unobot.cli import tcp_port

    _ = gettext_for("en")
    p = subparsers.add_parser("web", help=_("serve the web table (a page with your hand as cards)"),
                              description=_("Serve the web table: browser-only tables, and Telegram "
                                            "Mini App tables when a bot token is configured."))
    p.add_argument("--listen", metavar="HOST", help=_("address to bind (default: web.listen)"))
    p.add_argument("--port", type=tcp_port, metavar="N",
                   help=_("port to bind (default: web.port); 0: any free port, printed"))
    p.add_argument("--public-url", metavar="URL", help=_("the address players open (default: web.public_url)"))
    p.add_argument("--redis", metavar="URL", help=_("Redis URL, or memory (default: config, else the embedded server)"))
    p.add_argument("--verbose", "-v", action="store_true", help=_("log every request"))
    p.set_defaults(func=run)


def web_config(config: Config, *, public_url: str | None = None, listen: str | None = None,
               port: int | None = None) -> WebConfig:
    """The server's settings from config.yaml (`web:`, the bot token, the game defaults)."""
    from unobot.chat.wake import Pacing

    from .links import server_secret
    from .places import DISCORD, TELEGRAM
    from .server import WebConfig

    w = config.web
    # Without its trailing slash: every address is made as `url + "/..."` ("https://example.org/uno/"
    # printed ".../uno//", which no route serves).
    url = (public_url or w.public_url or f"http://{listen or w.listen}:{port or w.port}").rstrip("/")
    return WebConfig(secret=server_secret(w.secret, signing_token(config)), bot_token=config.telegram.token,
                     init_data_age=w.init_data_minutes * 60.0, public_url=url,
                     browser_tables=w.browser_tables, default_variant=config.game.default_variant,
                     pacing=Pacing(lobby_seconds=config.game.lobby_minutes * 60.0),
                     # where else its tables are played: Telegram groups with the Mini App's
                     # button, Discord channels with /uno table
                     places=tuple(place for place, served in (
                         (TELEGRAM, bool(config.telegram.token and w.telegram_app)),
                         (DISCORD, bool(config.discord.token and discord_links(config)))) if served))


def run(args: argparse.Namespace) -> int:
    import asyncio  # here, not at the top: `unobot --help` loads this module and must stay light

    from unobot.adapters.startup import begin, on_stop_signals
    from unobot.adapters.store_factory import open_service, store_failure_reason
    from unobot.chat.i18n import N_, Msg
    from unobot.cli_text import error_line, reader_of
    from unobot.store import StoreError

    from .server import WebTable, start

    config = begin(args.verbose)
    if config is None:
        return 2
    if args.public_url and not args.public_url.startswith(("http://", "https://")):
        # as web.public_url and $UNOBOT_WEB_URL are checked: every link the page hands out starts with it
        print(error_line(Msg(N_("{option}: {problem}"), option="--public-url",
                             problem=Msg(N_("{url} is not an http(s) URL"), url=repr(args.public_url)))),
              file=sys.stderr)
        return 2
    listen, port = args.listen or config.web.listen, config.web.port if args.port is None else args.port

    async def serve() -> int:
        try:
            service, _ = await open_service(config, args.redis or config.redis.url)
        except StoreError as exc:
            print(error_line(store_failure_reason(exc, reader_of(sys.argv[1:]))), file=sys.stderr)
            return 1
        store = service.store
        sock = None
        if port == 0:  # any free port: bound here, so the links the page hands out carry the one it got
            import socket

            try:
                sock = socket.create_server((listen, 0))
            except OSError as exc:
                await store.close()
                print(error_line(cannot_listen(listen, 0, exc).said), file=sys.stderr)
                return 1
        bound = sock.getsockname()[1] if sock is not None else port
        web = web_config(config, public_url=args.public_url, listen=listen, port=bound)
        if not config.web.secret and not signing_token(config):
            try:
                web.secret = await kept_secret(store)
            except StoreError as exc:
                await store.close()
                print(error_line(store_failure_reason(exc, reader_of(sys.argv[1:]))), file=sys.stderr)
                return 1
        table = WebTable(service, web, admins=telegram_admins(config, web.admin_timeout))
        try:
            runner = await start(table, listen, port, sock)
        except OSError as exc:
            await store.close()
            print(error_line(cannot_listen(listen, port, exc).said), file=sys.stderr)
            return 1
        url = table.config.public_url
        if sock is not None and not url.endswith(f":{bound}"):
            ready = Msg(N_("web table at {url} (serving {address})"), url=f"{url}/", address=f"{listen}:{bound}")
        else:
            ready = Msg(N_("web table at {url}"), url=f"{url}/")
        stop = asyncio.Event()
        on_stop_signals(stop.set)  # before the ready line: a SIGTERM right after it stops cleanly too
        print(ready.text(reader_of(sys.argv[1:])), flush=True)
        await stop.wait()
        await runner.cleanup()
        await store.close()
        return 0

    return asyncio.run(serve())


def cannot_listen(listen: str, port: int, exc: OSError) -> ListenError:
    """The web table's port refused (in use, a host not of this machine), as
    `startup.listening_socket` says it: in the operator's language."""
    from unobot.adapters.startup import WEB_TABLE, ListenError
    from unobot.chat.i18n import N_, Msg

    return ListenError(Msg(N_("{what} cannot listen on {address}: {problem}"), what=Msg(WEB_TABLE),
                           address=f"{listen}:{port}", problem=str(exc.strerror or exc)))


# -- inside a bot's process ------------------------------------------------------------------

def telegram_admins(config: Config, timeout: float) -> Any:
    """`unobot web` with a bot token: a Mini App page's person is an admin of its
    group if Telegram says so (its own Bot API client, `telegram.base_url`)."""
    if not config.telegram.token:
        return None
    from .admins import telegram_bot, telegram_check

    return telegram_check(telegram_bot(config.telegram.token, config.telegram.base_url, timeout))


async def start_inside(service: ChatService, config: Config, *, on_outcome: OutcomeHook | None = None,
                       admins: Any = None, sock: socket.socket | None = None) -> tuple[WebTable, Any]:
    """Serve the web table on the bot's loop with the bot's service; returns (table, runner).
    `admins`: how a Telegram group's admins are known (`admins.telegram_check`);
    `sock`: web.listen:web.port, bound by the caller beforehand."""
    from .server import WebTable, start

    table = WebTable(service, web_config(config), on_outcome=on_outcome, admins=admins)
    runner = await start(table, config.web.listen, config.web.port, sock)
    return table, runner


def attach_telegram(app: Any, config: Config) -> None:
    """`unobot telegram` with `web.enabled`: the web table in the bot's process.

    Chained to the Application's post_init / post_shutdown: once the bot's
    runtime is up, the server starts with the bot's ChatService; a move made
    on a page is published to the group as the bot publishes its own
    (`publish.after`: status message, jobs, private notices); the status
    message gets the "Open the table" button (`keyboards.WEB_TABLE`)."""
    from unobot.adapters.startup import WEB_TABLE, listening_socket
    from unobot.adapters.telegram import keyboards

    first_init, first_shutdown = app.post_init, app.post_shutdown
    # Bound now, before the bot starts: a port in use stops `unobot telegram` with
    # its one line (an OSError), not after it said it runs and posted its menu.
    sock = listening_socket(config.web.listen, config.web.port, WEB_TABLE)
    held: dict[str, Any] = {}

    async def post_init(application: Any) -> None:
        if first_init is not None:
            await first_init(application)
        _table, held["runner"] = await serve_with_bot(application, config, sock)

    async def post_shutdown(application: Any) -> None:
        runner = held.pop("runner", None)
        if runner is not None:
            await runner.cleanup()
        sock.close()
        keyboards.WEB_TABLE = None
        if first_shutdown is not None:
            await first_shutdown(application)

    app.post_init = post_init
    app.post_shutdown = post_shutdown


def attach_telegram_link(app: Any, config: Config) -> None:
    """`unobot telegram` without `web.enabled` but with `web.telegram_app`: the
    page is served by a separate `unobot web` on the same store, and the
    status message still gets "Open the table". The token is signed with the
    secret every process of the bot derives alike (`web.secret`, else the
    bot token), so the other process opens it."""
    from unobot.adapters.telegram import keyboards

    from . import links

    first_init = app.post_init
    secret = links.server_secret(config.web.secret, signing_token(config))
    short = config.web.telegram_app

    async def post_init(application: Any) -> None:
        if first_init is not None:
            await first_init(application)
        username = application.bot.username

        def link(chat: str) -> str:
            return f"https://t.me/{username}/{short}?startapp={links.table_token(secret, chat)}"

        keyboards.WEB_TABLE = link

    app.post_init = post_init


async def serve_with_bot(application: Any, config: Config,
                         sock: socket.socket | None = None) -> tuple[WebTable, Any]:
    """Start the web table on a started Telegram Application's service (its
    post_init done): pages' moves are published to their group as the bot's
    own (status message, jobs, private notices), and with `web.telegram_app`
    the status message gets the "Open the table" button. Returns (table, runner)."""
    from telegram.ext import CallbackContext

    from unobot.adapters.telegram import keyboards, publish
    from unobot.adapters.telegram.runtime import KEY

    from . import links

    async def on_outcome(chat: str, out: Any) -> None:
        try:
            chat_id = int(chat)
        except ValueError:  # a browser-only table: no group to tell
            return
        await publish.after(CallbackContext(application), chat_id, out)

    from .admins import telegram_check

    runtime = application.bot_data[KEY]
    # The group's admins as the bot knows them: its own Bot API client and admin cache.
    table, runner = await start_inside(runtime.service, config, on_outcome=on_outcome,
                                       admins=telegram_check(application.bot, runtime.admins), sock=sock)
    table.config.telegram_bot = application.bot.username  # named where the page says how to play
    short = config.web.telegram_app
    if short:
        def link(chat: str) -> str:
            token = links.table_token(table.config.secret, chat)
            return f"https://t.me/{application.bot.username}/{short}?startapp={token}"

        keyboards.WEB_TABLE = link
    return table, runner


def player_link(config: Config, chat: str, person: str, name: str, *, game: int | None = None,
                hours: float = 6.0, lang: str | None = None, admin: bool = False) -> str:
    """"Open the table" for Discord and the console: a link for one player
    only, valid for one game (`game`: the table's seed) until `hours` from
    now, signed with the web table's secret (the same config gives the
    same secret in every process, so `unobot web` on the same store opens it)."""
    import time

    from .links import player_token, server_secret

    secret = server_secret(config.web.secret, signing_token(config))
    base = config.web.public_url or f"http://{config.web.listen}:{config.web.port}"
    scope = chat if game is None else f"{chat}#{game}"
    token = player_token(secret, scope, person, name, time.time() + hours * 3600.0, lang, admin=admin)
    return f"{base.rstrip('/')}/?p={token}"


#: The settings entry where `unobot web` keeps the links' secret it made itself: no
#: chat has this id (chats are numbers, `web.<hex>`, `discord.<n>`, `console...`).
KEPT_SECRET = "unobot-web-links"


async def kept_secret(store: Store) -> bytes:
    """The links' secret `unobot web` made for itself (no `web.secret`, no bot
    token), kept in the store and read again by every later start.

    Why: a browser table's share link and every player's seat (kept in their
    browser) are signed with it. One made anew at each start refused them all
    after a restart ("not valid for any table"), while the games themselves
    were still in the store. Every process on that store reads the same one
    (two starting at the very same moment may each keep their own: give them
    `web.secret`)."""
    kept = (await store.get_chat_settings(KEPT_SECRET)).get("secret")
    try:
        return bytes.fromhex(kept) if isinstance(kept, str) and len(kept) == 64 else await _new_secret(store)
    except ValueError:
        return await _new_secret(store)


async def _new_secret(store: Store) -> bytes:
    import secrets

    made = secrets.token_hex(32)
    await store.update_chat_settings(KEPT_SECRET, {"secret": made})
    return bytes.fromhex(made)


def signing_token(config: Config) -> str | None:
    """The bot token the links' secret is derived from when `web.secret` is not
    set: Telegram's, else Discord's (every process of one bot derives the same)."""
    return config.telegram.token or config.discord.token


def discord_links(config: Config) -> bool:
    """`unobot discord` offers `/uno table`: the web table is served in the bot's
    process, or elsewhere at `web.public_url` with a configured `web.secret`
    (a derived one would differ from the other process's without a Telegram token)."""
    w = config.web
    return w.enabled or bool(w.public_url and w.secret)


async def attach_discord(bot: Any, config: Config) -> Any:
    """`unobot discord` with the web table: with `web.enabled` the server starts
    on the bot's loop with the bot's ChatService, and a move made on a page of
    a channel's game is shown there as the bot's own (`UnoBot.after`: status
    message, jobs); `/uno table` is added (the member's own link). Returns the
    server's runner (None when it is served elsewhere). Call before the bot
    logs in (the command is synced with the tree)."""
    from unobot.adapters.discord import table_link
    from unobot.adapters.discord.place import CHAT_PREFIX

    if not discord_links(config):
        return None
    runner = None
    if config.web.enabled:
        async def on_outcome(chat: str, out: Any) -> None:
            if chat.startswith(CHAT_PREFIX):
                await bot.after(chat, out)

        try:
            web_table, runner = await start_inside(bot.service, config, on_outcome=on_outcome)
        except OSError as exc:
            raise cannot_listen(config.web.listen, config.web.port, exc) from exc

        def make(chat: str, person: str, name: str, game: int, lang: str, admin: bool) -> str:
            return web_table.player_link(chat, person, name, game=game, lang=lang,
                                         seconds=table_link.HOURS * 3600.0, admin=admin)
    else:
        def make(chat: str, person: str, name: str, game: int, lang: str, admin: bool) -> str:
            return player_link(config, chat, person, name, game=game, lang=lang, hours=table_link.HOURS,
                               admin=admin)
    table_link.install(bot, make)
    return runner
