"""`unobot discord`: run the Discord bot.

Settings come from unobot.config (config.yaml plus environment): the token
in DISCORD_BOT_TOKEN (or `discord.token`), the API and gateway addresses in
UNOBOT_DISCORD_API_URL / UNOBOT_DISCORD_GATEWAY_URL (or `discord.api_url`,
`discord.gateway_url`; tests point them at a local server), Redis in
UNOBOT_REDIS_URL. Several processes may serve one bot with `--shard I
--shards N` (Discord's gateway sharding) when they share a Redis.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from unobot.chat.i18n import N_, Msg, Plural, gettext_for
from unobot.cli_text import error_line, reader_of


def register(subparsers: Any) -> None:
    _ = gettext_for("en")
    p = subparsers.add_parser(
        "discord", help=_("run the Discord bot"),
        description=_("Run the Discord bot. The token comes from DISCORD_BOT_TOKEN or config.yaml."))
    p.add_argument("--redis", metavar="URL", help=_("Redis URL (default: config, else the embedded server)"))
    p.add_argument("--shard", type=int, metavar="I", help=_("this process's gateway shard (with --shards)"))
    p.add_argument("--shards", type=int, metavar="N", help=_("how many gateway shards serve the bot"))
    p.add_argument("--no-sync", action="store_true",
                   help=_("do not register the slash commands with Discord at start"))
    p.add_argument("--verbose", "-v", action="store_true", help=_("log every update"))
    p.set_defaults(func=run)


def use_api(api_url: str | None, gateway_url: str | None) -> None:
    """Point discord.py at another REST base address and gateway (a local test
    server). discord.py keeps both as class attributes: `Route.BASE` for every
    REST call (webhooks and interaction callbacks included) and
    `DiscordWebSocket.DEFAULT_GATEWAY` for the websocket."""
    import discord.gateway
    import discord.http
    import yarl

    if api_url:
        discord.http.Route.BASE = api_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import contextlib

    from unobot.adapters.startup import begin, on_stop_signals

    config = begin(args.verbose)
    if config is None:
        return 2
    token = config.discord.token
    if not token:
        print(error_line(Msg(N_("no bot token: set {variable} ({source}) or {key}"), variable="DISCORD_BOT_TOKEN",
                             source=Msg(N_("from the Developer Portal, Bot page")), key="discord.token")), file=sys.stderr)
        return 2
    wrong = shard_problem(args.shard, args.shards)
    if wrong is not None:
        print(error_line(wrong), file=sys.stderr)
        return 2
    use_api(config.discord.api_url, config.discord.gateway_url)
    redis_url = args.redis or config.redis.url

    import discord

    from unobot.adapters.store_factory import open_service
    from unobot.store import StoreError

    from .bot import Options, UnoBot
    from .place import settings_followers, settings_places

    async def main() -> None:
        service, persistence = await open_service(config, redis_url, settings_from=settings_places,
                                                   settings_followers=settings_followers)
        store = service.store
        options = Options(sync_commands=not args.no_sync, lobby_seconds=config.game.lobby_minutes * 60.0,
                          members_intent=config.discord.members_intent)
        bot = UnoBot(service, options=options, shard_id=args.shard, shard_count=args.shards)
        from unobot.adapters.web.cli import attach_discord

        web = await attach_discord(bot, config)  # the web table and /uno table, when configured
        said = False

        @bot.event
        async def on_ready() -> None:
            """One line, as `unobot telegram` says it: who the bot is, where, and its store
            (why: an operator otherwise saw nothing until a command was answered). Once:
            discord.py calls on_ready again after each new session."""
            nonlocal said
            if said:
                return
            said = True
            lang = reader_of(sys.argv[1:])
            where = Msg(N_("shard {shard} of {shards}"), shard=args.shard, shards=args.shards) \
                if args.shards else Msg(N_("one connection"))
            line = Msg(N_("unobot: running as {bot} on Discord ({where}, {servers}); store: {store}"),
                       bot=str(bot.user), where=where, store=persistence.line(lang),
                       servers=Plural("{n} server", "{n} servers", len(bot.guilds)))
            print(line.text(lang), file=sys.stderr, flush=True)

        loop = asyncio.get_running_loop()
        on_stop_signals(lambda: loop.create_task(bot.close()))  # even while discord.py connects
        try:
            async with bot:
                await bot.start(token)
        finally:
            if web is not None:
                await web.cleanup()
            await store.close()

    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(main())
    except discord.PrivilegedIntentsRequired:
        print(error_line(Msg(N_("{key} is true, but Discord refused the Server Members intent: switch it on "
                                "({source}), or set {key} to false"), key="discord.members_intent",
                             source=Msg(N_("Developer Portal, Bot page, Privileged Gateway Intents")))),
              file=sys.stderr)
        return 1
    except discord.ConnectionClosed as exc:  # a close discord.py does not retry: said, not a traceback
        print(error_line(gateway_closed(exc.code, exc.reason)), file=sys.stderr)
        return 1
    except (StoreError, discord.LoginFailure, OSError, RuntimeError) as exc:
        print(error_line(startup_reason(exc)), file=sys.stderr)
        return 1
    return 0


#: Discord's gateway close code when a bot in too many servers for one connection must be sharded.
SHARDING_REQUIRED = 4011


def gateway_closed(code: int, reason: str) -> Msg:
    """Why Discord's gateway closed the connection for good, and what to do."""
    if code == SHARDING_REQUIRED:
        return Msg(N_("Discord requires sharding: the bot is in too many servers for one connection; run several "
                      "processes on one Redis, each with --shard I --shards N (I from 0 to N-1)"))
    return Msg(N_("the Discord gateway closed the connection ({code}): {reason}"), code=code,
               reason=Msg.plain(reason or "-"))


def shard_problem(shard: int | None, shards: int | None) -> Msg | None:
    """What is wrong with `--shard I --shards N`, and what to give instead, if
    anything: Discord closes the gateway of a shard outside 0..N-1 (4010,
    "invalid shard"), so it is said before connecting, in the words (and the
    language) of the other start-up errors."""
    if (shard is None) != (shards is None):
        given, missing = ("--shard", "--shards") if shard is not None else ("--shards", "--shard")
        return Msg(N_("{given} needs {missing}: --shard I --shards N runs shard I of N (I from 0 to N-1)"),
                   given=given, missing=missing)
    if shard is None or shards is None:
        return None
    if shards < 1:
        return Msg(N_("--shards {count}: it is how many processes serve the bot, 1 or more"), count=shards)
    if not 0 <= shard < shards:
        return Msg(N_("--shard {shard}: it is this process's number among --shards {count}, "
                      "from 0 to {last}"), shard=shard, count=shards, last=shards - 1)
    return None


def startup_reason(exc: BaseException) -> str:
    """Why the bot could not start, in the shared words (`startup.startup_reason`)."""
    import discord

    from unobot.adapters.startup import startup_reason as reason

    # aiohttp's connection errors are OSErrors.
    return reason(exc, "Discord", "Discord API", (discord.LoginFailure,), (OSError,))
