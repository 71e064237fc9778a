"""`unobot replay` and `unobot audit`: read the games chats play back from a
store, through the engine.

Why here and not in core: they open a Redis store (core never imports
redis); the replay and the verdict themselves are core's
(`core/chat/audit.py`), the same code the tests use. The verdict includes
each game's acknowledgement record (moves acknowledged then lost in a
failover show even when the log replays). A store that stops answering
midway (a failover) is waited for, up to ``OUTAGE_WINDOW``.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unobot.chat.i18n import N_, Msg, gettext_for, ngettext_for
from unobot.cli_text import config_error_line

if TYPE_CHECKING:
    from unobot.chat.audit import TableAudit


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("replay", help=N_("print a chat's game move by move, replayed from its log"))
    p.add_argument("chat", metavar="CHAT", nargs="?",
                   help=N_("the chat's id (a Telegram group's is negative); none with --last: every chat's"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", metavar="N", help=N_("a kept finished game: N-th newest (1 = last) or its id"))
    which.add_argument("--last", action="store_true",
                       help=N_("the chat's last finished game (no CHAT: each chat's, the latest first)"))
    p.add_argument("--lang", metavar="LANG", type=_language,
                   help=N_("the language it is told in (default: yours, from LC_ALL/LC_MESSAGES/LANG as gettext "
                        "reads them, else the chat's, else game.default_language)"))
    p.add_argument("--store", metavar="URL", help=STORE_HELP)
    p.add_argument("--data-dir", metavar="DIR", help=DATA_DIR_HELP)
    p.set_defaults(func=cmd_replay)
    p = subparsers.add_parser("audit", help=N_("replay every stored game; exit 1 on any mismatch"),
                              description=N_("Replay every stored game and every kept finished one. The "
                                             "report is in your language (LC_ALL, LC_MESSAGES, LANG); a "
                                             "line for a game that does not replay starts “MISMATCH <game "
                                             "id>” in every language, for scripts, and the exit status is "
                                             "1 when there is one."))
    p.add_argument("--store", metavar="URL", help=STORE_HELP)
    p.add_argument("--data-dir", metavar="DIR", help=DATA_DIR_HELP)
    p.set_defaults(func=cmd_audit)


STORE_HELP = N_("redis://..., redis+cluster://..., embedded, or config (the default: the configured store)")
DATA_DIR_HELP = N_("the embedded store's folder (default: store.data_dir of the config file; with none, ./data "
                 "when a store is there, else your data folder, where unobot play keeps its games)")


def embedded_dir(given: str | None, config: Any, environ: Any = None) -> Path:
    """Which folder's embedded store to read: ``--data-dir``; else the
    config's ``store.data_dir`` when a config file or ``UNOBOT_DATA_DIR``
    names it; else ``./data`` if a store is there (a bot run here without a
    config file), else the person's data folder (the console's).

    Why: with no config file, `unobot audit` and `unobot replay --last` read
    ``./data`` of whatever folder they were started in, so a console player
    found none of their games (the console keeps them in their data folder
    whatever the folder) and a new, empty store was started there."""
    import os

    from unobot.adapters.console.cli import user_data_dir

    env = os.environ if environ is None else environ
    if given:
        return Path(given)
    if config.source is not None or env.get("UNOBOT_DATA_DIR"):
        return Path(config.store.data_dir)
    here = Path(config.store.data_dir)
    return here if (here / "redis").is_dir() else user_data_dir(env)


async def _open(url: str | None, data_dir: str | None = None) -> Any:
    """The store ``--store`` names (read with the config's options, ``redis.cluster``
    included), else the configured one; an embedded one in :func:`embedded_dir`,
    and only where one was kept (reading starts no new, empty store)."""
    from unobot.adapters.store_factory import open_store, store_options
    from unobot.config import ConfigError, load_config

    config = load_config()
    if not url or url.strip() == "config":  # `config`: the configured store, as for `unobot simulate`
        url, memory = config.redis.url, config.redis.memory
    else:
        memory = url == "memory"
    folder = embedded_dir(data_dir, config)
    if not memory and (url is None or url.strip() == "embedded") and not (folder / "redis").is_dir():
        raise ConfigError(str(folder), None, "", Msg(N_("no games are kept here: no embedded store in this folder "
                                                        "(--data-dir names another, --store a Redis server)")))
    return await open_store(url, data_dir=str(folder), prefix=config.store.prefix,
                            memory=memory, **store_options(config, memory=memory))


OUTAGE_WINDOW = 30.0
"""Seconds a store that answered at start-up is waited for when it stops answering
(a failover under way) before the command gives up."""


async def _through(make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """``await make()``, again while the store is unavailable (a failover), backing off.

    Why: the store was reached at start-up (``_open`` pings), so an outage now
    is most likely a failover, which passes in seconds; an audit of a
    thousand games should not be lost to it.
    """
    import asyncio
    import time

    from unobot.store import StoreUnavailable

    give_up = time.monotonic() + OUTAGE_WINDOW
    pause = 0.1
    while True:
        try:
            return await make()
        except StoreUnavailable as exc:
            if time.monotonic() > give_up:
                raise
            from unobot.cli_text import reader_of

            _ = gettext_for(reader_of(sys.argv[1:]))
            print(_("(the store is not answering, trying again: {error})").format(error=exc), file=sys.stderr)
        await asyncio.sleep(pause)
        pause = min(pause * 2, 1.0)


def _run(main: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run a command; a store or config that fails is one line on stderr, exit status 2
    (why: a traceback hides the one thing a person can act on)."""
    import asyncio

    from unobot.adapters.store_factory import store_failure_reason
    from unobot.config import ConfigError
    from unobot.store import StoreError

    try:
        return asyncio.run(main())
    except ConfigError as exc:
        print(config_error_line(exc), file=sys.stderr)
    except StoreError as exc:
        from unobot.cli_text import reader_of

        lang = reader_of(sys.argv[1:])
        _ = gettext_for(lang)
        print(f"{_('error:')} {store_failure_reason(exc, lang)}", file=sys.stderr)
    return 2


def _language(value: str) -> str:
    """``--lang``: a language unobot speaks (`es`, `es-MX`, `pt_BR`), else refused with the list."""
    from unobot.cli import language_arg

    return language_arg(value)


def cmd_replay(args: argparse.Namespace) -> int:
    from unobot.chat.audit import game_heading, reader_language, replay_lines
    from unobot.config import ConfigError, load_config
    from unobot.service import ReplayError

    try:
        default = load_config().game.default_language
    except ConfigError as exc:
        print(config_error_line(exc), file=sys.stderr)
        return 2

    def told(record: dict[str, Any]) -> list[str]:
        from unobot.chat.audit import narrate

        lang = reader_language(args.lang, str(record.get("lang") or ""), default)
        return [game_heading(str(record["game_id"]), lang), *narrate(record, lang)]

    # What goes wrong is said in the language the game would be told in, without a game's
    # own: `--lang`, else the reader's locale, else the configured language.
    _ = gettext_for(reader_language(args.lang, None, default))

    def refuse(text: str, code: int = 2) -> int:
        print(f"{_('error:')} {text}", file=sys.stderr)
        return code

    if args.chat is None and not args.last:
        return refuse(_("name a chat (or --last alone for every chat's last finished game)"))

    async def run() -> int:
        store = await _open(args.store, args.data_dir)
        try:
            if args.chat is None:  # --last alone: the last kept game of every chat
                from unobot.chat.audit import last_of_every_chat

                kept = await _through(functools.partial(last_of_every_chat, store))
                if not kept:
                    return refuse(_("no finished game kept in any chat"))
                blocks = [told(r) for r in kept]
                lines = [line for block in blocks for line in ([""] if block is not blocks[0] else []) + block]
            elif args.last or args.game:
                from unobot.chat.audit import find_archived

                record = await _through(functools.partial(find_archived, store, args.chat,
                                                          None if args.last else args.game))
                if record is None:  # how many there are, so the next try is a right one
                    kept = len(await _through(functools.partial(store.archived, args.chat,
                                                                max(1, store.archive_max))))
                    if not kept:
                        return refuse(_("no finished game kept in chat {chat}").format(chat=args.chat))
                    ngettext = ngettext_for(reader_language(args.lang, None, default))
                    return refuse(ngettext("no such finished game kept in chat {chat}: it keeps {n} (--game 1)",
                                           "no such finished game kept in chat {chat}: it keeps {n} "
                                           "(--game 1, the newest, to --game {n})", kept).format(
                        chat=args.chat, n=kept))
                lines = told(record)
            else:
                lines = await _through(functools.partial(replay_lines, store, args.chat, args.lang, default))
        except ReplayError as exc:
            return refuse(_("the log does not replay: {error}").format(error=exc), 1)
        finally:
            await store.close()
        if not lines:
            return refuse(_("no game in chat {chat}").format(chat=args.chat))
        print("\n".join(lines))
        return 0

    return _run(run)


def summary_line(games: int, mismatches: int, lang: str | None) -> str:
    """`unobot audit`'s last line: "12 games replayed, 1 mismatch", each count in the
    reader's plural forms (why one template: another language orders the two its own way)."""
    from unobot.chat.i18n import ngettext_for

    ngettext = ngettext_for(lang)
    return gettext_for(lang)(N_("{games}, {mismatches}")).format(
        games=ngettext("{n} game replayed", "{n} games replayed", games).format(n=games),
        mismatches=ngettext("{n} mismatch", "{n} mismatches", mismatches).format(n=mismatches))


def mismatch_line(result: TableAudit, lang: str | None, *, finished: bool = False) -> str:
    """One game whose replay disagrees, as `unobot audit` prints it. The line starts
    `MISMATCH <game id>` (`MISMATCH finished <game id>` for a kept finished game) in every
    language: scripts read that; what follows is for the operator, in their language (the
    operator's words, which name the store's chat ids: here, not among core's shared texts)."""
    head = f"MISMATCH finished {result.game_id}" if finished else f"MISMATCH {result.game_id}"
    said = gettext_for(lang)(N_("(chat {chat}): {problem}")).format(chat=result.chat_id,
                                                                    problem=result.problem_in(lang))
    return f"{head} {said}"


def cmd_audit(args: argparse.Namespace) -> int:
    from unobot.chat.audit import archived_records, audit_archived, audit_table, stored_tables
    from unobot.cli_text import reader_of

    lang = reader_of(sys.argv[1:])  # the operator's locale (LC_ALL, LC_MESSAGES, LANG), else English

    async def run() -> int:
        store = await _open(args.store, args.data_dir)
        games = mismatches = 0
        try:
            async def walk() -> list[str]:
                return [game_id async for game_id in stored_tables(store)]

            for game_id in await _through(walk):
                result = await _through(functools.partial(audit_table, store, game_id))
                if not result.dealt and result.ok:
                    continue  # a lobby: nothing dealt to replay
                games += 1
                if not result.ok:
                    mismatches += 1
                    print(mismatch_line(result, lang))
            async def kept() -> list[dict[str, Any]]:
                return [record async for record in archived_records(store)]

            for record in await _through(kept):  # finished games are kept: they replay too
                result = await audit_archived(record)
                games += 1
                if not result.ok:
                    mismatches += 1
                    print(mismatch_line(result, lang, finished=True))
        finally:
            await store.close()
        print(summary_line(games, mismatches, lang))
        return 1 if mismatches else 0

    return _run(run)
