"""`unobot play`: the sub-command, its options, and opening the store.

Why the checks happen here, before any store is opened: a mistyped variant
or `--rule` should fail at once with the variant loader's own message
(where and how to fix it), not as a refusal code halfway through set-up.
"""

from __future__ import annotations

import argparse
import getpass
import math
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unobot.chat.i18n import (
    LANGUAGES,
    env_lang,
    gettext_for,
    joined,
    normalize,
)
from unobot.cli_text import ARGPARSE, argparse_language, argv_lang

# Why rich, asyncio and the store are imported in `run`: `unobot --help` (and
# every other command) registers this one, and must not pay for them.

if TYPE_CHECKING:
    from unobot.config import Config

    from .app import Options

MAX_PLAYERS = 10
DEFAULT_DELAY = 0.4  # seconds between the other players' moves: slow enough to follow
MEMORY = "memory"  # --store memory: games live in this process only


def default_lang() -> str:
    return env_lang() or "en"


def register(subparsers: Any) -> None:
    _ = gettext_for("en")  # said in the reader's language when shown (unobot.cli_text)
    parser = subparsers.add_parser(
        "play", help=_("play UNO in the terminal against AI players"), add_help=False)
    # Its options are added when it parses, in the language its arguments ask for.
    parser.__class__ = PlayParser
    parser.set_defaults(func=run)


class PlayParser(argparse.ArgumentParser):
    """`unobot play`'s parser, in the player's language: its options and help
    (`--lang`, else LANG) and argparse's own words (usage, `invalid int value`,
    `unrecognized arguments`, ...) through unobot's catalogue."""

    lang = "en"

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        arguments = list(sys.argv[1:] if args is None else args)
        self.lang = argv_lang(arguments) or default_lang()
        if not any(a.dest == "players" for a in self._actions):
            _add_options(self, self.lang)
        with argparse_language(self.lang):
            namespace, extras = super().parse_known_args(arguments, namespace)
            if extras:  # said here, in the player's language, not by `unobot`'s parser
                self.error(gettext_for(self.lang)(ARGPARSE["unrecognized"]) % " ".join(extras))
        return namespace, extras


def _add_options(parser: argparse.ArgumentParser, lang: str) -> None:
    _ = gettext_for(lang)
    parser.description = _("Play UNO in the terminal against AI players. Type help during the game for the commands.")
    p = parser.add_argument_group(_("options"))
    whole, number = _number(int, lang), _number(float, lang)
    p.add_argument("-h", "--help", action="help", help=_("show this help and leave"))
    p.add_argument("--variant", help=_("the variant to play (see: unobot variants; default: official)"))
    p.add_argument("--players", type=whole, default=4, metavar="N",
                   help=_("players at the table, 2-10, you included (with --auto all AI); default 4"))
    p.add_argument("--ai", default=("normal",), type=_levels(lang), metavar="LEVEL[,LEVEL...]",
                   help=_("how the AI plays: easy, normal, hard or expert (default: normal)") + "; "
                   + _("a comma list gives the AI seats their levels in order, repeated when shorter: "
                       "--ai easy,hard,expert"))
    p.add_argument("--rule", action="append", default=[], metavar="NAME[.OPTION]=VALUE",
                   help=_("turn a rule on or off, or set an option; repeatable"))
    p.add_argument("--seed", type=whole, help=_("shuffle the same way every time"))
    p.add_argument("--lang", choices=LANGUAGES, help=_("language (default: from LANG, else en)"))
    p.add_argument("--rounds", type=whole, metavar="N",
                   help=_("stop after N rounds (default: play the whole match, as the variant ends it)"))
    p.add_argument("--store", metavar="memory|URL",
                   help=_("where the game is kept: memory, or a redis:// URL (default: an embedded Redis)"))
    p.add_argument("--data-dir", metavar="DIR",
                   help=_("where the embedded Redis keeps its data (default: your data folder, "
                          "$XDG_DATA_HOME/unobot or ~/.local/share/unobot)"))
    p.add_argument("--resume", action="store_true", help=_("continue the game saved with quit"))
    p.add_argument("--auto", action="store_true", help=_("let AI players play every seat and watch"))
    p.add_argument("--delay", type=number, metavar="SECONDS",
                   help=_("pause between the other players' moves (default 0.4; 0 for no pause)"))
    p.add_argument("--name", help=_("your name at the table (default: your login name)"))
    p.add_argument("--web", action="store_true",
                   help=_("also show your table in a browser: serve it (web.listen, web.port) and print your link"))


def _number(kind: type, lang: str) -> Any:
    """An argparse `type` reading a whole number (int) or a number (float),
    refusing anything else with a message in `lang`."""
    _ = gettext_for(lang)

    def read(text: str) -> Any:
        try:
            value = kind(text)
            if math.isfinite(value):
                return value
        except ValueError:
            pass
        message = _("{value} is not a whole number") if kind is int else _("{value} is not a number")
        raise argparse.ArgumentTypeError(message.format(value=repr(text)))

    read.__name__ = kind.__name__
    return read


def _levels(lang: str) -> Any:
    """An argparse `type` reading `--ai`: one AI level, or one for each AI
    seat in order (a comma list). Each is read as a chat reads `/ai 2
    schwer` (core's `typed.level_of`: a level's name in any language, or an
    old name), and anything else is refused with a message in `lang`."""
    from unobot.chat.typed import LEVEL_NAMES, level_of

    _ = gettext_for(lang)
    names = joined((_(LEVEL_NAMES[level]) for level in ("easy", "normal", "hard", "expert")), lang)

    def read(text: str) -> tuple[str, ...]:
        levels = []
        for word in text.split(","):
            level = level_of(word)
            if level is None:
                raise argparse.ArgumentTypeError(
                    _("{value} is not an AI level ({levels})").format(value=repr(word.strip()), levels=names))
            levels.append(level)
        return tuple(levels)

    read.__name__ = "levels"
    return read


def data_dir(given: str | None, config: Config, environ: Mapping[str, str] | None = None) -> Path:
    """Where the console's games are kept: `--data-dir`, else `UNOBOT_DATA_DIR`
    or the `store.data_dir` of a config file named by `UNOBOT_CONFIG` (a
    config file's folder is resolved against the file, not the current
    folder), else the person's own data folder. Why not `./data`, nor the
    `config.yaml` that happens to lie in the current folder (the project's
    own, when started with `python3 run.py play`): a game quit in one folder
    would be lost to `--resume` started from another."""
    from unobot.config import CONFIG_ENV

    env = os.environ if environ is None else environ
    if given:
        return Path(given)
    if env.get("UNOBOT_DATA_DIR") or env.get(CONFIG_ENV):
        return Path(config.store.data_dir)
    return user_data_dir(env)


def user_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The person's data folder for unobot: `$XDG_DATA_HOME/unobot`, else
    `~/.local/share/unobot` (`%LOCALAPPDATA%\\unobot` on Windows)."""
    env = os.environ if environ is None else environ
    if os.name == "nt" and env.get("LOCALAPPDATA"):
        return Path(env["LOCALAPPDATA"]) / "unobot"
    xdg = env.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative value is to be ignored
        return Path(xdg) / "unobot"
    return Path(env.get("HOME") or Path.home()) / ".local" / "share" / "unobot"


def user_id() -> str:
    """The login name, reduced to what a store id may hold."""
    try:
        name = getpass.getuser()
    except Exception:  # no login name (some containers)
        name = "player"
    return re.sub(r"[^A-Za-z0-9_.=-]", "_", name)[:40] or "player"


def run(args: argparse.Namespace) -> int:
    import asyncio

    from rich.console import Console
    from rich.text import Text

    from unobot.adapters.store_factory import StoreAddressError
    from unobot.cli import parse_rule_overrides
    from unobot.config import ConfigError, load_config
    from unobot.rule import OptionError
    from unobot.store import StoreError, StoreRefusing, StoreUnavailable
    from unobot.variants import VariantError, resolve, rules_for

    from .app import Options

    err = Console(stderr=True, highlight=False)
    try:
        config = load_config()
    except ConfigError as exc:  # in the player's language: --lang, else their locale
        reader = normalize(args.lang or env_lang() or "en")
        _ = gettext_for(reader)
        err.print(Text.assemble((_("error:") + " ", "bold red"), exc.text(reader)))
        return 2
    lang = normalize(args.lang or env_lang() or config.game.default_language)
    _ = gettext_for(lang)

    def fail(message: str) -> int:
        err.print(Text.assemble((_("error:") + " ", "bold red"), message))
        return 2

    if not 2 <= args.players <= MAX_PLAYERS:
        return fail(_("--players must be between 2 and {n}.").format(n=MAX_PLAYERS))
    if args.rounds is not None and args.rounds < 1:
        return fail(_("--rounds must be 1 or more."))
    if args.delay is not None and args.delay < 0:
        return fail(_("--delay cannot be negative."))
    seats = args.players if args.auto else args.players - 1
    if len(args.ai) > seats:
        return fail(_("--ai names more levels than there are AI seats ({n}).").format(n=seats))
    variant = args.variant or config.game.default_variant
    try:
        overrides = parse_rule_overrides(args.rule)
        resolve(variant, overrides or None, "--rule")
        rules_for(variant, overrides or None)
    except (VariantError, OptionError) as exc:  # said in the player's language
        return fail(exc.text(lang))
    except Exception as exc:  # a --rule value YAML cannot read
        return fail(_("cannot read --rule: {error}").format(error=exc))
    url = args.store or config.redis.url  # None: the embedded server
    user = user_id()
    options = Options(
        variant=variant, players=args.players, ai=args.ai, overrides=overrides, seed=args.seed,
        lang=lang, rounds=args.rounds, resume=args.resume, auto=args.auto,
        delay=args.delay if args.delay is not None else DEFAULT_DELAY, explicit_lang=args.lang is not None,
        name=args.name or user.capitalize(), user=user, persistent=url != MEMORY,
        keep_rules=args.variant is None and not args.rule)
    if args.store is not None and args.store != MEMORY:
        from unobot.adapters.store_factory import StoreAddressError, store_address

        try:  # the person's typing mistake, said in their language before any server is asked
            store_address(args.store)
        except StoreAddressError:
            return fail(_("--store takes memory or a Redis URL (redis://host:port/db, rediss://..., "
                          "unix:///path/redis.sock), not {value!r}.").format(value=args.store))
    if args.web and url == MEMORY:
        return fail(_("--web needs the Redis store (the embedded one, or --store URL), not --store memory."))
    try:
        return asyncio.run(_main(options, config, url, str(data_dir(args.data_dir, config)), web=args.web))
    except KeyboardInterrupt:  # between two moves (the others' pause): every move is saved already
        # said as at a prompt: a Ctrl-C while the AI played left without a word, and the
        # player could not know the game was kept, nor how to continue it
        from rich.console import Console

        from .render import quit_note

        out = Console(highlight=False)
        out.print()
        out.print(quit_note(options.lang, options.persistent))
        return 130
    except StoreAddressError as exc:  # --store names no store: the writer's mistake, no server was asked
        err.print(Text.assemble((_("error:") + " ", "bold red"), f"--store: {exc}"))
        return 2
    except StoreError as exc:
        # "not reachable" only when it is: a server that answered (a cluster node named
        # by a plain URL, say) is a store that refused, with its reason
        unreachable = isinstance(exc, StoreUnavailable) and not isinstance(exc, StoreRefusing)
        text = (_("the game store is not reachable: {error}") if unreachable
                else _("the game store refused: {error}"))
        err.print(Text.assemble((_("error:") + " ", "bold red"), text.format(error=exc)))
        return 1


LOG_NAME = "console.log"
"""The console's log, in its data folder (see :func:`log_to_file`)."""


def log_to_file(folder: str | Path) -> Path | None:
    """Send the log to ``<folder>/console.log`` instead of the terminal.

    Why: the terminal is the player's. With no handler, Python prints every
    warning there, so a store outage showed the service's English line for
    operators ("chat console.root: the store is not reachable, command
    refused: ...") above the translated message the player needs. A caller
    that set up logging itself keeps it (None is returned)."""
    import logging
    import logging.handlers

    root = logging.getLogger()
    if root.handlers:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(path / LOG_NAME, maxBytes=1 << 20, backupCount=1,
                                                   encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    return path / LOG_NAME


async def _main(options: Options, config: Config, url: str | None, data_dir: str, *, web: bool = False) -> int:
    import asyncio
    import signal

    from rich.console import Console

    from unobot.adapters.store_factory import open_store, store_options
    from unobot.store import StoreError

    from .app import ConsoleApp, make_service

    # asyncio.run would only cancel the task on the first Ctrl-C, which a
    # blocking input() never notices; raise KeyboardInterrupt there instead.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    log_to_file(data_dir)
    try:
        store = await open_store(None if url in (None, MEMORY) else url,
                                 data_dir=data_dir, prefix=config.store.prefix,
                                 memory=url == MEMORY, **store_options(config, memory=url == MEMORY))
    except StoreError:
        raise
    except Exception as exc:  # the embedded server would not start, a bad URL, ...
        raise StoreError(str(exc)) from exc
    console = Console(highlight=False)
    served = None
    try:
        if web:
            served = await _serve_web(console, options, config, store, url)
            if served is None:
                return 1
        app = ConsoleApp(make_service(store, options), options, console)
        if served is not None:
            app.on_game = lambda table: _print_link(console, options, served.link_for(table.seed))
        return await app.run()
    finally:
        if served is not None:
            await asyncio.to_thread(served.stop)
        await store.close()


async def _serve_web(console: Any, options: Options, config: Config, store: Any, url: str | None) -> Any:
    """`--web`: the console's table served in a browser too (`web_table.py`);
    its link printed. None (and a line why) when it cannot be served."""
    import asyncio

    from rich.text import Text

    from .web_table import serve

    _ = gettext_for(options.lang)
    server = getattr(store, "server", None)
    redis_url = server.url if server is not None else url
    try:
        served = await asyncio.to_thread(serve, config, str(redis_url), config.store.prefix, options.chat_id,
                                         options.person_id, options.name, options.lang)
    except OSError as exc:
        console.print(Text.assemble((_("error:") + " ", "bold red"),
                                    _("the web table cannot listen on {address}: {error}").format(
                                        address=f"{config.web.listen}:{config.web.port}", error=exc)))
        return None
    return served


def _print_link(console: Any, options: Options, link: str) -> None:
    """The link to this game's table in a browser (printed as each game starts)."""
    from rich.text import Text

    _ = gettext_for(options.lang)
    # soft_wrap: a link cut over two lines would not open
    console.print(Text(_("🌐 Your table in a browser (your seat only): {link}").format(link=link),
                       style="bold"), soft_wrap=True)
