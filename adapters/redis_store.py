"""The production store: Redis through redis-py's asyncio client.

Why one module of about 1200 lines: every method is one round trip with
the same error translation, retry and quarantine handling; split, they
would share half the module as private API. The Lua scripts are in
redis_scripts.py.

Why these shapes:

* A save is one EVALSHA of a Lua script (``adapters/redis_scripts.py``)
  that checks the version, writes the state, appends the log and refreshes
  the expiry atomically. redis-py's ``register_script`` object sends
  EVALSHA and, after a server restart emptied the script cache (NOSCRIPT),
  loads the script and sends it again.
* A load is one GET: the version sits inside the value (the envelope,
  ``core/store_envelope.py``), so state and version can never disagree and
  no pipeline or transaction is needed to read them together.
* Every key of a chat (binding, settings, stats, its games and their logs)
  shares the hash tag ``{chat:<id>}``, so every script touches one Redis
  Cluster slot and a quarantined key stays in that slot too.
* Driver errors never leave this module: a server that cannot be reached
  becomes :class:`StoreUnavailable`, one that answered with a refusal that
  passes (out of memory, read-only, cluster down...) :class:`StoreRefusing`,
  unreadable data :class:`StoreDataError`.
  Errors are told apart by redis-py's exception class (it strips the reply
  code, ``OOM ...`` arrives as :class:`OutOfMemoryError` whose text no
  longer starts with ``OOM``), and each gets a message that says what the
  server answered: a node that answered is never called unreachable.
* Redis Cluster (``redis+cluster://host:port[,host:port...]``, or
  ``cluster=True``) uses redis-py's ``redis.asyncio.cluster.RedisCluster``,
  which follows MOVED and ASK and re-reads the slot map after a failover.
  Replies that mean "not now" (CLUSTERDOWN, TRYAGAIN, MASTERDOWN, READONLY,
  LOADING) are retried here for up to ``retry_window`` seconds, which is
  safe for writes too: the server did not run the command, and a script
  that did run recognises its own retry. Then :class:`StoreUnavailable`.

* A save is acknowledged (returns) only as the configuration promises:
  with ``wait_replicas`` / ``wait_aof``, once ``WAIT`` / ``WAITAOF`` in the
  same round trip confirm it; short of that :class:`StoreUnconfirmed` with
  the save's receipt, which :meth:`RedisStore.confirm_save` settles later.
  Each acknowledged save is recorded (version, log length, log digest) under
  a hash tag another primary serves, for the audit.
* One failing cluster primary stalls only its own games (see
  :func:`_isolating_cluster` and ``RedisStore._call``).

hiredis speeds up reply parsing when it is installed; redis-py picks it up
by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import redis
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.driver_info import DriverInfo
from redis.exceptions import (
    AskError,
    BusyLoadingError,
    ClusterDownError,
    ClusterError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from unobot import store_envelope as envelope
from unobot.adapters import redis_scripts as lua
from unobot.adapters.redis_changes import RedisFeed
from unobot.chat.bounded import BoundedCache
from unobot.chat.i18n import N_, Msg
from unobot.store import (
    DEFAULT_ARCHIVE_KEEP,
    DEFAULT_ARCHIVE_MAX,
    DEFAULT_GAME_TTL,
    DEFAULT_STANDINGS_MAX,
    DELIVERY_DONE,
    DONE_MAX,
    DONE_TTL,
    ID_RE,
    ChatBusy,
    ChatId,
    DeliveryClaim,
    GameNotFound,
    Receipt,
    Standing,
    StatsScope,
    Store,
    StoreDataError,
    StoredGame,
    StoreError,
    StoreMisconfigured,
    StoreRefusing,
    StoreSlow,
    StoreUnavailable,
    StoreUnconfirmed,
    VersionConflict,
    check_delivery,
    check_deltas,
    check_expected_version,
    check_log,
    check_scope,
    check_standings,
    encode_record,
    encode_setting,
    log_range,
    new_game_id,
    norm_id,
    parse_standings,
    setting_names,
    split_game_id,
)

T = TypeVar("T")

if TYPE_CHECKING:
    from redis.asyncio.cluster import RedisCluster

    from unobot.adapters.embedded_redis import EmbeddedRedis

    Client = aioredis.Redis | RedisCluster

log = logging.getLogger(__name__)

DEFAULT_PREFIX = "unobot"
#: Games whose key names a store remembers (see `RedisKeys.game`).
GAME_KEYS_CACHED = 1024
DEFAULT_CONNECT_TIMEOUT = 1.0
DEFAULT_SOCKET_TIMEOUT = 2.0
QUARANTINE_TTL = 30 * 24 * 3600.0
"""Seconds a quarantined value is kept for someone to look at."""

DEFAULT_RETRY_WINDOW = 1.0
"""Seconds a "not now" reply (CLUSTERDOWN, TRYAGAIN, READONLY, LOADING...) is retried
(a player is answered within about that: a failover itself takes longer)."""
MAP_REFRESH_EVERY = 0.5
"""Seconds between two background re-reads of a cluster's slot map (see ``_isolating_cluster``)."""
NODE_HOLD = 0.5
"""Seconds a cluster primary that failed to answer is not tried again (its games answer
"not reachable" at once meanwhile; see ``RedisStore._call``)."""
ACK_SLOTS = 4
"""Hash tags tried for a game's acknowledgement record (one on another primary than the game)."""
CLUSTER_SCHEMES = {"redis+cluster://": "redis://", "rediss+cluster://": "rediss://"}
"""URL schemes that select Redis Cluster, and the plain scheme each stands for."""

# Error replies that mean "the server cannot serve us now", not "you asked wrong".
_OUTAGE_CODES = frozenset({"LOADING", "MISCONF", "READONLY", "MASTERDOWN", "CLUSTERDOWN",
                           "TRYAGAIN", "NOREPLICAS", "OOM", "BUSY"})
# Of those, the ones that pass by themselves within seconds (a failover, a
# slot migration, a restart loading its data): worth retrying.
_TRANSIENT_CODES = frozenset({"LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN"})
_WHY = {
    "OOM": "the server is out of memory (maxmemory reached with a noeviction policy); "
           "reads still work, writes are refused until memory is freed or raised",
    "READONLY": "the node answering is a read-only replica (a failover demoted it, or "
                "the URL names a replica)",
    "CLUSTERDOWN": "the Redis Cluster is down or failing over (a primary is unreachable and "
                   "not yet replaced)",
    "MASTERDOWN": "the node lost its link to its primary",
    "TRYAGAIN": "the key's slot is being migrated between cluster nodes",
    "LOADING": "the server is loading its data after a restart",
    "MISCONF": "the server cannot persist (check its disk and logs)",
    "BUSY": "the server is busy running a long script",
    "NOREPLICAS": "too few replicas are connected for the server to accept writes",
}


def cluster_url(url: str) -> tuple[str, bool]:
    """``(plain URL, is a cluster)``: ``redis+cluster://h:p`` -> ``(redis://h:p, True)``."""
    for scheme, plain in CLUSTER_SCHEMES.items():
        if url.startswith(scheme):
            return plain + url[len(scheme):], True
    return url, False


def _code_of(exc: BaseException) -> str:
    """The reply code of a driver error, from its class first (redis-py strips it from the text)."""
    if isinstance(exc, OutOfMemoryError):
        return "OOM"
    if isinstance(exc, ReadOnlyError):
        return "READONLY"
    if isinstance(exc, BusyLoadingError):
        return "LOADING"
    if isinstance(exc, TryAgainError):
        return "TRYAGAIN"
    if isinstance(exc, ClusterDownError):  # MasterDownError is one too
        return "MASTERDOWN" if "MASTERDOWN" in type(exc).__name__.upper() else "CLUSTERDOWN"
    if isinstance(exc, AskError):  # MovedError is one too
        return "MOVED"
    code = getattr(exc, "status_code", None)
    if code and str(code).upper() != "ERR":
        return str(code).upper()
    if code and "@user_script" not in str(exc):
        return "ERR"
    # A command that failed inside a Lua script comes back as a plain ERR
    # wrapping the real code (`ERR Error running script ... -OOM ...`).
    return _reply_code(exc)


def _reply_code(exc: BaseException | None) -> str:
    """The error code of a Redis error reply (``WRONGTYPE``, ``MISCONF``...).

    Why the unwrapping: inside a pipeline redis-py rewrites the message to
    ``Command # 1 (...) of pipeline caused error: ('WRONGTYPE ...',)``.
    """
    text = str(exc or "")
    marker = "caused error: "
    if marker in text:
        text = text.split(marker, 1)[1]
    if "Error running script" in text or "@user_script" in text:
        # A command inside a Lua script failed: Redis wraps its reply
        # (`... @user_script:29: -OOM command not allowed ...`); the code is the wrapped one.
        wrapped = re.search(r"-([A-Z]{2,}) ", text)
        if wrapped:
            return wrapped.group(1)
    text = text.lstrip("('\" ")
    return text.split(" ", 1)[0].upper()


class _ScriptLoaded(Exception):
    """A server without the script (restarted) ran it by its text: send the round trip again."""


class GameKeys(NamedTuple):
    """The keys of one game (and its chat's binding), built once per game id."""

    chat: str
    state: str
    log: str
    binding: str
    digest: str


class RedisKeys:
    """Key names. ``<prefix>:{chat:<id>}:...`` and ``<prefix>:{user:<id>}:stats``.

    ======================================  =========  ==============================
    key                                     type       holds
    ======================================  =========  ==============================
    P:{chat:C}:current                      string     id of the chat's running game
    P:{chat:C}:game:N:state                 string     envelope (version + state)
    P:{chat:C}:game:N:log                   list       move log, one entry a move
    P:{chat:C}:game:N:digest                string     ``<log length>:<log digest>``
    P:{ack:C:I}:game:N                      string     acknowledgement record: the last
                                                       save a player was told was kept,
                                                       ``<version>:<log length>:<digest>``
                                                       (I: 0-3, the first whose slot is on
                                                       another primary than the game's)
    P:{chat:C}:settings                     hash       setting name -> JSON value
    P:{chat:C}:stats                        hash       counter -> integer
    P:{user:U}:stats                        hash       counter -> integer
    P:{chat:C}:records                      zset       kept finished games (id, by end time)
    P:{chat:C}:record:N                     string     a finished game's record (JSON)
    P:{chat:C}:done                         zset       the games archived (id, by time): a repeat is
                                                       a no-op (the last 1000, for 7 days)
    P:{chat:C}:done:N                       string     the same, as written before the zset (read only)
    P:{chat:C}:standings:T                  hash       period T's table: ``g:``/``w:``/``p:``/``n:``/``r:``
                                                       + player id -> games, wins, points, name, rating
    P:{chat:C}:seen                         zset       the standings' people (id, by last match): the
                                                       least recent leave every table past the cap
    P:{chat:C}:periods                      set        the periods with a table (for reset, forget)
    P:{player:U}:chats                      set        chats whose standings name U
    P:{delivery:K}                          string     who handles delivery K now (an owner,
                                                       for a lease) or ``done`` (for a while):
                                                       ``core/delivery.py``
    <any key>:quarantine:<unix ms>          as moved   a value that could not be read
    ======================================  =========  ==============================

    (P = prefix, C = chat id, N = the game id's nonce, game id = ``C#N``.)
    """

    def __init__(self, prefix: str = DEFAULT_PREFIX) -> None:
        if not prefix or any(ch in prefix for ch in "{} \n"):
            raise ValueError(f"bad key prefix: {prefix!r}")
        self.prefix = prefix
        # Why a cache: every load and save needs these names; building them
        # checks the game id with a regex, which showed up in the profile.
        # Why 1,024: the games a process is playing, as many as the session
        # keeps tables of (core's DEFAULT_CACHE_SIZE); with 4,096, a bot
        # meeting new groups all day held the names of 4,096 games, most of
        # them over (issue 25's soak: one GameKeys per game among what grew).
        # A finished game's names leave when its chat lets go of it
        # (`forget_game`: unbind, delete), not when 1,024 newer games push them out.
        self._games: BoundedCache[str, GameKeys] = BoundedCache(GAME_KEYS_CACHED)

    def game(self, game_id: str) -> GameKeys:
        names = self._games.get(game_id)
        if names is None:
            names = self._game(game_id)
            self._games.put(game_id, names)
        return names

    def forget_game(self, game_id: str) -> None:
        self._games.pop(game_id)

    def held(self) -> int:
        """How many games' names are kept (tests, the soak)."""
        return len(self._games)

    def _game(self, game_id: str) -> GameKeys:
        chat, nonce = split_game_id(game_id)
        base = f"{self.games_prefix(chat)}{nonce}"
        return GameKeys(chat, f"{base}:state", f"{base}:log", self.binding(chat), f"{base}:digest")

    def acks(self, game_id: str) -> list[str]:
        """The keys a game's acknowledgement record may sit at (why several: see ACK_SLOTS)."""
        chat, nonce = split_game_id(game_id)
        return [f"{self.prefix}:{{ack:{chat}:{i}}}:game:{nonce}" for i in range(ACK_SLOTS)]

    def _chat(self, chat: str) -> str:
        return f"{self.prefix}:{{chat:{chat}}}"

    def binding(self, chat: str) -> str:
        return f"{self._chat(chat)}:current"

    def games_prefix(self, chat: str) -> str:
        """Start of every game key of a chat (the create script builds a state key from it)."""
        return f"{self._chat(chat)}:game:"

    def state(self, game_id: str) -> str:
        return self.game(game_id).state

    def log(self, game_id: str) -> str:
        return self.game(game_id).log

    def settings(self, chat: str) -> str:
        return f"{self._chat(chat)}:settings"

    def stats(self, scope: str, owner: str) -> str:
        return f"{self.prefix}:{{{scope}:{owner}}}:stats"

    def records(self, chat: str) -> str:
        return f"{self._chat(chat)}:records"

    def record(self, game_id: str) -> str:
        chat, nonce = split_game_id(game_id)
        return f"{self._chat(chat)}:record:{nonce}"

    def done(self, game_id: str) -> str:
        """The per-game marker earlier versions wrote (still honoured until it expires)."""
        chat, nonce = split_game_id(game_id)
        return f"{self._chat(chat)}:done:{nonce}"

    def done_set(self, chat: str) -> str:
        return f"{self._chat(chat)}:done"

    def seen(self, chat: str) -> str:
        return f"{self._chat(chat)}:seen"

    def standings(self, chat: str, period: str) -> str:
        return f"{self._chat(chat)}:standings:{period}"

    def periods(self, chat: str) -> str:
        return f"{self._chat(chat)}:periods"

    def player_chats(self, player: str) -> str:
        return f"{self.prefix}:{{player:{player}}}:chats"

    def delivery(self, key: str) -> str:
        return f"{self.prefix}:{{delivery:{key}}}"

    @staticmethod
    def quarantine(key: str, stamp_ms: int) -> str:
        return f"{key}:quarantine:{stamp_ms}"


def _timed_out(exc: BaseException) -> bool:
    """Whether a store error came from a command that was sent and not answered
    in time (a read timeout), as opposed to one never sent (refused, no route)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, RedisTimeoutError | asyncio.TimeoutError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _translate(exc: BaseException) -> StoreError:
    """The store's typed error for a driver error (why: callers know no redis).

    A server that answered is never "unavailable" plain: a refusal that
    passes (out of memory, read-only, cluster down...) is
    :class:`StoreRefusing`, a mistake of the setup a :class:`StoreError`.
    """
    code = _code_of(exc)
    if code in _OUTAGE_CODES:
        return StoreRefusing(f"redis answered {code}: {_WHY[code]} ({exc})")
    if isinstance(exc, ResponseError):
        if code == "MOVED":
            return StoreError(f"redis answered MOVED {exc}: this server is a Redis Cluster node, "
                              f"which a plain redis:// URL reaches only for its own slots; "
                              "name the cluster with a redis+cluster://HOST:PORT URL")
        text = str(exc)
        return StoreError(f"redis refused: {text if text.upper().startswith(code) else f'{code} {text}'}")
    if isinstance(exc, RedisConnectionError | RedisTimeoutError | OSError):
        return StoreUnavailable(f"redis unavailable: {exc}")
    if type(exc) is ClusterError:  # redis-py's redirections ran out (TRYAGAIN, MOVED, ASK)
        return StoreRefusing(f"redis cluster: the key's slot kept answering TRYAGAIN or "
                             f"redirecting (a slot migration under way) ({exc})")
    if isinstance(exc, SlotNotCoveredError):  # the slot map has no primary for the key's slot
        return StoreRefusing(f"redis cluster: no primary serves this key's slot now (a failover "
                             f"under way, or the cluster lost a primary) ({exc})")
    if isinstance(exc, RedisClusterException):
        if "cluster mode is not enabled" in str(exc).lower():  # a node answered: not a cluster
            return StoreMisconfigured(Msg(N_("this Redis is not a cluster node (cluster mode is off): use a "
                                             "plain redis:// URL, without redis+cluster:// or redis.cluster: true")))
        # no node of the cluster answered, or none gave a slot map
        return StoreUnavailable(f"redis cluster unavailable: {exc}")
    return StoreError(f"redis error: {exc}")


def _connection_gone(exc: AttributeError) -> bool:
    """redis-py's asyncio connection closed by another task (a cluster client
    dropping a failed node's connections) while this command was writing or
    reading on it: its stream is None and the driver raises AttributeError
    (seen with redis-py 8.1 in a failover). That is a lost connection, said
    as one, not a crash of the caller."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_code.co_filename.replace("\\", "/") if tb is not None else ""
    return where.endswith("redis/asyncio/connection.py") and "'NoneType'" in str(exc)


def _transient(exc: BaseException) -> bool:
    # SlotNotCovered: a failover under way, no primary for the slot yet. A bare
    # ClusterError (its subclasses are CLUSTERDOWN and the like): redis-py gave up
    # after ~16 redirections or TRYAGAIN replies, a slot migration under way; none
    # of them ran the command.
    if isinstance(exc, SlotNotCoveredError) or type(exc) is ClusterError:
        return True
    return isinstance(exc, RedisError) and _code_of(exc) in _TRANSIENT_CODES


@contextmanager
def _translate_errors() -> Iterator[None]:
    """Turn driver errors into the store's typed errors (why: callers know no redis)."""
    try:
        yield
    except (RedisError, RedisClusterException, OSError) as exc:
        raise _translate(exc) from exc


def _is_wrongtype(exc: BaseException | None) -> bool:
    return isinstance(exc, ResponseError) and _code_of(exc) == "WRONGTYPE"


def _ttl_ms(seconds: float | None) -> int:
    return 0 if seconds is None else max(1, int(seconds * 1000))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    """Replies are bytes (``decode_responses=False``); this keeps the type checker honest."""
    return value if isinstance(value, bytes) else value.encode()


class RedisStore(Store):
    """The :class:`~core.store.Store` contract on a Redis server (6.2 or newer).

    ``client`` is a ``redis.asyncio.Redis`` made with ``decode_responses=False``
    (use :meth:`from_url`). ``server`` is an embedded server this store owns
    and stops on :meth:`close`.
    """

    def __init__(
        self,
        client: Client,
        *,
        prefix: str = DEFAULT_PREFIX,
        game_ttl: float | None = DEFAULT_GAME_TTL,
        quarantine_ttl: float = QUARANTINE_TTL,
        server: EmbeddedRedis | None = None,
        retry_window: float = DEFAULT_RETRY_WINDOW,
        wait_replicas: int = 0,
        wait_timeout: float = 0.5,
        wait_aof: bool = False,
        ack_records: bool | None = None,
        archive_keep: float | None = DEFAULT_ARCHIVE_KEEP,
        archive_max: int = DEFAULT_ARCHIVE_MAX,
        standings_max: int = DEFAULT_STANDINGS_MAX,
    ) -> None:
        self.client = client
        #: How long finished games are kept, how many per chat, and how many
        #: people a chat's standings hold (config `records`).
        self.archive_keep = archive_keep
        self.archive_max = archive_max
        self.standings_max = standings_max
        self.cluster = not isinstance(client, aioredis.Redis)
        self.keys = RedisKeys(prefix)
        self.game_ttl = game_ttl
        self.quarantine_ttl = quarantine_ttl
        self.server = server
        self.retry_window = retry_window
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = max(1, int(wait_timeout * 1000))
        #: Also wait for the primary's own AOF fsync (WAITAOF 1 0, Redis 7.2+).
        self.wait_aof = wait_aof
        #: Keep each game's acknowledgement record (default: where a failover can
        #: happen, a cluster or replicas waited for; a lone server has nothing to lose it to).
        self.ack_records = (self.cluster or wait_replicas > 0) if ack_records is None else ack_records
        self._acks_due: dict[str, Receipt] = {}  # game id -> newest receipt not yet recorded
        self._acks_writer: asyncio.Task[None] | None = None
        self._checked_mode = False
        #: node name -> (not tried again before, failed at, why): see ``_call``.
        self._down: dict[str, tuple[float, float, str]] = {}
        self._stale_map = False  # a cluster node failed: read the slot map before the next WAIT
        self._save = client.register_script(lua.SAVE)
        self._create = client.register_script(lua.CREATE)
        self._bind = client.register_script(lua.BIND)
        self._unbind_if = client.register_script(lua.UNBIND_IF)
        self._claim = client.register_script(lua.CLAIM)
        self._swap_setting = client.register_script(lua.SWAP_SETTING)
        self._delete = client.register_script(lua.DELETE)
        self._quarantine = client.register_script(lua.QUARANTINE)
        self._incr_stats = client.register_script(lua.INCR_STATS)
        self._confirm = client.register_script(lua.CONFIRM)
        self._archive = client.register_script(lua.ARCHIVE)
        #: Every saved change of a chat's game, told to every process (``changes()``).
        self._feed = RedisFeed(client, f"{prefix}:changes")

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        socket_timeout: float = DEFAULT_SOCKET_TIMEOUT,
        server: EmbeddedRedis | None = None,
        cluster: bool = False,
        **options: Any,
    ) -> RedisStore:
        """A store on the server at ``url`` (``redis://``, ``rediss://`` or ``unix://``).

        A Redis Cluster: ``redis+cluster://host:port`` (``rediss+cluster://``
        for TLS; more seed nodes as ``host:port,host:port``), or a plain URL
        with ``cluster=True``.

        Why these client settings: short socket timeouts make an outage
        answer within a second or two (a refused connection at once, an
        unreachable host after ``connect_timeout``, a hung server after
        ``socket_timeout``). One quick retry on *connection* errors replaces
        a pooled connection that a server restart broke, so play goes on
        with the same store once the server is back; it is safe for writes
        because each write script recognises its own earlier attempt. A
        timeout is not retried: the server may still run the command, so
        the caller gets :class:`StoreUnavailable` (outcome unknown) at once.
        """
        url, named_cluster = cluster_url(url)
        if cluster or named_cluster:
            return cls(_cluster_client(url, connect_timeout, socket_timeout), server=server,
                       **options)
        client = aioredis.Redis.from_url(
            url,
            decode_responses=False,
            socket_connect_timeout=connect_timeout,
            socket_timeout=socket_timeout,
            retry=Retry(ExponentialBackoff(cap=0.05, base=0.01), 1,
                        supported_errors=(RedisConnectionError,)),
            driver_info=driver_info(),
        )
        return cls(client, server=server, **options)

    # ---- plumbing

    def _node_of(self, key: str | None) -> str | None:
        """The name of the primary serving ``key`` in the slot map at hand (cluster only)."""
        if key is None or not self.cluster:
            return None
        try:
            return str(self.client.get_node_from_key(key).name)  # type: ignore[union-attr]
        except (RedisError, RedisClusterException, IndexError, KeyError):
            return None

    async def _call(self, make: Callable[[], Awaitable[T]], key: str | None = None) -> T:
        """Await ``make()``; retry "not now" replies for up to ``retry_window`` s; translate errors.

        ``make`` builds a fresh awaitable per attempt (a coroutine runs once).
        ``key``: the key it is for. On a cluster, a primary that just failed to
        answer (a connection refused or timed out) is not tried again for
        ``NODE_HOLD`` seconds, unless the slot map moved the key elsewhere
        meanwhile: its games answer "not reachable" at once instead of each
        waiting out a timeout, while the map is re-read in the background
        (see ``_isolating_cluster``) and the other primaries' games go on.
        """
        deadline = time.monotonic() + self.retry_window
        pause = 0.02
        node = self._node_of(key)
        while True:
            held = self._down.get(node or "")
            if held is not None and held[0] > time.monotonic():
                raise StoreUnavailable(f"redis unavailable: {node} did not answer "
                                       f"{time.monotonic() - held[1]:.1f} s ago ({held[2]}); "
                                       "its games wait for the failover")
            try:
                if self.cluster and getattr(self.client, "_initialize", False):
                    # Why first: redis-py picks a command's node before reading the slot map
                    # it dropped (after CLUSTERDOWN or a connection error), and without a map
                    # it sends even a keyed command to a random node, the dead one included.
                    # (With a map at hand this only starts a refresh in the background.)
                    await self.client.initialize()  # type: ignore[union-attr]
                    node = self._node_of(key)
                return await make()
            except (RedisError, RedisClusterException, OSError, AttributeError) as exc:
                if isinstance(exc, AttributeError):
                    if not _connection_gone(exc):
                        raise
                    lost = RedisConnectionError(f"the connection closed under the command ({exc})")
                    lost.__cause__ = exc
                    exc = lost
                if node is not None and isinstance(exc, RedisConnectionError | RedisTimeoutError
                                                   | OSError):
                    now = time.monotonic()
                    self._down[node] = (now + NODE_HOLD, now, str(exc))
                if not _transient(exc) or time.monotonic() + pause > deadline:
                    raise _translate(exc) from exc
                what = ("TRYAGAIN or redirections until redis-py gave up"
                        if type(exc) is ClusterError else _code_of(exc))
                log.info("redis answered %s; trying again in %.2f s", what, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.25)

    async def _run(self, script: Any, keys: Sequence[str], args: Sequence[Any]) -> list[Any]:
        """EVALSHA the script; after a server lost its script cache, load it and go again.

        Why not just ``script(keys=..., args=...)``: that wrapper re-imports and
        re-packs its arguments on every call, a few microseconds of every save.
        """
        async def attempt() -> Any:
            try:
                return await self.client.evalsha(script.sha, len(keys), *keys, *args)
            except NoScriptError:
                # EVAL (the script's text) on the key's node only, which caches it: redis-py's
                # Script loads it on every primary first, a dead one included in a failover.
                return await self.client.eval(script.script, len(keys), *keys, *args)

        return list(await self._call(attempt, keys[0] if keys else None))

    @property
    def waits(self) -> bool:
        """True when a save is answered only after copies confirm it (WAIT / WAITAOF)."""
        return bool(self.wait_replicas or self.wait_aof)

    @property
    def confirms_copies(self) -> bool:
        return self.waits

    async def _write(self, script: Any, keys: Sequence[str],
                     args: Sequence[Any]) -> tuple[list[Any], str | None]:
        """``_run`` for a write a player will be told was kept, and whether it is:
        ``(reply, None)`` once ``wait_replicas`` replicas have it (``WAIT``, on
        the same connection in the same round trip) and, with ``wait_aof``,
        the primary fsynced it to its AOF (``WAITAOF 1 0``); ``(reply, why)``
        when fewer confirmed within ``wait_timeout``.

        WAIT counts copies, it undoes nothing: a write fewer replicas
        confirmed stands on the primary, and the caller must not call it
        kept (:class:`StoreUnconfirmed`). Every write waits, always: a
        primary whose replica is gone answers "not confirmed" until one is
        back. Why not WAIT in the script: Redis does not block there.
        """
        if not self.waits:
            return await self._run(script, keys, args), None
        node: Any = None
        if self.cluster:
            # The node for WAIT is named here, from the slot map; after a connection
            # error the map is read again (a failover may have promoted a replica).
            if self._stale_map or getattr(self.client, "_initialize", False):
                await self._call(self.client.initialize)  # type: ignore[union-attr]
                self._stale_map = False
            node = self.client.get_node_from_key(keys[0])  # type: ignore[union-attr]
        waits: list[tuple[Any, ...]] = []
        if self.wait_replicas:
            waits.append(("WAIT", self.wait_replicas, self.wait_timeout_ms))
        if self.wait_aof:
            waits.append(("WAITAOF", 1, 0, self.wait_timeout_ms))

        async def attempt() -> Any:
            pipe: Any = self.client.pipeline(transaction=False)
            # (by name: redis-py's cluster pipeline blocks its evalsha method, not the command)
            pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
            for wait in waits:
                if node is not None:
                    pipe.execute_command(*wait, target_nodes=node)
                else:
                    pipe.execute_command(*wait)
            try:
                replies = await pipe.execute(raise_on_error=False)
            except (RedisConnectionError, RedisTimeoutError, OSError, RedisClusterException):
                self._stale_map = self.cluster
                raise
            if isinstance(replies[0], NoScriptError):  # a restarted server: load the script, again
                # its own run, on the key's node (a retry is recognised)
                await self.client.eval(script.script, len(keys), *keys, *args)
                raise _ScriptLoaded()
            for found in replies:
                if isinstance(found, RedisConnectionError | RedisTimeoutError | OSError):
                    self._stale_map = self.cluster
            if isinstance(replies[0], BaseException):
                raise replies[0]
            return replies

        try:
            replies = await self._call(attempt, keys[0])
        except _ScriptLoaded:
            replies = await self._call(attempt, keys[0])  # the same arguments: the script knows its own write
        short = self._shortfall(waits, replies[1:])
        if short is not None:
            log.warning("a write to %s on %s is not confirmed: %s", keys[0],
                        node.name if node is not None else "the server", short)
        return list(replies[0]), short

    def _shortfall(self, waits: Sequence[tuple[Any, ...]], replies: Sequence[Any]) -> str | None:
        """What the WAIT / WAITAOF replies lack, in Redis's terms, or None when they confirm."""
        missing: list[str] = []
        for wait, reply in zip(waits, replies):
            if isinstance(reply, BaseException):
                if wait[0] == "WAITAOF" and "unknown command" in str(reply).lower():
                    raise StoreError("redis.wait_aof asks for WAITAOF, which this server does not "
                                     "have (Redis 7.2 or newer)") from reply
                if wait[0] == "WAITAOF" and "appendonly" in str(reply).lower():
                    raise StoreError("redis.wait_aof needs the server's append-only file "
                                     f"(appendonly yes): {reply}") from reply
                missing.append(f"{wait[0]} failed ({reply})")
            elif wait[0] == "WAIT" and int(reply) < self.wait_replicas:
                missing.append(f"WAIT {self.wait_replicas} {self.wait_timeout_ms}: "
                               f"{int(reply)} of {self.wait_replicas} replicas acknowledged it")
            elif wait[0] == "WAITAOF" and int(reply[0]) < 1:
                missing.append(f"WAITAOF 1 0 {self.wait_timeout_ms}: not yet fsynced to the AOF")
        return "; ".join(missing) or None

    # ---- acknowledgement records

    def _ack_key(self, game_id: str) -> str:
        """Where this game's record is written: the first candidate key whose slot
        another primary serves (on a cluster), so that losing the game's
        primary does not take the record with it."""
        candidates = self.keys.acks(game_id)
        if not self.cluster:
            return candidates[0]
        try:
            home = self.client.get_node_from_key(self.keys.state(game_id))  # type: ignore[union-attr]
            for key in candidates:
                if self.client.get_node_from_key(key).name != home.name:  # type: ignore[union-attr]
                    return key
        except (RedisError, RedisClusterException):
            pass  # no slot map at hand: any candidate is as good
        return candidates[0]

    def _record_ack(self, receipt: Receipt) -> None:
        """Note an acknowledged save; a background task writes the newest per game."""
        if not self.ack_records:
            return
        held = self._acks_due.get(receipt.game_id)
        if held is None or held.version < receipt.version:
            self._acks_due[receipt.game_id] = receipt
        if self._acks_writer is None or self._acks_writer.done():
            self._acks_writer = asyncio.get_running_loop().create_task(self._write_acks())

    async def _write_acks(self) -> None:
        """Write the due records (why in the background: a record is for the audit,
        not for the player, who was answered already; one write per game however
        many saves came meanwhile)."""
        while self._acks_due:
            game_id, receipt = self._acks_due.popitem()
            key = self._ack_key(game_id)
            value = f"{receipt.version}:{receipt.log_length}:{receipt.digest}"
            ttl = self.game_ttl
            try:
                await self._call(lambda k=key, v=value, t=ttl: self.client.set(  # type: ignore[misc]
                    k, v, px=_ttl_ms(t) if t else None))
            except StoreError as exc:
                log.info("acknowledgement record of %s not written: %s", game_id, exc)

    async def flush_acknowledgements(self) -> None:
        """Until every due acknowledgement record is written (tests, the audit, close)."""
        while self._acks_writer is not None and not self._acks_writer.done():
            await self._acks_writer

    async def acknowledgement(self, game_id: str) -> Receipt | None:
        found: Receipt | None = None
        for key in self.keys.acks(game_id):
            raw = await self._read(key, lambda k=key: self.client.get(k))  # type: ignore[misc]
            if raw is None:
                continue
            try:
                version, length, digest = _text(raw).split(":")
                receipt = Receipt(game_id, int(version), int(length), digest)
            except ValueError:
                log.error("acknowledgement record %s is unreadable: %r", key, raw)
                continue
            if found is None or receipt.version > found.version:
                found = receipt
        return found

    def _receipt(self, game_id: str, version: int, reply: Sequence[Any]) -> Receipt:
        """The receipt of a save from the script's ``{1, log length, digest}``."""
        return Receipt(game_id, version, int(reply[1]), _text(reply[2]))

    async def confirm_save(self, receipt: Receipt) -> bool:
        found = await self._confirm_copies(receipt.game_id, [receipt.log_length, receipt.digest])
        if found is None:
            return False
        if found[0]:
            raise StoreUnconfirmed(f"game {receipt.game_id}: version {receipt.version} is still "
                                   f"not confirmed: {found[0]}", receipt)
        self._record_ack(receipt)
        return True

    async def confirm_stored(self, game_id: str, version: int | None = None) -> bool:
        # Not through `confirm_save`: the empty log's receipt is no save of this
        # process, and must not become the game's acknowledgement record.
        if not self.waits:
            return True
        at = [envelope.version_header(version)] if version is not None else []
        found = await self._confirm_copies(game_id, [0, "", *at])
        if found is None:
            return False
        short, length, digest, still = found
        if short:
            # The receipt of what the reader loaded, when the game is still at it: settled
            # later as a save of its own would be (`confirm_save`: kept, or lost).
            receipt = Receipt(game_id, version, length, digest) if still and version is not None else None
            raise StoreUnconfirmed(f"game {game_id}: what is stored is not confirmed yet: {short}", receipt)
        return True

    async def _confirm_copies(self, game_id: str, args: list[Any]) -> tuple[str, int, str, bool] | None:
        """CONFIRM (the log still holds a receipt's digest up to its length; one write) and
        the waits after it: None when the game is gone or its log went another way, else
        why the copies did not confirm in time (``""``: they did), the log's length and
        digest now, and whether the state is at the version header given."""
        names = self.keys.game(game_id)
        reply, short = await self._write(self._confirm, [names.state, names.log, names.digest], args)
        code = reply[0]
        if code == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply, game_id)
        if code != lua.OK:
            return None
        return short or "", int(reply[1]), _text(reply[2]), bool(int(reply[3]))

    async def _quarantine_keys(
        self, keys: Sequence[str], *, chat: str | None = None, game_id: str = ""
    ) -> list[str]:
        """Move unreadable values aside (same slot) and clear a binding naming ``game_id``."""
        stamp = int(time.time() * 1000)
        pairs: list[str] = []
        targets: list[str] = []
        for key in keys:
            target = self.keys.quarantine(key, stamp)
            pairs += [key, target]
            targets.append(target)
        binding = self.keys.binding(chat) if chat else keys[0]
        await self._run(self._quarantine, [binding, *pairs], [game_id, _ttl_ms(self.quarantine_ttl)])
        for key, target in zip(keys, targets):
            log.error("quarantined unreadable value %s as %s", key, target)
        return targets

    async def _bad_data(
        self, key: str, reason: str, *, chat: str | None = None, game_id: str = "",
        also: Sequence[str] = (),
    ) -> StoreDataError:
        """Quarantine ``key`` (and ``also``) and build the error to raise."""
        targets = await self._quarantine_keys([key, *also], chat=chat, game_id=game_id)
        return StoreDataError(key, reason, quarantined_as=targets[0])

    async def _wrong_type_reply(self, reply: list[Any], game_id: str = "") -> StoreDataError:
        """A script found a key holding the wrong type: quarantine that key.

        A game's state key takes its log along and clears the chat binding
        (the game is gone); any other key is simply moved aside.
        """
        key, kind = _text(reply[1]), _text(reply[2])
        reason = f"holds a {kind}, not what unobot stores there"
        if game_id and key == self.keys.state(game_id):
            return await self._bad_data(key, reason, chat=split_game_id(game_id)[0],
                                        game_id=game_id, also=[self.keys.log(game_id)])
        return await self._bad_data(key, reason)

    async def _unreadable_game(self, game_id: str, key: str, exc: envelope.EnvelopeError) -> StoreDataError:
        if exc.future:
            return StoreDataError(key, exc.reason)
        chat = split_game_id(game_id)[0]
        return await self._bad_data(key, exc.reason, chat=chat, game_id=game_id,
                                    also=[self.keys.log(game_id)])

    async def _read(self, key: str, call: Callable[[], Awaitable[T]], **where: Any) -> T:
        """Await one read of `key` (``call()``); a key holding the wrong type is damaged
        data: set aside and reported (`where`: what `_bad_data` needs to name it)."""
        try:
            return await self._call(call, key)
        except StoreError as exc:
            if not _is_wrongtype(exc.__cause__):
                raise
            raise await self._bad_data(key, "holds a value of the wrong type", **where) from None

    # ---- games

    async def load_game(self, game_id: str) -> StoredGame | None:
        names = self.keys.game(game_id)
        key, chat = names.state, names.chat
        raw = await self._read(key, lambda: self.client.get(key), chat=chat, game_id=game_id, also=[names.log])
        if raw is None:
            return None
        try:
            version, state = envelope.decode(_bytes(raw))
        except envelope.EnvelopeError as exc:
            raise await self._unreadable_game(game_id, key, exc) from None
        return StoredGame(game_id, chat, version, state)

    async def create_game(
        self,
        chat_id: ChatId,
        state: bytes,
        *,
        replace: bool = False,
        log: Sequence[str] = (),
    ) -> tuple[str, int]:
        chat = norm_id(chat_id)
        entries = check_log(log)
        value = envelope.encode(1, state)
        games = self.keys.games_prefix(chat)
        bound_state: str | None = None  # state key of the game the binding names, once known
        for _ in range(12):
            game_id = new_game_id(chat)
            state_key = self.keys.state(game_id)
            names = self.keys.game(game_id)
            keys = [self.keys.binding(chat), state_key, names.log,
                    bound_state or state_key, names.digest]
            args = [game_id, value, _ttl_ms(self.game_ttl), "1" if replace else "0",
                    games, *entries]
            reply, short = await self._write(self._create, keys, args)
            code = reply[0]
            if code == lua.OK:
                receipt = self._receipt(game_id, 1, reply)
                self._feed.announce(chat, game_id, 1)
                if short is not None:
                    raise StoreUnconfirmed(f"game {game_id} created, not confirmed: {short}",
                                           receipt)
                self._record_ack(receipt)
                return game_id, 1
            if code == lua.OTHER_KEY:  # declare the bound game's state key and go again
                bound_state = f"{games}{_text(reply[1]).rpartition('#')[2]}:state"
                continue
            if code == lua.CONFLICT:
                raise ChatBusy(chat, _text(reply[1]))
            if code == lua.WRONG_TYPE:
                raise await self._wrong_type_reply(reply)
        raise StoreError("could not find a free game id")  # 8 collisions of 32 random bits

    def save_request(
        self, game_id: str, state: bytes, expected_version: int, log: Sequence[str]
    ) -> tuple[list[str], list[Any]]:
        """KEYS and ARGV of one save attempt.

        The new value carries a fresh write nonce, so re-sending exactly these
        arguments (what the driver's retry does after a lost reply) is
        recognised by the script as the same attempt and not applied twice.
        """
        check_expected_version(expected_version)
        entries = check_log(log)
        names = self.keys.game(game_id)
        keys = [names.state, names.log, names.binding, names.digest]
        args = [envelope.version_header(expected_version),
                envelope.encode(expected_version + 1, state), _ttl_ms(self.game_ttl),
                game_id, *entries]
        return keys, args

    async def save_game(
        self,
        game_id: str,
        state: bytes,
        *,
        expected_version: int,
        log: Sequence[str] = (),
    ) -> int:
        keys, args = self.save_request(game_id, state, expected_version, log)
        try:
            reply, short = await self._write(self._save, keys, args)
        except StoreUnavailable as exc:
            if type(exc) is StoreUnavailable and _timed_out(exc):
                # sent, and no answer in time: the server may run it when it catches up
                raise StoreSlow(f"game {game_id}: the save of version {expected_version + 1} was sent and "
                                f"not answered in time; it may still be applied ({exc})") from exc
            raise
        code = reply[0]
        if code == lua.OK:
            receipt = self._receipt(game_id, expected_version + 1, reply)
            self._feed.announce(self.keys.game(game_id).chat, game_id, receipt.version)
            if short is not None:
                raise StoreUnconfirmed(f"game {game_id}: version {receipt.version} saved, not "
                                       f"confirmed: {short}", receipt)
            self._record_ack(receipt)
            return receipt.version
        if code == lua.MISSING:
            raise GameNotFound(game_id)
        if code == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply, game_id)
        raw = _bytes(reply[1])
        stored: StoredGame | None = None
        try:
            if len(raw) > envelope.VERSION_HEADER_SIZE:  # the whole envelope
                actual, current = envelope.decode(raw)
                stored = StoredGame(game_id, self.keys.game(game_id).chat, actual, current)
            else:  # only its version header (a script from before conflicts carried the game)
                actual = envelope.header_version(raw)
        except envelope.EnvelopeError as exc:
            raise await self._unreadable_game(game_id, keys[0], exc) from None
        raise VersionConflict(game_id, expected_version, actual, current=stored)

    async def delete_game(self, game_id: str) -> bool:
        names = self.keys.game(game_id)
        keys = [names.state, names.log, names.binding, names.digest]
        reply = await self._run(self._delete, keys, [game_id])
        if reply[0] == lua.OK:
            self._feed.announce(names.chat, game_id, 0)
        if self.ack_records:  # the record goes with its game (each key in a slot of its own)
            self._acks_due.pop(game_id, None)
            for key in self.keys.acks(game_id):
                await self._call(lambda k=key: self.client.delete(k))  # type: ignore[misc]
        self.keys.forget_game(game_id)
        return bool(reply[0] == lua.OK)

    async def read_log(self, game_id: str, start: int = 0, stop: int | None = None) -> list[str]:
        key = self.keys.log(game_id)
        bounds = log_range(start, stop)
        if bounds is None:
            return []
        items = await self._read(key, lambda: self.client.lrange(key, *bounds))
        try:
            return [_text(item) for item in items]
        except UnicodeDecodeError:
            raise await self._bad_data(key, "holds an entry that is not UTF-8") from None

    async def game_expires_in(self, game_id: str) -> float | None:
        ttl = await self._call(lambda: self.client.pttl(self.keys.state(game_id)))
        if ttl == -2:
            raise GameNotFound(game_id)
        return None if ttl < 0 else ttl / 1000

    # ---- chat binding

    async def chat_game(self, chat_id: ChatId) -> str | None:
        chat = norm_id(chat_id)
        key = self.keys.binding(chat)
        raw = await self._read(key, lambda: self.client.get(key))
        if raw is None:
            return None
        try:
            game_id = _bytes(raw).decode()
            if split_game_id(game_id)[0] != chat:
                raise ValueError("names another chat's game")
        except ValueError as exc:  # UnicodeDecodeError is a ValueError too
            raise await self._bad_data(key, f"not a game id of this chat ({exc})") from None
        return game_id

    async def bind_chat(self, chat_id: ChatId, game_id: str) -> None:
        chat = norm_id(chat_id)
        if split_game_id(game_id)[0] != chat:
            raise ValueError(f"game {game_id} does not belong to chat {chat}")
        reply = await self._run(self._bind, [self.keys.binding(chat), self.keys.state(game_id)],
                                [game_id])
        if reply[0] == lua.MISSING:
            raise GameNotFound(game_id)
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)
        self._feed.announce(chat, game_id, -1)  # bound again: its version is not known here

    async def unbind_chat(self, chat_id: ChatId, game_id: str | None = None) -> bool:
        chat = norm_id(chat_id)
        key = self.keys.binding(chat)
        if game_id is None:
            gone = bool(await self._call(lambda: self.client.delete(key)))
        else:
            reply = await self._run(self._unbind_if, [key], [game_id])
            if reply[0] == lua.WRONG_TYPE:
                raise await self._wrong_type_reply(reply)
            gone = bool(reply[0] == lua.OK)
        if gone:
            self._feed.announce(chat, game_id or "", 0)
        if game_id is not None:  # the chat let go of it (it finished): its key names are not needed now
            self.keys.forget_game(game_id)
        return gone

    def changes(self) -> RedisFeed:
        """Every process's changes on this server and prefix (Redis pub/sub)."""
        return self._feed


    async def bound_chats(self, prefix: str = "") -> AsyncIterator[str]:
        """SCAN for binding keys: walked when a process starts and when a
        settings change looks for the lobbies following it (then under the
        chats' `prefix`, which the server matches), so no index is kept (an
        index set would be one more key to keep right on every bind, and
        would sit outside the chats' hash slots)."""
        head = f"{self.keys.prefix}:{{chat:"
        tail = "}:current"
        pattern = "".join("\\" + ch if ch in "*?[]\\" else ch for ch in head + prefix) + "*" + tail  # glob-escaped
        with _translate_errors():
            async for key in self.client.scan_iter(match=pattern, count=1000):
                chat = _text(key)[len(head):-len(tail)]
                if ID_RE.fullmatch(chat) and chat.startswith(prefix):  # else a stray key that only looks like one
                    yield chat

    # ---- settings

    def _decode_settings(self, raw: Mapping[bytes | str, bytes | str]) -> dict[str, Any]:
        return {_text(name): json.loads(value) for name, value in raw.items()}

    async def get_chat_settings(self, chat_id: ChatId) -> dict[str, Any]:
        key = self.keys.settings(norm_id(chat_id))
        # One HGETALL, no MULTI: a server out of memory refuses anything inside MULTI.
        raw = await self._read(key, lambda: self.client.hgetall(key))
        try:
            return self._decode_settings(raw)
        except ValueError as exc:  # bad JSON or bad UTF-8
            raise await self._bad_data(key, f"holds a value that is not JSON ({exc})") from None

    async def update_chat_settings(
        self,
        chat_id: ChatId,
        changes: Mapping[str, Any] | None = None,
        *,
        remove: Iterable[str] = (),
    ) -> dict[str, Any]:
        key = self.keys.settings(norm_id(chat_id))
        encoded = {name: encode_setting(name, value) for name, value in (changes or {}).items()}
        dropped = setting_names(remove)

        def queue(pipe: Any) -> None:
            if encoded:
                pipe.hset(key, mapping=encoded)
            if dropped:
                pipe.hdel(key, *dropped)
            pipe.hgetall(key)

        return await self._settings_op(key, queue)

    async def _settings_op(self, key: str, queue: Any) -> dict[str, Any]:
        """Run settings commands in one MULTI/EXEC round trip; the last reply is HGETALL."""
        async def run() -> list[Any]:
            async with self.client.pipeline(transaction=True) as pipe:
                queue(pipe)
                return await pipe.execute()  # type: ignore[no-any-return]

        replies = await self._read(key, run)
        try:
            return self._decode_settings(replies[-1])
        except ValueError as exc:  # bad JSON or bad UTF-8
            raise await self._bad_data(key, f"holds a value that is not JSON ({exc})") from None

    async def swap_chat_setting(self, chat_id: ChatId, name: str, expected: Any, value: Any) -> bool:
        key = self.keys.settings(norm_id(chat_id))
        field = setting_names((name,))[0]
        args = [field, "" if expected is None else encode_setting(name, expected),
                "" if value is None else encode_setting(name, value)]
        reply = await self._run(self._swap_setting, [key], args)
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)
        return bool(reply[0] == lua.OK)

    async def clear_chat_settings(self, chat_id: ChatId) -> None:
        key = self.keys.settings(norm_id(chat_id))
        await self._call(lambda: self.client.delete(key))

    # ---- stats

    async def incr_stats(
        self, scope: StatsScope, owner_id: ChatId, deltas: Mapping[str, int]
    ) -> dict[str, int]:
        check_scope(scope)
        clean = check_deltas(deltas)
        if not clean:
            return {}
        key = self.keys.stats(scope, norm_id(owner_id, f"{scope} id"))
        args: list[Any] = []
        for name, delta in clean.items():
            args += [name, delta]
        reply = await self._run(self._incr_stats, [key], args)
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)
        return dict(zip(clean, (int(value) for value in reply[1])))

    async def get_stats(self, scope: StatsScope, owner_id: ChatId) -> dict[str, int]:
        check_scope(scope)
        key = self.keys.stats(scope, norm_id(owner_id, f"{scope} id"))
        raw = await self._read(key, lambda: self.client.hgetall(key))
        try:
            return {_text(name): int(value) for name, value in raw.items()}
        except ValueError as exc:
            raise await self._bad_data(key, f"holds a counter that is not an integer ({exc})") from None

    # ---- finished games and standings

    async def archive_game(self, chat_id: ChatId, game_id: str, record: Mapping[str, Any],
                           standings: Sequence[Standing] = ()) -> bool:
        chat = norm_id(chat_id)
        text = encode_record(game_id, chat, record)
        items = check_standings(standings)
        periods = list(dict.fromkeys(item.period for item in items))
        keys = [self.keys.done_set(chat), self.keys.records(chat), self.keys.record(game_id),
                self.keys.periods(chat), self.keys.seen(chat), self.keys.done(game_id),
                *(self.keys.standings(chat, p) for p in periods)]
        keep = -1 if self.archive_keep is None else _ttl_ms(self.archive_keep) if self.archive_keep > 0 else 0
        args: list[Any] = [_ttl_ms(max(DONE_TTL, self.game_ttl or 0.0)), keep, max(0, self.archive_max),
                           int(time.time() * 1000), game_id, text, max(1, self.standings_max), DONE_MAX,
                           len(items)]
        for item in items:
            args += [7 + periods.index(item.period), -1 if item.ttl is None else _ttl_ms(item.ttl),
                     item.period, item.player, item.name, item.games, item.wins, item.points, item.rating]
        reply = await self._run(self._archive, keys, args)
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)
        if reply[0] != lua.OK:
            return False
        dropped = [self.keys.record(_text(m)) for m in reply[1]]
        if dropped:  # why not in the script: it may touch only the keys it was given
            await self._call(lambda: self.client.delete(*dropped))
        for player in {item.player for item in items}:
            key = self.keys.player_chats(player)
            await self._call(lambda k=key: self.client.sadd(k, chat))  # type: ignore[misc]
        # Who left the standings (reply[2]: played least recently) stays in the index:
        # the chat's kept games still name them, and /forgetme must find them there.
        return True

    async def archived(self, chat_id: ChatId, limit: int = 10) -> list[dict[str, Any]]:
        chat = norm_id(chat_id)
        if limit <= 0:
            return []
        key = self.keys.records(chat)
        ids = await self._read(key, lambda: self.client.zrevrange(key, 0, limit - 1))
        if not ids:
            return []
        names = [self.keys.record(_text(i)) for i in ids]  # type: ignore[arg-type]
        texts = await self._call(lambda: self.client.mget(names))
        return [json.loads(_text(t)) for t in texts if t is not None]

    async def archive_chats(self) -> AsyncIterator[str]:
        """SCAN for the chats' archive keys (walked by ``unobot audit`` only, so no index)."""
        head = f"{self.keys.prefix}:{{chat:"
        tail = "}:records"
        pattern = "".join("\\" + ch if ch in "*?[]\\" else ch for ch in head) + "*" + tail
        with _translate_errors():
            async for key in self.client.scan_iter(match=pattern, count=1000):
                chat = _text(key)[len(head):-len(tail)]
                if ID_RE.fullmatch(chat):
                    yield chat

    async def archived_game(self, chat_id: ChatId, game_id: str) -> dict[str, Any] | None:
        chat = norm_id(chat_id)
        if split_game_id(game_id)[0] != chat:
            return None
        key = self.keys.record(game_id)
        text = await self._read(key, lambda: self.client.get(key))
        return None if text is None else dict(json.loads(_text(text)))

    async def replace_archived(self, chat_id: ChatId, game_id: str, record: Mapping[str, Any]) -> bool:
        chat = norm_id(chat_id)
        text = encode_record(game_id, chat, record)
        key = self.keys.record(game_id)
        done = await self._call(lambda: self.client.set(key, text, xx=True, keepttl=True))
        return bool(done)

    async def standings(self, chat_id: ChatId, period: str) -> dict[str, dict[str, Any]]:
        key = self.keys.standings(norm_id(chat_id), period)
        raw = await self._read(key, lambda: self.client.hgetall(key))
        return parse_standings({_text(k): _text(v) for k, v in raw.items()})

    async def forget_standings(self, chat_id: ChatId, player_id: str | None = None) -> None:
        chat = norm_id(chat_id)
        set_key = self.keys.periods(chat)
        periods = [_text(p) for p in await self._call(lambda: self.client.smembers(set_key))]
        for period in periods:
            key = self.keys.standings(chat, period)
            if player_id is None:
                await self._call(lambda k=key: self.client.delete(k))  # type: ignore[misc]
            else:
                names = [f"{kind}:{player_id}" for kind in "gwpnr"]
                await self._call(lambda k=key, f=names: self.client.hdel(k, *f))  # type: ignore[misc]
        seen = self.keys.seen(chat)
        if player_id is None:
            await self._call(lambda: self.client.delete(set_key, seen))
        else:  # the index (`player_chats`) stays: the chat's kept games may still name them
            await self._call(lambda: self.client.zrem(seen, player_id))

    async def move_records(self, old_chat: ChatId, new_chat: ChatId) -> None:
        """See :meth:`Store.move_records`. Plain commands, not one script:
        the two chats' keys are in two hash slots (two nodes of a cluster).
        The order makes a repeat safe: each kept game is written under its
        new id (if not there yet) before its old key goes, each period's
        table is copied only when the new chat has none, and the old chat's
        list of people, which the player index is fixed from, goes last."""
        old, new = norm_id(old_chat), norm_id(new_chat)
        if old == new:
            return
        keys, client = self.keys, self.client
        kept = cast(list[tuple[bytes, float]],
                    await self._call(lambda: client.zrange(keys.records(old), 0, -1, withscores=True)))
        for member, score in kept:
            game_id = _text(member)
            renamed = f"{new}#{split_game_id(game_id)[1]}"
            source, target = keys.record(game_id), keys.record(renamed)
            text = await self._call(lambda k=source: client.get(k))  # type: ignore[misc]
            if text is not None:
                ttl = await self._call(lambda k=source: client.pttl(k))  # type: ignore[misc]
                record = dict(json.loads(_text(text)), game_id=renamed, chat=new)
                data = encode_record(renamed, new, record)
                await self._call(lambda k=target, d=data, t=ttl: client.set(  # type: ignore[misc]
                    k, d, px=t if t > 0 else None, nx=True))
                await self._call(lambda r=renamed, x=score: client.zadd(  # type: ignore[misc]
                    keys.records(new), {r: x}))
            await self._call(lambda k=source: client.delete(k))  # type: ignore[misc]
        over = cast(list[bytes], await self._call(
            lambda: client.zrange(keys.records(new), 0, -(max(0, self.archive_max) + 1))))
        if over:  # past the cap: the oldest go, as archive_game would drop them
            await self._call(lambda: client.zrem(keys.records(new), *over))
            await self._call(lambda: client.delete(*(keys.record(_text(g)) for g in over)))
        await self._call(lambda: client.delete(keys.records(old)))
        periods = [_text(p) for p in await self._call(lambda: client.smembers(keys.periods(old)))]
        for period in periods:
            source, target = keys.standings(old, period), keys.standings(new, period)
            fields = await self._call(lambda k=source: client.hgetall(k))  # type: ignore[misc]
            if fields and not await self._call(lambda k=target: client.exists(k)):  # type: ignore[misc]
                ttl = await self._call(lambda k=source: client.pttl(k))  # type: ignore[misc]
                await self._call(lambda k=target, f=fields: client.hset(k, mapping=f))  # type: ignore[misc]
                if ttl > 0:
                    await self._call(lambda k=target, t=ttl: client.pexpire(k, t))  # type: ignore[misc]
                await self._call(lambda p=period: client.sadd(keys.periods(new), p))  # type: ignore[misc]
            await self._call(lambda k=source: client.delete(k))  # type: ignore[misc]
        people = cast(list[tuple[bytes, float]],
                      await self._call(lambda: client.zrange(keys.seen(old), 0, -1, withscores=True)))
        if people:
            await self._call(lambda: client.zadd(keys.seen(new), {_text(p): x for p, x in people}, nx=True))
        for person, _at in people:
            index = keys.player_chats(_text(person))
            await self._call(lambda k=index: client.srem(k, old))  # type: ignore[misc]
            await self._call(lambda k=index: client.sadd(k, new))  # type: ignore[misc]
        await self._call(lambda: client.delete(keys.seen(old), keys.periods(old)))

    async def player_chats(self, player_id: str) -> list[str]:
        key = self.keys.player_chats(player_id)
        return sorted(_text(c) for c in await self._call(lambda: self.client.smembers(key)))

    async def forget_player_chats(self, player_id: str) -> None:
        key = self.keys.player_chats(player_id)
        await self._call(lambda: self.client.delete(key))

    # ---- deliveries

    async def claim_delivery(self, key: str, owner: str, lease: float) -> DeliveryClaim:
        check_delivery(key, owner)
        name = self.keys.delivery(key)
        reply = await self._run(self._claim, [name], [owner, _ttl_ms(lease), DELIVERY_DONE])
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)
        return "mine" if reply[0] == lua.OK else "done" if reply[0] == lua.DONE else "busy"

    async def finish_delivery(self, key: str, keep: float) -> None:
        check_delivery(key)
        name = self.keys.delivery(key)
        await self._call(lambda: self.client.set(name, DELIVERY_DONE, px=_ttl_ms(keep)), name)

    async def release_delivery(self, key: str, owner: str) -> None:
        check_delivery(key, owner)
        reply = await self._run(self._unbind_if, [self.keys.delivery(key)], [owner])
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)

    # ---- lifecycle

    async def ping(self) -> None:
        """Check the server answers; the first time also that it is what the URL says.

        Refused at start-up, as configuration mistakes (a :class:`StoreError`,
        not "unavailable": the server answered): a plain URL naming a cluster
        node (it would answer PING, then MOVED for most keys), and a URL
        naming a replica (it would refuse every write with READONLY).
        """
        await self._call(lambda: self.client.ping())
        if not self._checked_mode and not self.cluster:
            async def both() -> list[Any]:
                async with self.client.pipeline(transaction=False) as pipe:
                    pipe.info("cluster")
                    pipe.info("replication")
                    return await pipe.execute()  # type: ignore[no-any-return]

            cluster, replication = await self._call(both)
            if int(cluster.get("cluster_enabled", 0)):
                raise StoreMisconfigured(Msg(N_("this Redis is a Redis Cluster node: name the cluster with a "
                                                "{url} URL (a plain redis:// client reaches only the slots of "
                                                "this node)"), url=f"redis+cluster://{self._address()}"))
            if str(replication.get("role", "")).lower() in ("slave", "replica"):
                primary = replication.get("master_host")
                raise StoreMisconfigured(
                    Msg(N_("this Redis is a replica of {primary}: use the primary's address (a replica refuses "
                           "every write)"), primary=f"{primary}:{replication.get('master_port')}") if primary
                    else Msg(N_("this Redis is a replica: use the primary's address (a replica refuses every "
                                "write)")))
        if not self._checked_mode and self.wait_aof:
            await self._check_waitaof()
        if not self._checked_mode and self.wait_replicas:
            await self._check_replicas()
        self._checked_mode = True

    async def _check_replicas(self) -> None:
        """``redis.wait_replicas: N`` against the replicas the primaries have now.

        Why at start-up: a primary with fewer than N replicas confirms no save,
        so every move there is answered "not confirmed yet", which players
        cannot tell from a failover. The embedded server listens on a socket
        file only (no TCP port) and never has a replica: refused, as a
        configuration mistake. A server of the operator's may be between replicas (one
        restarting): said once in the log, with which primaries, and served.
        """
        embedded = self.server is not None
        if not embedded and not self.cluster:  # no TCP port (the embedded server's socket file): no replica ever
            served = await self._call(lambda: self.client.info("server"))
            embedded = isinstance(served, dict) and int(served.get("tcp_port", 1) or 0) == 0
        if embedded:
            raise StoreMisconfigured(Msg(N_("redis.wait_replicas: {n}, but the embedded Redis has no replicas, "
                                            "so no move could ever be confirmed: set redis.wait_replicas: 0, or "
                                            "point redis.url at a primary that has replicas"), n=self.wait_replicas))
        nodes: list[Any] = (self.client.get_primaries()  # type: ignore[union-attr]
                            if self.cluster else [None])
        short: list[str] = []
        for node in nodes:
            extra = {"target_nodes": node} if node is not None else {}
            info = await self._call(lambda extra=extra: self.client.info(  # type: ignore[misc]
                "replication", **extra))
            if node is not None and isinstance(info, dict) and node.name in info:
                info = info[node.name]
            have = int(info.get("connected_slaves", 0)) if isinstance(info, dict) else 0
            if have < self.wait_replicas:
                short.append(f"{node.name if node is not None else self._address()} has {have}")
        if short:
            log.warning("redis.wait_replicas is %d, but %s connected replica(s): every move there is "
                        "answered 'not confirmed yet' until enough replicas are back",
                        self.wait_replicas, ", ".join(short))

    async def _check_waitaof(self) -> None:
        """``redis.wait_aof`` needs WAITAOF (Redis 7.2+) and ``appendonly yes`` on every
        primary: refused at start-up, with which is missing, rather than at every save."""
        nodes: list[Any] = (self.client.get_primaries()  # type: ignore[union-attr]
                            if self.cluster else [None])
        for node in nodes:
            extra = {"target_nodes": node} if node is not None else {}
            try:
                await self._call(lambda extra=extra: self.client.execute_command(  # type: ignore[misc]
                    "WAITAOF", 1, 0, 100, **extra))
            except StoreError as exc:
                text = str(exc.__cause__ or exc)
                where = node.name if node is not None else self._address()
                if "unknown command" in text.lower():
                    raise StoreMisconfigured(Msg(N_("redis.wait_aof: this server ({server}) has no WAITAOF (it "
                                                    "came with Redis 7.2): upgrade it, or set redis.wait_aof: "
                                                    "false"), server=where)) from None
                if "appendonly" in text.lower():
                    raise StoreMisconfigured(Msg(N_("redis.wait_aof: this server ({server}) keeps no append-only "
                                                    "file (appendonly no), so nothing is fsynced to wait for: set "
                                                    "appendonly yes on it, or redis.wait_aof: false"),
                                                 server=where)) from None
                raise

    def _address(self) -> str:
        """``host:port`` of a single-server client (for messages; no password)."""
        kwargs = self.client.connection_pool.connection_kwargs  # type: ignore[union-attr]
        return f"{kwargs.get('host', 'HOST')}:{kwargs.get('port', 'PORT')}"

    async def close(self) -> None:
        """Write the due acknowledgement records, close the connections; stop the
        embedded server if this store owns one."""
        try:
            with contextlib.suppress(asyncio.TimeoutError, StoreError):
                await asyncio.wait_for(self.flush_acknowledgements(), 2.0)
            await self._feed.close()
            # (not `shutdown`: on a redis-py client that is the SHUTDOWN command)
            really = getattr(self.client, "close_connections", None)
            await (really() if really is not None else self.client.aclose())
        finally:
            if self.server is not None:
                await asyncio.to_thread(self.server.stop)
                self.server = None


def _cluster_client(url: str, connect_timeout: float, socket_timeout: float) -> RedisCluster:
    """redis-py's asyncio cluster client for ``redis://host:port[,host:port...]``.

    Why these settings: redis-py follows MOVED/ASK itself, and on a
    connection error, a timeout or CLUSTERDOWN it re-reads the slot map and
    tries again; one quick retry rides over a dropped connection, and the
    store's own retry window (``_call``) covers "not now" replies. The client
    is :func:`_isolating_cluster`'s, so that one failing primary does not
    hold up the others' games; a slot map with a hole (a primary failed,
    not yet replaced) is used as it is (``require_full_coverage=False``):
    the other slots are served.
    """
    from urllib.parse import urlsplit, urlunsplit

    from redis.asyncio.cluster import ClusterNode

    parts = urlsplit(url)
    auth, _, hosts = parts.netloc.rpartition("@")
    seeds = [h for h in hosts.split(",") if h]
    if not seeds or parts.scheme not in ("redis", "rediss"):
        raise ValueError(f"not a cluster URL: {url!r} (redis+cluster://host:port[,host:port...])")
    first = urlunsplit(parts._replace(netloc=f"{auth}@{seeds[0]}" if auth else seeds[0]))
    extra = []
    for seed in seeds[1:]:
        host, _, port = seed.rpartition(":")
        extra.append(ClusterNode(host or seed, int(port or 6379)))
    client = _isolating_cluster().from_url(
        first,
        startup_nodes=extra or None,
        decode_responses=False,
        socket_connect_timeout=connect_timeout,
        socket_timeout=socket_timeout,
        require_full_coverage=False,
        retry=Retry(ExponentialBackoff(cap=0.1, base=0.02), 1),
        driver_info=driver_info(),
    )
    client.commands_parser = _commands_parser(client)
    return client  # type: ignore[no-any-return]


@functools.cache
def _isolating_cluster() -> type[RedisCluster]:
    """redis-py's ``RedisCluster``, made so that one failing primary stalls only its games.

    What redis-py does by itself, and why it stalled every game in a
    failover: after any connection error (a dead primary's games get one on
    every try) it marks the slot map stale, and the next command of *any*
    game re-reads it first, under one lock, from a startup node that may be
    the dead one (a connect timeout, on a real network, for everyone); after
    CLUSTERDOWN it closes every connection to every node. Here a stale map
    is re-read by one background task while commands go on with the map at
    hand (right for every primary that is up), and CLUSTERDOWN only asks for
    that re-read. Only the first map, with none at hand, is waited for.
    """
    from redis.asyncio.cluster import RedisCluster

    class IsolatingCluster(RedisCluster):
        _refreshing: asyncio.Task[None] | None = None
        _next_refresh = 0.0
        _closing = False

        async def initialize(self, additional_startup_nodes_info: Any = None,
                             last_failed_node_name: str | None = None) -> RedisCluster:
            if not self._initialize:
                return self
            if not self.nodes_manager.slots_cache or self._closing:
                return await super().initialize(additional_startup_nodes_info,
                                                last_failed_node_name)
            if (self._refreshing is None or self._refreshing.done()) \
                    and time.monotonic() >= self._next_refresh:
                self._refreshing = asyncio.get_running_loop().create_task(
                    self._refresh(last_failed_node_name))
            return self

        async def _refresh(self, last_failed: str | None) -> None:
            try:
                await self.nodes_manager.initialize(last_failed_node_name=last_failed)
                self._initialize = False
            except (RedisError, RedisClusterException, OSError) as exc:
                log.info("redis cluster: the slot map could not be read again: %s", exc)
            finally:
                # At most one re-read per MAP_REFRESH_EVERY: building a map of 16,384
                # slots costs the process tens of milliseconds, and in a failover every
                # try at the dead node asks for one (a MOVED after the promotion is
                # followed at once all the same: redis-py updates that slot by itself).
                self._next_refresh = time.monotonic() + MAP_REFRESH_EVERY

        async def aclose(self) -> None:
            if self._closing:
                await super().aclose()
                return
            # redis-py's own call after CLUSTERDOWN: keep the connections, re-read the map
            self._initialize = True

        async def close_connections(self) -> None:
            """Close for real (what ``aclose`` did before)."""
            self._closing = True
            if self._refreshing is not None:
                self._refreshing.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._refreshing
            await super().aclose()

    return IsolatingCluster


def _commands_parser(client: RedisCluster) -> Any:
    """redis-py's command table for ``client``, read once (at the first connect).

    Why: redis-py re-reads the slot map after CLUSTERDOWN or a connection
    error, and with it the command table (COMMAND), always from the first
    primary of the map. With that primary dead and not yet replaced (a
    cluster without replicas, or before the failover) every command then
    failed with "connection refused" to that node, even for a key whose own
    primary is up and answering CLUSTERDOWN. The table does not change while
    the process runs, so it is read once, from any node that answers.
    """
    from redis._parsers import AsyncCommandsParser

    class CommandsOnce(AsyncCommandsParser):
        async def initialize(self, node: Any = None) -> None:
            if self.commands:
                if node is not None:
                    self.node = node
                return
            nodes = [node, *client.get_nodes()] if node is not None else client.get_nodes()
            failed: BaseException | None = None
            for candidate in nodes:
                try:
                    await super().initialize(candidate)
                    return
                except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                    failed = exc
            if failed is not None:
                raise failed
            await super().initialize(node)

    return CommandsOnce()


def driver_info() -> DriverInfo:
    """What the client tells the server it is (CLIENT SETINFO), given here:
    left to itself redis-py asks importlib.metadata for its own version on
    the first connection, a scan of site-packages that took ~40 ms of a
    bot's start-up."""
    return DriverInfo(lib_version=redis.__version__)
