"""A bot's start-up: no garbage collection while it imports, none of it later.

Why: starting `unobot telegram` makes some 65,000 objects the collector
tracks (the modules, classes and functions of python-telegram-bot, redis-py
and unobot, and their dictionaries), which all live as long as the process. CPython collects after every few hundred new
objects, and each older-generation collection walks all of them again
while nothing of it is garbage: a few percent of the cold start, spent for
nothing. Later, every full collection of a running bot would walk them once
more, inside whatever update handler happened to allocate at that moment.

So a bot command calls :func:`pause_gc` first and :func:`settle_gc` once it
is ready to take updates: ``gc.freeze()`` moves everything alive then into a
permanent generation that collections skip, and collection resumes for what
the bot makes from then on (games, updates: the objects that do become
garbage). Code that builds an application by hand (tests) calls neither,
and :func:`settle_gc` without a pause is a no-op.
"""

from __future__ import annotations

import gc
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING

from unobot.chat.i18n import N_, Msg

if TYPE_CHECKING:
    from unobot.config import Config

_paused = False


def pause_gc() -> None:
    """Stop automatic collection until :func:`settle_gc` (nothing made at start-up is garbage)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def settle_gc() -> None:
    """Freeze what start-up made and collect again from here on (once; no-op unless paused)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


# -- what an operator is told at start-up ------------------------------------------------

def startup_reason(exc: BaseException, platform: str, api: str, refused: tuple[type[BaseException], ...],
                   unreachable: tuple[type[BaseException], ...]) -> str:
    """One line saying why a bot could not start (no traceback: the reason is
    all a person can act on). Why shared: every bot says the same four things
    (the store, its token refused, its API unreachable, anything else); only
    the platform's and its API's names and its client's exception types differ.
    Said in the language of whoever reads the command line (`--lang`, else the
    locale), as a mistake in config.yaml is; what a server or a library said
    stays as it said it."""
    import sys

    from unobot.adapters.store_factory import store_failure_reason
    from unobot.chat.i18n import gettext_for
    from unobot.cli_text import reader_of
    from unobot.store import StoreError

    lang = reader_of(sys.argv[1:])
    _ = gettext_for(lang)
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, StoreError):  # "cannot be reached", or "refused" when a server answered
        return store_failure_reason(exc, lang)
    if isinstance(exc, ListenError):  # an OSError, but no API was asked: never "the API cannot be reached"
        return _("the bot could not start: {problem}").format(problem=exc.said.text(lang))
    if isinstance(exc, refused):
        return _("{platform} refused the bot token: {problem}").format(platform=platform, problem=first)
    if isinstance(exc, unreachable):
        return _("the {api} cannot be reached: {problem}").format(api=api, problem=first)
    return _("the bot could not start: {problem}").format(problem=first)


def redact(text: str, *secrets: str | None) -> str:
    """`text` with every secret (a bot token, its numeric id aside) replaced by
    `***`: an error that quotes the token (a URL with it, a refusal) is
    printed without it. A Telegram token `123:ABC` keeps `123` (the bot's
    id, public) and loses the rest, wherever either half appears."""
    for secret in secrets:
        if not secret:
            continue
        text = text.replace(secret, "***")
        head, colon, tail = secret.partition(":")
        if colon and len(tail) >= 8:
            text = text.replace(tail, "***")
    return text


def begin(verbose: bool, *, check_variant: bool = True) -> Config | None:
    """A long-running command's first steps, the same for every front-end:
    logging (every update with `verbose`), then the configuration; None,
    with the reason on stderr, when it is broken (the command exits 2)."""
    import logging
    import sys

    from unobot.config import ConfigError, load_config

    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return load_config(check_variant=check_variant)
    except ConfigError as exc:
        from unobot.cli_text import config_error_line

        print(config_error_line(exc), file=sys.stderr)
        return None


def on_stop_signals(stop: Callable[[], object]) -> None:
    """Call `stop` on Ctrl-C and SIGTERM (systemd's stop), from the running loop.

    Why here: the Discord bot and the web table both close cleanly on them at
    any moment (the bot even while discord.py is still connecting, where a
    cancellation from asyncio.run can be lost). Windows has no loop signal
    handlers: there nothing is added, and Ctrl-C stays a KeyboardInterrupt."""
    import asyncio
    import contextlib
    import signal

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop)


class ListenError(OSError):
    """A server of the command's that cannot listen where it was told: its words kept
    as a `Msg`, so the command's one line says them in the operator's language
    (`startup_reason`); `str()` stays English."""

    def __init__(self, message: Msg) -> None:
        self.said = message
        super().__init__(message.text())


#: What `listening_socket` may be asked to open, named for the operator.
WEBHOOK_SERVER = N_("the webhook server")
WEB_TABLE = N_("the web table")


def listening_socket(listen: str, port: int, what: str) -> socket.socket:
    """A listening socket on `listen`:`port`, bound before the command starts anything else.

    Why first: a port already in use (another bot, an old process) must stop a
    bot with its one line before it opens the store, posts its command menu or
    says "running as ... serving HOST:PORT", none of which is true of a bot
    that cannot take a request. The OSError says `what` could not listen where
    (`the webhook server cannot listen on 127.0.0.1:8443: Address already in
    use`), for the command line's one line; aiohttp then serves on the socket
    (`web.SockSite`)."""
    def cannot(problem: str | Msg) -> ListenError:
        return ListenError(Msg(N_("{what} cannot listen on {address}: {problem}"), what=Msg(what),
                               address=f"{listen}:{port}", problem=problem))

    if not 0 <= port <= 65535:  # getaddrinfo takes 99999 as 34463 without a word
        raise cannot(Msg(N_("{port} is not a TCP port (0-65535)"), port=port))
    sock: socket.socket | None = None
    try:  # an unknown --listen host is said as the port in use is
        family, kind, proto, _, address = socket.getaddrinfo(listen or None, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp's TCPSite does
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        if sock is not None:
            sock.close()
        raise cannot(str(exc.strerror or exc)) from exc  # the system's own words, as it says them
    sock.setblocking(False)
    return sock

