"""Pick and connect the store the configuration asks for.

Why one function: the CLI, the Telegram adapter and the tests all need
"a store from these settings"; the choice between a Redis URL, the embedded
server and memory belongs in one place, and the caller only ever sees the
:class:`~core.store.Store` interface.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unobot.chat.i18n import N_, Msg, gettext_for
from unobot.cli_text import reader_of
from unobot.config import Config, load_config
from unobot.store import (
    DEFAULT_GAME_TTL,
    MemoryStore,
    Store,
    StoreDataError,
    StoreError,
    StoreMisconfigured,
    StoreRefusing,
    StoreUnavailable,
    StoreUnconfirmed,
)

if TYPE_CHECKING:
    from unobot.adapters.embedded_redis import EmbeddedRedis
    from unobot.chat.service import ChatService

EMBEDDED_SUBDIR = "redis"
DEFAULT_PREFIX = "unobot"  # the same as adapters/redis_store.py's (not imported: see prepare_redis)
PLAIN_SCHEMES = ("redis://", "rediss://")
"""URL schemes ``redis.cluster: true`` turns into a cluster's (a unix socket is never one)."""


async def open_store(
    url: str | None,
    *,
    data_dir: str | os.PathLike[str],
    prefix: str = DEFAULT_PREFIX,
    memory: bool = False,
    **options: Any,
) -> Store:
    """Return a connected store.

    * ``memory=True``: a :class:`MemoryStore` (nothing survives the process);
    * ``url`` given: a :class:`RedisStore` on that server (``redis+cluster://``:
      a Redis Cluster);
    * otherwise: the embedded redis-server with its data in
      ``<data_dir>/redis`` (started, or reused if an earlier process left it
      running); closing the store stops it.

    ``options`` go to the store (``game_ttl``; for Redis also
    ``connect_timeout``, ``socket_timeout``, ``quarantine_ttl``,
    ``wait_replicas``, and ``cluster``: a plain ``redis://`` / ``rediss://``
    ``url`` names a Redis Cluster; :func:`store_options` reads them from a
    config). Raises :class:`~core.store.StoreUnavailable` when the server does
    not answer, a :class:`~core.store.StoreError` when it answered but is not
    what the URL says (a cluster node, a replica).
    """
    records = {name: options.pop(name) for name in ("archive_keep", "archive_max", "standings_max") if name in options}
    store = await _open_store(url, data_dir=data_dir, prefix=prefix, memory=memory, **options)
    for name, value in records.items():  # how long finished games are kept (config ``records``)
        setattr(store, name, value)
    return store


async def _open_store(url: str | None, *, data_dir: str | os.PathLike[str], prefix: str,
                      memory: bool, **options: Any) -> Store:
    if memory:
        return MemoryStore(game_ttl=options.get("game_ttl", DEFAULT_GAME_TTL))
    url = store_address(url)
    if url is None:  # the redis-server start waits on a process: in a thread, the event loop goes on
        address, server = await asyncio.to_thread(prepare_redis, None, data_dir)
    else:
        address, server = prepare_redis(url, data_dir)
    return await open_redis(address, server, prefix=prefix, **options)


class StoreAddressError(StoreError):
    """A store address that names no Redis (``--store foo``, ``--redis 127.0.0.1``).

    Why a kind of its own: it is the writer's mistake, found before any server
    is asked, so it is said as such (not "refused": no server answered), in one
    line, by every command that opens a store, not as redis-py's ValueError
    traceback from deep inside the client. Its words are a `Msg`, so
    `store_failure_reason(exc, lang)` says them in the operator's language."""

    def __init__(self, message: Msg) -> None:
        self.msg = message
        super().__init__(message.text())


def store_address(url: str | None) -> str | None:
    """``url`` checked: None or ``embedded`` -> None (the embedded server); a Redis
    URL as it is; anything else raises :class:`StoreAddressError`."""
    from unobot.config import EMBEDDED, URL_SCHEMES, redis_address_problem

    if url is None or url.strip() == EMBEDDED:
        return None
    if not url.startswith(URL_SCHEMES):
        raise StoreAddressError(Msg(N_("{url} is not a Redis URL: give redis://host:port/db, rediss://..., "
                                       "unix:///path/redis.sock, redis+cluster://host:port (a Redis Cluster), "
                                       "embedded, or memory (nothing kept)"), url=repr(url)))
    if (problem := redis_address_problem(url)) is not None:
        raise StoreAddressError(problem)
    return url


def prepare_redis(url: str | None, data_dir: str | os.PathLike[str]) -> tuple[str, EmbeddedRedis | None]:
    """The synchronous half of opening a Redis store: import redis-py and,
    with no ``url``, start the embedded server (or reuse the one left running
    on ``<data_dir>/redis``). Returns the URL to connect to and the embedded
    server (None for a configured URL), for :func:`open_redis`.

    Why apart from :func:`open_store`: a bot calls it first thing, before its
    event loop runs (``unobot telegram``, through :class:`PreparedRedis`):
    redis-server is launched before redis-py is imported and boots, a
    process of its own, meanwhile; only connecting is left for the event
    loop. (Not in a thread beside the bot's other imports: every file an
    import reads hands the interpreter lock to the other thread for a whole
    switch interval, which cost the cold start ~40 ms.) Raises
    :class:`~core.store.StoreUnavailable` when the embedded server cannot
    start (none installed, or it exits: its log's end is in the message).
    """
    # Why imported here: redis-py costs ~0.1 s to import, which a memory store
    # (and every `unobot --help`) need not pay.
    from unobot.adapters.embedded_redis import EmbeddedRedis, EmbeddedRedisError

    url = store_address(url)
    server = None
    if url is None:
        # A first start launches redis-server before importing redis-py to ask it
        # anything: the server boots while the client loads.
        server = EmbeddedRedis(Path(data_dir) / EMBEDDED_SUBDIR)
        try:
            url = server.start()
        except EmbeddedRedisError as exc:
            raise StoreUnavailable(f"the embedded Redis server could not start: {exc}") from None
    try:
        import unobot.adapters.redis_store  # noqa: F401  (here, in the caller's thread, not on the event loop)
    except BaseException:  # Ctrl-C meanwhile: nobody will own (and stop) the server just launched
        if server is not None:
            server.stop()
        raise
    return url, server


class PreparedRedis:
    """:func:`prepare_redis` done now, the connection made later (:meth:`open`).

    For a bot command that prepares its store first and opens it once its
    event loop runs. The store takes the embedded server over when it is
    opened; if the bot stops before that (a refused token, Ctrl-C while
    starting), :meth:`stop_unless_taken` stops the server this start started,
    as closing the store would have.
    """

    def __init__(self, url: str | None, data_dir: str | os.PathLike[str]) -> None:
        self.url, self.server = prepare_redis(url, data_dir)
        self.taken = False

    async def open(self, *, prefix: str = DEFAULT_PREFIX, **options: Any) -> Store:
        self.taken = True  # the store stops the embedded server when it closes
        return await open_redis(self.url, self.server, prefix=prefix, **options)

    def stop_unless_taken(self) -> None:
        if not self.taken and self.server is not None:
            self.server.stop()


async def open_redis(url: str, server: EmbeddedRedis | None = None, *, prefix: str = DEFAULT_PREFIX,
                     **options: Any) -> Store:
    """A connected :class:`RedisStore` on ``url`` (what :func:`prepare_redis` returned:
    closing the store stops the embedded ``server``, if any); ``options`` as for
    :func:`open_store`."""
    from unobot.adapters.redis_store import RedisStore

    # `redis.cluster: true` makes a plain redis:// or rediss:// URL a cluster's, wherever the
    # URL comes from (config, environment or a command line): one setting, one meaning.
    cluster = bool(options.pop("cluster", False)) and server is None
    store = RedisStore.from_url(url, prefix=prefix, server=server,
                                cluster=cluster and url.startswith(PLAIN_SCHEMES), **options)
    try:
        await store.ping()
    except BaseException:
        await store.close()
        raise
    return store


def store_options(config: Config, *, memory: bool = False) -> dict[str, Any]:
    """The store's settings from ``config`` (for :func:`open_store`'s ``options``):
    the game TTL; for a Redis store also the timeouts, ``redis.wait_replicas``,
    ``redis.wait_aof`` and
    ``redis.cluster`` (so a plain URL given on a command line is read as the
    config's own would be)."""
    options: dict[str, Any] = {"game_ttl": config.store.game_ttl,
                               "archive_keep": config.records.keep, "archive_max": config.records.max_per_chat,
                               "standings_max": config.records.max_people_per_chat}
    if not memory:
        options.update(connect_timeout=config.store.connect_timeout,
                       socket_timeout=config.store.socket_timeout,
                       wait_replicas=config.redis.wait_replicas,
                       wait_aof=config.redis.wait_aof,
                       cluster=config.redis.cluster)
    return options


async def open_configured_store(config: Config | None = None) -> Store:
    """The store ``config.yaml`` (and its env overrides) asks for; the config is loaded if not given.

    ``redis.url``: null -> the embedded server in ``<store.data_dir>/redis``;
    ``memory`` -> a :class:`MemoryStore`; a URL -> that server. The key
    prefix, game TTL and timeouts come from the ``store`` section, the
    replicas a save waits for from ``redis.wait_replicas``.
    """
    config = config or load_config()
    return await open_store(config.redis.url, data_dir=config.store.data_dir,
                            prefix=config.store.prefix, memory=config.redis.memory,
                            **store_options(config, memory=config.redis.memory))


def store_failure_reason(exc: StoreError, lang: str | None = None) -> str:
    """One line saying why the store failed, for a command that stops on it.

    "cannot be reached" only when no server answered; anything a server
    answered (out of memory, a replica, a cluster node named by a plain URL,
    a cluster that is down...) is "refused", with what it said. With
    `lang`, an address the writer got wrong is said in that language (the
    server's own words stay as it answered them).
    """
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    _ = gettext_for(lang)
    if isinstance(exc, StoreAddressError):
        return _("the store's address: {problem}").format(problem=exc.msg.text(lang))
    if isinstance(exc, StoreMisconfigured):  # the operator's setting: its fix in their language too
        first = exc.msg.text(lang)
    if isinstance(exc, StoreUnconfirmed):  # it answered: the copies redis.wait_replicas asks for did not
        return _("the store (Redis) did not confirm a save: {problem}").format(problem=first)
    if isinstance(exc, StoreUnavailable) and not isinstance(exc, StoreRefusing):
        return _("the store (Redis) cannot be reached: {problem}").format(problem=first)
    if isinstance(exc, StoreDataError):
        return _("the store (Redis) holds a value that cannot be read: {problem}").format(problem=first)
    return _("the store (Redis) refused: {problem}").format(problem=first)


async def open_service(config: Config, redis: str | None, **options: Any) -> tuple[ChatService, Persistence]:
    """What a long-running front-end serves from: the store (`redis`, "memory",
    or None for the embedded server) with the config's options, the same for
    every front-end, and the chat service on it with the config's defaults,
    told whether the store keeps anything on disk (its outages are said
    without "nothing was lost" when it does not); and that answer, for the
    front-end's ready line. Close it with `service.store.close()`."""
    from unobot.chat.service import ChatService, Defaults

    memory = redis == "memory"
    store = await open_store(None if memory else redis, data_dir=config.store.data_dir,
                             prefix=config.store.prefix, memory=memory, **store_options(config, memory=memory))
    persistence = await store_persistence(store)
    if persistence.persistent is False and not memory:
        # Said as `unobot telegram` says it, in the operator's language: a Discord bot or a
        # web table on such a Redis lost every game at its restart without a word in any log.
        logging.getLogger(__name__).warning(Msg(N_(
            "the store keeps nothing on disk: when it restarts, every running game is lost "
            "(Redis: turn on appendonly or save)")).text(reader_of(sys.argv[1:])))
    service = ChatService(store, defaults=Defaults.of(config.game), keeps_nothing=persistence.persistent is False,
                          **options)
    return service, persistence


# -- whether the store keeps anything across its own restart -----------------------------

class Persistence:
    """Whether the store keeps what it holds across its own restart.

    `persistent` is None when it cannot be told (a managed Redis that
    refuses CONFIG GET); `what` says in words what was found, as a `Msg`
    so the start-up line is in the operator's language (`line`)."""

    def __init__(self, kind: Msg, persistent: bool | None, what: Msg) -> None:
        self.kind = kind
        self.persistent = persistent
        self.what = what

    def line(self, lang: str) -> str:
        return Msg(N_("{store} ({what})"), store=self.kind, what=self.what).text(lang)


async def store_persistence(store: object) -> Persistence:
    """Ask the store whether it keeps anything on disk.

    A Redis is asked `CONFIG GET save` and `CONFIG GET appendonly`: with
    neither snapshots nor the append-only file it keeps nothing, and a
    restart of it forgets every game (issue 25: players were then told
    "nothing was lost"). A cluster's nodes are asked through the client."""
    from unobot.store import MemoryStore

    inner = getattr(store, "_store", store)  # a metered store's own
    if isinstance(inner, MemoryStore):
        return Persistence(Msg(N_("memory")), False, Msg(N_("inside this process: nothing survives a stop")))
    client = getattr(inner, "client", None)
    if client is None:
        return Persistence(Msg.plain(type(inner).__name__), None, Msg(N_("persistence not known")))
    embedded = getattr(inner, "server", None) is not None
    kind = Msg(N_("embedded Redis")) if embedded else Msg.plain("Redis")
    try:
        save = await client.config_get("save")
        aof = await client.config_get("appendonly")
    except Exception as exc:  # noqa: BLE001 - CONFIG may be renamed or refused on a managed server
        return Persistence(kind, None, Msg(N_("persistence not known: CONFIG GET refused ({error})"),
                                           error=Msg.plain(type(exc).__name__)))
    saving = _first(save, "save").strip()
    appendonly = _first(aof, "appendonly").strip().lower() == "yes"
    if appendonly:
        if saving:
            return Persistence(kind, True, Msg(N_("append-only file, snapshots {schedule}"),
                                               schedule=Msg.plain(saving)))
        return Persistence(kind, True, Msg(N_("append-only file")))
    if saving:
        return Persistence(kind, True, Msg(N_("snapshots ({schedule}): a crash loses the moves since the last one"),
                                           schedule=Msg.plain(saving)))
    return Persistence(kind, False, Msg(N_("keeps nothing on disk: a restart of it loses every game")))


def _first(answer: object, key: str) -> str:
    """CONFIG GET's value for `key`, from a plain client ({key: value}) or a
    cluster's ({node: {key: value}} or a flat dict)."""
    if isinstance(answer, dict):
        if key in answer:
            return str(answer[key])
        for value in answer.values():
            if isinstance(value, dict) and key in value:
                return str(value[key])
    return ""
