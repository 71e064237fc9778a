"""The game store interface, its errors, and the in-memory store.

Why one module of about 570 lines: the interface, its errors and the
memory store are read together (the memory store is the executable
reference of the contract every store must pass).

Why an interface in core: the session service loads a game, asks the engine
to apply a move and saves the result; it must not care whether games sit in
Redis or in memory, and core must never import ``redis`` (the Redis store
lives in ``adapters/``). Every store passes one contract suite
(``tests/store/``), so what is written here is what both promise.

What a store holds:

* games: the engine's state as opaque ``bytes`` plus a version number that
  grows by one on every save; a save names the version it was computed
  from and is refused (:class:`VersionConflict`) when another save got
  there first (compare-and-set, no locks);
* each game's move log, appended in the same atomic step as the save;
* which game is running in a chat (the chat binding);
* per-chat settings, a small JSON-able dict;
* stats counters per chat and per user;
* finished games (their log and summary) for a while, each chat's
  standings per period and its players' ratings (``archive_game``: see
  ``core/chat/records.py``).

Games (with their log and chat binding) expire after ``game_ttl`` seconds
without a save, so abandoned games do not pile up. Settings and stats do
not expire.

Ids: a chat or user id is a short string (Telegram's integer ids are
accepted and turned into strings). A game id is ``"<chat id>#<nonce>"``:
it carries its chat, so a store can keep a game next to its chat (the Redis
store puts both under one Cluster hash tag).
"""

from __future__ import annotations

import abc
import hashlib
import json
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self

from .changes import ChangeFeed, LocalFeed
from .chat.i18n import N_, Msg

ChatId = str | int
UserId = str | int
StatsScope = Literal["chat", "user"]

DEFAULT_GAME_TTL: float = 48 * 3600.0
"""Seconds a game lives without a save before it counts as abandoned."""

ID_RE = re.compile(r"[A-Za-z0-9_.@+=-]{1,64}")
_NONCE_RE = re.compile(r"[0-9a-f]{1,32}")
_STATS_SCOPES = ("chat", "user")


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Base of every error a store raises on purpose."""


class StoreMisconfigured(StoreError):
    """A server answered, and is not what the configuration says it should be: a
    cluster node named by a plain URL, a replica, a server with no WAITAOF or no
    append-only file for ``redis.wait_aof``, the embedded one for ``redis.wait_replicas``.

    Why a kind of its own, with its words kept as a `Msg`: it is the operator's
    mistake, found at start-up, and said to them with the fix in their language
    (`store_failure_reason(exc, lang)`), as a mistake in config.yaml is; `str()`
    stays English (logs)."""

    def __init__(self, message: Msg) -> None:
        self.msg = message
        super().__init__(message.text())


class StoreUnavailable(StoreError):
    """The store cannot serve now: its server cannot be reached (down, timing
    out), or answered a refusal that passes (:class:`StoreRefusing`).

    Raised by every operation instead of the driver's own errors, so callers
    handle one type. After a failed *write* the outcome is unknown (the
    server may have applied it before the connection broke); a retried save
    is still safe, see :meth:`Store.save_game`.
    """


class StoreRefusing(StoreUnavailable):
    """The server answered, and refused for now: out of memory, a read-only
    replica, a cluster that is down or moving a slot, loading its data...

    A :class:`StoreUnavailable` (callers that only care "not now" catch
    that), told apart so nobody says "not reachable" of a server that
    answered: players get another text, logs and start-up errors say
    "refused".
    """


class StoreSlow(StoreUnavailable):
    """A save was sent and its answer did not come in time (a server paused,
    swapping, stuck on a slow disk): the server may still apply it when it
    catches up, once (a retry carries the same nonce, so it is not applied
    twice). Told apart so nobody is told "nothing was lost, try again" of a
    move that may count: they are told to look at the table first.
    """


class StoreUnconfirmed(StoreUnavailable):
    """The server applied a write, but fewer copies than the configuration asks
    for confirmed it in time (Redis ``WAIT`` / ``WAITAOF`` answered short).

    The write is *not* acknowledged: it sits on the primary and is very
    likely kept, but a failover to a replica that lacks it would drop it.
    A :class:`StoreUnavailable`, so every caller that refuses a move on an
    outage refuses this one too; told apart so the chat layer can say "not
    confirmed yet" (not "not saved") and later find out with
    :meth:`Store.confirm_save` whether it survived. ``receipt`` names the
    write (None when the write was not a game save: nothing to check).
    """

    def __init__(self, message: str, receipt: Receipt | None = None) -> None:
        super().__init__(message)
        self.receipt = receipt


class VersionConflict(StoreError):
    """A save named a version that is no longer the stored one.

    ``current`` is the game as stored when the save was refused (version
    ``actual``), when the store has it at no extra cost (both stores here
    do), else None. Why: the caller's next step is to recompute from the
    newer state, and handing it over saves a load round trip per conflict.
    """

    def __init__(
        self, game_id: str, expected: int, actual: int, *, current: StoredGame | None = None
    ) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, stored is {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        self.current = current


class GameNotFound(StoreError):
    """The game does not exist (never created, deleted, expired or quarantined)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class ChatBusy(StoreError):
    """``create_game`` found another game running in the chat (pass ``replace=True``)."""

    def __init__(self, chat_id: str, game_id: str) -> None:
        super().__init__(f"chat {chat_id} already runs game {game_id}")
        self.chat_id = chat_id
        self.game_id = game_id


class StoreDataError(StoreError):
    """A stored value could not be read: corrupt, foreign, or from a newer unobot.

    ``key`` names the value. ``quarantined_as`` is where a corrupt or foreign
    value was moved (kept for inspection, out of the way of play), or None
    when it was left in place: a value written by a newer store format is
    valid data that this build refuses to touch.
    """

    def __init__(self, key: str, reason: str, *, quarantined_as: str | None = None) -> None:
        where = f"; moved to {quarantined_as}" if quarantined_as else ""
        super().__init__(f"{key}: {reason}{where}")
        self.key = key
        self.reason = reason
        self.quarantined_as = quarantined_as


# --------------------------------------------------------------------------- ids


def norm_id(value: ChatId, what: str = "chat id") -> str:
    """Return the canonical string form of a chat or user id, or raise ValueError.

    Why so strict: ids go into key names (and a Redis hash tag), so braces,
    colons, spaces and the ``#`` that separates a game's nonce are refused.
    """
    text = str(value)
    if not ID_RE.fullmatch(text):
        raise ValueError(f"bad {what}: {value!r}")
    return text


def new_game_id(chat_id: ChatId) -> str:
    """A fresh game id for a game in ``chat_id``."""
    return f"{norm_id(chat_id)}#{secrets.token_hex(4)}"


def split_game_id(game_id: str) -> tuple[str, str]:
    """Return ``(chat id, nonce)`` of a game id, or raise ValueError."""
    chat, sep, nonce = str(game_id).rpartition("#")
    if not sep or not ID_RE.fullmatch(chat) or not _NONCE_RE.fullmatch(nonce):
        raise ValueError(f"bad game id: {game_id!r}")
    return chat, nonce


def check_scope(scope: str) -> None:
    """Refuse a stats scope other than ``chat`` or ``user``."""
    if scope not in _STATS_SCOPES:
        raise ValueError(f"stats scope must be one of {_STATS_SCOPES}, not {scope!r}")


def check_deltas(deltas: Mapping[str, int]) -> dict[str, int]:
    """Validate stats increments: non-empty field names, integer deltas."""
    out: dict[str, int] = {}
    for name, delta in deltas.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"bad stats field: {name!r}")
        if isinstance(delta, bool) or not isinstance(delta, int):
            raise ValueError(f"stats delta for {name!r} must be an int, not {delta!r}")
        out[name] = delta
    return out


def encode_setting(name: str, value: Any) -> str:
    """JSON text of one setting; refuses what JSON cannot carry (why: settings must survive a store)."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"bad setting name: {name!r}")
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"setting {name!r} is not JSON-able: {exc}") from exc


def check_delivery(key: str, owner: str | None = None) -> None:
    """Refuse a delivery key or owner a store could not hold as one name."""
    if not DELIVERY_RE.fullmatch(key):
        raise ValueError(f"bad delivery key: {key!r}")
    if owner is not None and (owner == DELIVERY_DONE or not DELIVERY_RE.fullmatch(owner)):
        raise ValueError(f"bad delivery owner: {owner!r}")


def check_expected_version(version: int) -> None:
    """Refuse a version no save can name (versions start at 1)."""
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"bad expected version: {version!r}")


MAX_LOG_ENTRY = 4096
"""Longest log entry, in characters. A move is ~15; the deal entry that opens
every log carries the player names, so it gets room for a full table of
long Telegram names."""


def check_log(entries: Iterable[str]) -> list[str]:
    """Validate move-log entries: one-line strings of at most :data:`MAX_LOG_ENTRY` characters."""
    out = list(entries)
    for entry in out:
        if not isinstance(entry, str) or "\n" in entry or len(entry) > MAX_LOG_ENTRY:
            raise ValueError(f"bad log entry: {entry!r}")
    return out


def setting_names(remove: Iterable[str]) -> list[str]:
    """Names to drop; a bare string is one name (not its letters)."""
    return [remove] if isinstance(remove, str) else [str(name) for name in remove]


DEFAULT_ARCHIVE_KEEP: float = 30 * 24 * 3600.0
"""Seconds a finished game is kept (config ``records.keep_days``)."""
DEFAULT_ARCHIVE_MAX = 200
"""Finished games kept per chat at most (config ``records.max_per_chat``)."""
MAX_RECORD = 512 * 1024
"""Longest archived record, in characters of JSON (a long match's log is ~30 KB)."""
DONE_TTL: float = 7 * 24 * 3600.0
"""Seconds a store remembers that a game was archived (so a repeat is a no-op),
even when it keeps no record: longer than any game lives unsaved."""
DONE_MAX = 1000
"""Archived games a chat remembers at most (the oldest forgotten first): a
repeat comes within a game's lifetime, and a chat runs one game at a time,
so this bounds the chat's memory by count as well as by time."""
DEFAULT_STANDINGS_MAX = 1000
"""People a chat's standings hold at most (config ``records.max_people_per_chat``):
the one who played least recently goes first, from every table."""
_PERIOD_RE = re.compile(r"[a-z0-9-]{1,16}")
DELIVERY_RE = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
"""A delivery's key (``telegram:<bot id>:<update id>``) and its owner's name."""
DeliveryClaim = Literal["mine", "busy", "done"]
DELIVERY_DONE = "done"
"""What a finished delivery's key holds (an owner is never named that)."""
_PLAYER_RE = re.compile(r"[A-Za-z0-9_.@+=:-]{1,64}")


@dataclass(frozen=True, slots=True)
class Standing:
    """What one finished match adds to one player's line in one period's standings.

    ``period`` names the table (``all``, ``w2026-49``, ``m2026-12``), ``ttl``
    is how long that table lives after its last change (None: forever): a
    week's table goes away by itself, so a chat's standings stay bounded.
    ``rating`` is the player's new rating after the match (``"mu,sigma"``),
    or ``""`` to leave it.
    """

    period: str
    ttl: float | None
    player: str
    name: str
    wins: int = 0
    games: int = 0
    points: int = 0
    rating: str = ""


def check_standings(standings: Iterable[Standing]) -> list[Standing]:
    """Refuse a standing a store cannot key or count."""
    out = list(standings)
    for item in out:
        if not _PERIOD_RE.fullmatch(item.period):
            raise ValueError(f"bad standings period: {item.period!r}")
        if not _PLAYER_RE.fullmatch(item.player):  # a person's id, or an AI seat's (``ai:1``)
            raise ValueError(f"bad player id: {item.player!r}")
        for value in (item.wins, item.games, item.points):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"standings counts must be ints: {item!r}")
        if "\n" in item.name or len(item.name) > 256 or "\n" in item.rating or len(item.rating) > 64:
            raise ValueError(f"bad standings name or rating: {item!r}")
    return out


def encode_record(game_id: str, chat: str, record: Mapping[str, Any]) -> str:
    """The JSON text of an archived game, checked (why: it must fit and survive a store)."""
    if split_game_id(game_id)[0] != chat:
        raise ValueError(f"game {game_id} does not belong to chat {chat}")
    try:
        text = json.dumps(dict(record), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"record of {game_id} is not JSON-able: {exc}") from exc
    if len(text) > MAX_RECORD:
        raise ValueError(f"record of {game_id} is too long ({len(text)} characters)")
    return text


def parse_standings(raw: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """A period's table from its stored fields (``g:P``, ``w:P``, ``p:P``, ``n:P``, ``r:P``)."""
    names = {"g": "games", "w": "wins", "p": "points", "n": "name", "r": "rating"}
    out: dict[str, dict[str, Any]] = {}
    for field_name, value in raw.items():
        kind, _, player = field_name.partition(":")
        if kind not in names or not player:
            continue
        line = out.setdefault(player, {"name": player, "games": 0, "wins": 0, "points": 0, "rating": ""})
        line[names[kind]] = value if kind in "nr" else int(value)
    return out


def log_range(start: int, stop: int | None) -> tuple[int, int] | None:
    """Translate a Python slice ``[start:stop]`` into an inclusive (LRANGE) pair.

    None means the slice is empty whatever the list holds.
    """
    if stop is None:
        return start, -1
    if stop == 0:
        return None
    return start, stop - 1


# --------------------------------------------------------------------------- interface


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as loaded: the engine's bytes and the version to save against."""

    game_id: str
    chat_id: str
    version: int
    state: bytes


def log_digest(entries: Iterable[str], start: str = "") -> str:
    """The digest of a move log: ``d = sha1hex(d + "\\n" + entry)`` over the entries, from ``""``.

    Why a chain: a store can keep it up to date with one hash per new entry
    (the Redis save script does, with ``redis.sha1hex``), and two logs with
    the same digest at the same length hold the same moves, so a receipt
    (version, log length, digest) tells a kept move from one replaced by
    another history after a failover.
    """
    digest = start
    for entry in entries:
        digest = hashlib.sha1(f"{digest}\n{entry}".encode()).hexdigest()
    return digest


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a save was: the game, the version it made, the game's log length
    after it and the log's digest up to there (:func:`log_digest`).

    Handed out with :class:`StoreUnconfirmed` (to check later whether the
    save survived) and kept as a game's acknowledgement record by stores
    that replicate (what ``unobot audit`` compares the log with).
    """

    game_id: str
    version: int
    log_length: int
    digest: str


def acknowledgement_problem(receipt: Receipt | None, version: int, log: Sequence[str]) -> str:
    """Why a game's stored log breaks its acknowledgement record, or ``""``.

    A record names the last save a player was told was kept; the stored game
    must be at least that far, with the same log up to there. When it is
    not, a failover lost acknowledged moves (the log ends too early) or
    replaced them with others (the digest differs): a game can replay
    cleanly and still have lost moves, which only this comparison shows.
    In English (logs, the store's simulation); `acknowledgement_lapse` is the
    same for a reader in their language (`unobot audit`).
    """
    lapse = acknowledgement_lapse(receipt, version, log)
    return lapse.text() if lapse is not None else ""


def acknowledgement_lapse(receipt: Receipt | None, version: int, log: Sequence[str]) -> Msg | None:
    """`acknowledgement_problem` as a text for its reader, or None when there is none."""
    if receipt is None:
        return None
    if version < receipt.version or len(log) < receipt.log_length:
        return Msg(N_("acknowledged moves lost: version {acknowledged} ({entries} log entries) was "
                      "acknowledged, the store holds version {version} with {held}"),
                   acknowledged=receipt.version, entries=receipt.log_length, version=version, held=len(log))
    if log_digest(log[:receipt.log_length]) != receipt.digest:
        return Msg(N_("acknowledged moves replaced: the first {entries} log entries are not the ones "
                      "acknowledged at version {acknowledged}"),
                   entries=receipt.log_length, acknowledged=receipt.version)
    return None


class Store(abc.ABC):
    """What every game store offers; all methods are coroutines.

    ``game_ttl`` (seconds, None for never) is read on every create and save,
    so it may be changed on a live store.
    """

    game_ttl: float | None

    # ---- games

    @abc.abstractmethod
    async def load_game(self, game_id: str) -> StoredGame | None:
        """The game and its version, or None when there is no such game."""

    @abc.abstractmethod
    async def create_game(
        self,
        chat_id: ChatId,
        state: bytes,
        *,
        replace: bool = False,
        log: Sequence[str] = (),
    ) -> tuple[str, int]:
        """Store a new game at version 1 and bind the chat to it, atomically.

        Raises :class:`ChatBusy` when the chat already runs a game, unless
        ``replace`` (then the old game is unbound and left to expire).
        Returns ``(game_id, 1)``.
        """

    @abc.abstractmethod
    async def save_game(
        self,
        game_id: str,
        state: bytes,
        *,
        expected_version: int,
        log: Sequence[str] = (),
    ) -> int:
        """Replace the state if it is still at ``expected_version``; return the new version.

        The state write, the log append and the expiry refresh happen
        together or not at all. Raises :class:`VersionConflict` when another
        save got there first (with the stored game as ``current``, so the
        caller can recompute without loading), :class:`GameNotFound` when
        the game is gone.

        A network store must make a save that its driver re-sends after a
        lost reply succeed without applying twice (the Redis store tags each
        attempt with a nonce); two *different* saves from the same version
        always conflict, even when they carry equal bytes.
        """

    @abc.abstractmethod
    async def delete_game(self, game_id: str) -> bool:
        """Remove a game and its log; unbind its chat if bound to it. True if it existed."""

    @abc.abstractmethod
    async def read_log(self, game_id: str, start: int = 0, stop: int | None = None) -> list[str]:
        """The game's move log, sliced like a Python list (``[]`` for an unknown game)."""

    @abc.abstractmethod
    async def game_expires_in(self, game_id: str) -> float | None:
        """Seconds until the game expires (None: never). Raises :class:`GameNotFound`."""

    async def confirm_save(self, receipt: Receipt) -> bool:
        """Whether the save ``receipt`` names is in the game's history now.

        True: the log holds exactly what it held right after that save (same
        length-prefix digest), and, on a store that waits for copies, that
        many copies now have it. False: the game is gone or its log went
        another way (the save was lost in a failover; nothing of it counts).
        Raises :class:`StoreUnconfirmed` when the save is there but still
        not confirmed, :class:`StoreUnavailable` when the store cannot say.
        This default reads the log; a replicating store also waits for its
        copies.
        """
        if await self.load_game(receipt.game_id) is None:
            return False
        log = await self.read_log(receipt.game_id, 0, receipt.log_length)
        return len(log) == receipt.log_length and log_digest(log) == receipt.digest

    @property
    def confirms_copies(self) -> bool:
        """True when a save counts only once copies have it (``redis.wait_replicas``,
        ``wait_aof``): a reader may then load another process's save that is on
        the primary but not confirmed yet (:meth:`confirm_stored`)."""
        return False

    async def confirm_stored(self, game_id: str, version: int | None = None) -> bool:
        """Whether the game as the store holds it now (every save to it so far,
        by any process) is confirmed as a save of this process would be.

        Why a reader needs it: a save not confirmed yet (:class:`StoreUnconfirmed`)
        is on the primary, so any process loads it, and one that shows it as
        made shows what a failover may still drop; its writer is the only one
        that knows, and says "not confirmed yet" only in its own chat. True:
        as many copies have everything saved before this call (a barrier: on
        Redis a write and ``WAIT`` after it, which counts what came before in
        the replication stream) and what the reader loaded before calling may
        be shown as made. False: the game is gone. Raises
        :class:`StoreUnconfirmed` or :class:`StoreUnavailable`; the former
        carries the receipt of the save at ``version`` (the one the reader
        loaded), to settle with :meth:`confirm_save` as the writer would, when
        the game is still at it (else none: the reader loads again). A store
        that does not wait for copies has nothing to wait for: True.
        """
        if not self.confirms_copies:
            return True
        stored = await self.load_game(game_id)
        if stored is None:
            return False
        log = await self.read_log(game_id)
        # (this default reads the whole log; a replicating store answers in one round trip)
        receipt = Receipt(game_id, stored.version, len(log), log_digest(log))
        try:
            return await self.confirm_save(receipt)
        except StoreUnconfirmed as exc:
            raise StoreUnconfirmed(str(exc), receipt if stored.version == version else None) from exc

    async def acknowledgement(self, game_id: str) -> Receipt | None:
        """The last acknowledged save of a game the store keeps a record of
        elsewhere than the game itself (None: no record; a store without
        replicas keeps none, having no failover to lose a save in)."""
        return None

    # ---- chat binding

    @abc.abstractmethod
    async def chat_game(self, chat_id: ChatId) -> str | None:
        """The id of the game running in the chat, or None.

        The id may name a game that expired a moment ago; ``load_game``
        then returns None.
        """

    @abc.abstractmethod
    async def bind_chat(self, chat_id: ChatId, game_id: str) -> None:
        """Make ``game_id`` (a game of this chat) the chat's running game.

        Raises :class:`GameNotFound` if the game does not exist, ValueError
        if the game belongs to another chat.
        """

    @abc.abstractmethod
    async def unbind_chat(self, chat_id: ChatId, game_id: str | None = None) -> bool:
        """Clear the chat's binding (only if it names ``game_id``, when given). True if cleared."""

    @abc.abstractmethod
    def bound_chats(self, prefix: str = "") -> AsyncIterator[str]:
        """Every chat bound to a game, in no order (a game may have expired a moment ago);
        with `prefix`, only the chats whose id starts with it.

        Why: a bot process that starts re-plans the timers of the games
        already running (turn timers, AI pauses, lobby expiry), and a
        settings change finds the lobbies that follow it (a forum's topics:
        their ids start with the group's). A chat bound or unbound during
        the walk may or may not be seen.
        """

    # ---- settings

    @abc.abstractmethod
    async def get_chat_settings(self, chat_id: ChatId) -> dict[str, Any]:
        """The chat's settings (variant, house-rule options, language, timers...); ``{}`` if none."""

    @abc.abstractmethod
    async def update_chat_settings(
        self,
        chat_id: ChatId,
        changes: Mapping[str, Any] | None = None,
        *,
        remove: Iterable[str] = (),
    ) -> dict[str, Any]:
        """Set the top-level keys in ``changes``, drop those in ``remove``; return the result.

        Atomic, and per key: two admins changing different keys at once
        both win. Values must be JSON-able.
        """

    async def swap_chat_setting(self, chat_id: ChatId, name: str, expected: Any, value: Any) -> bool:
        """Compare-and-set one setting: ``name`` becomes ``value`` (None: it is
        removed) only while it holds ``expected`` (None: while it is absent),
        compared as the JSON text `encode_setting` writes. True when it was set.

        Why beside `update_chat_settings`, which writes whatever was there: a
        setting that says who holds something (the console's claim on its
        table) is taken by the first of two writers, not the last; read,
        decide, then swap, and read again when the swap is refused.
        Atomic: of two swaps from one expected value, one wins.
        """
        raise NotImplementedError

    @abc.abstractmethod
    async def clear_chat_settings(self, chat_id: ChatId) -> None:
        """Forget all of the chat's settings."""

    # ---- stats

    @abc.abstractmethod
    async def incr_stats(
        self, scope: StatsScope, owner_id: ChatId, deltas: Mapping[str, int]
    ) -> dict[str, int]:
        """Add ``deltas`` to the owner's counters, all or none; return the new values."""

    @abc.abstractmethod
    async def get_stats(self, scope: StatsScope, owner_id: ChatId) -> dict[str, int]:
        """All counters of a chat (``scope="chat"``) or user (``"user"``)."""

    # ---- finished games and standings (see core/chat/records.py)

    archive_keep: float | None = DEFAULT_ARCHIVE_KEEP
    """Seconds a finished game is kept (None: forever, 0: not at all)."""
    archive_max: int = DEFAULT_ARCHIVE_MAX
    """Finished games kept per chat; the oldest go first."""
    standings_max: int = DEFAULT_STANDINGS_MAX
    """People in a chat's standings at most; the one who played least recently goes first."""

    async def archive_game(self, chat_id: ChatId, game_id: str, record: Mapping[str, Any],
                           standings: Sequence[Standing] = ()) -> bool:
        """Keep a finished game's record and add its standings, atomically, once.

        Keyed by ``game_id``: a second call for the same game (another
        process ended it too, a retry after a lost reply) changes nothing
        and returns False. The record is kept for ``archive_keep`` seconds,
        at most ``archive_max`` per chat (the oldest dropped); the
        standings are counted even when no record is kept, and hold at
        most ``standings_max`` people per chat (whoever played least
        recently is dropped from every table), so a chat's memory is
        bounded whatever it plays.
        """
        raise NotImplementedError

    async def archived(self, chat_id: ChatId, limit: int = 10) -> list[dict[str, Any]]:
        """The chat's kept games, newest first, at most ``limit``."""
        raise NotImplementedError

    def archive_chats(self) -> AsyncIterator[str]:
        """Every chat with kept games, in no order (what ``unobot audit`` walks)."""
        raise NotImplementedError

    async def archived_game(self, chat_id: ChatId, game_id: str) -> dict[str, Any] | None:
        """One kept game's record, or None (never kept, expired or dropped)."""
        raise NotImplementedError

    async def replace_archived(self, chat_id: ChatId, game_id: str, record: Mapping[str, Any]) -> bool:
        """Rewrite a kept record (its expiry unchanged; a person's name
        removed, say). False when it is no longer kept."""
        raise NotImplementedError

    async def standings(self, chat_id: ChatId, period: str) -> dict[str, dict[str, Any]]:
        """A period's table of a chat: player id -> name, games, wins, points, rating."""
        raise NotImplementedError

    async def forget_standings(self, chat_id: ChatId, player_id: str | None = None) -> None:
        """Remove one player's lines from every period of the chat (None: every player's)."""
        raise NotImplementedError

    async def player_chats(self, player_id: str) -> list[str]:
        """The chats whose standings or kept games may name the player (what a
        player's own record spans, and what `/forgetme` clears). A chat stays
        listed when the player leaves its standings (its bound, an admin's
        reset): its kept games still name them. Only `forget_player_chats`
        (after a forget) empties it."""
        raise NotImplementedError

    async def forget_player_chats(self, player_id: str) -> None:
        """Drop the index :meth:`player_chats` reads."""
        raise NotImplementedError

    async def move_records(self, old_chat: ChatId, new_chat: ChatId) -> None:
        """A chat's players' records follow it to its new id (Telegram gives
        a group that becomes a supergroup a new one): the kept games (their
        ids renamed into the new chat, their expiry unchanged), every
        period's standings with the ratings, and who played there (each
        person's :meth:`player_chats`). Safe to repeat after a failure
        halfway: what the new id already holds is not copied again, and what
        moved leaves the old id."""
        raise NotImplementedError

    # ---- deliveries (core/delivery.py: an update handled once, whichever process gets it)

    async def claim_delivery(self, key: str, owner: str, lease: float) -> DeliveryClaim:
        """Claim the handling of delivery ``key`` for ``owner`` for ``lease`` seconds.

        ``"mine"``: nobody held it (or its holder's lease ran out: the holder
        died), or ``owner`` holds it already (the lease is renewed): handle it,
        then :meth:`finish_delivery` or :meth:`release_delivery`.
        ``"busy"``: another owner holds it now. ``"done"``: it was handled.
        Atomic: of two owners claiming at once, one gets ``"mine"``.
        """
        raise NotImplementedError

    async def finish_delivery(self, key: str, keep: float) -> None:
        """Remember for ``keep`` seconds that ``key`` was handled (claims answer ``"done"``)."""
        raise NotImplementedError

    async def release_delivery(self, key: str, owner: str) -> None:
        """Let go of ``owner``'s claim without marking it handled (the handler
        failed): the next delivery of ``key`` is handled. Nothing when another
        owner holds it or it is done."""
        raise NotImplementedError

    # ---- changes

    def changes(self) -> ChangeFeed | None:
        """Where this store tells every saved change of a chat's game, to
        this process or to all that share it (``core/changes.py``); None for a
        store that cannot tell (its followers then look at the store now and
        then instead)."""
        return None

    # ---- lifecycle

    async def ping(self) -> None:  # noqa: B027 - a no-op default is the point
        """Raise :class:`StoreUnavailable` unless the store answers."""

    async def close(self) -> None:  # noqa: B027 - a no-op default is the point
        """Release connections (and stop a server the store started)."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


# --------------------------------------------------------------------------- memory


@dataclass(slots=True)
class _MemGame:
    chat_id: str
    version: int
    state: bytes
    expires_at: float | None
    log: list[str] = field(default_factory=list)


class MemoryStore(Store):
    """A store in this process's memory: for quick local play and unit tests.

    Each method runs without awaiting in between, so on one event loop every
    operation is atomic, as the contract requires. Nothing survives the
    process. ``clock`` (monotonic seconds) is injectable so expiry can be
    tested without waiting.
    """

    def __init__(
        self,
        *,
        game_ttl: float | None = DEFAULT_GAME_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.game_ttl = game_ttl
        self._clock = clock
        self._games: dict[str, _MemGame] = {}
        self._bindings: dict[str, str] = {}
        self._settings: dict[str, dict[str, str]] = {}
        self._stats: dict[tuple[str, str], dict[str, int]] = {}
        # chat -> game id -> (ended order, expires at, JSON): insertion order is age
        self._archive: dict[str, dict[str, tuple[float | None, str]]] = {}
        self._done: dict[str, dict[str, float]] = {}  # chat -> game id -> forgotten at
        self._tables: dict[tuple[str, str], tuple[float | None, dict[str, str]]] = {}
        self._player_chats: dict[str, set[str]] = {}
        self._seen: dict[str, dict[str, float]] = {}  # chat -> player -> last match (least recent first)
        self._deliveries: dict[str, tuple[str, float]] = {}  # key -> (owner or "done", until)
        self._feed = LocalFeed()

    # ---- helpers

    def _expiry(self) -> float | None:
        return None if self.game_ttl is None else self._clock() + self.game_ttl

    def _game(self, game_id: str) -> _MemGame | None:
        split_game_id(game_id)
        game = self._games.get(game_id)
        if game is not None and game.expires_at is not None and game.expires_at <= self._clock():
            del self._games[game_id]
            if self._bindings.get(game.chat_id) == game_id:
                del self._bindings[game.chat_id]
            return None
        return game

    # ---- games

    async def load_game(self, game_id: str) -> StoredGame | None:
        game = self._game(game_id)
        if game is None:
            return None
        return StoredGame(game_id, game.chat_id, game.version, game.state)

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
        current = self._bindings.get(chat)
        if current is not None and not replace and self._game(current) is not None:
            raise ChatBusy(chat, current)
        game_id = new_game_id(chat)
        while game_id in self._games:
            game_id = new_game_id(chat)
        self._games[game_id] = _MemGame(chat, 1, bytes(state), self._expiry(), entries)
        self._bindings[chat] = game_id
        self._feed.announce(chat, game_id, 1)
        return game_id, 1

    async def save_game(
        self,
        game_id: str,
        state: bytes,
        *,
        expected_version: int,
        log: Sequence[str] = (),
    ) -> int:
        check_expected_version(expected_version)
        entries = check_log(log)
        game = self._game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        if game.version != expected_version:
            current = StoredGame(game_id, game.chat_id, game.version, game.state)
            raise VersionConflict(game_id, expected_version, game.version, current=current)
        game.version += 1
        game.state = bytes(state)
        game.log.extend(entries)
        game.expires_at = self._expiry()
        self._feed.announce(game.chat_id, game_id, game.version)
        return game.version

    async def delete_game(self, game_id: str) -> bool:
        game = self._game(game_id)
        if game is None:
            return False
        del self._games[game_id]
        if self._bindings.get(game.chat_id) == game_id:
            del self._bindings[game.chat_id]
        self._feed.announce(game.chat_id, game_id, 0)
        return True

    async def read_log(self, game_id: str, start: int = 0, stop: int | None = None) -> list[str]:
        game = self._game(game_id)
        return [] if game is None else game.log[start:stop]

    async def game_expires_in(self, game_id: str) -> float | None:
        game = self._game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        return None if game.expires_at is None else max(0.0, game.expires_at - self._clock())

    # ---- chat binding

    async def chat_game(self, chat_id: ChatId) -> str | None:
        chat = norm_id(chat_id)
        game_id = self._bindings.get(chat)
        if game_id is not None and self._game(game_id) is None:
            return None
        return game_id

    async def bind_chat(self, chat_id: ChatId, game_id: str) -> None:
        chat = norm_id(chat_id)
        if split_game_id(game_id)[0] != chat:
            raise ValueError(f"game {game_id} does not belong to chat {chat}")
        game = self._game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        self._bindings[chat] = game_id
        self._feed.announce(chat, game_id, game.version)

    async def unbind_chat(self, chat_id: ChatId, game_id: str | None = None) -> bool:
        chat = norm_id(chat_id)
        current = self._bindings.get(chat)
        if current is None or (game_id is not None and current != game_id):
            return False
        del self._bindings[chat]
        self._feed.announce(chat, current, 0)
        return True

    def _delivery(self, key: str) -> str | None:
        """Who holds ``key`` now (an owner, "done", or None); expired entries leave."""
        now = self._clock()
        while self._deliveries:  # oldest first: entries written long ago leave on their own
            first, (_, until) = next(iter(self._deliveries.items()))
            if until > now:
                break
            del self._deliveries[first]
        held = self._deliveries.get(key)
        if held is None or held[1] <= now:
            self._deliveries.pop(key, None)
            return None
        return held[0]

    def _hold(self, key: str, value: str, seconds: float) -> None:
        self._deliveries.pop(key, None)  # to the end: the dict stays in order of writing
        self._deliveries[key] = (value, self._clock() + seconds)

    async def claim_delivery(self, key: str, owner: str, lease: float) -> DeliveryClaim:
        check_delivery(key, owner)
        holder = self._delivery(key)
        if holder == DELIVERY_DONE:
            return "done"
        if holder is not None and holder != owner:
            return "busy"
        self._hold(key, owner, lease)
        return "mine"

    async def finish_delivery(self, key: str, keep: float) -> None:
        check_delivery(key)
        self._hold(key, DELIVERY_DONE, keep)

    async def release_delivery(self, key: str, owner: str) -> None:
        check_delivery(key, owner)
        if self._delivery(key) == owner:
            del self._deliveries[key]

    def changes(self) -> ChangeFeed:
        """This process's changes (nothing else shares a memory store)."""
        return self._feed

    async def close(self) -> None:
        """Nothing to release; whoever follows its changes stops."""
        self._feed.close()

    async def bound_chats(self, prefix: str = "") -> AsyncIterator[str]:
        for chat, game_id in list(self._bindings.items()):
            if chat.startswith(prefix) and self._game(game_id) is not None:
                yield chat

    # ---- settings

    async def get_chat_settings(self, chat_id: ChatId) -> dict[str, Any]:
        raw = self._settings.get(norm_id(chat_id), {})
        return {name: json.loads(text) for name, text in raw.items()}

    async def update_chat_settings(
        self,
        chat_id: ChatId,
        changes: Mapping[str, Any] | None = None,
        *,
        remove: Iterable[str] = (),
    ) -> dict[str, Any]:
        chat = norm_id(chat_id)
        encoded = {name: encode_setting(name, value) for name, value in (changes or {}).items()}
        current = self._settings.setdefault(chat, {})
        current.update(encoded)
        for name in setting_names(remove):
            current.pop(name, None)
        if not current:
            del self._settings[chat]
        return await self.get_chat_settings(chat)

    async def swap_chat_setting(self, chat_id: ChatId, name: str, expected: Any, value: Any) -> bool:
        chat = norm_id(chat_id)
        held = self._settings.get(chat, {}).get(setting_names((name,))[0])
        if held != (None if expected is None else encode_setting(name, expected)):
            return False
        if value is None:
            await self.update_chat_settings(chat, remove=(name,))
        else:
            await self.update_chat_settings(chat, {name: value})
        return True

    async def clear_chat_settings(self, chat_id: ChatId) -> None:
        self._settings.pop(norm_id(chat_id), None)

    # ---- stats

    async def incr_stats(
        self, scope: StatsScope, owner_id: ChatId, deltas: Mapping[str, int]
    ) -> dict[str, int]:
        check_scope(scope)
        clean = check_deltas(deltas)
        counters = self._stats.setdefault((scope, norm_id(owner_id, f"{scope} id")), {})
        for name, delta in clean.items():
            counters[name] = counters.get(name, 0) + delta
        return {name: counters[name] for name in clean}

    async def get_stats(self, scope: StatsScope, owner_id: ChatId) -> dict[str, int]:
        check_scope(scope)
        return dict(self._stats.get((scope, norm_id(owner_id, f"{scope} id")), {}))

    # ---- finished games and standings

    def _kept(self, chat: str) -> dict[str, tuple[float | None, str]]:
        now = self._clock()
        games = self._archive.get(chat, {})
        for game_id in [g for g, (at, _) in games.items() if at is not None and at <= now]:
            del games[game_id]
        return games

    def _table(self, chat: str, period: str) -> dict[str, str]:
        held = self._tables.get((chat, period))
        if held is None or (held[0] is not None and held[0] <= self._clock()):
            self._tables.pop((chat, period), None)
            return {}
        return held[1]

    async def archive_game(self, chat_id: ChatId, game_id: str, record: Mapping[str, Any],
                           standings: Sequence[Standing] = ()) -> bool:
        chat = norm_id(chat_id)
        text = encode_record(game_id, chat, record)
        items = check_standings(standings)
        now = self._clock()
        done = self._done.setdefault(chat, {})
        for old in [g for g, at in done.items() if at <= now]:
            del done[old]
        games = self._kept(chat)
        if game_id in done or game_id in games:
            return False
        done[game_id] = now + max(DONE_TTL, self.game_ttl or 0.0)
        while len(done) > DONE_MAX:
            del done[next(iter(done))]
        if self.archive_keep is None or self.archive_keep > 0:
            expires = None if self.archive_keep is None else now + self.archive_keep
            games[game_id] = (expires, text)
            while len(games) > max(0, self.archive_max):
                del games[next(iter(games))]
            self._archive[chat] = games
        for item in items:
            fields = dict(self._table(chat, item.period))
            for kind, delta in (("g", item.games), ("w", item.wins), ("p", item.points)):
                key = f"{kind}:{item.player}"
                fields[key] = str(int(fields.get(key, "0")) + delta)
            fields[f"n:{item.player}"] = item.name
            if item.rating:
                fields[f"r:{item.player}"] = item.rating
            self._tables[(chat, item.period)] = (None if item.ttl is None else now + item.ttl, fields)
            self._player_chats.setdefault(item.player, set()).add(chat)
        seen = self._seen.setdefault(chat, {})
        for player in dict.fromkeys(item.player for item in items):
            seen.pop(player, None)
            seen[player] = now  # (in the order they last played: the least recent first)
        while len(seen) > max(1, self.standings_max):
            await self.forget_standings(chat, next(iter(seen)))
        return True

    async def archived(self, chat_id: ChatId, limit: int = 10) -> list[dict[str, Any]]:
        games = self._kept(norm_id(chat_id))
        texts = [text for _, text in games.values()][::-1][:max(0, limit)]
        return [json.loads(text) for text in texts]

    async def archive_chats(self) -> AsyncIterator[str]:
        for chat in list(self._archive):
            if self._kept(chat):
                yield chat

    async def archived_game(self, chat_id: ChatId, game_id: str) -> dict[str, Any] | None:
        held = self._kept(norm_id(chat_id)).get(game_id)
        return None if held is None else dict(json.loads(held[1]))

    async def replace_archived(self, chat_id: ChatId, game_id: str, record: Mapping[str, Any]) -> bool:
        chat = norm_id(chat_id)
        text = encode_record(game_id, chat, record)
        games = self._kept(chat)
        if game_id not in games:
            return False
        games[game_id] = (games[game_id][0], text)
        return True

    async def standings(self, chat_id: ChatId, period: str) -> dict[str, dict[str, Any]]:
        return parse_standings(self._table(norm_id(chat_id), period))

    async def forget_standings(self, chat_id: ChatId, player_id: str | None = None) -> None:
        chat = norm_id(chat_id)
        for key in [k for k in self._tables if k[0] == chat]:
            expires, fields = self._tables[key]
            if player_id is None:
                del self._tables[key]
                continue
            kept = {f: v for f, v in fields.items() if f.partition(":")[2] != player_id}
            self._tables[key] = (expires, kept)
        # the index (`player_chats`) stays: the chat's kept games may still name them
        if player_id is None:
            self._seen.pop(chat, None)
        else:
            self._seen.get(chat, {}).pop(player_id, None)

    async def player_chats(self, player_id: str) -> list[str]:
        return sorted(self._player_chats.get(player_id, set()))

    async def move_records(self, old_chat: ChatId, new_chat: ChatId) -> None:
        old, new = norm_id(old_chat), norm_id(new_chat)
        if old == new:
            return
        into = self._kept(new)
        moved: dict[str, tuple[float | None, str]] = {}
        for game_id, (expires, text) in self._kept(old).items():
            renamed = f"{new}#{split_game_id(game_id)[1]}"
            if renamed not in into:
                record = dict(json.loads(text), game_id=renamed, chat=new)
                moved[renamed] = (expires, encode_record(renamed, new, record))
        games = {**moved, **into}  # the old chat's games are the older ones
        while len(games) > max(0, self.archive_max):
            del games[next(iter(games))]
        if games:
            self._archive[new] = games
        self._archive.pop(old, None)
        for key in [k for k in self._tables if k[0] == old]:
            held = self._tables.pop(key)
            if not self._table(new, key[1]):
                self._tables[(new, key[1])] = held
        for chats in self._player_chats.values():
            if old in chats:
                chats.discard(old)
                chats.add(new)
        seen = self._seen.pop(old, {})
        self._seen[new] = {**seen, **self._seen.get(new, {})}

    async def forget_player_chats(self, player_id: str) -> None:
        self._player_chats.pop(player_id, None)
