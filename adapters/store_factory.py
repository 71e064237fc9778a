"""Pick and connect the store the configuration asks for.

Why one function: the CLI, the Telegram adapter and the tests all need
"a store from these settings"; the choice between a Redis URL, the embedded
server and memory belongs in one place, and the caller only ever sees the
:class:`~core.store.Store` interface.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from unobot.config import Config, load_config
from unobot.store import (
    DEFAULT_GAME_TTL,
    MemoryStore,
    Store,
    StoreDataError,
    StoreError,
    StoreRefusing,
    StoreUnavailable,
)

EMBEDDED_SUBDIR = "redis"
DEFAULT_PREFIX = "unobot"  # the same as adapters/redis_store.py's (not imported: see open_store)
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
    if memory:
        return MemoryStore(game_ttl=options.get("game_ttl", DEFAULT_GAME_TTL))
    # Why imported here: redis-py costs ~0.1 s to import, which a memory store
    # (and every `unobot --help`) need not pay.
    from unobot.adapters.embedded_redis import EmbeddedRedis
    from unobot.adapters.redis_store import RedisStore

    # `redis.cluster: true` makes a plain redis:// or rediss:// URL a cluster's, wherever the
    # URL comes from (config, environment or a command line): one setting, one meaning.
    cluster = bool(options.pop("cluster", False))
    server: EmbeddedRedis | None = None
    if url is None:
        server = EmbeddedRedis(Path(data_dir) / EMBEDDED_SUBDIR)
        url = await asyncio.to_thread(server.start)
        cluster = False
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
    the game TTL; for a Redis store also the timeouts, ``redis.wait_replicas`` and
    ``redis.cluster`` (so a plain URL given on a command line is read as the
    config's own would be)."""
    options: dict[str, Any] = {"game_ttl": config.store.game_ttl}
    if not memory:
        options.update(connect_timeout=config.store.connect_timeout,
                       socket_timeout=config.store.socket_timeout,
                       wait_replicas=config.redis.wait_replicas,
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


def store_failure_reason(exc: StoreError) -> str:
    """One line saying why the store failed, for a command that stops on it.

    "cannot be reached" only when no server answered; anything a server
    answered (out of memory, a replica, a cluster node named by a plain URL,
    a cluster that is down...) is "refused", with what it said.
    """
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    if isinstance(exc, StoreUnavailable) and not isinstance(exc, StoreRefusing):
        return f"the store (Redis) cannot be reached: {first}"
    if isinstance(exc, StoreDataError):
        return f"the store (Redis) holds a value that cannot be read: {first}"
    return f"the store (Redis) refused: {first}"
