"""The production store: Redis through redis-py's asyncio client.

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
* Driver errors never leave this module: an outage becomes
  :class:`StoreUnavailable`, unreadable data :class:`StoreDataError`.

hiredis speeds up reply parsing when it is installed; redis-py picks it up
by itself.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from unobot import store_envelope as envelope
from unobot.adapters import redis_scripts as lua
from unobot.store import (
    DEFAULT_GAME_TTL,
    ID_RE,
    ChatBusy,
    ChatId,
    GameNotFound,
    StatsScope,
    Store,
    StoreDataError,
    StoredGame,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    check_deltas,
    check_expected_version,
    check_log,
    check_scope,
    encode_setting,
    log_range,
    new_game_id,
    norm_id,
    setting_names,
    split_game_id,
)

T = TypeVar("T")

if TYPE_CHECKING:
    from unobot.adapters.embedded_redis import EmbeddedRedis

log = logging.getLogger(__name__)

DEFAULT_PREFIX = "unobot"
DEFAULT_CONNECT_TIMEOUT = 1.0
DEFAULT_SOCKET_TIMEOUT = 2.0
QUARANTINE_TTL = 30 * 24 * 3600.0
"""Seconds a quarantined value is kept for someone to look at."""

# Error replies that mean "the server cannot serve us now", not "you asked wrong".
_OUTAGE_CODES = frozenset({"LOADING", "MISCONF", "READONLY", "MASTERDOWN", "CLUSTERDOWN",
                           "TRYAGAIN", "NOREPLICAS", "OOM", "BUSY"})


def _reply_code(exc: BaseException | None) -> str:
    """The error code of a Redis error reply (``WRONGTYPE``, ``MISCONF``...).

    Why the unwrapping: inside a pipeline redis-py rewrites the message to
    ``Command # 1 (...) of pipeline caused error: ('WRONGTYPE ...',)``.
    """
    text = str(exc or "")
    marker = "caused error: "
    if marker in text:
        text = text.split(marker, 1)[1]
    text = text.lstrip("('\" ")
    return text.split(" ", 1)[0].upper()


class GameKeys(NamedTuple):
    """The keys of one game (and its chat's binding), built once per game id."""

    chat: str
    state: str
    log: str
    binding: str


class RedisKeys:
    """Key names. ``<prefix>:{chat:<id>}:...`` and ``<prefix>:{user:<id>}:stats``.

    ======================================  =========  ==============================
    key                                     type       holds
    ======================================  =========  ==============================
    P:{chat:C}:current                      string     id of the chat's running game
    P:{chat:C}:game:N:state                 string     envelope (version + state)
    P:{chat:C}:game:N:log                   list       move log, one entry a move
    P:{chat:C}:settings                     hash       setting name -> JSON value
    P:{chat:C}:stats                        hash       counter -> integer
    P:{user:U}:stats                        hash       counter -> integer
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
        self.game = functools.lru_cache(maxsize=4096)(self._game)

    def _game(self, game_id: str) -> GameKeys:
        chat, nonce = split_game_id(game_id)
        base = f"{self.games_prefix(chat)}{nonce}"
        return GameKeys(chat, f"{base}:state", f"{base}:log", self.binding(chat))

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

    @staticmethod
    def quarantine(key: str, stamp_ms: int) -> str:
        return f"{key}:quarantine:{stamp_ms}"


@contextmanager
def _translate_errors() -> Iterator[None]:
    """Turn driver errors into the store's typed errors (why: callers know no redis)."""
    try:
        yield
    except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
        raise StoreUnavailable(f"redis unavailable: {exc}") from exc
    except ResponseError as exc:
        if _reply_code(exc) in _OUTAGE_CODES:
            raise StoreUnavailable(f"redis cannot serve now: {exc}") from exc
        raise StoreError(f"redis refused: {exc}") from exc
    except RedisError as exc:
        raise StoreError(f"redis error: {exc}") from exc


def _is_wrongtype(exc: BaseException | None) -> bool:
    return isinstance(exc, ResponseError) and _reply_code(exc) == "WRONGTYPE"


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
        client: aioredis.Redis,
        *,
        prefix: str = DEFAULT_PREFIX,
        game_ttl: float | None = DEFAULT_GAME_TTL,
        quarantine_ttl: float = QUARANTINE_TTL,
        server: EmbeddedRedis | None = None,
    ) -> None:
        self.client = client
        self.keys = RedisKeys(prefix)
        self.game_ttl = game_ttl
        self.quarantine_ttl = quarantine_ttl
        self.server = server
        self._save = client.register_script(lua.SAVE)
        self._create = client.register_script(lua.CREATE)
        self._bind = client.register_script(lua.BIND)
        self._unbind_if = client.register_script(lua.UNBIND_IF)
        self._delete = client.register_script(lua.DELETE)
        self._quarantine = client.register_script(lua.QUARANTINE)
        self._incr_stats = client.register_script(lua.INCR_STATS)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        socket_timeout: float = DEFAULT_SOCKET_TIMEOUT,
        server: EmbeddedRedis | None = None,
        **options: Any,
    ) -> RedisStore:
        """A store on the server at ``url`` (``redis://``, ``rediss://`` or ``unix://``).

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
        client = aioredis.Redis.from_url(
            url,
            decode_responses=False,
            socket_connect_timeout=connect_timeout,
            socket_timeout=socket_timeout,
            retry=Retry(ExponentialBackoff(cap=0.05, base=0.01), 1,
                        supported_errors=(RedisConnectionError,)),
        )
        return cls(client, server=server, **options)

    # ---- plumbing

    async def _run(self, script: Any, keys: Sequence[str], args: Sequence[Any]) -> list[Any]:
        """EVALSHA the script; after a server lost its script cache, load it and go again.

        Why not just ``script(keys=..., args=...)``: that wrapper re-imports and
        re-packs its arguments on every call, a few microseconds of every save.
        """
        with _translate_errors():
            try:
                reply = await self.client.evalsha(script.sha, len(keys), *keys, *args)
            except NoScriptError:
                reply = await script(keys=list(keys), args=list(args))
        return list(reply)

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

    async def _read(self, key: str, call: Awaitable[T], **where: Any) -> T:
        """Await one read of `key`; a key holding the wrong type is damaged
        data: set aside and reported (`where`: what `_bad_data` needs to name it)."""
        try:
            with _translate_errors():
                return await call
        except StoreError as exc:
            if not _is_wrongtype(exc.__cause__):
                raise
            raise await self._bad_data(key, "holds a value of the wrong type", **where) from None

    # ---- games

    async def load_game(self, game_id: str) -> StoredGame | None:
        names = self.keys.game(game_id)
        key, chat = names.state, names.chat
        raw = await self._read(key, self.client.get(key), chat=chat, game_id=game_id, also=[names.log])
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
        for _ in range(8):
            game_id = new_game_id(chat)
            keys = [self.keys.binding(chat), self.keys.state(game_id), self.keys.log(game_id)]
            args = [game_id, value, _ttl_ms(self.game_ttl), "1" if replace else "0",
                    self.keys.games_prefix(chat), *entries]
            reply = await self._run(self._create, keys, args)
            code = reply[0]
            if code == lua.OK:
                return game_id, 1
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
        keys = [names.state, names.log, names.binding]
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
        reply = await self._run(self._save, keys, args)
        code = reply[0]
        if code == lua.OK:
            return expected_version + 1
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
        chat = split_game_id(game_id)[0]
        keys = [self.keys.state(game_id), self.keys.log(game_id), self.keys.binding(chat)]
        reply = await self._run(self._delete, keys, [game_id])
        return bool(reply[0] == lua.OK)

    async def read_log(self, game_id: str, start: int = 0, stop: int | None = None) -> list[str]:
        key = self.keys.log(game_id)
        bounds = log_range(start, stop)
        if bounds is None:
            return []
        items = await self._read(key, self.client.lrange(key, *bounds))
        try:
            return [_text(item) for item in items]
        except UnicodeDecodeError:
            raise await self._bad_data(key, "holds an entry that is not UTF-8") from None

    async def game_expires_in(self, game_id: str) -> float | None:
        with _translate_errors():
            ttl = await self.client.pttl(self.keys.state(game_id))
        if ttl == -2:
            raise GameNotFound(game_id)
        return None if ttl < 0 else ttl / 1000

    # ---- chat binding

    async def chat_game(self, chat_id: ChatId) -> str | None:
        chat = norm_id(chat_id)
        key = self.keys.binding(chat)
        raw = await self._read(key, self.client.get(key))
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

    async def unbind_chat(self, chat_id: ChatId, game_id: str | None = None) -> bool:
        chat = norm_id(chat_id)
        key = self.keys.binding(chat)
        if game_id is None:
            with _translate_errors():
                return bool(await self.client.delete(key))
        reply = await self._run(self._unbind_if, [key], [game_id])
        if reply[0] == lua.WRONG_TYPE:
            raise await self._wrong_type_reply(reply)
        return bool(reply[0] == lua.OK)


    async def bound_chats(self) -> AsyncIterator[str]:
        """SCAN for binding keys: walked once when a process starts, so no index is kept
        (an index set would be one more key to keep right on every bind, and
        would sit outside the chats' hash slots)."""
        head = f"{self.keys.prefix}:{{chat:"
        tail = "}:current"
        pattern = "".join("\\" + ch if ch in "*?[]\\" else ch for ch in head) + "*" + tail  # glob-escaped
        with _translate_errors():
            async for key in self.client.scan_iter(match=pattern, count=1000):
                chat = _text(key)[len(head):-len(tail)]
                if ID_RE.fullmatch(chat):  # else a stray key that only looks like a binding
                    yield chat

    # ---- settings

    def _decode_settings(self, raw: Mapping[bytes, bytes]) -> dict[str, Any]:
        return {name.decode(): json.loads(value) for name, value in raw.items()}

    async def get_chat_settings(self, chat_id: ChatId) -> dict[str, Any]:
        key = self.keys.settings(norm_id(chat_id))
        return await self._settings_op(key, lambda pipe: pipe.hgetall(key))

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

        replies = await self._read(key, run())
        try:
            return self._decode_settings(replies[-1])
        except ValueError as exc:  # bad JSON or bad UTF-8
            raise await self._bad_data(key, f"holds a value that is not JSON ({exc})") from None

    async def clear_chat_settings(self, chat_id: ChatId) -> None:
        with _translate_errors():
            await self.client.delete(self.keys.settings(norm_id(chat_id)))

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
        raw = await self._read(key, self.client.hgetall(key))
        try:
            return {_text(name): int(value) for name, value in raw.items()}
        except ValueError as exc:
            raise await self._bad_data(key, f"holds a counter that is not an integer ({exc})") from None

    # ---- lifecycle

    async def ping(self) -> None:
        with _translate_errors():
            await self.client.ping()

    async def close(self) -> None:
        """Close the connections; stop the embedded server if this store owns one."""
        try:
            await self.client.aclose()
        finally:
            if self.server is not None:
                await asyncio.to_thread(self.server.stop)
                self.server = None
